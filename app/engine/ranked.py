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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.engine.errors import InvalidParameter
from app.engine.types import Json, PlayerState

#: Glickman (2013), step 2: Glicko scale ↔ Glicko-2 scale.
GLICKO2_SCALE = 173.7178
DAYS_PER_WEEK = 7.0
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
        idle = idle_days - decay.after_days
        if idle <= 0:
            return state
        fall = min(decay.max_points, decay.points_per_week * idle / DAYS_PER_WEEK)
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
