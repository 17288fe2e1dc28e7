"""WPE (app/engine/wpe.py) against SYSTEMS.md "wpe" (seed 001 names the system only)."""

from __future__ import annotations

import itertools
import math
from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.types import Placement, PlayerState, Tournament
from app.engine.wpe import SYSTEM


def tournament(
    ranks: list[int],
    cls: str | None = "main",
    held_on: date = date(2012, 8, 4),
    world: bool = False,
    names: list[str] | None = None,
) -> Tournament:
    players = names if names is not None else [f"p{i}" for i in range(len(ranks))]
    return Tournament(
        held_on=held_on,
        rounds=3,
        world_championship=world,
        event_class=cls,
        standings=tuple(Placement(p, r) for p, r in zip(players, ranks, strict=True)),
    )


def fresh(t: Tournament) -> dict[str, PlayerState]:
    rater = SYSTEM.configure()
    return {s.player: rater.initial_state({}) for s in t.standings}


def test_worked_example_continental_40() -> None:
    # SYSTEMS.md: continental championship of 40 players → influence 9, effective 45 → inflow
    # 3.5, 9 awarded places (8 for 35–48, +1 continental), scores 150, 100, 75, 50, 41.67,
    # 33.33, 25, 16.67, 8.33.
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 41)), cls="continental")
    rater.validate_tournament(t)
    out = rater.rate_tournament(t, fresh(t), {})
    first = out.changes[0].details
    assert first["influence"] == 9
    assert first["effective_players"] == (40 + 50) / 2
    assert first["inflow"] == 3.5
    assert first["awarded_places"] == 9
    expected = [
        (9 + 3.5) * 12,
        (9 + 3.5) * 8,
        (9 + 3.5) * 6,
        (9 + 3.5) * 4,
        (9 + 3.5) * (4 - (5 - 4) * 4 / (9 - 3)),
        (9 + 3.5) * (4 - (6 - 4) * 4 / (9 - 3)),
        (9 + 3.5) * (4 - (7 - 4) * 4 / (9 - 3)),
        (9 + 3.5) * (4 - (8 - 4) * 4 / (9 - 3)),
        (9 + 3.5) * (4 - (9 - 4) * 4 / (9 - 3)),
    ]
    published = [150, 100, 75, 50, 41.67, 33.33, 25, 16.67, 8.33]
    points = [c.details["points"] for c in out.changes]
    assert points[:9] == pytest.approx(expected, abs=1e-9)
    assert points[:9] == pytest.approx(published, abs=0.005)
    assert points[9:] == [0.0] * 31
    assert [c.after.rating for c in out.changes[:9]] == pytest.approx(published, abs=0.005)


def test_world_championship_of_60() -> None:
    # Effective (60 + 75)/2 = 67.5 → inflow 4.5 (60–69); places 9 (49–69) + 2 = 11.
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 61)), cls=None, world=True)
    rater.validate_tournament(t)
    out = rater.rate_tournament(t, fresh(t), {})
    d = out.changes[0].details
    assert d["class"] == "world"
    assert d["influence"] == 12
    assert d["effective_players"] == pytest.approx((60 + 75) / 2, abs=1e-12)
    assert d["inflow"] == 4.5
    assert d["awarded_places"] == 11
    points = [c.details["points"] for c in out.changes]
    assert points[0] == pytest.approx((12 + 4.5) * 12, abs=1e-9)
    assert points[4] == pytest.approx((12 + 4.5) * (4 - 1 * 4 / (11 - 3)), abs=1e-9)
    assert points[10] == pytest.approx((12 + 4.5) * (4 - 7 * 4 / (11 - 3)), abs=1e-9)
    assert points[11] == 0


def test_world_championship_of_80_uses_its_real_count() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 81)), cls="world", world=True)
    d = rater.rate_tournament(t, fresh(t), {}).changes[0].details
    assert d["effective_players"] == 80
    assert d["inflow"] == 5  # 70–84
    assert d["awarded_places"] == 10 + 2  # 70–94


def test_main_tournament_of_100() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 101)), cls="main")
    out = rater.rate_tournament(t, fresh(t), {})
    d = out.changes[0].details
    assert (d["influence"], d["inflow"], d["awarded_places"]) == (5, 6, 11)
    assert d["points"] == pytest.approx((5 + 6) * 12, abs=1e-9)


def test_minor_below_7_players_scores_nothing() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 7)), cls="minor")
    out = rater.rate_tournament(t, fresh(t), {})
    assert all(c.details["points"] == 0 for c in out.changes)
    assert all(c.after.rating == 0 for c in out.changes)


def test_ties_share_the_average_of_their_places_scores() -> None:
    rater = SYSTEM.configure()
    t = tournament([1, 1, *list(range(3, 41))], cls="continental")
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["points"] == pytest.approx(
        ((9 + 3.5) * 12 + (9 + 3.5) * 8) / 2, abs=1e-9
    )
    assert out.changes[1].details["points"] == out.changes[0].details["points"]


def test_window_drops_an_old_event() -> None:
    rater = SYSTEM.configure()
    names = [f"p{i}" for i in range(40)]
    old = tournament(list(range(1, 41)), cls="continental", held_on=date(2010, 6, 1))
    state = {c.key.player: c.after for c in rater.rate_tournament(old, fresh(old), {}).changes}
    assert state["p0"].rating == pytest.approx(150, abs=1e-9)

    # 2015-05-31 is within 5 years of 2010-06-01: both events count.
    within = tournament(
        list(range(1, 41)), cls="continental", held_on=date(2015, 5, 31), names=names[::-1]
    )
    out = rater.rate_tournament(within, state, {})
    by = {c.key.player: c for c in out.changes}
    # p0 is last this time (0 points): the ranking keeps its 150.
    assert by["p0"].after.rating == pytest.approx(150, abs=1e-9)
    # p39 was last (0) and now wins: 150.
    assert by["p39"].after.rating == pytest.approx(150, abs=1e-9)
    # p31 was 32nd (0) and is 9th now: 8.33.
    assert by["p31"].after.rating == pytest.approx((9 + 3.5) * (4 - 5 * 4 / 6), abs=1e-9)

    # 2015-06-01: the window is the 5 years after 2010-06-01, so the old event drops.
    later = tournament([1, 2], cls="minor", held_on=date(2015, 6, 1), names=["p1", "p0"])
    out = rater.rate_tournament(later, {"p1": state["p1"], "p0": state["p0"]}, {})
    for c in out.changes:
        assert c.details["window_start"] == "2010-06-01"
        assert c.details["points"] == 0  # 2 minor players: no place awarded
    p1 = out.changes[0]
    assert p1.before.rating == pytest.approx(100, abs=1e-9)
    assert p1.after.rating == 0
    assert p1.details["dropped_points"] == pytest.approx(100, abs=1e-9)
    assert p1.after.extra["events"] == []


def test_window_years_parameter() -> None:
    rater = SYSTEM.configure({"window_years": 1})
    old = tournament(list(range(1, 41)), cls="continental", held_on=date(2010, 6, 1))
    state = {c.key.player: c.after for c in rater.rate_tournament(old, fresh(old), {}).changes}
    later = tournament(list(range(1, 41)), cls="continental", held_on=date(2011, 6, 2))
    out = rater.rate_tournament(later, state, {})
    assert out.changes[0].after.rating == pytest.approx(150, abs=1e-9)  # 150 dropped, 150 won


def test_events_are_kept_in_state_as_date_and_score() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 41)), cls="continental", held_on=date(2010, 6, 1))
    after = rater.rate_tournament(t, fresh(t), {}).changes[0].after
    assert after.extra["events"] == [["2010-06-01", pytest.approx(150, abs=1e-9)]]
    # State read back from JSON storage (lists, not tuples) works the same.
    stored = PlayerState(rating=after.rating, extra={"events": [["2010-06-01", 150.0]]})
    t2 = tournament([1, 2], cls="minor", held_on=date(2011, 1, 1))
    out = rater.rate_tournament(t2, {"p0": stored, "p1": rater.initial_state({})}, {})
    assert out.changes[0].after.rating == pytest.approx(150, abs=1e-9)


def test_adjustment_is_a_dated_entry_that_ages_out() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 41)), cls="continental", held_on=date(2010, 6, 1))
    won = rater.rate_tournament(t, fresh(t), {}).changes[0].after
    adjusted = rater.adjusted_state(won, 200.0, None, None, datetime(2011, 1, 1))
    assert adjusted.rating == pytest.approx(200, abs=1e-9)
    t2 = tournament([1, 2], cls="minor", held_on=date(2015, 6, 1), names=["p0", "x"])
    out = rater.rate_tournament(t2, {"p0": adjusted, "x": rater.initial_state({})}, {})
    assert out.changes[0].after.rating == pytest.approx(200 - 150, abs=1e-9)
    with pytest.raises(InvalidEvent):
        rater.adjusted_state(won, 1.0, 50.0, None, datetime(2011, 1, 1))


def test_class_rules() -> None:
    rater = SYSTEM.configure()
    with pytest.raises(InvalidEvent) as err:
        rater.validate_tournament(tournament([1, 2], cls=None))
    assert err.value.loc == ("class",)
    with pytest.raises(InvalidEvent) as err:
        rater.validate_tournament(tournament([1, 2], cls="regional"))
    assert err.value.loc == ("class",)
    with pytest.raises(InvalidEvent) as err:
        rater.validate_tournament(tournament([1, 2], cls="main", world=True))
    assert err.value.loc == ("class",)
    rater.validate_tournament(tournament([1, 2], cls="world", world=True))
    rater.validate_tournament(tournament([1, 2], cls=None, world=True))


@pytest.mark.parametrize(
    "params",
    [
        {"influence": {"main": 5}},  # no world class
        {"influence": {"world": 12, "main": -1}},
        {"inflow": [[7, 0], [14, 1]]},  # not largest first
        {"inflow": []},
        {"awarded_places": [[7, 4.5]]},
        {"base": [8, 12]},
        {"extra_places": {"regional": 1}},  # a class missing from influence
        {"effective_floor": {"world": "75"}},
        {"window_years": 0},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure(params)


@st.composite
def standings_ranks(draw: st.DrawFn) -> list[int]:
    """A competition ranking (1, 2, 2, 4, ...) of 2 to 160 players, shuffled."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=80))
    if sum(sizes) < 2:
        sizes.append(1)
    ranks: list[int] = []
    for size in sizes:
        ranks.extend([len(ranks) + 1] * size)
    return draw(st.permutations(ranks))


@settings(max_examples=200, deadline=None)
@given(
    ranks=standings_ranks(),
    cls=st.sampled_from(["world", "continental", "main", "minor"]),
    prior=st.lists(
        st.tuples(st.dates(date(2000, 1, 1), date(2012, 8, 4)), st.floats(0, 300)), max_size=5
    ),
)
def test_finite_monotone_and_a_windowed_sum(
    ranks: list[int], cls: str, prior: list[tuple[date, float]]
) -> None:
    rater = SYSTEM.configure()
    t = tournament(ranks, cls=cls, world=cls == "world")
    rater.validate_tournament(t)
    prior = sorted(prior)
    history = PlayerState(
        rating=sum(v for _, v in prior), extra={"events": [[d.isoformat(), v] for d, v in prior]}
    )
    out = rater.rate_tournament(t, {s.player: history for s in t.standings}, {})
    points = [c.details["points"] for c in out.changes]
    assert all(math.isfinite(p) and p >= 0 for p in points)
    counted = sum(v for d, v in prior if d > date(2007, 8, 4))
    for c in out.changes:
        assert math.isfinite(c.after.rating)
        assert c.after.rating == pytest.approx(counted + c.details["points"], rel=1e-9, abs=1e-9)
    by_rank = sorted(zip(ranks, points, strict=True))
    for (r1, p1), (r2, p2) in itertools.pairwise(by_rank):
        assert p1 >= p2 if r1 < r2 else p1 == p2
