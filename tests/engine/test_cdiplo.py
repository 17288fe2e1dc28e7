"""C-Diplo (app/engine/cdiplo.py) against seed 001_f1e33522112d1554.txt and SYSTEMS.md."""

from __future__ import annotations

import itertools
import math
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cdiplo import SYSTEM
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.types import Placement, PlayerKey, PlayerState, Tournament


def tournament(ranks: list[int], held_on: date = date(2010, 5, 1)) -> Tournament:
    return Tournament(
        held_on=held_on,
        rounds=3,
        standings=tuple(Placement(f"p{i}", r) for i, r in enumerate(ranks)),
    )


def fresh(t: Tournament) -> dict[str, PlayerState]:
    rater = SYSTEM.configure()
    return {s.player: rater.initial_state({}) for s in t.standings}


def test_initial_total_is_zero() -> None:
    assert SYSTEM.configure().initial_state({}).rating == 0


def test_third_of_35_follows_the_rule_not_the_seed_example() -> None:
    # Seed 001's rule: third place + 7; its example says "14 + 35/3 = 25.67", which adds the
    # 2nd-place bonus. SYSTEMS.md: the rule stands, 7 + 35/3 = 18.67.
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 36)))
    out = rater.rate_tournament(t, fresh(t), {})
    c = out.changes[2]
    assert c.details["points"] == pytest.approx(18.67, abs=0.005)
    assert c.details["points"] == pytest.approx(7 + 35 / 3, abs=1e-12)
    assert c.details["base_points"] == pytest.approx(35 / 3, abs=1e-12)
    assert c.details["bonus"] == 7
    assert c.details["place"] == 3
    assert c.after.rating == pytest.approx(7 + 35 / 3, abs=1e-12)


def test_first_and_second_of_35() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 36)))
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["points"] == pytest.approx(35 / 1 + 38, abs=1e-12)  # 73
    assert out.changes[0].details["points"] == pytest.approx(73, abs=1e-12)
    assert out.changes[1].details["points"] == pytest.approx(35 / 2 + 14, abs=1e-12)
    assert out.changes[3].details["points"] == pytest.approx(35 / 4, abs=1e-12)  # no bonus
    assert out.changes[34].details["points"] == pytest.approx(1, abs=1e-12)  # 35/35


def test_tied_players_share_the_average_of_their_places() -> None:
    rater = SYSTEM.configure()
    t = tournament([1, 2, 2, 4, 5, 6, 7, 8, 9, 10])
    out = rater.rate_tournament(t, fresh(t), {})
    expected = ((10 / 2 + 14) + (10 / 3 + 7)) / 2
    assert out.changes[1].details["points"] == pytest.approx(expected, abs=1e-12)
    assert out.changes[2].details["points"] == pytest.approx(expected, abs=1e-12)
    assert out.changes[1].details["place"] == 2
    assert out.changes[3].details["points"] == pytest.approx(10 / 4, abs=1e-12)


def test_ranking_is_the_sum_over_events() -> None:
    rater = SYSTEM.configure()
    first = tournament(list(range(1, 36)))
    out1 = rater.rate_tournament(first, fresh(first), {})
    after1 = {c.key.player: c.after for c in out1.changes}
    second = Tournament(
        held_on=date(2010, 9, 1),
        rounds=2,
        standings=(Placement("p2", 1), Placement("p0", 2), Placement("x", 3)),
    )
    before2 = {"p2": after1["p2"], "p0": after1["p0"], "x": rater.initial_state({})}
    out2 = rater.rate_tournament(second, before2, {})
    assert out2.changes[0].key == PlayerKey("p2")
    assert out2.changes[0].after.rating == pytest.approx((35 / 3 + 7) + (3 / 1 + 38), abs=1e-12)
    assert out2.changes[1].after.rating == pytest.approx((35 / 1 + 38) + (3 / 2 + 14), abs=1e-12)
    assert out2.changes[0].delta == pytest.approx(3 / 1 + 38, abs=1e-12)


def test_bonus_parameter() -> None:
    rater = SYSTEM.configure({"bonus": [10]})
    t = tournament([1, 2, 3])
    out = rater.rate_tournament(t, fresh(t), {})
    assert [c.details["points"] for c in out.changes] == pytest.approx(
        [3 / 1 + 10, 3 / 2, 3 / 3], abs=1e-12
    )


@pytest.mark.parametrize("bonus", [[38, "14"], [38, -1], [7, 14], [math.inf], "38"])
def test_bad_bonus_is_refused(bonus: object) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"bonus": bonus})


def test_standings_are_validated() -> None:
    with pytest.raises(InvalidEvent):
        SYSTEM.configure().validate_tournament(tournament([1]))
    with pytest.raises(InvalidEvent):
        SYSTEM.configure().validate_tournament(tournament([1, 1, 2]))


@st.composite
def standings_ranks(draw: st.DrawFn) -> list[int]:
    """A competition ranking (1, 2, 2, 4, ...) of 2 to 160 players, shuffled."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=40))
    if sum(sizes) < 2:
        sizes.append(1)
    ranks: list[int] = []
    for size in sizes:
        ranks.extend([len(ranks) + 1] * size)
    return draw(st.permutations(ranks))


bonuses = st.lists(st.floats(0, 100), max_size=6).map(lambda b: sorted(b, reverse=True))


@settings(max_examples=200, deadline=None)
@given(ranks=standings_ranks(), bonus=bonuses)
def test_totals_finite_and_monotone(ranks: list[int], bonus: list[float]) -> None:
    rater = SYSTEM.configure({"bonus": bonus})
    t = tournament(ranks)
    rater.validate_tournament(t)
    out = rater.rate_tournament(t, fresh(t), {})
    N = len(ranks)
    points = [c.details["points"] for c in out.changes]
    assert all(math.isfinite(p) for p in points)
    # Totals: ties average the places they fill, so the event hands out exactly
    # sum over places of N/place + the bonuses of the places that exist.
    expected_total = sum(N / k for k in range(1, N + 1)) + sum(bonus[:N])
    assert math.fsum(points) == pytest.approx(expected_total, rel=1e-9)
    by_rank = sorted(zip(ranks, points, strict=True))
    for (r1, p1), (r2, p2) in itertools.pairwise(by_rank):
        if r1 < r2:
            assert p1 >= p2
        else:
            assert p1 == p2
