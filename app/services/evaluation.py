"""Evaluation and tuning: which system, with which parameters, best predicts a ladder's own
history (API.md "Evaluation and tuning", SYSTEMS.md "Evaluation").

Each candidate replays the ladder's live history from an empty ladder with the engine's
replay (as recomputation and what-if do), predicting each game before it is rated
(:mod:`app.engine.evaluation`). Nothing is stored. The history is read in one short read
transaction; the replays hold no connection, and stop (``Abandoned``) once ``cancel`` says
the client has gone.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import FieldError, Invalid
from app.core.settings import Settings
from app.engine.evaluation import (
    Metrics,
    Pair,
    Scores,
    predictions,
    score,
    whole_history_predictions,
)
from app.engine.protocols import GameRater, WholeHistoryRater
from app.engine.types import LadderEvent
from app.repositories.events import EventRepository, LiveRow
from app.repositories.ladders import LadderRepository
from app.schemas.evaluation import (
    MAX_POINTS,
    CalibrationBinOut,
    EvaluateIn,
    EvaluateOut,
    EvaluationResult,
    Metric,
    MetricsOut,
    TuneIn,
    TuneOut,
    TunePoint,
)
from app.services.conversion import stored_to_engine
from app.services.heavy import EVENTS_PER_REQUEST, Cancel
from app.services.history import EVENT_PAGE, validate
from app.services.runtime import (
    Runtime,
    configure,
    engine_refusals,
    get_system,
    require_ladder,
)

#: Events replayed between two checks that the client is still there (and two reports of
#: progress on the command line).
EVENTS_PER_CHECK = 1_000

#: Called with the number of events just replayed (the command line's progress bar).
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class History:
    """What an evaluation reads, in one short transaction: the ladder's system and
    parameters, and its live events in history order (plain values: a tuning's worker
    processes receive it)."""

    system: str
    params: dict[str, Any]
    rows: list[LiveRow]
    #: The ladder's seasons as stored: their resets are part of its history, which every
    #: candidate replays as the live history went (SYSTEMS.md "Seasons").
    seasons: list[dict[str, Any]] | None = None

    def events(self) -> Events:
        return Events(self.rows, self.system, self.params)


@dataclass(frozen=True, slots=True)
class Window:
    """Which games are scored (SYSTEMS.md "Evaluation"); every event still rates."""

    min_games: int = 0
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A configured system to evaluate; ``where`` locates it in the request body, for its
    refusals."""

    label: str
    runtime: Runtime
    where: tuple[str | int, ...]


def read(db: Database, ladder_id: str) -> History:
    """The ladder and its live events (one read transaction, paged as every replay reads)."""

    def work(session: Session) -> History:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        rows = [
            row
            for page in EventRepository(session).live_rows(ladder_id, None, EVENT_PAGE)
            for row in page
        ]
        seasons = [dict(season) for season in ladder.seasons or ()] or None
        return History(ladder.system, dict(ladder.params), rows, seasons)

    return db.run(work, write=False, heavy=True)


# --- Caps ----------------------------------------------------------------------------------


def replays_of(body: EvaluateIn | TuneIn) -> int:
    """How many times a request replays the history: once per candidate or grid point."""
    if isinstance(body, TuneIn):
        return math.prod(len(values) for values in body.grid.values())
    return len(body.candidates) if body.candidates else 1


def check_cap(settings: Settings, events: int, body: EvaluateIn | TuneIn) -> None:
    """The cap on the events one request replays in all (422 naming the setting and the
    command that has no cap)."""
    if isinstance(body, TuneIn):
        check_grid(body)
    replays = replays_of(body)
    total = events * replays
    if total > settings.max_evaluate_events:
        command = (
            "ratings tune LADDER --grid ..."
            if isinstance(body, TuneIn)
            else "ratings evaluate LADDER"
        )
        raise Invalid.at(
            ("ladder",),
            f"an evaluation over HTTP replays at most {settings.max_evaluate_events} events in "
            f"all (RATINGS_MAX_EVALUATE_EVENTS); this one would replay {events} events "
            f"{replays} time(s), {total}: use the command line, `{command}`, which reads the "
            "same database without this limit",
        )


def weight(events: int, body: EvaluateIn | TuneIn) -> int:
    """What a request counts for in the rate limit: the events it replays in all, per
    :data:`app.services.heavy.EVENTS_PER_REQUEST` (a what-if's measure), at least 1."""
    return max(1, math.ceil(events * replays_of(body) / EVENTS_PER_REQUEST))


# --- Candidates ----------------------------------------------------------------------------


def _moved(
    exc: Invalid, where: tuple[str | int, ...], rename: dict[str, str] | None = None
) -> Invalid:
    """``exc`` located under ``where`` in the request body (its first part renamed by
    ``rename``: a grid point's ``params`` are the body's ``grid``)."""
    errors = []
    for error in exc.errors:
        loc = error.loc
        if rename and loc and loc[0] in rename:
            loc = (rename[str(loc[0])], *loc[1:])
        errors.append(FieldError((*where, *loc), error.msg))
    detail = "; ".join(f"{'.'.join(str(p) for p in e.loc)}: {e.msg}" for e in errors)
    return Invalid(detail or exc.detail, errors=errors)


def _configured(
    history: History,
    system: str | None,
    params: dict[str, Any] | None,
    where: tuple[str | int, ...],
    rename: dict[str, str] | None = None,
) -> Runtime:
    """A candidate's runtime: the ladder's own system keeps the ladder's parameters under
    ``params``, another starts from its defaults (as a what-if does). A system that ranks
    tournaments, or defines no win probability of one side over another, cannot be
    evaluated (422 at ``where``)."""
    chosen = system or history.system
    field = (*where, "system") if system is not None else ("ladder",)
    try:
        found = get_system(chosen)
    except Invalid as exc:
        raise _moved(exc, where) from exc
    # What the system is decides first: a parameter of a system that cannot be evaluated
    # is beside the point.
    if found.info.kind != "game":
        raise Invalid.at(
            field,
            f"{chosen!r} is a tournament ranking system: it ranks events from their final "
            "placements and predicts no game, so it cannot be evaluated",
        )
    rater = cast(GameRater, found.configure(None))
    initial = rater.initial_state(rater.initial_ladder_state())
    if rater.side_win_probability((initial,), (initial,)) is None:
        raise Invalid.at(
            field,
            f"{chosen!r} defines no win probability of one side over another (SYSTEMS.md "
            '"Win probability of one side over another"), so its predictions cannot be '
            "scored",
        )
    base: dict[str, Any] = dict(history.params) if chosen == history.system else {}
    try:
        return configure(chosen, {**base, **(params or {})}, history.seasons)
    except Invalid as exc:
        raise _moved(exc, where, rename) from exc


def _label(system: str, params: dict[str, Any] | None) -> str:
    """A candidate's default label: its system and the parameters it names."""
    named = " ".join(f"{k}={json.dumps(v)}" for k, v in (params or {}).items())
    return f"{system} {named}" if named else system


def candidates(history: History, body: EvaluateIn) -> list[Candidate]:
    if not body.candidates:
        own: tuple[str | int, ...] = ("ladder",)
        return [Candidate(history.system, _configured(history, None, None, own), own)]
    chosen = []
    for index, candidate in enumerate(body.candidates):
        where = ("candidates", index)
        runtime = _configured(history, candidate.system, candidate.params, where)
        label = candidate.label or _label(runtime.info.id, candidate.params)
        chosen.append(Candidate(label, runtime, where))
    return chosen


def check_grid(body: TuneIn) -> None:
    """At most :data:`MAX_POINTS` grid points (422 at ``grid``)."""
    count = replays_of(body)
    if count > MAX_POINTS:
        sizes = " x ".join(str(len(values)) for values in body.grid.values())
        raise Invalid.at(("grid",), f"at most {MAX_POINTS} points, got {sizes} = {count}")


def grid_points(body: TuneIn) -> list[dict[str, Any]]:
    """Every combination of the grid's values, the first parameter's values varying
    slowest."""
    check_grid(body)
    names = list(body.grid)
    return [
        dict(zip(names, values, strict=True)) for values in itertools.product(*body.grid.values())
    ]


# --- Replays -------------------------------------------------------------------------------


class Events:
    """The history's events as the engine reads them, converted once per kind of rating key
    (a per-faction system keys an adjustment by its faction), and the configuration that
    rated them (the ladder's system and parameters)."""

    def __init__(self, rows: Sequence[LiveRow], system: str, params: dict[str, Any]) -> None:
        self.rows = rows
        self.system = system
        self.params = params
        self._converted: dict[bool, list[LadderEvent]] = {}

    def of(self, per_faction: bool) -> list[LadderEvent]:
        converted = self._converted.get(per_faction)
        if converted is None:
            converted = [stored_to_engine(row.kind, row.body, per_faction) for row in self.rows]
            self._converted[per_faction] = converted
        return converted

    def rated_by(self, runtime: Runtime) -> bool:
        """Whether ``runtime`` is the ladder's own configuration, which rated every event
        when it was recorded (a recomputation rates them again without checking them
        again): any other must check each event, as a what-if does."""
        return runtime.info.id == self.system and runtime.params == self.params


def evaluate_one(
    events: Events,
    runtime: Runtime,
    window: Window,
    cancel: Cancel | None = None,
    progress: Progress | None = None,
    where: tuple[str | int, ...] = ("ladder",),
    baseline: bool = True,
) -> Scores:
    """The scores of ``runtime`` over ``events`` (and the baseline's, if asked): a refusal
    of an event names it and the system (422 at ``where``)."""
    cancel = cancel or Cancel()
    info = runtime.info
    rating = [0]  # the index of the event being rated, named in a refusal
    trusted = events.rated_by(runtime)

    def fed() -> Iterator[LadderEvent]:
        rows = events.rows
        reported = 0
        for index, event in enumerate(events.of(info.per_faction)):
            if index % EVENTS_PER_CHECK == 0:
                cancel.check()
                if progress is not None and index:
                    progress(index - reported)
                    reported = index
            rating[0] = index
            if not trusted:
                validate(runtime, event)
            yield event
        if progress is not None:
            progress(len(rows) - reported)

    pairs: Iterator[tuple[Pair, ...]]
    try:
        with engine_refusals():
            if info.whole_history:
                # Each game predicted from a fit of the games before it only.
                pairs = whole_history_predictions(
                    info,
                    cast(WholeHistoryRater, runtime.rater),
                    fed(),
                    min_games=window.min_games,
                    start=window.start,
                    end=window.end,
                )
            else:
                pairs = predictions(
                    info,
                    cast(GameRater, runtime.rater),
                    fed(),
                    min_games=window.min_games,
                    start=window.start,
                    end=window.end,
                )
            return score(pairs, baseline=baseline)
    except Invalid as exc:
        because = f"{events.rows[rating[0]].name} cannot be rated by {info.id!r}: "
        raise Invalid(
            because + exc.detail,
            errors=[FieldError(where, because + e.msg) for e in exc.errors],
        ) from exc


def _metrics_out(metrics: Metrics) -> dict[str, Any]:
    return {
        "games": metrics.games,
        "pairs": metrics.pairs,
        "log_loss": metrics.log_loss,
        "brier": metrics.brier,
        "accuracy": metrics.accuracy,
        "calibration": [
            CalibrationBinOut(
                low=b.low, high=b.high, count=b.count, predicted=b.predicted, observed=b.observed
            )
            for b in metrics.calibration
        ],
    }


def _window(body: EvaluateIn | TuneIn) -> Window:
    if body.from_ is not None and body.to is not None and body.to < body.from_:
        raise Invalid.at(("to",), "must not be before from")
    return Window(body.min_games, body.from_, body.to)


def evaluate(
    db: Database,
    ladder_id: str,
    body: EvaluateIn,
    cancel: Cancel | None = None,
    progress: Progress | None = None,
    history: History | None = None,
) -> EvaluateOut:
    """Each candidate's predictions of the ladder's history, scored, beside the baseline."""
    window = _window(body)
    history = history or read(db, ladder_id)
    chosen = candidates(history, body)
    events = history.events()
    results: list[EvaluationResult] = []
    baseline: Metrics | None = None
    for candidate in chosen:
        # The counted pairs are the history's (SYSTEMS.md "Evaluation"), whatever the
        # candidate: the baseline over the first candidate's is every candidate's.
        scores = evaluate_one(
            events,
            candidate.runtime,
            window,
            cancel,
            progress,
            candidate.where,
            baseline=baseline is None,
        )
        baseline = baseline or scores.baseline
        results.append(
            EvaluationResult(
                label=candidate.label,
                system=candidate.runtime.info.id,
                params=candidate.runtime.params,
                **_metrics_out(scores.candidate),
            )
        )
    assert baseline is not None  # at least one candidate
    return EvaluateOut(
        ladder=ladder_id, baseline=MetricsOut(**_metrics_out(baseline)), results=results
    )


# --- Tuning --------------------------------------------------------------------------------

#: The history a tuning worker process scores its points over (set once per process by
#: :func:`_start_worker`, so the events cross to each process once, not once per point),
#: and its seasons.
_worker_events: Events | None = None
_worker_seasons: list[dict[str, Any]] | None = None


def _start_worker(history: History) -> None:
    global _worker_events, _worker_seasons
    _worker_events = history.events()
    _worker_seasons = history.seasons


def _score_point(system: str, params: dict[str, Any], window: Window) -> Scores:
    """One grid point, in a worker process (its parameters were checked by the parent)."""
    assert _worker_events is not None
    runtime = configure(system, params, _worker_seasons)
    return evaluate_one(_worker_events, runtime, window, baseline=False)


def _point(history: History, system: str | None, point: dict[str, Any]) -> Runtime:
    """A grid point's runtime; a refused value is a 422 at ``grid`` naming the point."""
    try:
        return _configured(history, system, point, (), rename={"params": "grid"})
    except Invalid as exc:
        named = ", ".join(f"{k}={json.dumps(v)}" for k, v in point.items())
        errors = [FieldError(e.loc, f"at {named}: {e.msg}") for e in exc.errors]
        raise Invalid(f"at {named}: {exc.detail}", errors=errors) from exc


def _rank(metric: Metric, metrics: Metrics) -> tuple[bool, float]:
    """The sort key of a point, best first: lower log loss or Brier, higher accuracy; a
    point that scored no game last."""
    value = getattr(metrics, metric)
    if value is None:
        return (True, 0.0)
    return (False, -value if metric == "accuracy" else value)


def tune(
    db: Database,
    ladder_id: str,
    body: TuneIn,
    cancel: Cancel | None = None,
    progress: Progress | None = None,
    processes: int = 1,
    history: History | None = None,
) -> TuneOut:
    """Every grid point evaluated, best first by ``body.metric``. With ``processes`` > 1 the
    points are scored in that many worker processes (the command line's ``--processes``);
    each point is the same computation either way, so the numbers are the same."""
    window = _window(body)
    points = grid_points(body)
    history = history or read(db, ladder_id)
    runtimes = [_point(history, body.system, point) for point in points]
    if processes > 1 and len(runtimes) > 1:
        with ProcessPoolExecutor(
            max_workers=min(processes, len(runtimes)),
            initializer=_start_worker,
            initargs=(history,),
        ) as pool:
            futures = [pool.submit(_score_point, r.info.id, r.params, window) for r in runtimes]
            scored = []
            for future in futures:
                scored.append(future.result())
                if progress is not None:
                    progress(len(history.rows))
    else:
        events = history.events()
        scored = [
            evaluate_one(events, r, window, cancel, progress, ("grid",), baseline=False)
            for r in runtimes
        ]
    ranked = sorted(
        zip(runtimes, scored, strict=True), key=lambda pair: _rank(body.metric, pair[1].candidate)
    )
    return TuneOut(
        ladder=ladder_id,
        system=runtimes[0].info.id,
        metric=body.metric,
        results=[
            TunePoint(
                params=runtime.params,
                log_loss=scores.candidate.log_loss,
                brier=scores.candidate.brier,
                accuracy=scores.candidate.accuracy,
                games=scores.candidate.games,
                pairs=scores.candidate.pairs,
            )
            for runtime, scores in ranked
        ],
    )
