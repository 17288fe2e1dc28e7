"""Rating periods for the Glicko family (SYSTEMS.md "Glicko family"; Glickman, "The Glicko
system" and "Example of the Glicko-2 system", 2013).

Glickman's algorithms treat all games of a *rating period* as played simultaneously: every
player's games in the period are rated together from the state the player had when the period
began, and opponents enter with *their* period-start ratings and deviations. The ladder
parameter ``period`` chooses the period:

* ``"game"``: each game is its own period (the default);
* ``"day"``: UTC calendar days;
* ``"week"``: ISO weeks (Monday to Sunday, UTC);
* ``"month"``: UTC calendar months.

In the calendar modes a player's open period is kept in ``PlayerState.extra``::

    {"period": <int index>,
     "base": {"rating": r, "deviation": RD, "volatility": sigma or null},
     "results": [[opponent_rating, opponent_deviation, score], ...]}

``base`` is the period-start state (after growth for idle periods), ``results`` every result
of the period so far (opponents' period-start values). Each new game of the same period
appends its results and the rating is recomputed from ``base`` and all results, so while a
period is open the current rating is that batch applied so far. In ``"game"`` mode the extra
only records that the player has been rated (``{"played": true}``), which Glicko-1 needs to
know whether its step-1 growth applies.

This module holds the machinery both systems share: the period index of a time, reading and
writing the open period, where a player stands relative to a new game's period
(:func:`locate`) and the pairwise results of a multiplayer game by rank. How a deviation grows
over idle periods is the systems' own business (Glicko-1 step 1; Glicko-2's no-game step).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.engine.base import duel_score
from app.engine.types import Json, Participant, PlayerState, frozen

#: The ``period`` parameter's values (SYSTEMS.md "glicko2": rating period).
PERIOD_GAME = "game"
PERIOD_DAY = "day"
PERIOD_WEEK = "week"
PERIOD_MONTH = "month"
PERIOD_CHOICES: tuple[str, ...] = (PERIOD_GAME, PERIOD_DAY, PERIOD_WEEK, PERIOD_MONTH)

#: Calendar facts used to number periods. ``date.toordinal()`` numbers 0001-01-01, a Monday,
#: as day 1, so ``(ordinal - FIRST_ORDINAL) // DAYS_PER_WEEK`` numbers ISO (Monday) weeks.
DAYS_PER_WEEK = 7
MONTHS_PER_YEAR = 12
FIRST_ORDINAL = 1

#: Keys of the open period in ``PlayerState.extra``.
KEY_PERIOD = "period"
KEY_BASE = "base"
KEY_RESULTS = "results"
#: Key of the ``"game"``-mode marker in ``PlayerState.extra``: the player has been rated.
KEY_PLAYED = "played"


def as_utc(at: datetime) -> datetime:
    """``at`` in UTC; a naive datetime is taken to be UTC already (API.md: times are UTC)."""
    if at.tzinfo is None:
        return at.replace(tzinfo=UTC)
    return at.astimezone(UTC)


def period_index(at: datetime, period: str) -> int | None:
    """The number of the rating period containing ``at``, or None in ``"game"`` mode.

    Days are numbered by their proleptic Gregorian ordinal, weeks (ISO: Monday start) by the
    ordinal of their Monday divided by seven, months as ``12 * year + month - 1``; all in UTC.
    Consecutive periods have consecutive numbers, so the difference of two indices is the number
    of period boundaries between them.
    """
    if period == PERIOD_GAME:
        return None
    day = as_utc(at).date()
    if period == PERIOD_DAY:
        return day.toordinal()
    if period == PERIOD_WEEK:
        return (day.toordinal() - FIRST_ORDINAL) // DAYS_PER_WEEK
    if period == PERIOD_MONTH:
        return day.year * MONTHS_PER_YEAR + day.month - 1
    raise ValueError(f"unknown rating period {period!r}")


@dataclass(frozen=True, slots=True)
class PeriodResult:
    """One result in a rating period: the opponent's period-start r and RD, and the score s."""

    opponent_rating: float
    opponent_deviation: float
    score: float

    def to_json(self) -> list[Json]:
        return [self.opponent_rating, self.opponent_deviation, self.score]


@dataclass(frozen=True, slots=True)
class OpenPeriod:
    """A player's open rating period: its index, period-start state and results so far."""

    period: int
    base: PlayerState
    results: tuple[PeriodResult, ...]


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def read_open_period(extra: Mapping[str, Json]) -> OpenPeriod | None:
    """The open period stored in ``extra``, or None when there is none.

    Tolerant of JSON round trips (lists for tuples, ints for floats).
    """
    if extra.get(KEY_PERIOD) is None:
        return None
    base = extra[KEY_BASE]
    results = tuple(
        PeriodResult(float(item[0]), float(item[1]), float(item[2]))
        for item in extra.get(KEY_RESULTS) or ()
    )
    return OpenPeriod(
        period=int(extra[KEY_PERIOD]),
        base=PlayerState(
            rating=float(base["rating"]),
            deviation=_optional_float(base.get("deviation")),
            volatility=_optional_float(base.get("volatility")),
        ),
        results=results,
    )


def state_json(state: PlayerState) -> dict[str, Json]:
    """The ``base`` object of an open period: rating, deviation and volatility."""
    return {
        "rating": state.rating,
        "deviation": state.deviation,
        "volatility": state.volatility,
    }


def open_period_extra(open_period: OpenPeriod) -> Mapping[str, Json]:
    """``PlayerState.extra`` holding ``open_period`` (JSON only)."""
    return frozen(
        {
            KEY_PERIOD: open_period.period,
            KEY_BASE: state_json(open_period.base),
            KEY_RESULTS: [result.to_json() for result in open_period.results],
        }
    )


#: ``PlayerState.extra`` after a game in ``"game"`` mode (read-only, so one value serves all).
GAME_MODE_EXTRA: Mapping[str, Json] = frozen({KEY_PLAYED: True})


def game_mode_extra() -> Mapping[str, Json]:
    """``PlayerState.extra`` after a game in ``"game"`` mode: the player has been rated."""
    return GAME_MODE_EXTRA


def extra_for(
    period: int | None, base: PlayerState, results: Sequence[PeriodResult]
) -> Mapping[str, Json]:
    """The extra after rating a game: the open period, or the ``"game"``-mode marker."""
    if period is None:
        return game_mode_extra()
    return open_period_extra(OpenPeriod(period, base, tuple(results)))


def adjusted_extra(period: int | None, state: PlayerState) -> Mapping[str, Json]:
    """The extra of an administrator's adjustment (API.md "Rating adjustments").

    In a calendar mode the adjustment is the state at the start of the period containing its
    time: an open period with that base and no results, so the period's games are rated from it
    with no idle growth. In ``"game"`` mode the extra is empty: the next game is rated from the
    adjusted values without a growth step (as for a player's first game).
    """
    if period is None:
        return frozen()
    return open_period_extra(OpenPeriod(period, state, ()))


@dataclass(frozen=True, slots=True)
class Position:
    """Where a player stands when a game of period ``period`` is rated.

    ``state`` is the state to start from (the open period's base when the game falls in the
    player's open period, the current state otherwise) before any idle growth; ``results`` are
    the results the player already has in this period; ``elapsed`` is the number of period
    boundaries between ``state`` and the game's period (0: same period, or no history);
    ``rated`` says whether ``state`` closed a period with results (False for the start of a
    period: an adjustment, or a new player).
    """

    period: int | None
    state: PlayerState
    results: tuple[PeriodResult, ...]
    elapsed: int
    rated: bool


def locate(state: PlayerState, period: int | None) -> Position:
    """Where a player in ``state`` stands for a game in ``period`` (None: ``"game"`` mode).

    * ``"game"`` mode: a rated player is one period past its last game (elapsed 1); a new or
      just-adjusted player starts from its state (elapsed 0).
    * No open period (new player): start from the state, elapsed 0.
    * The game falls in the open period: start from its base with its results, elapsed 0.
    * A later period: start from the current state, ``elapsed`` = the index difference; the
      open period counts as rated when it holds results.
    * An earlier period (never sent by the service, which applies events in time order): a new
      period from the current state with no growth, defensively.
    """
    if period is None:
        played = bool(state.extra.get(KEY_PLAYED))
        return Position(None, state, (), 1 if played else 0, played)
    open_period = read_open_period(state.extra)
    if open_period is None or open_period.period > period:
        return Position(period, state, (), 0, False)
    if open_period.period == period:
        return Position(period, open_period.base, open_period.results, 0, False)
    return Position(period, state, (), period - open_period.period, bool(open_period.results))


def pairwise_scores(
    participants: Sequence[Participant],
) -> tuple[tuple[tuple[int, float], ...], ...]:
    """For each player, its virtual duels by rank: ``(opponent index, S)`` for every opponent.

    SYSTEMS.md "glicko2": multiplayer is pairwise by rank, each opponent one result in the same
    period; the lower rank wins (S = 1), equal ranks draw (S = 1/2).
    """
    return tuple(
        tuple((j, duel_score(me, opponent)) for j, opponent in enumerate(participants) if j != i)
        for i, me in enumerate(participants)
    )
