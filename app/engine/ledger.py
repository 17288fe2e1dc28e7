"""Rating one event of any kind, and replaying a history of them.

This is the one place that knows how games, tournaments and adjustments turn into changes,
so the service's incremental path and a full replay from scratch share every line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from math import isfinite
from typing import cast

from app.engine.errors import InvalidEvent, NonFiniteResult, arithmetic_refused
from app.engine.protocols import GameRater, Rater, SystemInfo, TournamentRater, key_for
from app.engine.types import (
    FULL_WEIGHT,
    Adjustment,
    Change,
    Game,
    Json,
    LadderEvent,
    Outcome,
    PlayerKey,
    PlayerState,
    Standing,
    Tournament,
    frozen,
)

#: Details of a change in a game stored with ``rated: false``.
UNRATED_DETAILS: Mapping[str, Json] = frozen({"rated": False, "reason": "unrated game"})

#: Where in an event's body a non-finite result points: a game's players, a tournament's
#: standings.
PLAYERS = "players"
STANDINGS = "standings"

WIN = "win"
DRAW = "draw"
LOSS = "loss"
#: A tournament placing: counts as an event played (``games``, ``last_played_at``) but in no
#: win/draw/loss statistic (API.md "Lists"); its own statistics are read from the ranks.
PLACED = "placed"


def event_keys(info: SystemInfo, event: LadderEvent) -> list[PlayerKey]:
    """The rating keys an event touches, in input order."""
    if isinstance(event, Game):
        if not info.per_faction:
            # key_for's rule (no faction in the key) without a call per participant.
            return [PlayerKey(p.player) for p in event.participants]
        return [key_for(info, p.player, p.faction) for p in event.participants]
    if isinstance(event, Tournament):
        return [PlayerKey(p.player) for p in event.standings]
    return [event.key]


def event_ranks(event: LadderEvent) -> list[int | None]:
    if isinstance(event, Game):
        return [p.rank for p in event.participants]
    if isinstance(event, Tournament):
        return [p.rank for p in event.standings]
    return [None]


def event_teams(event: LadderEvent) -> list[str | None]:
    """Each touched key's side label (a team game's), in :func:`event_keys` order."""
    if isinstance(event, Game):
        return [p.team for p in event.participants]
    if isinstance(event, Tournament):
        return [None] * len(event.standings)
    return [None]


def event_outcomes(event: LadderEvent) -> list[str | None]:
    """Each touched key's win, draw or loss for the statistics, in :func:`event_keys` order.

    A side's result is each member's (SYSTEMS.md "Teams"): the sole best side wins, sides
    sharing the best rank draw, the rest lose. A tournament's standings are placings, not
    wins or losses (SYSTEMS.md: tournaments count in no statistic). Adjustments have none."""
    if isinstance(event, Game):
        if not event.has_teams:
            return outcomes_by_rank(event_ranks(event))
        sides = event.sides
        by_side = outcomes_by_rank([side.rank for side in sides])
        outcomes: list[str | None] = [None] * len(event.participants)
        for side, outcome in zip(sides, by_side, strict=True):
            for index in side.indices:
                outcomes[index] = outcome
        return outcomes
    if isinstance(event, Tournament):
        return [PLACED for _ in event.standings]
    return [None]


def outcomes_by_rank(ranks: list[int | None]) -> list[str | None]:
    """Win (sole best rank), draw (shared best rank) or loss, for the statistics."""
    known = [r for r in ranks if r is not None]
    if not known:
        return [None for _ in ranks]
    best = min(known)
    shared = known.count(best) > 1
    return [None if r is None else (DRAW if shared else WIN) if r == best else LOSS for r in ranks]


def validate_game(info: SystemInfo, rater: GameRater, game: Game) -> None:
    """Every rule a game must meet on a ladder of ``info``: sides and weights the system
    takes (:func:`check_sides`), then the system's own."""
    check_sides(info, game)
    rater.validate_game(game)


def check_sides(info: SystemInfo, game: Game) -> None:
    """Refuse sides of several players, and weights, where the system does not rate them
    (SYSTEMS.md "Teams"): the one place this rule lives, before the system's own checks."""
    if not info.sides:
        for side in game.sides:
            if len(side.members) > 1:
                raise InvalidEvent(
                    game.where(side.indices[0])[:2],
                    f"system {info.id!r} rates individuals only: a side of "
                    f"{len(side.members)} players is refused (use a system that rates "
                    "teams: elo, glicko, glicko2, trueskill, weng-lin, ttt)",
                )
    if not info.weights:
        for index, p in enumerate(game.participants):
            if p.weight != FULL_WEIGHT:
                raise InvalidEvent(
                    (*game.where(index), "weight"),
                    f"system {info.id!r} has no partial play: every weight must be 1 "
                    f"(got {p.weight!r})",
                )


def rate_event(
    info: SystemInfo,
    rater: Rater,
    event: LadderEvent,
    states: Mapping[PlayerKey, PlayerState],
    ladder_state: Mapping[str, Json],
) -> Outcome:
    """Rate ``event`` from the current ``states`` (missing keys start at the initial state).

    This is the one place where a failure of a system's arithmetic becomes an error of the
    event: an overflow, a division by zero, a math domain error or a loop past its bound
    (IterationLimit) raises NonFiniteResult naming the event's players, its standings or an
    adjustment's rating, like a result that is not finite (:func:`_finite`). The engine's own
    errors (InvalidEvent) pass as they are.
    """
    try:
        keys = event_keys(info, event)
        before = {k: states[k] if k in states else rater.initial_state(ladder_state) for k in keys}
        if isinstance(event, Game):
            if not event.rated:
                changes = tuple(Change(k, before[k], before[k], UNRATED_DETAILS) for k in keys)
                return Outcome(changes, ladder_state)
            outcome = cast(GameRater, rater).rate_game(event, before, ladder_state)
            return _finite(outcome, PLAYERS)
        if isinstance(event, Adjustment):
            previous = states.get(event.key)
            after = rater.adjusted_state(
                previous, event.rating, event.deviation, event.volatility, event.at
            )
            details = frozen({"adjustment": True, "reason": event.reason})
            change = Change(event.key, before[event.key], after, details)
            return _finite(Outcome((change,), ladder_state), "rating")
        by_player = {k.player: s for k, s in before.items()}
        outcome = cast(TournamentRater, rater).rate_tournament(event, by_player, ladder_state)
        return _finite(outcome, STANDINGS)
    except (ArithmeticError, ValueError):
        # errors.arithmetic_refused's rule (an EngineError passes as it is, any other failure
        # becomes the NonFiniteResult of the event's ``where``), entered only on a failure: a
        # context manager around every event of a replay cost more than the try statement,
        # which costs nothing until something is raised.
        with arithmetic_refused(_where(event)):
            raise


def _where(event: LadderEvent) -> str:
    """Where in the event's body an error points: a game's players, a tournament's
    standings, the rating an adjustment sets."""
    if isinstance(event, Game):
        return PLAYERS
    if isinstance(event, Tournament):
        return STANDINGS
    return "rating"


def _finite(outcome: Outcome, where: str) -> Outcome:
    """``outcome``, once every new rating, deviation and volatility is a finite number.

    Inputs are finite, but a finite input can still overflow (a rating near the largest
    float, a history driving ratings far apart), and a system could have a fault: either is
    an error naming the event's ``where`` (its players, standings or rating) rather than a
    stored NaN or infinity, which JSON cannot hold.
    """
    for change in outcome.changes:
        after = change.after
        deviation, volatility = after.deviation, after.volatility
        if (
            isfinite(after.rating)
            and (deviation is None or isfinite(deviation))
            and (volatility is None or isfinite(volatility))
        ):
            continue  # the usual case, checked without a tuple and a loop per change
        for value in (after.rating, deviation, volatility):
            if value is not None and not isfinite(value):
                raise NonFiniteResult(
                    (where,),
                    f"rating {change.key.player!r} gives {value!r}: the ratings or the "
                    "ladder's parameters involved are too large for the system",
                )
    return outcome


def shown(rater: Rater, state: PlayerState, ladder_state: Mapping[str, Json]) -> Standing:
    """What a leaderboard shows for ``state``: the system's standing, its rating raised to the
    ladder-wide floor where the system has one (NADF's base, SYSTEMS.md "nadf"). The stored
    state keeps the computed value; the system floors it itself when the player next plays."""
    standing = rater.standing(state)
    floor = rater.rating_floor(ladder_state)
    if floor is not None and standing.rating < floor:
        return Standing(
            floor,
            standing.deviation,
            standing.volatility,
            standing.ranking_value,
            standing.tiebreak,
        )
    return standing


@dataclass(frozen=True, slots=True)
class Replayed:
    """One event's outcome during a replay."""

    event: LadderEvent
    outcome: Outcome


def replay(
    info: SystemInfo,
    rater: Rater,
    events: Iterable[LadderEvent],
    states: Mapping[PlayerKey, PlayerState] | None = None,
    ladder_state: Mapping[str, Json] | None = None,
) -> Iterator[Replayed]:
    """Apply ``events`` in order from ``states``; yields each event's outcome.

    The caller's mapping is not modified; the running states live in a private dict.
    """
    current = dict(states or {})
    ladder = rater.initial_ladder_state() if ladder_state is None else ladder_state
    for event in events:
        outcome = rate_event(info, rater, event, current, ladder)
        for change in outcome.changes:
            current[change.key] = change.after
        ladder = outcome.ladder_state
        yield Replayed(event, outcome)


def final_states(
    info: SystemInfo, rater: Rater, events: Iterable[LadderEvent]
) -> dict[PlayerKey, PlayerState]:
    """The states after replaying ``events`` from scratch (for tests and what-if)."""
    current: dict[PlayerKey, PlayerState] = {}
    for step in replay(info, rater, events):
        for change in step.outcome.changes:
            current[change.key] = change.after
    return current
