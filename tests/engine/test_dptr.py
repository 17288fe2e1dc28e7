"""DPTR (app/engine/dptr.py) against seed 000_284a3da9f95a5144.txt and seed 001."""

from __future__ import annotations

import itertools
import math
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.dptr import SYSTEM
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.types import Placement, PlayerKey, PlayerState, Tournament
from tests.data.seed_000_wbc_2012 import WBC_2012

WBC_DATE = date(2012, 8, 4)


def tournament(
    ranks: list[int],
    rounds: int = 3,
    held_on: date = WBC_DATE,
    world: bool = False,
    names: list[str] | None = None,
) -> Tournament:
    players = names if names is not None else [f"p{i}" for i in range(len(ranks))]
    return Tournament(
        held_on=held_on,
        rounds=rounds,
        world_championship=world,
        standings=tuple(Placement(p, r) for p, r in zip(players, ranks, strict=True)),
    )


def fresh(t: Tournament, rating: float = 40.0) -> dict[str, PlayerState]:
    return {s.player: PlayerState(rating=rating) for s in t.standings}


def wbc() -> Tournament:
    return tournament([r for r, _, _ in WBC_2012], rounds=3, names=[n for _, n, _ in WBC_2012])


def test_wbc_2012_every_published_score_reproduces() -> None:
    rater = SYSTEM.configure()
    t = wbc()
    rater.validate_tournament(t)
    out = rater.rate_tournament(t, fresh(t), rater.initial_ladder_state())
    assert [c.key for c in out.changes] == [PlayerKey(n) for _, n, _ in WBC_2012]
    for change, (rank, _, score) in zip(out.changes, WBC_2012, strict=True):
        assert change.details["percentile"] == pytest.approx(score, abs=0.005)
        assert change.details["place"] == rank
        assert change.details["players"] == 33


def test_wbc_2012_tournament_value_is_the_published_coefficient() -> None:
    rater = SYSTEM.configure()
    t = wbc()
    out = rater.rate_tournament(t, fresh(t), {})
    for change in out.changes:
        # Seed 000: "Coeff 1 11.43"; the rule: 33/3.5 + 2.
        assert change.details["tournament_value"] == pytest.approx(11.43, abs=0.005)
        assert change.details["tournament_value"] == pytest.approx(33 / 3.5 + 2, abs=1e-12)


def test_wbc_2012_winner_moves_tv_percent_towards_the_percentile() -> None:
    rater = SYSTEM.configure()
    t = wbc()
    out = rater.rate_tournament(t, fresh(t), {})
    # From the initial 40: R' = 40 + (33/3.5 + 2)/100 × ((33.5 − 1)/33 × 100 − 40).
    expected = 40 + (33 / 3.5 + 2) / 100 * ((33 + 0.5 - 1) / 33 * 100 - 40)
    assert out.changes[0].after.rating == pytest.approx(expected, abs=1e-9)


def test_seed_example_55_eighth_of_65() -> None:
    # Seed 000/001: "a rating of 55 ... 8th place out of 65 players ... from 55 to 60.019".
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 66)), rounds=3)
    before = fresh(t)
    before["p7"] = PlayerState(rating=55.0)
    out = rater.rate_tournament(t, before, {})
    c = out.changes[7]
    assert c.details["percentile"] == pytest.approx(88.46, abs=0.005)
    assert c.details["tournament_value"] == 15  # 65/3.5 + 2 = 20.57, capped at 15
    assert c.after.rating == pytest.approx(60.019, abs=0.0005)
    assert c.delta == pytest.approx(5.019, abs=0.0005)


def test_initial_rating_is_40() -> None:
    assert SYSTEM.configure().initial_state({}).rating == 40


def test_one_round_value() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 15)), rounds=1)
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["tournament_value"] == pytest.approx(14 / 7 + 2, abs=1e-12)


def test_one_round_value_is_capped_at_15() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 101)), rounds=1)  # 100/7 + 2 = 16.29
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["tournament_value"] == 15


def test_world_championship_counts_20_even_before_the_cutoff() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 11)), rounds=2, held_on=date(1988, 7, 1), world=True)
    out = rater.rate_tournament(t, fresh(t), {})
    c = out.changes[0]
    assert c.details["tournament_value"] == 20
    expected = 40 + 20 / 100 * ((10 + 0.5 - 1) / 10 * 100 - 40)
    assert c.after.rating == pytest.approx(expected, abs=1e-9)


def test_world_championship_counts_20_however_large() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 101)), world=True)
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["tournament_value"] == 20


def test_ordinary_event_before_the_cutoff_changes_nothing() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 34)), held_on=date(2000, 12, 31))
    before = fresh(t, rating=55.0)
    out = rater.rate_tournament(t, before, {})
    for c in out.changes:
        assert c.details["tournament_value"] == 0
        assert c.after.rating == 55.0


def test_event_on_the_cutoff_date_counts() -> None:
    rater = SYSTEM.configure()
    t = tournament(list(range(1, 34)), held_on=date(2001, 1, 1))
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["tournament_value"] == pytest.approx(33 / 3.5 + 2, abs=1e-12)


def test_cutoff_parameter_seed_001_reading() -> None:
    # Seed 001: "Events before 1996 ... have a tournament value of zero".
    rater = SYSTEM.configure({"cutoff": "1996-01-01"})
    t = tournament(list(range(1, 34)), held_on=date(1997, 6, 1))
    out = rater.rate_tournament(t, fresh(t), {})
    assert out.changes[0].details["tournament_value"] == pytest.approx(33 / 3.5 + 2, abs=1e-12)


def test_average_ties_option() -> None:
    rater = SYSTEM.configure({"ties": "average"})
    t = wbc()
    out = rater.rate_tournament(t, fresh(t), {})
    # Three players tied 7th of 33 occupy places 7, 8, 9: the mean place is 8.
    assert out.changes[6].details["place"] == 8
    assert out.changes[6].details["percentile"] == pytest.approx(
        (33 + 0.5 - 8) / 33 * 100, abs=1e-9
    )


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"ties": "random"})
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"cutoff": "2001-13-01"})
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"initial": 140})


def test_rounds_must_be_at_least_one() -> None:
    rater = SYSTEM.configure()
    with pytest.raises(InvalidEvent) as err:
        rater.validate_tournament(tournament([1, 2], rounds=0))
    assert err.value.loc == ("rounds",)


def test_inputs_are_not_mutated() -> None:
    rater = SYSTEM.configure()
    t = wbc()
    before = fresh(t)
    snapshot = dict(before)
    rater.rate_tournament(t, before, {})
    assert before == snapshot


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


@settings(max_examples=200, deadline=None)
@given(
    ranks=standings_ranks(),
    ratings=st.lists(st.floats(0, 100), min_size=80, max_size=80),
    rounds=st.integers(1, 12),
    world=st.booleans(),
    year=st.integers(1980, 2030),
    ties=st.sampled_from(["shared", "average"]),
)
def test_finite_and_within_0_to_100(
    ranks: list[int],
    ratings: list[float],
    rounds: int,
    world: bool,
    year: int,
    ties: str,
) -> None:
    rater = SYSTEM.configure({"ties": ties})
    t = tournament(ranks, rounds=rounds, held_on=date(year, 6, 1), world=world)
    rater.validate_tournament(t)
    before = {
        s.player: PlayerState(rating=ratings[i % len(ratings)]) for i, s in enumerate(t.standings)
    }
    out = rater.rate_tournament(t, before, {})
    assert len(out.changes) == len(ranks)
    for c in out.changes:
        assert math.isfinite(c.after.rating)
        assert 0 <= c.after.rating <= 100
        assert 0 < c.details["percentile"] < 100


@settings(max_examples=200, deadline=None)
@given(
    ranks=standings_ranks(),
    rating=st.floats(0, 100),
    rounds=st.integers(1, 5),
    ties=st.sampled_from(["shared", "average"]),
)
def test_a_better_place_never_earns_less(
    ranks: list[int], rating: float, rounds: int, ties: str
) -> None:
    rater = SYSTEM.configure({"ties": ties})
    t = tournament(ranks, rounds=rounds)
    out = rater.rate_tournament(t, fresh(t, rating), {})
    by_rank = sorted(zip(ranks, (c.after.rating for c in out.changes), strict=True))
    for (r1, a1), (r2, a2) in itertools.pairwise(by_rank):
        if r1 < r2:
            assert a1 >= a2
