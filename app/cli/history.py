"""Commands on a ladder's history: ``ratings recompute``, ``ratings import`` (JSON Lines or
CSV, validated in full before anything is applied) and ``ratings export`` (JSON Lines)."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.common import open_database, refusals_exit_2
from app.core.settings import get_settings

if TYPE_CHECKING:
    import argparse

    from app.cli.common import Commands


def register(commands: Commands) -> None:
    again = commands.add_parser("recompute", help="recompute a ladder from its history")
    again.add_argument("ladder")
    again.add_argument("--from", dest="start", help="RFC 3339 time; default: from scratch")
    again.set_defaults(run=refusals_exit_2(recompute_command))
    load = commands.add_parser("import", help="import games and tournaments (JSON Lines or CSV)")
    load.add_argument("file", type=Path)
    load.add_argument("--ladder", required=True)
    load.add_argument("--format", choices=("jsonl", "csv"), help="default: by file extension")
    load.add_argument("--skip-invalid", action="store_true", help="import the valid lines")
    load.add_argument("--chunk", type=int, default=20_000, help="events per transaction")
    load.add_argument(
        "--system",
        help="create the ladder with this system if it does not exist (for files without a "
        "header line, such as CSV)",
    )
    load.add_argument(
        "--update",
        action="store_true",
        help="a line whose id is stored with a different body corrects it (as PUT does)",
    )
    load.set_defaults(run=refusals_exit_2(import_command))
    dump = commands.add_parser("export", help="export a ladder's history as JSON Lines")
    dump.add_argument("--ladder", required=True)
    dump.add_argument("--output", type=Path, help="default: standard output")
    dump.set_defaults(run=refusals_exit_2(export_command))


def recompute_command(args: argparse.Namespace) -> int:
    return recompute(args.ladder, args.start)


def import_command(args: argparse.Namespace) -> int:
    return import_file(
        args.file, args.ladder, args.format, args.skip_invalid, args.chunk, args.update, args.system
    )


def export_command(args: argparse.Namespace) -> int:
    return export_file(args.ladder, args.output)


def recompute(ladder_id: str, start: str | None) -> int:
    """``ratings recompute``: 0, or 2 with the reason on stderr (an unknown ladder, a bad
    ``--from``)."""
    from app.core.errors import DomainError
    from app.services.admin import recompute_ladder

    since: datetime | None = None
    if start:
        try:
            since = datetime.fromisoformat(start.replace("Z", "+00:00"))
        except ValueError:
            since = None
        if since is None or since.tzinfo is None:
            message = f"error: --from {start!r} is not an RFC 3339 time with an offset"
            print(message, file=sys.stderr)
            return 2
    database = open_database()
    try:
        events, players = recompute_ladder(database, ladder_id, since)
    except DomainError as exc:
        print(f"error: {exc.detail}", file=sys.stderr)
        return 2
    finally:
        database.dispose()
    print(f"recomputed {events} events, {players} ratings in ladder {ladder_id}")
    return 0


def import_file(
    path: Path,
    ladder_id: str,
    fmt: str | None,
    skip_invalid: bool,
    chunk: int,
    update: bool = False,
    system: str | None = None,
) -> int:
    """``ratings import``: validate every line, report the bad ones, apply in time order.
    ``update``: a line whose id is stored with a different body corrects it (as PUT does).
    ``system``: the system of a ladder to create, for a file without a header (CSV)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from app.core.errors import DomainError
    from app.services import bulk, import_files

    console = Console(stderr=True)
    fmt = fmt or ("csv" if path.suffix.lower() == ".csv" else "jsonl")
    database = open_database()
    try:
        try:
            # utf-8-sig: a byte-order mark, as spreadsheets save CSV, is not part of the data.
            with path.open(encoding="utf-8-sig", newline="") as stream:
                parsed = import_files.read(stream, fmt)
        except (OSError, UnicodeDecodeError) as exc:
            console.print(f"[red]error:[/red] cannot read {path}: {exc}")
            return 2
        if parsed.header is None and system is not None:
            # A CSV file has no header line: --system stands for one (default parameters).
            parsed.header = {"id": ladder_id, "system": system}
        try:
            tolerance = get_settings().future_tolerance_seconds
            items, errors = bulk.to_items(database, ladder_id, parsed, tolerance, update=update)
        except DomainError as exc:
            console.print(f"[red]error:[/red] {exc.detail}")
            return 2
        profiles, profile_errors = bulk.to_profiles(parsed)
        errors = sorted([*errors, *profile_errors], key=lambda e: e.line)
        for error in errors:
            console.print(f"[red]line {error.line}:[/red] {error.message}")
        if errors and not skip_invalid:
            console.print(
                f"{len(errors)} invalid line(s); nothing was imported "
                "(fix them, or pass --skip-invalid to import the rest)"
            )
            return 1
        if not items and not profiles:
            console.print(f"nothing to import into ladder {ladder_id}; nothing was changed")
            return 1 if errors else 0
        if not items:
            count = bulk.apply_profiles(database, ladder_id, profiles, parsed.header)
            console.print(f"imported {count} profile(s); no game or tournament")
            return 0
        bulk.ensure_ladder(database, ladder_id, parsed.header)
        events = [item for _, item in items]
        corrected = 0
        if update:
            corrections, events = bulk.split_corrections(database, ladder_id, events)
            try:
                corrected = bulk.apply_corrections(database, ladder_id, corrections)
            except DomainError as exc:
                console.print(f"[red]error:[/red] {exc.detail}; nothing else was imported")
                return 1
        with Progress(
            TextColumn("importing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} events/s"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
        ) as progress:
            task = progress.add_task("import", total=len(events), rate="-")

            def advance(count: int) -> None:
                progress.advance(task, count)
                speed = progress.tasks[0].speed
                progress.update(task, rate=f"{speed:,.0f}" if speed else "-")

            try:
                created, existing = bulk.apply_in_chunks(database, events, chunk, advance)
            except DomainError as exc:
                done = int(progress.tasks[0].completed)
                console.print(
                    f"[red]error:[/red] {exc.detail} ({done} event(s) of earlier chunks "
                    "were committed; importing the file again skips them)"
                )
                return 1
        count = bulk.apply_profiles(database, ladder_id, profiles)
        if update:
            console.print(
                f"{corrected} corrected, {existing} unchanged, {created} new, "
                f"{len(errors)} skipped, in ladder {ladder_id}"
                + (f"; {count} profile(s)" if count else "")
            )
            return 0
        console.print(
            f"imported {created} new event(s), {existing} already present, "
            f"{len(errors)} skipped, into ladder {ladder_id}"
            + (f"; {count} profile(s)" if count else "")
        )
        return 0
    finally:
        database.dispose()


def export_file(ladder_id: str, output: Path | None) -> int:
    from app.services import bulk

    database = open_database()
    try:
        if not bulk.ladder_exists(database, ladder_id):
            print(f"error: ladder {ladder_id!r} does not exist", file=sys.stderr)
            return 2
        if output is None:
            count = bulk.write_export(database, ladder_id, sys.stdout)
        else:
            with output.open("w", encoding="utf-8") as stream:
                count = bulk.write_export(database, ladder_id, stream)
        print(f"exported {count} event(s) of ladder {ladder_id}", file=sys.stderr)
        return 0
    finally:
        database.dispose()
