"""The ``ratings`` command: serve, migrate, openapi, recompute, import, export, evaluate, tune."""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from app.core.settings import Settings, get_settings

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: The ASGI application factory granian serves.
APP = "app.cli:served_app"
#: Proxies whose X-Forwarded-For names the client (comma-separated addresses or networks,
#: or "*"): uvicorn's variable and default, kept for the deployments that set it.
FORWARDED_ALLOW_IPS = "FORWARDED_ALLOW_IPS"

if TYPE_CHECKING:
    from app.core.database import Database

#: What a replaying command computes (an evaluation, a tuning).
ResultT = TypeVar("ResultT")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"
#: Bytes of randomness in a generated admin token.
ADMIN_TOKEN_BYTES = 32
#: Where a generated admin token is shown: the controlling terminal, whatever stderr is.
TERMINAL = Path("/dev/tty")
#: granian's own lines as JSON on stderr, like every other line of the service.
GRANIAN_LOGGING: dict[str, Any] = {
    "formatters": {"json": {"()": "app.core.logging.JsonFormatter"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        }
    },
    "loggers": {"_granian": {"handlers": ["stderr"], "propagate": False}},
}

log = logging.getLogger("ratings.cli")


@dataclass(frozen=True, slots=True)
class Migrated:
    """What a migration did: the revisions applied (id, title), oldest first, and the
    revision the database is at now."""

    applied: list[tuple[str, str]]
    head: str | None

    def lines(self) -> list[str]:
        done = [
            f"applied {revision}: {' '.join(title.split())}" for revision, title in self.applied
        ]
        if not self.applied:
            return [f"the database is already at the newest schema ({self.head}); nothing to do"]
        return [*done, f"the database is at the newest schema ({self.head})"]


def migrate(url: str | None = None) -> Migrated:
    """Bring the database to the newest schema (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy.engine import make_url

    url = url or get_settings().database_url
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    # Passed as an attribute: URLs may hold "%", which the ini parser would interpolate.
    config.attributes["database_url"] = url
    applied: list[tuple[str, str]] = []
    config.attributes["applied"] = applied  # filled in by migrations/env.py
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(config, "head")
    return Migrated(applied, ScriptDirectory.from_config(config).get_current_head())


def _migrated(url: str) -> Migrated | str:
    """Migrate: what it did, or when the database cannot be reached the one line that says
    where and why (a traceback of a refused connection tells an operator nothing more)."""
    from app.core.database import unreachable, where

    try:
        return migrate(url)
    except OSError as exc:  # a SQLite file's directory that cannot be created
        return f"cannot create {where(url)}: {exc.strerror} ({exc.filename})"
    except Exception as exc:
        problem = unreachable(url, exc)
        if problem is None:
            raise
        return problem


def migrate_command() -> int:
    """``ratings migrate``: what it applied on stdout and 0, or 1 with one ``error:`` line
    when the database cannot be reached."""
    migrated = _migrated(get_settings().database_url)
    if isinstance(migrated, str):
        print(f"error: {migrated}", file=sys.stderr)
        return 1
    print("\n".join(migrated.lines()))
    return 0


def ensure_admin_token(settings: Settings, terminal: Path = TERMINAL) -> str:
    """The configured admin token, or one generated once and kept for the next start."""
    if settings.admin_token:
        return settings.admin_token
    path = settings.admin_token_file
    if path.exists():
        token = path.read_text().strip()
        if token:
            return token
    token = secrets.token_urlsafe(ADMIN_TOKEN_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.write_text(token + "\n")
    _show_generated_token(path, token, terminal)
    return token


def _show_generated_token(path: Path, token: str, terminal: Path) -> None:
    """Show a new token on the terminal of whoever started the service, and only there:
    stderr is the JSON log stream, which ends up in log files and container logs. Without a
    terminal the log says where the token is kept."""
    try:
        with terminal.open("w") as tty:
            tty.write(f"Generated an admin token (kept in {path}):\n  {token}\n")
    except OSError:  # no controlling terminal (a service manager, a container)
        log.warning("generated an admin token; it is kept in %s", path, extra={"file": str(path)})


def serve() -> None:
    """Migrate, then serve with granian until SIGTERM or SIGINT (SIGHUP: replace the workers
    one at a time)."""
    import multiprocessing

    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import Server

    from app.core.database import where
    from app.core.logging import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level)  # this command's own lines, as the app's
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its setup chatter, at INFO
    migrated = _migrated(settings.database_url)
    if isinstance(migrated, str):
        # One JSON line, as every line of the service's stream; a supervisor restarts it.
        log.error(migrated, extra={"database": where(settings.database_url)})
        sys.exit(1)
    for line in migrated.lines():
        log.info(line, extra={"database": where(settings.database_url)})
    # Generated once into the token file, which the workers' settings read: the token is
    # never put in the environment, where child processes and /proc/PID/environ show it.
    ensure_admin_token(settings)
    if settings.workers > 1 and not os.environ.get(MULTIPROCESS_ENV):
        # Worker processes write their metrics here; /metrics adds them up.
        os.environ[MULTIPROCESS_ENV] = tempfile.mkdtemp(prefix="ratings-metrics-")
    # Each worker a fresh interpreter: forked ones would keep the modules this process has
    # imported (settings, models, migrations), old code after a SIGHUP.
    multiprocessing.set_start_method("spawn", force=True)
    address = listening_address(settings.host, settings.port)
    log.info(
        "serving %s with %d worker(s)",
        address,
        settings.workers,
        extra={"address": address, "workers": settings.workers},
    )
    Server(
        APP,
        address=settings.host,
        port=settings.port,
        interface=Interfaces.ASGI,
        factory=True,
        workers=settings.workers,
        http=HTTPModes.http1,
        websockets=False,
        # granian's one read timeout: a request's headers must arrive within it, whether the
        # connection is new, idle between requests (keep-alive) or trickling them.
        http1_settings=HTTP1Settings(header_read_timeout=round(settings.keep_alive_timeout * 1000)),
        respawn_failed_workers=True,
        workers_kill_timeout=settings.shutdown_grace_seconds,
        log_level=LogLevels(settings.log_level.lower()),
        log_dictconfig=GRANIAN_LOGGING,
    ).serve()


def listening_address(host: str, port: int) -> str:
    """The URL the service answers at (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def served_app() -> Any:
    """The application as ``ratings serve`` serves it: behind a trusted proxy, the client's
    address (which the public reads' limit counts) is the one the proxy forwards; at
    shutdown, what still runs near the end of the grace is answered 503 (app/api/shutdown.py)."""
    from granian.utils.proxies import wrap_asgi_with_proxy_headers

    from app.api.shutdown import Drain
    from app.main import create_app

    trusted = os.environ.get(FORWARDED_ALLOW_IPS, "127.0.0.1")
    drained = Drain(create_app(), get_settings().shutdown_grace_seconds)
    return wrap_asgi_with_proxy_headers(drained, trusted)


def write_openapi(output: Path) -> None:
    from app.main import create_app

    document = create_app().openapi()
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")


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
    database = _database()
    try:
        events, players = recompute_ladder(database, ladder_id, since)
    except DomainError as exc:
        print(f"error: {exc.detail}", file=sys.stderr)
        return 2
    finally:
        database.dispose()
    print(f"recomputed {events} events, {players} ratings in ladder {ladder_id}")
    return 0


def _database() -> Database:
    from app.core.database import Database

    settings = get_settings()
    return Database(settings.database_url, busy_timeout=settings.sqlite_busy_timeout)


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
    database = _database()
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

    database = _database()
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


def _value(text: str) -> Any:
    """A parameter's value on the command line: JSON (16, 0.5, true), else text
    (plackett-luce)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _assignment(text: str) -> tuple[str, Any]:
    """``--param name=value``."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not name=value")
    return name, _value(value)


def _grid_axis(text: str) -> tuple[str, list[Any]]:
    """``--grid k=16,24,32``: a parameter and its values."""
    name, sep, values = text.partition("=")
    if not sep or not name or not values:
        raise argparse.ArgumentTypeError(f"{text!r} is not name=value,value,...")
    return name, [_value(part) for part in values.split(",")]


def _progress(console: Any, label: str) -> Any:
    """The progress bar of a replay, in events (on stderr: stdout holds the table)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("events"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.6f}"


def _replaying(
    ladder: str,
    request: Any,
    label: str,
    run: Callable[[Database, Any, Callable[[int], None]], ResultT],
) -> ResultT:
    """``run`` over the ladder's history read once, with a progress bar on stderr counting
    the events its candidates replay (evaluate and tune)."""
    from rich.console import Console

    from app.services import evaluation

    database = _database()
    try:
        history = evaluation.read(database, ladder)
        total = len(history.rows) * evaluation.replays_of(request)
        with _progress(Console(stderr=True), label) as progress:
            task = progress.add_task(label, total=total)
            return run(database, history, lambda count: progress.advance(task, count))
    finally:
        database.dispose()


def evaluate_ladder(args: argparse.Namespace) -> int:
    """``ratings evaluate``: one candidate (default: the ladder's own system and parameters)
    scored against the ladder's history beside the baseline, without the HTTP cap."""
    from rich.console import Console
    from rich.table import Table

    from app.schemas.evaluation import EvaluateIn
    from app.services import evaluation

    body: dict[str, Any] = {"min_games": args.min_games, "from": args.start, "to": args.end}
    if args.system or args.param or args.label:
        candidate: dict[str, Any] = {"system": args.system, "params": dict(args.param or [])}
        if args.label:
            candidate["label"] = args.label
        body["candidates"] = [candidate]
    request = _request(EvaluateIn, body)
    if request is None:
        return 2
    out = _replaying(
        args.ladder,
        request,
        "evaluating",
        lambda db, history, advance: evaluation.evaluate(
            db, args.ladder, request, progress=advance, history=history
        ),
    )
    if args.json:
        print(out.model_dump_json(indent=2))
        return 0
    table = Table(title=f"Evaluation of ladder {args.ladder}")
    for column in ("candidate", "games", "pairs", "log loss", "Brier", "accuracy"):
        table.add_column(column, justify="left" if column == "candidate" else "right")
    for label, m in [(r.label, r) for r in out.results] + [("baseline p = 1/2", out.baseline)]:
        table.add_row(
            label, str(m.games), str(m.pairs), _number(m.log_loss), _number(m.brier),
            _number(m.accuracy),
        )  # fmt: skip
    calibration = Table(title="Calibration (each pair as (p, s) and (1 - p, 1 - s))")
    for column in ("bin", "count", "mean p", "mean s"):
        calibration.add_column(column, justify="right")
    for b in out.results[0].calibration:
        closing = "]" if b.high == 1 else ")"
        calibration.add_row(
            f"[{b.low:.1f}, {b.high:.1f}{closing}", str(b.count), _number(b.predicted),
            _number(b.observed),
        )  # fmt: skip
    terminal = Console()
    terminal.print(table)
    terminal.print(calibration)
    return 0


def tune_ladder(args: argparse.Namespace) -> int:
    """``ratings tune``: every point of a grid scored, best first; ``--processes`` scores the
    points in that many processes (the same numbers as one)."""
    from rich.console import Console
    from rich.table import Table

    from app.schemas.evaluation import TuneIn
    from app.services import evaluation

    request = _request(
        TuneIn,
        {
            "system": args.system,
            "grid": dict(args.grid),
            "metric": args.metric,
            "min_games": args.min_games,
            "from": args.start,
            "to": args.end,
        },
    )
    if request is None:
        return 2
    out = _replaying(
        args.ladder,
        request,
        "tuning",
        lambda db, history, advance: evaluation.tune(
            db, args.ladder, request, progress=advance, processes=args.processes, history=history
        ),
    )
    if args.json:
        print(out.model_dump_json(indent=2))
        return 0
    table = Table(title=f"Tuning {out.system} on ladder {args.ladder}, best {out.metric} first")
    names = list(request.grid)
    for column in (*names, "games", "log loss", "Brier", "accuracy"):
        table.add_column(column, justify="right")
    for point in out.results:
        table.add_row(
            *(json.dumps(point.params[name]) for name in names), str(point.games),
            _number(point.log_loss), _number(point.brier), _number(point.accuracy),
        )  # fmt: skip
    Console().print(table)
    return 0


def _request(model: Any, body: dict[str, Any]) -> Any:
    """``body`` as the request ``model`` (what the HTTP route would take), or None with
    each refusal on stderr."""
    from pydantic import ValidationError

    try:
        return model.model_validate({k: v for k, v in body.items() if v is not None})
    except ValidationError as exc:
        for error in exc.errors():
            where = ".".join(str(part) for part in error["loc"])
            print(f"error: {where}: {error['msg']}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="ratings", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="migrate, then serve with granian")
    commands.add_parser("migrate", help="upgrade the database schema to the newest revision")
    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument("--output", type=Path, default=Path("openapi/openapi.json"))
    again = commands.add_parser("recompute", help="recompute a ladder from its history")
    again.add_argument("ladder")
    again.add_argument("--from", dest="start", help="RFC 3339 time; default: from scratch")
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
    dump = commands.add_parser("export", help="export a ladder's history as JSON Lines")
    dump.add_argument("--ladder", required=True)
    dump.add_argument("--output", type=Path, help="default: standard output")
    judge = commands.add_parser(
        "evaluate", help="score a system's predictions of a ladder's history (no HTTP cap)"
    )
    judge.add_argument("ladder")
    judge.add_argument("--system", help="default: the ladder's")
    judge.add_argument(
        "--param", action="append", type=_assignment, metavar="NAME=VALUE", help="repeatable"
    )
    judge.add_argument("--label", help="the candidate's name in the table")
    tune = commands.add_parser("tune", help="score every point of a grid of parameter values")
    tune.add_argument("ladder")
    tune.add_argument("--system", help="default: the ladder's")
    tune.add_argument(
        "--grid",
        action="append",
        type=_grid_axis,
        required=True,
        metavar="NAME=V1,V2,...",
        help="a parameter's values (repeatable: every combination is a point)",
    )
    tune.add_argument("--metric", choices=("log_loss", "brier", "accuracy"), default="log_loss")
    tune.add_argument("--processes", type=int, default=1, help="worker processes for the points")
    for command in (judge, tune):
        command.add_argument("--min-games", type=int, default=0, help="see docs/evaluation.md")
        command.add_argument("--from", dest="start", help="score games at or after (RFC 3339)")
        command.add_argument("--to", dest="end", help="score games at or before (RFC 3339)")
        command.add_argument("--json", action="store_true", help="the HTTP response's JSON")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve()
    elif args.command == "migrate":
        sys.exit(migrate_command())
    elif args.command == "openapi":
        write_openapi(args.output)
    else:
        sys.exit(_database_command(args))


def _database_command(args: argparse.Namespace) -> int:
    """A command on the ladders' data: what the service refuses (an unreachable or
    unmigrated database among them) is one line and exit 2, not a traceback."""
    from app.core.errors import DomainError

    try:
        if args.command == "recompute":
            return recompute(args.ladder, args.start)
        if args.command == "import":
            return import_file(
                args.file,
                args.ladder,
                args.format,
                args.skip_invalid,
                args.chunk,
                args.update,
                args.system,
            )
        if args.command == "evaluate":
            return evaluate_ladder(args)
        if args.command == "tune":
            return tune_ladder(args)
        return export_file(args.ladder, args.output)
    except DomainError as exc:
        print(f"error: {exc.detail}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    main()
