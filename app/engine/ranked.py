"""Ranked play: policies over a ladder's history that change no system's formula
(SYSTEMS.md "Ranked play" and "Seasons"): provisional status, inactivity decay, divisions, and a
season's reset.

Every function here is pure: a state, an idle time in days, a policy, and the system's initial
state in, a state out. Decay is applied where a rating is read (now, or as of a time) and as the
starting state of a player's next event, so reads, recomputation and as-of reads agree.

Sources: Glickman, "Example of the Glicko-2 system" (2013), step 6 (φ* = √(φ² + σ²), one rating
period's growth), taken per day as lichess does (lila, modules/rating: ``periodsPerDay``
0.21436); Glickman, "The Glicko system" (1995), step 1 (RD = √(RD² + c²t)); Zero-K's Elo decay
(50 points a week, at most 250); FiveThirtyEight's NFL Elo, regression of a third toward 1505
between seasons; Beyond All Reason's season reset of σ (teiserver issue 539).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from app.engine.errors import InvalidParameter
from app.engine.types import Change, Game, Json, Outcome, PlayerKey, PlayerState, frozen

#: Glickman (2013), step 2: Glicko scale ↔ Glicko-2 scale.
GLICKO2_SCALE = 173.7178
DAYS_PER_WEEK = 7.0
SECONDS_PER_DAY = 86_400.0
#: The largest decay rates and delays accepted: beyond them a rating reaches its cap at once.
MAX_RATE = 1e6
MAX_DAYS = 1e6

DecayFamily = Literal["deviation", "sigma", "points"]
#: Which decay each system takes (SYSTEMS.md "Ranked play"); the others refuse one.
DECAY_FAMILY: Mapping[str, DecayFamily] = {
    "glicko2": "deviation",
    "glicko": "deviation",
    "trueskill": "sigma",
    "weng-lin": "sigma",
    "elo": "points",
    "naf": "points",
}


@dataclass(frozen=True, slots=True)
class DeviationGrowth:
    """Glicko-2 and Glicko: the deviation grows as if ``periods_per_day`` empty rating
    periods passed each day: φ² + σ²·(x·t) (Glicko-2, σ the player's volatility) or
    RD² + c²·(x·t) (Glicko), capped at the initial deviation."""

    periods_per_day: float


@dataclass(frozen=True, slots=True)
class SigmaGrowth:
    """TrueSkill and Weng-Lin: σ² + s²·t, capped at the initial σ."""

    sigma_per_day: float


@dataclass(frozen=True, slots=True)
class PointDecay:
    """Elo and NAF (Zero-K): once idle ``after_days``, the rating falls by
    ``points_per_week``·(t − d)/7, at most ``max_points`` in one idle spell."""

    after_days: float
    points_per_week: float
    max_points: float


Decay = DeviationGrowth | SigmaGrowth | PointDecay


@dataclass(frozen=True, slots=True)
class Division:
    name: str
    #: The least ranking value of the division (None for the first).
    min: float | None


def decayed(
    decay: Decay | None,
    state: PlayerState,
    idle_days: float,
    initial: PlayerState,
    growth_constant: float | None = None,
) -> PlayerState:
    """``state`` after ``idle_days`` without an event. ``initial``: the system's initial
    state (the caps); ``growth_constant``: Glicko's c (None for Glicko-2, whose growth is the
    player's volatility)."""
    if decay is None or idle_days <= 0:
        return state
    if isinstance(decay, PointDecay):
        if idle_days - decay.after_days <= 0:
            return state
        fall = point_fall(decay, idle_days)
        return PlayerState(state.rating - fall, state.deviation, state.volatility, state.extra)
    if state.deviation is None or initial.deviation is None:
        return state
    if isinstance(decay, SigmaGrowth):
        grown = math.sqrt(state.deviation**2 + decay.sigma_per_day**2 * idle_days)
    elif growth_constant is not None:  # Glicko: c per period
        grown = math.sqrt(
            state.deviation**2 + growth_constant**2 * decay.periods_per_day * idle_days
        )
    else:  # Glicko-2: the player's volatility per period, on Glickman's scale
        volatility = state.volatility if state.volatility is not None else 0.0
        phi = state.deviation / GLICKO2_SCALE
        grown = math.sqrt(phi**2 + volatility**2 * decay.periods_per_day * idle_days)
        grown *= GLICKO2_SCALE
    deviation = max(state.deviation, min(grown, initial.deviation))
    return PlayerState(state.rating, deviation, state.volatility, state.extra)


def point_fall(decay: PointDecay, idle_days: float) -> float:
    """What Zero-K's decay takes after ``idle_days``: ``points_per_week``·(t − d)/7 once idle
    more than ``after_days`` d, at most ``max_points``. Never less for a longer idle time
    (each step is monotone, and so is its rounding), which a ranked board relies on."""
    idle = idle_days - decay.after_days
    if idle <= 0:
        return 0.0
    return min(decay.max_points, decay.points_per_week * idle / DAYS_PER_WEEK)


def soft_reset(state: PlayerState, fraction: float, initial: PlayerState) -> PlayerState:
    """SYSTEMS.md "Seasons", ``soft``: rating := initial + (rating − initial)·(1 − f); the
    deviation and volatility unchanged."""
    rating = initial.rating + (state.rating - initial.rating) * (1.0 - fraction)
    return PlayerState(rating, state.deviation, state.volatility, state.extra)


def uncertainty_reset(
    state: PlayerState,
    idle_days: float,
    minimum: float,
    min_until_days: float,
    full_after_days: float,
    initial: PlayerState,
) -> PlayerState:
    """SYSTEMS.md "Seasons", ``uncertainty``: deviation := max(deviation, m + (D₀ − m)·clamp((i
    − a)/(b − a), 0, 1)); the mean unchanged."""
    if state.deviation is None or initial.deviation is None:
        return state
    share = (idle_days - min_until_days) / (full_after_days - min_until_days)
    floor = minimum + (initial.deviation - minimum) * min(1.0, max(0.0, share))
    return PlayerState(state.rating, max(state.deviation, floor), state.volatility, state.extra)


ResetKind = Literal["none", "soft", "uncertainty", "hard"]
RESET_KINDS: tuple[ResetKind, ...] = ("none", "soft", "uncertainty", "hard")


@dataclass(frozen=True, slots=True)
class Reset:
    """A season's reset (SYSTEMS.md "Seasons"): ``none`` (states carry over), ``soft``
    (``fraction`` f toward the initial rating), ``uncertainty`` (the deviation raised to a
    floor growing with the idle time: ``minimum`` m, ``min_until_days`` a,
    ``full_after_days`` b) or ``hard`` (back to the initial state)."""

    kind: ResetKind = "none"
    fraction: float = 0.0
    minimum: float = 0.0
    min_until_days: float = 0.0
    full_after_days: float = 0.0

    def apply(self, state: PlayerState, idle_days: float, initial: PlayerState) -> PlayerState:
        """``state`` after the reset, ``idle_days`` after its player's last event."""
        if self.kind == "soft":
            return soft_reset(state, self.fraction, initial)
        if self.kind == "uncertainty":
            return uncertainty_reset(
                state, idle_days, self.minimum, self.min_until_days, self.full_after_days, initial
            )
        if self.kind == "hard":
            return initial
        return state

    def as_json(self) -> dict[str, Json]:
        if self.kind == "soft":
            return {"kind": "soft", "fraction": self.fraction}
        if self.kind == "uncertainty":
            return {
                "kind": "uncertainty",
                "min": self.minimum,
                "min_until_days": self.min_until_days,
                "full_after_days": self.full_after_days,
            }
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class SeasonStart:
    """A season's start as history sees it: at ``at``, ``reset`` applies to every player
    rated before it, before any result at the same instant."""

    season: str
    at: datetime
    reset: Reset


def division(divisions: Sequence[Division] | None, value: float) -> str | None:
    """The last division whose ``min`` is at most ``value``."""
    if not divisions:
        return None
    found = divisions[0].name
    for entry in divisions[1:]:
        if entry.min is not None and entry.min <= value:
            found = entry.name
    return found


def provisional(
    placement_games: int,
    games: int,
    provisional_deviation: float | None,
    deviation: float | None,
) -> bool:
    """Fewer rated games than ``placement_games``, or a deviation at least
    ``provisional_deviation``."""
    if games < placement_games:
        return True
    return (
        provisional_deviation is not None
        and deviation is not None
        and deviation >= provisional_deviation
    )


# -- parameters --------------------------------------------------------------------------


def _number(name: str, value: Json, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidParameter(name, "must be a finite number")
    if not low <= value <= high:
        raise InvalidParameter(name, f"must be between {low:g} and {high:g}")
    return float(value)


def parse_decay(system_id: str, value: Json) -> Decay | None:
    """The ``decay`` parameter of a ladder of ``system_id`` (None: no decay)."""
    if value is None:
        return None
    family = DECAY_FAMILY.get(system_id)
    if family is None:
        raise InvalidParameter(
            "decay",
            f"{system_id!r} takes no decay (SYSTEMS.md: glicko2, glicko, trueskill, weng-lin, "
            "elo and naf do; fundox's zero-sum would break)",
        )
    if not isinstance(value, Mapping):
        raise InvalidParameter("decay", "must be an object")
    fields = {
        "deviation": ("periods_per_day",),
        "sigma": ("sigma_per_day",),
        "points": ("after_days", "points_per_week", "max_points"),
    }[family]
    unknown = sorted(set(value) - set(fields))
    missing = [name for name in fields if name not in value]
    if unknown or missing:
        raise InvalidParameter(
            "decay", f"for {system_id!r} takes exactly {', '.join(fields)} (see GET /systems)"
        )
    if family == "deviation":
        return DeviationGrowth(
            _number("decay.periods_per_day", value["periods_per_day"], 0, MAX_RATE)
        )
    if family == "sigma":
        return SigmaGrowth(_number("decay.sigma_per_day", value["sigma_per_day"], 0, MAX_RATE))
    return PointDecay(
        _number("decay.after_days", value["after_days"], 0, MAX_DAYS),
        _number("decay.points_per_week", value["points_per_week"], 0, MAX_RATE),
        _number("decay.max_points", value["max_points"], 0, MAX_RATE),
    )


def parse_divisions(value: Json) -> tuple[Division, ...] | None:
    """``[{"name": "Bronze"}, {"name": "Silver", "min": 1400}, ...]``: names unique, ``min``
    strictly ascending, the first without one."""
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        raise InvalidParameter("divisions", "must be a non-empty list")
    found: list[Division] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, Mapping) or set(entry) - {"name", "min"} or "name" not in entry:
            raise InvalidParameter("divisions", f"entry {index}: must be {{'name', 'min'?}}")
        name = entry["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= 50:
            raise InvalidParameter("divisions", f"entry {index}: name must be 1-50 characters")
        low = entry.get("min")
        if index == 0 and low is not None:
            raise InvalidParameter("divisions", "the first division has no min")
        if index > 0:
            if low is None:
                raise InvalidParameter("divisions", f"entry {index}: needs a min")
            low = _number(f"divisions.{index}.min", low, -1e9, 1e9)
            previous = found[-1].min
            if previous is not None and low <= previous:
                raise InvalidParameter("divisions", "min must ascend strictly")
        found.append(Division(name, low))
    if len({d.name for d in found}) != len(found):
        raise InvalidParameter("divisions", "names must be unique")
    return tuple(found)


def parse_reset(value: Json, initial: PlayerState | None = None) -> Reset:
    """A season's ``reset`` (SYSTEMS.md "Seasons"); ``initial``: the ladder's initial state,
    whose deviation an ``uncertainty`` reset needs (None: not checked here)."""
    if value is None:
        return Reset()
    if not isinstance(value, Mapping) or not isinstance(value.get("kind"), str):
        raise InvalidParameter("reset", "must be an object with a kind")
    kind = value["kind"]
    fields = {
        "none": (),
        "soft": ("fraction",),
        "uncertainty": ("min", "min_until_days", "full_after_days"),
        "hard": (),
    }.get(kind)
    if fields is None:
        raise InvalidParameter("reset.kind", f"must be one of {', '.join(RESET_KINDS)}")
    unknown = sorted(set(value) - {"kind", *fields})
    missing = [name for name in fields if name not in value]
    if unknown or missing:
        takes = ", ".join(("kind", *fields))
        raise InvalidParameter("reset", f"a {kind} reset takes exactly {takes}")
    if kind == "soft":
        return Reset("soft", fraction=_number("reset.fraction", value["fraction"], 0, 1))
    if kind == "uncertainty":
        if initial is not None and initial.deviation is None:
            raise InvalidParameter("reset.kind", "uncertainty needs a system with a deviation")
        high = MAX_DEVIATION if initial is None or initial.deviation is None else initial.deviation
        minimum = _number("reset.min", value["min"], 0, high)
        until = _number("reset.min_until_days", value["min_until_days"], 0, MAX_DAYS)
        full = _number("reset.full_after_days", value["full_after_days"], 0, MAX_DAYS)
        if full <= until:
            raise InvalidParameter("reset.full_after_days", "must be more than min_until_days")
        return Reset("uncertainty", minimum=minimum, min_until_days=until, full_after_days=full)
    return Reset(kind)


# -- a ladder's policy, and the rater it wraps ---------------------------------------------

#: The ranked-play parameters every game system takes (SYSTEMS.md "Ranked play").
PLACEMENT_GAMES, PROVISIONAL_DEVIATION, DECAY, DIVISIONS = (
    "placement_games", "provisional_deviation", "decay", "divisions",
)  # fmt: skip
NAMES = (PLACEMENT_GAMES, PROVISIONAL_DEVIATION, DECAY, DIVISIONS)
#: Where a state keeps the time of its player's last event, for decay (ISO 8601, UTC).
LAST_EVENT_AT = "last_event_at"
MAX_PLACEMENT_GAMES = 1_000
MAX_DEVIATION = 1e6


@dataclass(frozen=True, slots=True)
class Policy:
    """A ladder's ranked play: none of it changes the system's formula."""

    placement_games: int = 0
    provisional_deviation: float | None = None
    decay: Decay | None = None
    divisions: tuple[Division, ...] | None = None
    #: The raw parameters, as the ladder stores and shows them.
    params: Mapping[str, Json] = field(default_factory=lambda: dict.fromkeys(NAMES))

    @property
    def plain(self) -> bool:
        """No ranked play at all: nothing to read differently from what is stored."""
        return (
            self.placement_games == 0
            and self.provisional_deviation is None
            and self.decay is None
            and self.divisions is None
        )

    def is_provisional(self, games: int, deviation: float | None) -> bool:
        return provisional(self.placement_games, games, self.provisional_deviation, deviation)

    def division_of(self, value: float) -> str | None:
        return division(self.divisions, value)


def parse_policy(system_id: str, has_deviation: bool, given: Mapping[str, Json]) -> Policy:
    """The ranked-play parameters of a game ladder (defaults: none of it)."""
    placement = given.get(PLACEMENT_GAMES, 0)
    if isinstance(placement, bool) or not isinstance(placement, int):
        raise InvalidParameter(PLACEMENT_GAMES, "must be an integer")
    if not 0 <= placement <= MAX_PLACEMENT_GAMES:
        raise InvalidParameter(PLACEMENT_GAMES, f"must be between 0 and {MAX_PLACEMENT_GAMES}")
    raw_deviation = given.get(PROVISIONAL_DEVIATION)
    deviation = None
    if raw_deviation is not None:
        if not has_deviation:
            raise InvalidParameter(PROVISIONAL_DEVIATION, f"{system_id!r} has no deviation")
        deviation = _number(PROVISIONAL_DEVIATION, raw_deviation, 0, MAX_DEVIATION)
    decay = parse_decay(system_id, given.get(DECAY))
    divisions = parse_divisions(given.get(DIVISIONS))
    params: dict[str, Json] = {PLACEMENT_GAMES: placement}
    if has_deviation:
        params[PROVISIONAL_DEVIATION] = deviation
    params |= {DECAY: given.get(DECAY), DIVISIONS: given.get(DIVISIONS)}
    return Policy(placement, deviation, decay, divisions, params)


def last_event_at(state: PlayerState) -> datetime | None:
    stamp = state.extra.get(LAST_EVENT_AT)
    return datetime.fromisoformat(stamp) if isinstance(stamp, str) else None


def idle_days(state: PlayerState, at: datetime) -> float:
    """Days from the state's last event to ``at`` (0 for a state that has none)."""
    last = last_event_at(state)
    return 0.0 if last is None else days_between(last, at)


def days_between(last: datetime, at: datetime) -> float:
    """Days from ``last`` to ``at``, 0 if ``at`` is earlier; never fewer for an earlier
    ``last`` (the difference is exact in microseconds, and its division monotone)."""
    return max(0.0, (at - last).total_seconds() / SECONDS_PER_DAY)


def _stamped(state: PlayerState, at: datetime) -> PlayerState:
    extra = {**state.extra, LAST_EVENT_AT: at.isoformat()}
    return PlayerState(state.rating, state.deviation, state.volatility, frozen(extra))


class Timed:
    """A game rater whose players decay between their events and are reset at the start of
    each season (SYSTEMS.md "Ranked play", "Seasons").

    Each state a game leaves (or an adjustment sets) carries its time (``extra
    ["last_event_at"]``), so both are pure functions of a stored state and the time it is read
    at: a state read at t has gone through every season start s with last event < s ≤ t (a
    reset comes before any result at its instant), each time decayed up to s, reset (idle
    days counted from its last event) and, unless the reset is ``none``, stamped s (a reset
    is an event of each player it resets, as an adjustment is); then decayed up to t. A game
    starts from its players' states read at its time, and its ``details`` say what decay and
    the resets applied. Everything else is the wrapped rater's.
    """

    def __init__(
        self,
        rater: Any,
        decay: Decay | None,
        initial: PlayerState,
        growth_constant: float | None,
        seasons: Sequence[SeasonStart] = (),
    ) -> None:
        self._rater = rater
        self.decay = decay
        self._initial = initial
        self._growth_constant = growth_constant
        #: The season starts that reset something, in time order.
        self.seasons = tuple(sorted((s for s in seasons if s.reset.kind != "none"), key=_at))
        self._starts = [season.at for season in self.seasons]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rater, name)

    @property
    def wrapped(self) -> Any:
        """The system's own rater."""
        return self._rater

    def _decayed(self, state: PlayerState, when: datetime) -> PlayerState:
        if self.decay is None:  # resets alone: no idle time to read (decayed() returns state)
            return state
        idle = idle_days(state, when)
        return decayed(self.decay, state, idle, self._initial, self._growth_constant)

    def resets(self, state: PlayerState, when: datetime) -> tuple[SeasonStart, ...]:
        """The season starts ``state`` goes through when it is read at ``when``."""
        last = last_event_at(state)
        if last is None or not self.seasons:
            return ()
        return self.seasons[bisect_right(self._starts, last) : bisect_right(self._starts, when)]

    def at(self, state: PlayerState, when: datetime) -> PlayerState:
        """``state`` read at ``when``: through the season starts since its player's last
        event, and decayed by the time since then."""
        for season in self.resets(state, when):
            idle = idle_days(state, season.at)
            reset = season.reset.apply(self._decayed(state, season.at), idle, self._initial)
            state = _stamped(reset, season.at)
        return self._decayed(state, when)

    def rate_game(
        self, game: Game, states: Mapping[PlayerKey, PlayerState], ladder_state: Mapping[str, Json]
    ) -> Outcome:
        when = game.played_at
        starts = {key: self.at(state, when) for key, state in states.items()}
        outcome: Outcome = self._rater.rate_game(game, starts, ladder_state)
        changes = []
        for change in outcome.changes:
            stored, start = states[change.key], starts[change.key]
            details = change.details
            if start != stored:
                terms: dict[str, Json] = {}
                resets = self.resets(stored, when)
                if resets:
                    terms["season_reset"] = {
                        "seasons": [season.season for season in resets],
                        "rating": stored.rating,
                        "deviation": stored.deviation,
                    }
                if self.decay is not None:
                    terms["decay"] = {
                        "idle_days": idle_days(stored, when),
                        "rating": stored.rating,
                        "deviation": stored.deviation,
                    }
                details = frozen({**details, **terms})
            changes.append(Change(change.key, change.before, _stamped(change.after, when), details))
        return Outcome(tuple(changes), outcome.ladder_state)

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        state: PlayerState = self._rater.adjusted_state(previous, rating, deviation, volatility, at)
        return _stamped(state, at)


def _at(season: SeasonStart) -> datetime:
    return season.at


def describe(system_id: str) -> dict[str, dict[str, Json]]:
    """What ``GET /systems`` shows of ranked play's parameters on a game system."""
    family = DECAY_FAMILY.get(system_id)
    decay_fields = {
        "deviation": '{"periods_per_day": x}: the deviation grows as x empty rating periods a day',
        "sigma": '{"sigma_per_day": s}: sigma^2 grows by s^2 a day',
        "points": '{"after_days": d, "points_per_week": p, "max_points": m}: once idle d days '
        "the rating falls by p a week, at most m",
    }
    described: dict[str, dict[str, Json]] = {
        PLACEMENT_GAMES: {
            "type": "integer",
            "default": 0,
            "minimum": 0,
            "maximum": MAX_PLACEMENT_GAMES,
            "description": "Rated games a player is provisional for (in the current season), "
            "left out of leaderboards unless asked.",
        },
        DECAY: {
            "type": "object",
            "default": None,
            "description": (
                f"Inactivity decay (null: none): {decay_fields[family]}; applied on read and "
                "before a player's next event."
                if family is not None
                else f"{system_id!r} takes no decay: null only."
            ),
        },
        DIVISIONS: {
            "type": "array",
            "default": None,
            "description": '[{"name"}, {"name", "min"}, ...]: divisions by ascending min '
            "of the (decayed) ranking value; null: none.",
        },
    }
    if family in ("deviation", "sigma"):
        described[PROVISIONAL_DEVIATION] = {
            "type": "number",
            "default": None,
            "minimum": 0,
            "maximum": MAX_DEVIATION,
            "description": "A player whose deviation is at least this is provisional (lichess: "
            "110); null: never by deviation.",
        }
    return described
