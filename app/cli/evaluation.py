"""``ratings evaluate`` and ``ratings tune``: a ladder's history replayed to score one
candidate system, or every point of a grid of parameters, without the HTTP cap
(docs/evaluation.md). The requests are the HTTP routes' own models, checked the same way."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from app.cli.common import open_database, refusals_exit_2

if TYPE_CHECKING:
    from app.cli.common import Commands
    from app.core.database import Database

#: What a replaying command computes (an evaluation, a tuning).
ResultT = TypeVar("ResultT")


def register(commands: Commands) -> None:
    judge = commands.add_parser(
        "evaluate", help="score a system's predictions of a ladder's history (no HTTP cap)"
    )
    judge.add_argument("ladder")
    judge.add_argument("--system", help="default: the ladder's")
    judge.add_argument(
        "--param", action="append", type=_assignment, metavar="NAME=VALUE", help="repeatable"
    )
    judge.add_argument("--label", help="the candidate's name in the table")
    judge.set_defaults(run=refusals_exit_2(evaluate_ladder))
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
    tune.set_defaults(run=refusals_exit_2(tune_ladder))
    for command in (judge, tune):
        command.add_argument("--min-games", type=int, default=0, help="see docs/evaluation.md")
        command.add_argument("--from", dest="start", help="score games at or after (RFC 3339)")
        command.add_argument("--to", dest="end", help="score games at or before (RFC 3339)")
        command.add_argument("--json", action="store_true", help="the HTTP response's JSON")


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

    database = open_database()
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
