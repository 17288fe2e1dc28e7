"""``wpe`` — World Performance Evaluation (Lei Saarlainen).

Source: seed 001_f1e33522112d1554.txt names the system but gives no formula ("points for the
top 50% of a tournament and the value of different tournaments"); the rules here are the
currently published WPE as SYSTEMS.md "wpe" states them.

``score = (influence + inflow) × base(place)``:

* influence by event class: world championship 12, continental championship 9, main
  tournament 5, minor 2;
* inflow by the effective player count (100+: 6, 85–99: 5.5, 70–84: 5, 60–69: 4.5, 50–59: 4,
  42–49: 3.5, 35–41: 3, 28–34: 2.5, 21–27: 2, 14–20: 1, 7–13: 0); the effective count of a
  world championship below 75 players is (N + 75)/2, of a continental one below 50 (N + 50)/2;
* n awarded places by effective count (150+: 13, 120–149: 12, 95–119: 11, 70–94: 10,
  49–69: 9, 35–48: 8, 28–34: 7, 21–27: 6, 14–20: 5, 7–13: 4), +2 for a world and +1 for a
  continental championship;
* base = 12, 8, 6, 4 for places 1–4, then 4 − (k − 4)·4/(n − 3) for place k ≤ n, 0 below.

The ranking is the sum of a player's scores over the last ``window_years`` years.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import MINYEAR, date, datetime

from app.engine.base import RatingSystem
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.params import (
    SCALE_LIMIT,
    ParamSpec,
    non_increasing_entries,
    nonnegative_number,
)
from app.engine.placements import (
    Place,
    StandingRule,
    StandingsRater,
    player_count,
    validate_standings,
)
from app.engine.protocols import SystemInfo
from app.engine.sources import BIRSAN_RANKING_SYSTEMS
from app.engine.types import Json, Placement, PlayerState, Tournament, frozen

#: The class a World Championship always has (SYSTEMS.md: world_championship implies it).
WORLD = "world"
#: The continental championship class.
CONTINENTAL = "continental"

#: Influence by event class (SYSTEMS.md "wpe").
DEFAULT_INFLUENCE: dict[str, float] = {WORLD: 12.0, CONTINENTAL: 9.0, "main": 5.0, "minor": 2.0}
#: Inflow by effective player count: rows [lowest effective count, inflow] (SYSTEMS.md "wpe").
DEFAULT_INFLOW: tuple[tuple[float, float], ...] = (
    (100.0, 6.0),
    (85.0, 5.5),
    (70.0, 5.0),
    (60.0, 4.5),
    (50.0, 4.0),
    (42.0, 3.5),
    (35.0, 3.0),
    (28.0, 2.5),
    (21.0, 2.0),
    (14.0, 1.0),
    (7.0, 0.0),
)
#: Awarded places by effective player count: rows [lowest effective count, places].
DEFAULT_AWARDED_PLACES: tuple[tuple[float, int], ...] = (
    (150.0, 13),
    (120.0, 12),
    (95.0, 11),
    (70.0, 10),
    (49.0, 9),
    (35.0, 8),
    (28.0, 7),
    (21.0, 6),
    (14.0, 5),
    (7.0, 4),
)
#: Awarded places added by class: "+2 for a world, +1 for a continental championship".
DEFAULT_EXTRA_PLACES: dict[str, int] = {WORLD: 2, CONTINENTAL: 1}
#: Effective count floors by class: below F players the effective count is (N + F)/2.
DEFAULT_EFFECTIVE_FLOOR: dict[str, float] = {WORLD: 75.0, CONTINENTAL: 50.0}
#: The tables by class whose published entries a ladder's influence need not name.
PUBLISHED_BY_CLASS: dict[str, Mapping[str, float]] = {
    "extra_places": DEFAULT_EXTRA_PLACES,
    "effective_floor": DEFAULT_EFFECTIVE_FLOOR,
}
#: Base points of the first places: 12, 8, 6, 4 for places 1–4 (SYSTEMS.md "wpe").
DEFAULT_BASE: tuple[float, ...] = (12.0, 8.0, 6.0, 4.0)
#: "the last 5 years" (SYSTEMS.md "wpe").
DEFAULT_WINDOW_YEARS = 5
#: Halfway between N and the floor: (N + F)/2.
HALF = 2.0
#: Below the smallest row of a table: no inflow, no awarded places; past n: base 0.
NOTHING = 0.0
#: A ranking is a sum of scores, starting from nothing.
INITIAL_TOTAL = 0.0
#: Where a player's scored events live in PlayerState.extra.
EVENTS = "events"
#: The limit of the window parameter (years).
MAX_WINDOW_YEARS = 100
#: Where an unknown class, or a missing one, points in the tournament's body.
CLASS_FIELD = "class"


def _check_by_class(value: Json) -> None:
    for name, v in value.items():
        nonnegative_number(v, f"the value of {name!r}")


def _check_influence(value: Json) -> None:
    _check_by_class(value)
    if WORLD not in value:
        raise ValueError(f"must give the {WORLD!r} class (every World Championship has it)")


def _check_extra_places(value: Json) -> None:
    for name, v in value.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"the value of {name!r} must be an integer >= 0")


def _row_checker(integer_values: bool) -> Callable[[Json], None]:
    def check(value: Json) -> None:
        if not value:
            raise ValueError("must have at least one row")
        previous = math.inf
        for i, row in enumerate(value):
            if not isinstance(row, list | tuple) or len(row) != 2:
                raise ValueError(f"row {i} must be [lowest effective count, value]")
            low = nonnegative_number(row[0], f"row {i}'s effective count")
            if low >= previous:
                raise ValueError("rows must go from the largest effective count down")
            previous = low
            if integer_values and (isinstance(row[1], bool) or not isinstance(row[1], int)):
                raise ValueError(f"row {i}'s value must be an integer")
            nonnegative_number(row[1], f"row {i}'s value")

    return check


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "influence",
        "object",
        dict(DEFAULT_INFLUENCE),
        "Influence by event class (world 12, continental 9, main 5, minor 2); the event's "
        "'class' must be one of these names.",
        check=_check_influence,
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "inflow",
        "array",
        [list(row) for row in DEFAULT_INFLOW],
        "Inflow by effective player count: rows [lowest effective count, inflow], largest "
        "first; below the last row the inflow is 0.",
        check=_row_checker(integer_values=False),
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "awarded_places",
        "array",
        [list(row) for row in DEFAULT_AWARDED_PLACES],
        "Awarded places by effective player count: rows [lowest effective count, places], "
        "largest first; below the last row no place is awarded.",
        check=_row_checker(integer_values=True),
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "extra_places",
        "object",
        dict(DEFAULT_EXTRA_PLACES),
        "Awarded places added by event class (world +2, continental +1).",
        check=_check_extra_places,
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "effective_floor",
        "object",
        dict(DEFAULT_EFFECTIVE_FLOOR),
        "Effective player count by class: below F players it is (N + F)/2 "
        "(world 75, continental 50).",
        check=_check_by_class,
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "base",
        "array",
        list(DEFAULT_BASE),
        "Base points of places 1..m (12, 8, 6, 4); places m < k <= n fall linearly from the "
        "last entry: b_m - (k - m)*b_m/(n - m + 1).",
        check=non_increasing_entries(
            "base points must not increase with the place", non_empty=True
        ),
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "window_years",
        "integer",
        DEFAULT_WINDOW_YEARS,
        "The ranking sums the scores of events held within this many years up to the "
        "current event (later than the same day window_years earlier).",
        minimum=1,
        maximum=MAX_WINDOW_YEARS,
    ),
)

INFO = SystemInfo(
    id="wpe",
    title="World Performance Evaluation",
    kind="tournament",
    description=(
        "Lei Saarlainen's WPE: score = (influence + inflow) * base(place), influence by event "
        "class, inflow and awarded places by effective player count; the ranking sums a "
        "player's scores over the last 5 years."
    ),
    sources=(BIRSAN_RANKING_SYSTEMS, "SYSTEMS.md: wpe"),
    params=PARAMS,
)


def effective_count(N: int, floor: float | None) -> float:
    """N, or (N + F)/2 when the class has a floor F and N < F (SYSTEMS.md "wpe")."""
    if floor is not None and floor > N:
        return (N + floor) / HALF
    return float(N)


def lookup(rows: Sequence[Sequence[float]], effective: float) -> float:
    """The value of the first row (largest first) whose lowest count is <= ``effective``."""
    for low, value in rows:
        if effective >= low:
            return float(value)
    return NOTHING


def base_points(base: Sequence[float], n: int, k: int) -> float:
    """base(k) for n awarded places: the table for k <= m, then b_m − (k − m)·b_m/(n − m + 1)
    down to place n, 0 below (defaults: 4 − (k − 4)·4/(n − 3); SYSTEMS.md "wpe")."""
    if k > n:
        return NOTHING
    m = len(base)
    if k <= m:
        return float(base[k - 1])
    last = float(base[m - 1])
    return last - (k - m) * last / (n - m + 1)


def window_start(held_on: date, years: int) -> date | None:
    """The same day ``years`` years before ``held_on`` (29 February → 28 February), or None
    when that day falls before the calendar's first year: the window then holds every event
    up to ``held_on``."""
    year = held_on.year - years
    if year < MINYEAR:
        return None
    try:
        return held_on.replace(year=year)
    except ValueError:  # 29 February, in a year without it
        return held_on.replace(year=year, day=held_on.day - 1)


def _events(state: PlayerState) -> list[tuple[date, float]]:
    raw = state.extra.get(EVENTS) or []
    return [(date.fromisoformat(str(row[0])), float(row[1])) for row in raw]


def _in_window(
    events: list[tuple[date, float]], start: date | None, end: date
) -> list[tuple[date, float]]:
    """The events held after ``start`` (None: from the calendar's start) up to ``end``."""
    return [(d, v) for d, v in events if (start is None or start < d) and d <= end]


def _state(events: list[tuple[date, float]], extra: Mapping[str, Json]) -> PlayerState:
    out = dict(extra)
    out[EVENTS] = [[d.isoformat(), v] for d, v in events]
    return PlayerState(rating=math.fsum(v for _, v in events), extra=frozen(out))


@dataclass(frozen=True, slots=True)
class WpeConfig:
    """A ladder's WPE parameters, checked and typed: the tables by class and by effective
    player count, the base points and the window."""

    influence: Mapping[str, float]
    inflow: tuple[tuple[float, float], ...]
    awarded_places: tuple[tuple[float, int], ...]
    extra_places: Mapping[str, int]
    effective_floor: Mapping[str, float]
    base: tuple[float, ...]
    window_years: int

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> WpeConfig:
        """The typed configuration; InvalidParameter when ``extra_places`` or
        ``effective_floor`` names a class missing from ``influence`` (a typo no event could
        use), unless with the published value (:data:`PUBLISHED_BY_CLASS`): a ladder with its
        own classes keeps those tables' defaults, which then concern no event."""
        classes = params["influence"]
        for name, published in PUBLISHED_BY_CLASS.items():
            unknown = sorted(
                k
                for k, v in params[name].items()
                if k not in classes and (k not in published or published[k] != v)
            )
            if unknown:
                raise InvalidParameter(
                    name, f"names classes missing from influence: {', '.join(unknown)}"
                )
        return cls(
            influence=frozen({k: float(v) for k, v in classes.items()}),
            inflow=tuple((float(low), float(value)) for low, value in params["inflow"]),
            awarded_places=tuple(
                (float(low), int(value)) for low, value in params["awarded_places"]
            ),
            extra_places=frozen({k: int(v) for k, v in params["extra_places"].items()}),
            effective_floor=frozen({k: float(v) for k, v in params["effective_floor"].items()}),
            base=tuple(float(b) for b in params["base"]),
            window_years=int(params["window_years"]),
        )

    @property
    def classes(self) -> str:
        """The configured event classes, for error messages."""
        return ", ".join(sorted(self.influence))


@dataclass(frozen=True, slots=True)
class WpeRater(StandingsRater[WpeConfig]):
    """A WPE ladder with resolved parameters."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=INITIAL_TOTAL, extra=frozen({EVENTS: []}))

    def event_class(self, tournament: Tournament) -> str:
        """The event's class; a World Championship is always of class 'world'."""
        if tournament.world_championship:
            return WORLD
        return str(tournament.event_class)

    def validate_tournament(self, tournament: Tournament) -> None:
        """The standings' rules, and the event's class: one of the ladder's ``influence``
        classes (a World Championship's is 'world', given or not)."""
        validate_standings(tournament)
        known = self.config.classes
        cls = tournament.event_class
        if tournament.world_championship:
            if cls is not None and cls != WORLD:
                raise InvalidEvent(
                    (CLASS_FIELD,), f"a World Championship has class {WORLD!r}, got {cls!r}"
                )
            return
        if cls is None:
            raise InvalidEvent((CLASS_FIELD,), f"wpe needs the event class (one of: {known})")
        if cls not in self.config.influence:
            raise InvalidEvent(
                (CLASS_FIELD,),
                f"unknown event class {cls!r}: this ladder's classes are {known} "
                "(its influence parameter)",
            )

    def standing_rule(self, tournament: Tournament) -> StandingRule:
        config = self.config
        standings = tournament.standings
        N = player_count(standings)
        cls = self.event_class(tournament)
        influence = config.influence[cls]
        effective = effective_count(N, config.effective_floor.get(cls))
        inflow = lookup(config.inflow, effective)
        n = int(lookup(config.awarded_places, effective)) + config.extra_places.get(cls, 0)
        base = config.base
        start = window_start(tournament.held_on, config.window_years)

        def rule(s: Placement, p: Place, old: PlayerState) -> tuple[PlayerState, dict[str, Json]]:
            b = p.mean_over(lambda k: base_points(base, n, k))
            score = (influence + inflow) * b
            previous = _events(old)
            kept = _in_window(previous, start, tournament.held_on)
            dropped = math.fsum(v for _, v in previous) - math.fsum(v for _, v in kept)
            if score != NOTHING:
                kept.append((tournament.held_on, score))
            return _state(kept, old.extra), {
                "points": score,
                "influence": influence,
                "inflow": inflow,
                "effective_players": effective,
                "awarded_places": n,
                "base": b,
                "place": p.rank,
                "tied": p.tied,
                "players": N,
                "class": cls,
                "window_start": None if start is None else start.isoformat(),
                "dropped_points": dropped,
            }

        return rule

    def adjusted_rating(
        self, previous: PlayerState | None, rating: float, at: datetime
    ) -> PlayerState:
        """An adjustment is kept as a scored entry dated ``at``: the difference between the
        new rating and the window's sum at ``at``; it leaves the window like an event."""
        state = previous if previous is not None else self.initial_state({})
        day = at.date()
        kept = _in_window(_events(state), window_start(day, self.config.window_years), day)
        offset = rating - math.fsum(v for _, v in kept)
        if offset != NOTHING:
            kept.append((day, offset))
        return _state(kept, state.extra)


SYSTEM = RatingSystem(info=INFO, config=WpeConfig.from_params, rater=WpeRater)
