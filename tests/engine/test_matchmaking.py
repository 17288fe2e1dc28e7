"""app/engine/matchmaking.py: quality, Luce, and balanced splits.

The exhaustive search is checked against a brute force written here (every assignment of every
player to every side, filtered by the rules), over random sets of up to 10 players; the
heuristic beyond 16 players for its rules (sizes, parties), determinism and a case whose best
split is known.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import elo, matchmaking, trueskill, weng_lin
from app.engine.errors import InvalidEvent
from app.engine.gaussian import Gaussian, Member
from app.engine.matchmaking import (
    EXACT_PLAYERS,
    MAX_ALTERNATIVES,
    Balance,
    Predictor,
    balance,
    evenness,
    luce,
    quality,
)
from app.engine.types import PlayerState

# --- Raters of the tests' own ------------------------------------------------------------------


class MeanLogistic:
    """p(a, b) = 1 / (1 + 10^((mean_b - mean_a) / 400)) on integer ratings (exact means
    whatever the order of the members); no quality of its own."""

    calls = 0

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float:
        MeanLogistic.calls += 1
        mean_a = sum(s.rating for s in side) / len(side)
        mean_b = sum(s.rating for s in other) / len(other)
        return 1 / (1 + 10 ** ((mean_b - mean_a) / 400))

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None:
        return None


class ProductQuality(MeanLogistic):
    """A quality of its own: the product of every pair's 1 - |2p - 1| (at most any pair's,
    as the search's bound assumes of a system's own quality)."""

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None:
        product = 1.0
        for a, b in itertools.combinations(range(len(sides)), 2):
            product *= 1 - abs(2 * self.side_win_probability(sides[a], sides[b]) - 1)
        return product


def least_even_pair(rater: Predictor, sides: Sequence[Sequence[PlayerState]]) -> float:
    least = 1.0
    for a, b in itertools.combinations(range(len(sides)), 2):
        p = rater.side_win_probability(sides[a], sides[b])
        assert p is not None
        least = min(least, 1 - abs(2 * p - 1))
    return least


def brute_force(
    ratings: list[int],
    teams: int,
    parties: list[list[int]],
    rater: Predictor,
    states: list[PlayerState] | None = None,
    policy: str = matchmaking.SPREAD,
) -> list[tuple[tuple[tuple[int, ...], ...], float]]:
    """Every valid split with its quality, best first: under ``spread`` the least stacking
    first (premade players, those of a party of two or more, per side: the most minus the
    fewest), then the highest quality, then by sides."""
    n = len(ratings)
    states = states or [PlayerState(float(r)) for r in ratings]
    premade = {i for party in parties if len(party) > 1 for i in party}
    found: dict[tuple[tuple[int, ...], ...], float] = {}
    stacking: dict[tuple[tuple[int, ...], ...], int] = {}
    for labels in itertools.product(range(teams), repeat=n):
        sides = [tuple(i for i in range(n) if labels[i] == t) for t in range(teams)]
        sizes = [len(side) for side in sides]
        if min(sizes) == 0 or max(sizes) - min(sizes) > 1:
            continue
        if any(len({labels[i] for i in party}) > 1 for party in parties):
            continue
        key = tuple(sorted(sides))
        if key in found:
            continue
        members = [[states[i] for i in side] for side in key]
        own = rater.match_quality(members)
        found[key] = own if own is not None else least_even_pair(rater, members)
        counts = [sum(i in premade for i in side) for side in key]
        stacking[key] = max(counts) - min(counts) if policy == matchmaking.SPREAD else 0
    return sorted(found.items(), key=lambda item: (stacking[item[0]], -item[1], item[0]))


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[int], int, list[list[int]]]:
    n = draw(st.integers(2, 10))
    # teams^n assignments for the brute force: three sides up to 10 players, five up to 7.
    teams = draw(st.integers(2, min(n, 3 if n > 7 else 5)))
    ratings = draw(st.lists(st.integers(1000, 2000), min_size=n, max_size=n))
    order = draw(st.permutations(range(n)))
    parties: list[list[int]] = []
    start = 0
    for _ in range(draw(st.integers(0, 2))):
        size = draw(st.integers(2, 4))
        if start + size > n:
            break
        parties.append(sorted(order[start : start + size]))
        start += size
    return ratings, teams, parties


def check_rules(result: Balance, n: int, teams: int, parties: list[list[int]]) -> None:
    for split in (result.best, *result.alternatives):
        assert len(split.sides) == teams
        assert sorted(i for side in split.sides for i in side) == list(range(n))
        sizes = [len(side) for side in split.sides]
        assert max(sizes) - min(sizes) <= 1
        for party in parties:
            assert any(set(party) <= set(side) for side in split.sides), (party, split)
    keys = [s.sides for s in (result.best, *result.alternatives)]
    assert len(set(keys)) == len(keys)


# --- Quality and Luce --------------------------------------------------------------------------


def test_evenness_by_hand() -> None:
    assert evenness(0.5) == 1.0
    assert evenness(0.75) == 0.5
    assert evenness(0.25) == 0.5
    assert evenness(1.0) == 0.0


def test_quality_is_the_least_even_pair_or_the_systems_own() -> None:
    rater = elo.SYSTEM.configure({})
    a, b, c = [PlayerState(1500.0)], [PlayerState(1600.0)], [PlayerState(1400.0)]
    # The least even pair is b against c: 200 points apart.
    p = 1 / (1 + 10 ** (-200 / 400))
    assert quality(rater, [a, b, c]) == pytest.approx(1 - abs(2 * p - 1))
    assert quality(ProductQuality(), [a, b]) == pytest.approx(
        1 - abs(2 / (1 + 10 ** (100 / 400)) - 1)
    )


def test_luce_by_hand() -> None:
    # Two sides: p itself. Three equal sides: 1 / (1 + 1 + 1).
    assert luce([[None, 0.7], [0.3, None]], 0) == pytest.approx(0.7)
    half = [[None, 0.5, 0.5], [0.5, None, 0.5], [0.5, 0.5, None]]
    assert luce(half, 2) == pytest.approx(1 / 3)
    assert luce([[None, 0.0], [1.0, None]], 0) == 0.0


# --- The exhaustive search against the brute force ----------------------------------------------


@settings(max_examples=150, deadline=None)
@given(problems())
def test_exhaustive_search_equals_the_brute_force(
    problem: tuple[list[int], int, list[list[int]]],
) -> None:
    ratings, teams, parties = problem
    states = [PlayerState(float(r)) for r in ratings]
    raters: list[Predictor] = [MeanLogistic(), ProductQuality()]
    for rater, policy in itertools.product(raters, (matchmaking.SPREAD, matchmaking.TOGETHER)):
        expected = brute_force(ratings, teams, parties, rater, policy=policy)
        if not expected:
            with pytest.raises(InvalidEvent):
                balance(states, teams, parties, rater, policy=policy)
            continue
        result = balance(states, teams, parties, rater, policy=policy)
        assert result.exact
        check_rules(result, len(ratings), teams, parties)
        got = [(s.sides, s.quality) for s in (result.best, *result.alternatives)]
        assert got == expected[: 1 + MAX_ALTERNATIVES]


@settings(max_examples=40, deadline=None)
@given(problems())
def test_exhaustive_search_equals_the_brute_force_for_the_bayesian_systems(
    problem: tuple[list[int], int, list[list[int]]],
) -> None:
    """TrueSkill (its own match quality, the search's bound by its sub-matches) and Weng-Lin
    (the least even pair), at states mu = rating / 60 and sigma from 2 to 8."""
    ratings, teams, parties = problem
    states = [PlayerState(r / 60, 2.0 + r % 7) for r in ratings]
    for system in (trueskill, weng_lin):
        rater = system.SYSTEM.configure({})
        expected = brute_force(ratings, teams, parties, rater, states)
        if not expected:
            continue
        result = balance(states, teams, parties, rater)
        assert result.exact
        got = [(s.sides, s.quality) for s in (result.best, *result.alternatives)]
        assert got == expected[: 1 + MAX_ALTERNATIVES]


def test_the_search_does_not_depend_on_the_order_parties_are_given() -> None:
    states = [PlayerState(float(r)) for r in (1500, 1720, 1380, 1610, 1450, 1555, 1490, 1300)]
    rater = MeanLogistic()
    first = balance(states, 2, [[0, 3], [5, 6, 7]], rater)
    assert balance(states, 2, [[7, 6, 5], [3, 0]], rater) == first
    assert balance(states, 2, [[0, 3], [5, 6, 7]], rater) == first


def test_sixteen_players_in_two_sides_visit_each_split_once_at_most() -> None:
    """Sides are unlabelled: 16 players in two sides of 8 are C(15, 7) = 6435 splits (not
    C(16, 8) = 12870), each needing one pair probability, and the bound only removes some."""
    states = [PlayerState(float(1200 + 37 * i % 500)) for i in range(16)]
    MeanLogistic.calls = 0
    result = balance(states, 2, [], MeanLogistic())
    assert result.exact
    greedy_seed = 1
    assert MeanLogistic.calls <= math.comb(15, 7) + greedy_seed


def test_refusals() -> None:
    states = [PlayerState(1500.0)] * 6
    rater = MeanLogistic()
    with pytest.raises(InvalidEvent) as error:
        balance(states, 2, [[0, 1, 2, 3]], rater)
    assert error.value.loc == ("parties", 0)
    with pytest.raises(InvalidEvent) as error:
        balance(states, 7, [], rater)
    assert error.value.loc == ("teams",)
    with pytest.raises(InvalidEvent) as error:
        balance(states, 2, [[0, 1], [1, 2]], rater)
    assert error.value.loc == ("parties", 1)
    # Three parties of two cannot fill two sides of three.
    with pytest.raises(InvalidEvent) as error:
        balance(states, 2, [[0, 1], [2, 3], [4, 5]], rater)
    assert error.value.loc == ("parties",)


class NoProbability:
    """A system without pair probabilities (the Diplomacy systems)."""

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        return None

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None:
        return None


def test_a_system_without_pair_probabilities_cannot_balance() -> None:
    with pytest.raises(InvalidEvent) as error:
        balance([PlayerState(1500.0)] * 4, 2, [], NoProbability())
    assert error.value.loc == ("ladder",)


def test_an_exhaustive_search_over_its_budget_is_finished_by_the_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a budget too small for the 2,100 splits of 10 players in three sides, the answer
    says it is not exact, keeps the rules, is deterministic and is no better than the brute
    force's best."""
    monkeypatch.setattr(matchmaking, "MAX_EXACT_WORK", 2_000)
    ratings = [1500, 1720, 1380, 1610, 1450, 1555, 1490, 1300, 1810, 1275]
    states = [PlayerState(float(r)) for r in ratings]
    parties = [[0, 9]]
    rater = MeanLogistic()
    result = balance(states, 3, parties, rater)
    assert not result.exact
    check_rules(result, len(ratings), 3, parties)
    assert balance(states, 3, parties, rater) == result
    assert result.best.quality <= brute_force(ratings, 3, parties, rater)[0][1]


# --- TrueSkill's quality and the search's bound -------------------------------------------------

gaussians = st.builds(Gaussian, st.floats(0.0, 50.0), st.floats(0.5, 10.0))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(gaussians, min_size=1, max_size=3), min_size=3, max_size=5))
def test_trueskill_quality_is_at_most_any_pairs(sides: list[list[Gaussian]]) -> None:
    """The bound the exhaustive search prunes with (module docstring): adding sides never
    raises TrueSkill's match quality above that of two of them."""
    config = trueskill.TrueSkillConfig()
    teams = [tuple(Member(g) for g in side) for side in sides]
    whole = trueskill.quality(config, teams)
    for a, b in itertools.combinations(teams, 2):
        assert whole <= trueskill.quality(config, [a, b]) * (1 + 1e-12)


# --- The heuristic beyond EXACT_PLAYERS ---------------------------------------------------------


def test_the_heuristic_keeps_the_rules_and_is_deterministic() -> None:
    n = 40
    states = [PlayerState(float(1000 + (i * 7919) % 1000)) for i in range(n)]
    parties = [[0, 1, 2], [10, 20], [5, 6, 7, 8]]
    rater = MeanLogistic()
    for teams in (2, 3, 7):
        result = balance(states, teams, parties, rater)
        assert not result.exact
        check_rules(result, n, teams, parties)
        assert len(result.alternatives) == MAX_ALTERNATIVES
        assert balance(states, teams, parties, rater) == result
        members = [[states[i] for i in side] for side in result.best.sides]
        assert result.best.quality == least_even_pair(rater, members)
        assert all(a.quality <= result.best.quality for a in result.alternatives)


def test_the_heuristic_finds_a_perfect_split_where_one_exists() -> None:
    """Ratings in equal pairs: two sides of equal means exist (quality 1)."""
    ratings = [1000 + 25 * (i // 2) for i in range(2 * (EXACT_PLAYERS + 4))]
    states = [PlayerState(float(r)) for r in ratings]
    result = balance(states, 2, [], MeanLogistic())
    assert not result.exact
    assert result.best.quality == 1.0


def test_a_hundred_players_in_two_sides() -> None:
    states = [PlayerState(float(1000 + (i * 104729) % 997)) for i in range(100)]
    result = balance(states, 2, [[0, 1, 2, 3]], elo.SYSTEM.configure({}))
    check_rules(result, 100, 2, [[0, 1, 2, 3]])
    # Elo's least even pair of two sides 50 and 50 players: their means within a point.
    means = [sum(states[i].rating for i in side) / len(side) for side in result.best.sides]
    assert abs(means[0] - means[1]) < 1.0


# --- Party policy: premades spread, not stacked ---------------------------------------------------


def test_premades_are_spread_not_stacked() -> None:
    """Ten players in two sides of five: a party of three at 1600 (0, 1, 2), a party of two at
    1400 (3, 4), five solo players at 1500 (5 to 9). Keeping parties whole leaves two kinds of
    split: both parties together (5 premades against 5 solos: means (3·1600 + 2·1400) / 5 =
    1520 and 1500, 20 apart) or apart (3 premades against 2: the three with two solos,
    (3·1600 + 2·1500) / 5 = 1560, against (2·1400 + 3·1500) / 5 = 1460, 100 apart).

    p = 1 / (1 + 10^(-d / 400)), quality 1 - |2p - 1|:
    d = 20: p = 1 / (1 + 0.891251) = 0.528751, quality 0.942499;
    d = 100: p = 1 / (1 + 0.562341) = 0.640065, quality 0.719870.

    ``together`` takes the stacked split (the higher quality); ``spread`` (the default) the
    best split of stacking 1 (3 - 2), every one of which has quality 0.719870: the first by
    sides, the three with solos 5 and 6."""
    states = [PlayerState(r) for r in [1600.0] * 3 + [1400.0] * 2 + [1500.0] * 5]
    parties = [[0, 1, 2], [3, 4]]
    rater = MeanLogistic()
    together = balance(states, 2, parties, rater, policy=matchmaking.TOGETHER)
    assert together.best.sides == ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))
    assert together.best.quality == pytest.approx(0.942499, abs=1e-6)
    spread = balance(states, 2, parties, rater)
    assert spread == balance(states, 2, parties, rater, policy=matchmaking.SPREAD)
    assert spread.best.sides == ((0, 1, 2, 5, 6), (3, 4, 7, 8, 9))
    assert spread.best.quality == pytest.approx(0.719870, abs=1e-6)
    assert spread.best.stacking == 1
    # No split the answer offers stacks the premades.
    for split in (spread.best, *spread.alternatives):
        assert split.stacking == 1
        assert not any({0, 1, 2, 3, 4} <= set(side) for side in split.sides)
