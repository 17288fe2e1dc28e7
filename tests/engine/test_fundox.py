"""Tests of Fundox (app.engine.fundox; seed 003_2f9c47745724d002.txt).

The seed's examples are checked to its two decimals (abs=0.005); the rule itself,
16 / (1 + 10^((R_A - R_B)/800)), is also written out by hand and checked tightly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.fundox import SYSTEM, FundoxRater
from app.engine.types import EMPTY, Game, Outcome, Participant, PlayerKey, PlayerState

PLAYED_AT = datetime(2026, 1, 1, 12, 0)
SEED = 0.005  # the seed publishes two decimals
TIGHT = 1e-9


def make_game(ranks: Sequence[int]) -> Game:
    return Game(
        played_at=PLAYED_AT,
        participants=tuple(Participant(player=f"p{i}", rank=r) for i, r in enumerate(ranks)),
    )


def rate(
    ranks: Sequence[int], ratings: Sequence[float], params: Mapping[str, object] | None = None
) -> Outcome:
    rater = SYSTEM.configure(params)
    game = make_game(ranks)
    rater.validate_game(game)
    before = {PlayerKey(f"p{i}"): PlayerState(rating=r) for i, r in enumerate(ratings)}
    return rater.rate_game(game, before, EMPTY)


def deltas(outcome: Outcome) -> list[float]:
    return [change.delta for change in outcome.changes]


def amount(r_winner: float, r_loser: float) -> float:
    """The seed's pair amount, written out: 16 / (1 + 10^((R_A - R_B)/800))."""
    return 16 / (1 + 10 ** ((r_winner - r_loser) / 800))


HALF = {"draw_policy": "pairwise_half"}


# --- description and parameters --------------------------------------------------------------


def test_info_flags() -> None:
    info = SYSTEM.info
    assert info.id == "fundox"
    assert info.kind == "game"
    assert info.duel is True
    assert info.default_active_within_days == 30
    # Seed 003 by its title: the site's help page, the formula's author named in it.
    assert info.sources == (
        "Fundox, Ratings (the site's help page; formula by the player badtoper)",
    )
    assert {spec.name: spec.default for spec in info.params} == {
        "initial": 1600.0,
        "max_exchange": 16.0,
        "divisor": 800.0,
        "draw_policy": "none",
    }


def test_initial_rating_is_1600() -> None:
    rater = SYSTEM.configure()
    assert isinstance(rater, FundoxRater)
    assert rater.initial_state(EMPTY) == PlayerState(rating=1600.0)


@pytest.mark.parametrize(
    "params",
    [{"draw_policy": "split"}, {"max_exchange": 0}, {"divisor": -800}, {"k": 16}],
)
def test_invalid_parameters(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure(params)


# --- the seed's examples ----------------------------------------------------------------------


def test_seed_favourite_wins() -> None:
    # Seed: 2000 beats 1600 -> 3.84 won and lost.
    values = deltas(rate([1, 2], [2000, 1600]))
    assert values == pytest.approx([3.84, -3.84], abs=SEED)
    assert values == pytest.approx([16 / (1 + 10 ** (400 / 800)), -16 / (1 + 10 ** (400 / 800))])


def test_seed_underdog_wins() -> None:
    # Seed: 1600 beats 2000 -> 12.16 won and lost.
    values = deltas(rate([2, 1], [2000, 1600]))
    assert values == pytest.approx([-12.16, 12.16], abs=SEED)
    expected = 16 / (1 + 10 ** (-400 / 800))
    assert values == pytest.approx([-expected, expected], abs=TIGHT)


def test_seed_gain_plus_loss_is_16() -> None:
    assert amount(2000, 1600) + amount(1600, 2000) == pytest.approx(16.0, abs=TIGHT)
    assert deltas(rate([1, 2], [1600, 1600])) == pytest.approx([8.0, -8.0], abs=TIGHT)


@pytest.mark.parametrize("ranks", [[1, 2, 3, 4], [2, 1, 2, 2], [4, 3, 2, 1]])
def test_seed_four_equal_players(ranks: list[int]) -> None:
    # Seed: "each loser will see their rating fall by 8 points ... 3x8 = 24 points".
    values = deltas(rate(ranks, [1600] * 4))
    expected = [24.0 if rank == 1 else -8.0 for rank in ranks]
    assert values == pytest.approx(expected, abs=TIGHT)


def test_seed_lobby_example() -> None:
    # Seed: "you will earn 10.2 points for a win and lose 5.8 for a loss" against one opponent.
    # 10.2 = 16 / (1 + 10^(d/800))  =>  d = R_you - R_opp = 800 log10(16/10.2 - 1).
    d = 800 * math.log10(16 / 10.2 - 1)
    you, opponent = 1600 + d, 1600.0
    assert deltas(rate([1, 2], [you, opponent]))[0] == pytest.approx(10.2, abs=SEED)
    assert deltas(rate([2, 1], [you, opponent]))[0] == pytest.approx(-5.8, abs=SEED)
    # The win probability the lobby shows is E, and the win amount is 16 (1 - E).
    E_you = SYSTEM.configure().expected_score(PlayerState(you), PlayerState(opponent))
    win_amount = 16 * (1 - E_you)
    assert win_amount == pytest.approx(10.2, abs=SEED)
    assert E_you == pytest.approx(1 / (1 + 10 ** ((opponent - you) / 800)), abs=TIGHT)


# --- multiplayer -----------------------------------------------------------------------------


def test_three_players_losers_pay_the_winner_only() -> None:
    # 1500 wins against 1700 and 1600; each loser pays its 1 v 1 loss; losers do not exchange.
    values = deltas(rate([2, 1, 3], [1700, 1500, 1600]))
    pay_0 = amount(1500, 1700)
    pay_2 = amount(1500, 1600)
    assert values == pytest.approx([-pay_0, pay_0 + pay_2, -pay_2], abs=TIGHT)


def test_loser_order_does_not_matter() -> None:
    assert deltas(rate([1, 2, 3, 4], [1500, 1800, 1600, 1700])) == pytest.approx(
        deltas(rate([1, 4, 3, 2], [1500, 1800, 1600, 1700])), abs=TIGHT
    )


def test_details_of_a_decisive_game() -> None:
    outcome = rate([1, 2, 3], [1600, 2000, 1600])
    winner, loser, _ = (change.details for change in outcome.changes)
    assert winner["role"] == "winner"
    assert winner["reason"] is None
    assert [p["opponent"] for p in winner["pairs"]] == ["p1", "p2"]
    assert winner["pairs"][0]["amount"] == pytest.approx(12.16, abs=SEED)
    assert winner["pairs"][1]["amount"] == pytest.approx(8.0, abs=TIGHT)
    assert loser["role"] == "loser"
    assert loser["pairs"] == [
        {
            "opponent": "p0",
            "opponent_rating": 1600.0,
            "score": 0.0,
            "amount": pytest.approx(-12.16, abs=SEED),
        }
    ]


# --- draws -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ranks", [[1, 1], [1, 1, 2], [2, 2, 2, 3], [1, 1, 1, 1]])
def test_draw_policy_none_changes_nothing(ranks: list[int]) -> None:
    outcome = rate(ranks, [1500, 1700, 1600, 1650][: len(ranks)])
    for change in outcome.changes:
        assert change.after == change.before
        assert change.details["pairs"] == []
        assert "shared" in change.details["reason"]
    best = min(ranks)
    assert [c.details["role"] for c in outcome.changes] == [
        "draw" if r == best else "loser" for r in ranks
    ]


def test_pairwise_half_equal_ratings() -> None:
    # Two drawers and a loser, all equal: each drawer beats the loser (+8), draws each other (0).
    assert deltas(rate([1, 1, 2], [1600] * 3, HALF)) == pytest.approx([8.0, 8.0, -16.0], abs=TIGHT)


def test_pairwise_half_two_player_draw_by_hand() -> None:
    # 1700 draws 1500: the half exchange 16 (1/2 - E_1700), E_1700 = 1 / (1 + 10^(-200/800)).
    E = 1 / (1 + 10 ** (-200 / 800))
    values = deltas(rate([1, 1], [1700, 1500], HALF))
    assert values == pytest.approx([16 * (0.5 - E), -16 * (0.5 - E)], abs=TIGHT)
    assert values[0] < 0  # the favourite loses points for a draw


def test_pairwise_half_mixed_by_hand() -> None:
    # 1700 and 1500 draw first; 1600 and 1800 lose. Losers pay each drawer; nothing between losers.
    half = 16 * (0.5 - 1 / (1 + 10 ** ((1500 - 1700) / 800)))
    expected = [
        half + amount(1700, 1600) + amount(1700, 1800),
        -half + amount(1500, 1600) + amount(1500, 1800),
        -amount(1700, 1600) - amount(1500, 1600),
        -amount(1700, 1800) - amount(1500, 1800),
    ]
    outcome = rate([1, 1, 2, 3], [1700, 1500, 1600, 1800], HALF)
    assert deltas(outcome) == pytest.approx(expected, abs=TIGHT)
    assert [c.details["role"] for c in outcome.changes] == ["draw", "draw", "loser", "loser"]
    assert outcome.changes[0].details["pairs"][0]["score"] == 0.5


def test_pairwise_half_keeps_single_winner_rule() -> None:
    assert deltas(rate([1, 2, 3, 4], [1600] * 4, HALF)) == pytest.approx(
        [24.0, -8.0, -8.0, -8.0], abs=TIGHT
    )


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 5])
def test_player_count(count: int) -> None:
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().validate_game(make_game(list(range(1, count + 1))))
    assert info.value.loc == ("players",)
    assert "2 to 4" in info.value.message


# --- properties ------------------------------------------------------------------------------

ratings_st = st.floats(min_value=-5000, max_value=5000, allow_nan=False)
tables = st.integers(min_value=2, max_value=4).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n),
        st.lists(ratings_st, min_size=n, max_size=n),
    )
)
policies = st.sampled_from(["none", "pairwise_half"])


@settings(max_examples=200, deadline=None)
@given(tables, policies)
def test_zero_sum_and_finite(table: tuple[list[int], list[float]], policy: str) -> None:
    ranks, ratings = table
    outcome = rate(ranks, ratings, {"draw_policy": policy})
    values = deltas(outcome)
    assert all(math.isfinite(c.after.rating) for c in outcome.changes)
    assert sum(values) == pytest.approx(0.0, abs=1e-6)
    # Each pair moves at most 16 points.
    assert all(abs(v) <= 16 * (len(ranks) - 1) + 1e-9 for v in values)


@settings(max_examples=200, deadline=None)
@given(tables, policies, st.data())
def test_better_rank_never_earns_less(
    table: tuple[list[int], list[float]], policy: str, data: st.DataObject
) -> None:
    ranks, ratings = table
    i = data.draw(st.integers(min_value=0, max_value=len(ranks) - 1))
    improved = list(ranks)
    improved[i] = data.draw(st.integers(min_value=1, max_value=ranks[i]))
    params = {"draw_policy": policy}
    assert (
        deltas(rate(improved, ratings, params))[i] >= deltas(rate(ranks, ratings, params))[i] - 1e-9
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=4), policies)
def test_equal_ratings_better_rank_never_less(ranks: list[int], policy: str) -> None:
    values = deltas(rate(ranks, [1600.0] * len(ranks), {"draw_policy": policy}))
    for a in range(len(ranks)):
        for b in range(len(ranks)):
            if ranks[a] < ranks[b]:
                assert values[a] >= values[b] - 1e-9


@settings(max_examples=200, deadline=None)
@given(ratings_st, ratings_st)
def test_two_player_win_and_loss_sum_to_16(r_a: float, r_b: float) -> None:
    win = deltas(rate([1, 2], [r_a, r_b]))[0]
    loss = deltas(rate([2, 1], [r_a, r_b]))[0]
    assert win - loss == pytest.approx(16.0, abs=1e-9)
    assert 0.0 <= win <= 16.0
