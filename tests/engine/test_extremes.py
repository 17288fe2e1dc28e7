"""Every registered system at the ends of its parameters' ranges and with extreme states
(issue 23 item 3): nothing but InvalidEvent (NonFiniteResult included) may come out of the
engine, and whatever it returns is finite.

The property drives each system the way the services do: configure the ladder, check each
event (``validate_game`` / ``validate_tournament`` / ``adjusted_state``), rate it with
``rate_event`` from the running states, and read the results back (``standing``,
``rating_floor``, a duel system's ``expected_score``). Parameters are drawn from each
ParamSpec's own range (its ends included) and tables are the defaults with every value set to
an end of the range, so a new system is covered as soon as it is registered.

Below it, the three 500s the attack on main found, each reproduced.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.engine import glicko, glicko2, wpe
from app.engine.base import RATING_LIMIT
from app.engine.diplomacy import POWERS, SOLO_CENTRES
from app.engine.errors import (
    InvalidEvent,
    InvalidParameter,
    IterationLimit,
    NonFiniteResult,
    arithmetic_refused,
)
from app.engine.glicko_family import DEVIATION_MAX, MAX_RATING_OFFSET
from app.engine.ledger import rate_event
from app.engine.params import ParamSpec
from app.engine.protocols import DuelRater, Rater, SystemInfo, WholeHistoryRater, key_for
from app.engine.registry import SYSTEMS
from app.engine.types import (
    Adjustment,
    EventContext,
    Game,
    Json,
    LadderEvent,
    Participant,
    Placement,
    PlayerKey,
    PlayerState,
    Tournament,
)

NAMES = ("a", "b", "c", "d", "e", "f", "g")
#: Every game's players play this faction (NAF rates per race; other systems ignore it).
FACTION = "orc"
#: Table sizes the systems accept, where they are not 2 to 7.
GAME_SIZES = {"naf": (2, 2), "fundox": (2, 4)}
#: The calendar's ends and the days around a leap day, where date arithmetic breaks first.
EDGE_DAYS = (
    date.min,
    date(1, 3, 1),
    date(4, 2, 29),
    date(5, 12, 31),
    date(2024, 2, 29),
    date(9999, 12, 31),
)
#: The largest finite float.
HUGE = 1.7976931348623157e308


# --- parameters -----------------------------------------------------------------------------


def _replace_values(value: Json, number: float) -> Json:
    """``value`` with every value number set to ``number`` (an int where it held one); the
    first entry of a [lowest count, value] row is a key and is kept."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return int(number) if isinstance(value, int) else float(number)
    if isinstance(value, dict):
        return {k: _replace_values(v, number) for k, v in value.items()}
    if isinstance(value, list):
        rows = all(isinstance(item, list) and len(item) == 2 for item in value) and value
        if rows:
            return [[row[0], _replace_values(row[1], number)] for row in value]
        return [_replace_values(item, number) for item in value]
    return value


def _ends(spec: ParamSpec) -> list[float]:
    """The ends of a spec's range (the smallest number above an exclusive minimum)."""
    assert spec.minimum is not None, spec.name
    assert spec.maximum is not None, spec.name
    low = math.nextafter(spec.minimum, math.inf) if spec.exclusive_minimum else spec.minimum
    return [low, spec.maximum]


def _table_candidates(system_id: str, spec: ParamSpec) -> list[Json]:
    """The default table and its every-value-at-an-end variants the system accepts."""
    system = SYSTEMS[system_id]
    candidates: list[Json] = [spec.default]
    if spec.minimum is not None:
        for end in _ends(spec):
            variant = _replace_values(spec.default, end)
            try:
                system.configure({spec.name: variant})
            except InvalidParameter:
                continue
            candidates.append(variant)
    return candidates


def param_value(system_id: str, spec: ParamSpec) -> st.SearchStrategy[Json]:
    if spec.type == "number":
        low, high = _ends(spec)
        return st.sampled_from([low, high, spec.default]) | st.floats(low, high)
    if spec.type == "integer":
        low, high = (int(end) for end in _ends(spec))
        return st.sampled_from([low, high, spec.default]) | st.integers(low, high)
    if spec.choices is not None:
        return st.sampled_from(spec.choices)
    if spec.type == "date":
        return st.sampled_from([*(d.isoformat() for d in EDGE_DAYS), spec.default])
    return st.sampled_from(_table_candidates(system_id, spec))


@st.composite
def ladder_params(draw: st.DrawFn, system_id: str) -> dict[str, Json]:
    return {
        spec.name: draw(param_value(system_id, spec)) for spec in SYSTEMS[system_id].info.params
    }


# --- events ---------------------------------------------------------------------------------


def moments() -> st.SearchStrategy[datetime]:
    edges = [datetime.combine(d, datetime.min.time()) for d in EDGE_DAYS]
    edges.append(datetime.max.replace(microsecond=0))
    return st.sampled_from(edges) | st.datetimes(datetime(1, 1, 1), datetime(9999, 12, 31))


def ratings() -> st.SearchStrategy[float]:
    """Ratings an adjustment may set on a plain system (its ends included), and now and then
    one past them (refused)."""
    return (
        st.sampled_from([0.0, -RATING_LIMIT, RATING_LIMIT])
        | st.floats(-RATING_LIMIT, RATING_LIMIT)
        | st.floats(-1e4, 1e4)
        | st.sampled_from([-HUGE, HUGE])
    )


@st.composite
def adjustment(draw: st.DrawFn, system_id: str, rater: Rater, at: datetime) -> Adjustment:
    """An administrator's adjustment: a deviation and a volatility where the system has
    them, ratings anywhere for plain systems and near the Glicko family's range for it."""
    initial = rater.initial_state(rater.initial_ladder_state())
    rating = draw(ratings())
    deviation = volatility = None
    if initial.deviation is not None:
        offset = st.sampled_from([-MAX_RATING_OFFSET, MAX_RATING_OFFSET]) | st.floats(
            -MAX_RATING_OFFSET, MAX_RATING_OFFSET
        )
        rating = initial.rating + draw(offset)
        # From the Glicko family's least RD (1) or, below it, a new player's deviation
        # (TrueSkill and Weng-Lin take sigma down to 0.001).
        least = min(1.0, initial.deviation)
        deviation = draw(st.none() | st.just(least) | st.floats(least, initial.deviation))
    if initial.volatility is not None:
        volatility = draw(st.none() | st.sampled_from([1e-9, 1.0]) | st.floats(1e-9, 1.0))
    player = draw(st.sampled_from(NAMES))
    key = key_for(SYSTEMS[system_id].info, player, FACTION)
    return Adjustment(key, at, rating, deviation, volatility)


@st.composite
def diplomacy_players(draw: st.DrawFn, start_year: int) -> tuple[Participant, ...]:
    """Seven powers with a valid result: a solo (18+ centres) or a draw of rank-1 survivors,
    eliminated players with a year at or after the game's first year."""
    names = draw(st.permutations(NAMES))
    winners = draw(st.integers(1, 4))
    centres = [0] * len(POWERS)
    if winners == 1:
        centres[0] = draw(st.integers(SOLO_CENTRES, 34))
    else:
        for i in range(winners):
            centres[i] = draw(st.integers(1, 34 // winners))
    left = 34 - sum(centres)
    for i in range(winners, len(POWERS)):
        centres[i] = draw(st.integers(0, min(left, SOLO_CENTRES - 1)))
        left -= centres[i]
    return tuple(
        Participant(
            names[i],
            1 if i < winners else 2,
            faction=power,
            centres=centres[i],
            eliminated_in=start_year if centres[i] == 0 else None,
        )
        for i, power in enumerate(POWERS)
    )


@st.composite
def game(draw: st.DrawFn, system_id: str, rater: Rater, at: datetime) -> Game:
    if system_id in ("nadf", "kinzett"):
        start = getattr(rater.config, "start_year", 1901)  # type: ignore[attr-defined]
        return Game(at, draw(diplomacy_players(start)))
    fewest, most = GAME_SIZES.get(system_id, (2, len(NAMES)))
    size = draw(st.integers(fewest, most))
    names = draw(st.permutations(NAMES))[:size]
    players = tuple(Participant(n, draw(st.integers(1, size)), faction=FACTION) for n in names)
    event = EventContext(
        coaches=draw(st.none() | st.integers(1, 100_000)), major=draw(st.booleans())
    )
    return Game(at, players, rated=draw(st.booleans()), event=event)


@st.composite
def tournament(draw: st.DrawFn, rater: Rater, held_on: date) -> Tournament:
    size = draw(st.integers(2, len(NAMES)))
    scores = [draw(st.integers(0, 3)) for _ in range(size)]
    ranks = [1 + sum(1 for other in scores if other > mine) for mine in scores]
    names = draw(st.permutations(NAMES))[:size]
    standings = tuple(
        Placement(n, r, centres=draw(st.integers(0, 34))) for n, r in zip(names, ranks, strict=True)
    )
    # WPE's classes (any class for the other systems, which ignore it), an unknown one now
    # and then, and a World Championship's own.
    classes = sorted(getattr(rater.config, "influence", {"main": 0.0}))
    world = draw(st.booleans())
    others = [*classes, *classes, "unknown"]
    event_class = draw(st.sampled_from([None, wpe.WORLD] if world else others))
    return Tournament(
        held_on,
        draw(st.integers(1, 1000)),
        standings,
        world_championship=world,
        event_class=event_class,
    )


@st.composite
def history(draw: st.DrawFn, system_id: str, rater: Rater) -> list[LadderEvent]:
    times = sorted(draw(st.lists(moments(), min_size=1, max_size=12)))
    kind = SYSTEMS[system_id].info.kind
    events: list[LadderEvent] = []
    for at in times:
        if draw(st.integers(0, 3)) == 0:
            events.append(draw(adjustment(system_id, rater, at.replace(tzinfo=UTC))))
        elif kind == "game":
            events.append(draw(game(system_id, rater, at.replace(tzinfo=UTC))))
        else:
            events.append(draw(tournament(rater, at.date())))
    return events


# --- the property ---------------------------------------------------------------------------


def _numbers(value: Json) -> Iterator[float]:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int | float):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _numbers(item)
    else:
        for item in value:
            yield from _numbers(item)


def _finite_state(state: PlayerState) -> None:
    for value in (state.rating, state.deviation, state.volatility, *_numbers(state.extra)):
        assert value is None or math.isfinite(value), state


def validate(rater: Rater, event: LadderEvent) -> None:
    """The services' check before rating (app/services/ledger.py ``validate``)."""
    if isinstance(event, Game):
        rater.validate_game(event)  # type: ignore[attr-defined]
    elif isinstance(event, Tournament):
        rater.validate_tournament(event)  # type: ignore[attr-defined]
    else:
        rater.adjusted_state(None, event.rating, event.deviation, event.volatility, event.at)


def drive(info: SystemInfo, rater: Rater, events: list[LadderEvent]) -> None:
    """Check, rate and read back ``events`` in order; only InvalidEvent may be raised."""
    if info.whole_history:
        drive_fit(cast(WholeHistoryRater, rater), events)
        return
    states: dict[PlayerKey, PlayerState] = {}
    ladder = rater.initial_ladder_state()
    for event in events:
        try:
            validate(rater, event)
            outcome = rate_event(info, rater, event, states, ladder)
        except InvalidEvent:
            continue
        for change in outcome.changes:
            _finite_state(change.after)
            assert all(math.isfinite(n) for n in _numbers(change.details)), change.details
            states[change.key] = change.after
        ladder = outcome.ladder_state
        floor = rater.rating_floor(ladder)
        assert floor is None or math.isfinite(floor)
        for state in states.values():
            standing = rater.standing(state)
            for value in (standing.rating, standing.deviation, standing.ranking_value):
                assert value is None or math.isfinite(value)
        if info.duel:
            duel = cast(DuelRater, rater)
            for me in states.values():
                for other in states.values():
                    assert 0.0 <= duel.expected_score(me, other) <= 1.0


def drive_fit(rater: WholeHistoryRater, events: list[LadderEvent]) -> None:
    """A whole-history system: the valid games fitted together, as the service does after a
    write; an arithmetic failure of the fit is the NonFiniteResult the service answers
    (``arithmetic_refused``, as ``rate_event`` makes it), and every curve point is finite."""
    games: list[Game] = []
    for event in events:
        try:
            validate(rater, event)
        except InvalidEvent:
            continue
        assert isinstance(event, Game)  # the systems refuse every adjustment
        games.append(event)
    try:
        with arithmetic_refused("players"):
            fit = rater.fit(games)
    except NonFiniteResult:
        return
    for curve in fit.curves.values():
        for point in curve:
            assert math.isfinite(point.rating), point
            assert math.isfinite(point.deviation), point
            standing = rater.standing(rater.state_of(point))
            assert math.isfinite(standing.rating)


@pytest.mark.parametrize("system_id", list(SYSTEMS))
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_extreme_parameters_and_states_raise_nothing_but_invalid_event(
    system_id: str, data: st.DataObject
) -> None:
    system = SYSTEMS[system_id]
    params = data.draw(ladder_params(system_id), label="params")
    try:
        rater = system.configure(params)
    except InvalidParameter:
        assume(False)  # a rule tying several parameters together (WPE, DAANZ)
        return
    events = data.draw(history(system_id, rater), label="events")
    drive(system.info, rater, events)


def test_every_parameter_has_a_range_or_choices() -> None:
    """GET /systems shows each number's range: every numeric parameter and every table has
    a minimum and a maximum; strings have their choices or are dates or tables of names."""
    for system in SYSTEMS.values():
        for spec in system.info.params:
            if spec.type in ("number", "integer"):
                assert spec.minimum is not None, spec.name
                assert spec.maximum is not None, spec.name
                assert "maximum" in spec.describe()
            elif spec.type == "string":
                assert spec.choices is not None, spec.name
            elif spec.type in ("object", "array") and spec.name != "classifications":
                assert spec.minimum is not None, spec.name
                assert spec.maximum is not None, spec.name


def test_a_huge_integer_parameter_is_refused_not_a_crash() -> None:
    # JSON integers have no limit; float() of 10^400 overflows.
    huge = 10**400
    for system_id, name in (("elo", "k"), ("naf", "max_coaches"), ("wpe", "base")):
        value: Json = [huge] if name == "base" else huge
        with pytest.raises(InvalidParameter) as raised:
            SYSTEMS[system_id].configure({name: value})
        assert raised.value.name == name


# --- the three 500s of issue 23, item 3 -----------------------------------------------------


def _ordinary_games(count: int, seed: int) -> Iterator[Game]:
    """Two-player games among ten players, one a minute, the better-numbered player winning
    two games in three (a fixed pseudo-random sequence)."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    players = [f"p{i}" for i in range(10)]
    for n in range(count):
        a, b = sorted(rng.sample(players, 2))
        first = rng.random() < 2 / 3
        yield Game(
            start + timedelta(minutes=n),
            (Participant(a, 1 if first else 2), Participant(b, 2 if first else 1)),
        )


def _replay(
    system: Any, rater: Rater, events: Iterator[LadderEvent]
) -> dict[PlayerKey, PlayerState]:
    states: dict[PlayerKey, PlayerState] = {}
    ladder = rater.initial_ladder_state()
    for event in events:
        outcome = rate_event(system.info, rater, event, states, ladder)
        for change in outcome.changes:
            states[change.key] = change.after
        ladder = outcome.ladder_state
    return states


@pytest.mark.parametrize(("module", "deviation"), [(glicko2, 30_000.0), (glicko, 100_000.0)])
def test_an_initial_deviation_past_the_range_is_refused(module: Any, deviation: float) -> None:
    """Glicko-2 with initial_deviation 30,000 overflowed after about 1,470 ordinary games and
    Glicko with 100,000 divided by zero: both are now refused when the ladder is configured."""
    with pytest.raises(InvalidParameter) as raised:
        module.SYSTEM.configure({"initial_deviation": deviation})
    assert raised.value.name == "initial_deviation"
    assert f"{DEVIATION_MAX:g}" in raised.value.message


@pytest.mark.parametrize("module", [glicko2, glicko])
def test_the_largest_initial_deviation_rates_ordinary_games(module: Any) -> None:
    rater = module.SYSTEM.configure({"initial_deviation": DEVIATION_MAX})
    states = _replay(module.SYSTEM, rater, _ordinary_games(2000, seed=23))
    for state in states.values():
        _finite_state(state)
        assert 1.0 <= (state.deviation or 0.0) <= DEVIATION_MAX


def test_wpe_events_near_year_one_are_rated() -> None:
    """WPE raised ValueError for any event dated within window_years of year 1 (the window's
    start, held_on.replace(year=held_on.year - window_years), is before the calendar)."""
    rater = wpe.SYSTEM.configure({"window_years": 5})
    first = Tournament(date(3, 6, 1), 1, (Placement("a", 1), Placement("b", 2)), event_class="main")
    rater.validate_tournament(first)
    states = _replay(wpe.SYSTEM, rater, iter([first]))
    # Two players: effective 2, below the last inflow row (0) and awarded-places row (no
    # place), so no points; the window reaches back to the calendar's start.
    assert states[PlayerKey("a")].rating == 0.0
    outcome = rate_event(wpe.SYSTEM.info, rater, first, states, {})
    assert outcome.changes[0].details["window_start"] is None
    # An adjustment at year 1 (the services check it with adjusted_state(None, ...)).
    at = datetime(1, 1, 1, tzinfo=UTC)
    adjusted = rater.adjusted_state(None, 10.0, None, None, at)
    assert adjusted.rating == 10.0
    # The same day 5 years after the calendar's start still has a window start: year 1.
    assert wpe.window_start(date(6, 1, 1), 5) == date(1, 1, 1)
    assert wpe.window_start(date(5, 12, 31), 5) is None
    assert wpe.window_start(date(2024, 2, 29), 5) == date(2019, 2, 28)


def test_an_overflow_inside_a_system_is_a_non_finite_result_naming_the_players() -> None:
    """Glicko-2, default parameters, two adjusted players 10,000 points apart: 150 upsets in
    one day put the underdog far out (each result moves it by about phi'^2 on the Glicko-2
    scale), and the next day's game overflows Delta^2 in step 5. The engine reports it as the
    event's error, not an OverflowError."""
    rater = glicko2.SYSTEM.configure({"period": "day"})
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    adjustments = [
        Adjustment(PlayerKey("low"), start, 1500.0 - MAX_RATING_OFFSET, 350.0),
        Adjustment(PlayerKey("high"), start, 1500.0 + MAX_RATING_OFFSET, 1.0),
    ]
    upsets = [
        Game(start + timedelta(minutes=i), (Participant("low", 1), Participant("high", 2)))
        for i in range(150)
    ]
    states = _replay(glicko2.SYSTEM, rater, iter([*adjustments, *upsets]))
    next_day = Game(start + timedelta(days=1), (Participant("low", 1), Participant("high", 2)))
    with pytest.raises(NonFiniteResult) as raised:
        rate_event(glicko2.SYSTEM.info, rater, next_day, states, {})
    assert raised.value.loc == ("players",)
    assert "OverflowError" in raised.value.message


class _Failing:
    """A tournament system whose arithmetic fails with ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(0.0)

    def rate_tournament(self, *args: object) -> None:
        raise self.error

    def adjusted_state(self, *args: object) -> None:
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        OverflowError("math range error"),
        ZeroDivisionError("float division by zero"),
        ValueError("math domain error"),
        IterationLimit("step 5.4 did not converge in 1000 iterations"),
    ],
)
def test_every_arithmetic_failure_is_one_error_naming_the_event(error: Exception) -> None:
    rater = _Failing(error)
    event = Tournament(date(2026, 1, 1), 1, (Placement("a", 1), Placement("b", 2)))
    with pytest.raises(NonFiniteResult) as raised:
        rate_event(wpe.SYSTEM.info, rater, event, {}, {})  # type: ignore[arg-type]
    assert raised.value.loc == ("standings",)
    assert type(error).__name__ in raised.value.message
    adjustment = Adjustment(PlayerKey("a"), datetime(2026, 1, 1, tzinfo=UTC), 1.0)
    with pytest.raises(NonFiniteResult) as raised:
        rate_event(wpe.SYSTEM.info, rater, adjustment, {}, {})  # type: ignore[arg-type]
    assert raised.value.loc == ("rating",)


def test_an_invalid_event_passes_through_the_guard() -> None:
    rater = _Failing(InvalidEvent(("standings", 0, "rank"), "no"))
    event = Tournament(date(2026, 1, 1), 1, (Placement("a", 1), Placement("b", 2)))
    with pytest.raises(InvalidEvent) as raised:
        rate_event(wpe.SYSTEM.info, rater, event, {}, {})  # type: ignore[arg-type]
    assert not isinstance(raised.value, NonFiniteResult)
    assert raised.value.loc == ("standings", 0, "rank")


def test_the_volatility_iteration_stops_at_its_bound() -> None:
    """Glickman's example converges in two iterations of step 5.4; with a bound of one it
    stops with IterationLimit instead of running on (lichess's bound: 1,000)."""
    phi = glicko2.to_phi(200.0)
    # Glickman (2013): v = 1.7785, Delta = -0.4834 for the worked example.
    assert glicko2.sigma_prime(phi, 0.06, 1.7785, -0.4834, 0.5, 1e-6) == pytest.approx(
        0.05999, abs=1e-5
    )
    with pytest.raises(IterationLimit):
        glicko2.sigma_prime(phi, 0.06, 1.7785, -0.4834, 0.5, 1e-6, max_iterations=1)
    assert glicko2.MAX_ITERATIONS == 1000
