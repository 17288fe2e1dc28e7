"""Tests of the classic Elo system (app.engine.elo; SYSTEMS.md "elo").

Expected values are the hand arithmetic of E = 1 / (1 + 10^((R_b - R_a)/400)) and
R' = R + K (S - E), with K / (N - 1) per virtual duel at a table of N players.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.elo import SYSTEM, EloRater
from app.engine.elo_family import logistic_expected_score
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.types import EMPTY, Game, Outcome, Participant, PlayerKey, PlayerState

PLAYED_AT = datetime(2026, 1, 1, 12, 0)
TIGHT = 1e-9


def make_game(ranks: Sequence[int], factions: Sequence[str | None] | None = None) -> Game:
    factions = factions or [None] * len(ranks)
    return Game(
        played_at=PLAYED_AT,
        participants=tuple(
            Participant(player=f"p{i}", rank=rank, faction=faction)
            for i, (rank, faction) in enumerate(zip(ranks, factions, strict=True))
        ),
    )


def rate(
    ranks: Sequence[int], ratings: Sequence[float], params: Mapping[str, float] | None = None
) -> Outcome:
    rater = SYSTEM.configure(params)
    game = make_game(ranks)
    rater.validate_game(game)
    before = {PlayerKey(f"p{i}"): PlayerState(rating=r) for i, r in enumerate(ratings)}
    return rater.rate_game(game, before, EMPTY)


def deltas(outcome: Outcome) -> list[float]:
    return [change.delta for change in outcome.changes]


# --- system description and parameters ---------------------------------------------------


def test_info_flags() -> None:
    info = SYSTEM.info
    assert info.id == "elo"
    assert info.kind == "game"
    assert info.duel is True
    assert info.per_faction is False
    assert {spec.name: spec.default for spec in info.params} == {
        "initial": 1500.0,
        "k": 32.0,
        "scale": 400.0,
    }


def test_configure_defaults_and_initial_state() -> None:
    rater = SYSTEM.configure(None)
    assert isinstance(rater, EloRater)
    assert rater.initial_state(rater.initial_ladder_state()) == PlayerState(rating=1500.0)
    assert SYSTEM.configure({"initial": 1200}).initial_state(EMPTY).rating == 1200.0


@pytest.mark.parametrize(
    "params",
    [{"k": 0}, {"k": -5}, {"scale": 0}, {"scale": -400}, {"k": "big"}, {"elo": 1}],
)
def test_invalid_parameters(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure(params)


# --- two players -----------------------------------------------------------------------------


def test_equal_ratings_win_moves_half_k() -> None:
    # E = 1/2, so the winner gains 32 * (1 - 1/2) and the loser loses as much.
    outcome = rate([1, 2], [1500, 1500])
    assert deltas(outcome) == pytest.approx([32 * 0.5, -32 * 0.5], abs=TIGHT)
    assert outcome.changes[0].after.rating == pytest.approx(1516.0, abs=TIGHT)


def test_equal_ratings_draw_changes_nothing() -> None:
    assert deltas(rate([1, 1], [1500, 1500])) == pytest.approx([0.0, 0.0], abs=TIGHT)


def test_favourite_wins_by_hand() -> None:
    # 1600 v 1400: E_1600 = 1 / (1 + 10^(-200/400)).
    E = 1 / (1 + 10 ** (-200 / 400))
    outcome = rate([1, 2], [1600, 1400])
    assert deltas(outcome) == pytest.approx([32 * (1 - E), -32 * (1 - E)], abs=TIGHT)
    assert outcome.changes[0].details["expected_score"] == pytest.approx(E, abs=TIGHT)
    assert outcome.changes[1].details["expected_score"] == pytest.approx(1 - E, abs=TIGHT)


def test_underdog_wins_with_custom_k_and_scale() -> None:
    # K 20, scale 200: 1400 beats 1600, E_1400 = 1 / (1 + 10^(200/200)) = 1/11.
    outcome = rate([1, 2], [1400, 1600], {"k": 20, "scale": 200})
    assert deltas(outcome) == pytest.approx([20 * (1 - 1 / 11), -20 * (1 - 1 / 11)], abs=TIGHT)


def test_expected_score_is_the_logistic() -> None:
    rater = SYSTEM.configure()
    # A 400-point favourite has odds 10:1, so E = 10/11.
    assert rater.expected_score(PlayerState(1900.0), PlayerState(1500.0)) == pytest.approx(
        10 / 11, abs=TIGHT
    )
    assert rater.expected_score(PlayerState(1500.0), PlayerState(1900.0)) == pytest.approx(
        1 / 11, abs=TIGHT
    )
    assert rater.expected_score(PlayerState(1500.0), PlayerState(1500.0)) == 0.5


def test_extreme_rating_gap_does_not_overflow() -> None:
    outcome = rate([2, 1], [1e9, -1e9])
    assert deltas(outcome) == pytest.approx([-32.0, 32.0], abs=TIGHT)


# --- free-for-all ----------------------------------------------------------------------------


def test_three_equal_players_by_rank() -> None:
    # K / (N - 1) = 16 per duel; each duel has E = 1/2.
    # 1st: S = 1 + 1, E = 1/2 + 1/2 -> 16 * 1; 2nd: S = 1 + 0 -> 0; 3rd: S = 0 -> 16 * -1.
    assert deltas(rate([1, 2, 3], [1500, 1500, 1500])) == pytest.approx(
        [16.0, 0.0, -16.0], abs=TIGHT
    )


def test_four_players_with_shared_first_place() -> None:
    # K / 3 per duel; equal ratings so E = 3/2 for everyone.
    # Ranks 1,1,3,4: S = 2.5, 2.5, 1, 0.
    k = 32 / 3
    expected = [k * (2.5 - 1.5), k * (2.5 - 1.5), k * (1 - 1.5), k * (0 - 1.5)]
    assert deltas(rate([1, 1, 3, 4], [1500] * 4)) == pytest.approx(expected, abs=TIGHT)


def test_three_players_unequal_by_hand() -> None:
    # Ratings 1600, 1500, 1400 finishing 3rd, 1st, 2nd; K / 2 = 16 per duel.
    def E(a: float, b: float) -> float:
        return 1 / (1 + 10 ** ((b - a) / 400))

    expected = [
        16 * ((0 - E(1600, 1500)) + (0 - E(1600, 1400))),
        16 * ((1 - E(1500, 1600)) + (1 - E(1500, 1400))),
        16 * ((1 - E(1400, 1600)) + (0 - E(1400, 1500))),
    ]
    outcome = rate([3, 1, 2], [1600, 1500, 1400])
    assert deltas(outcome) == pytest.approx(expected, abs=TIGHT)
    details = outcome.changes[1].details
    assert details["k"] == 32.0
    assert details["k_per_duel"] == 16.0
    assert details["score"] == 2.0
    assert details["expected_score"] == pytest.approx(E(1500, 1600) + E(1500, 1400), abs=TIGHT)
    duels = details["duels"]
    assert [d["opponent"] for d in duels] == ["p0", "p2"]
    assert duels[0]["score"] == 1.0
    assert duels[0]["expected_score"] == pytest.approx(E(1500, 1600), abs=TIGHT)
    assert duels[0]["amount"] == pytest.approx(16 * (1 - E(1500, 1600)), abs=TIGHT)


def test_changes_follow_input_order_and_ignore_factions() -> None:
    rater = SYSTEM.configure()
    game = make_game([2, 1], ["Terran", "Zerg"])
    before = {PlayerKey("p0"): PlayerState(1500.0), PlayerKey("p1"): PlayerState(1500.0)}
    outcome = rater.rate_game(game, before, EMPTY)
    assert [c.key for c in outcome.changes] == [PlayerKey("p0"), PlayerKey("p1")]
    assert outcome.changes[0].before is before[PlayerKey("p0")]
    assert before[PlayerKey("p0")].rating == 1500.0


def test_one_player_is_invalid() -> None:
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().validate_game(make_game([1]))
    assert info.value.loc == ("players",)


def test_adjustment_refuses_deviation() -> None:
    rater = SYSTEM.configure()
    assert rater.adjusted_state(None, 1700.0, None, None, PLAYED_AT).rating == 1700.0
    with pytest.raises(InvalidEvent):
        rater.adjusted_state(None, 1700.0, 50.0, None, PLAYED_AT)


# --- properties ------------------------------------------------------------------------------

ratings_st = st.floats(min_value=-5000, max_value=5000, allow_nan=False)
tables = st.integers(min_value=2, max_value=8).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n),
        st.lists(ratings_st, min_size=n, max_size=n),
    )
)
params_st = st.fixed_dictionaries(
    {
        "k": st.floats(min_value=0.1, max_value=100),
        "scale": st.floats(min_value=10, max_value=1000),
    }
)


@settings(max_examples=200, deadline=None)
@given(tables, params_st)
def test_zero_sum_and_finite(
    table: tuple[list[int], list[float]], params: dict[str, float]
) -> None:
    ranks, ratings = table
    outcome = rate(ranks, ratings, params)
    values = deltas(outcome)
    assert all(math.isfinite(c.after.rating) for c in outcome.changes)
    assert sum(values) == pytest.approx(0.0, abs=1e-6)
    # No player moves more than K in one game.
    assert all(abs(v) <= params["k"] + 1e-9 for v in values)


@settings(max_examples=200, deadline=None)
@given(tables, st.data())
def test_better_rank_never_earns_less(
    table: tuple[list[int], list[float]], data: st.DataObject
) -> None:
    ranks, ratings = table
    i = data.draw(st.integers(min_value=0, max_value=len(ranks) - 1))
    better = data.draw(st.integers(min_value=1, max_value=ranks[i]))
    improved = list(ranks)
    improved[i] = better
    assert deltas(rate(improved, ratings))[i] >= deltas(rate(ranks, ratings))[i] - 1e-9


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=6))
def test_equal_ratings_order_follows_rank(ranks: list[int]) -> None:
    values = deltas(rate(ranks, [1500.0] * len(ranks)))
    for a in range(len(ranks)):
        for b in range(len(ranks)):
            if ranks[a] < ranks[b]:
                assert values[a] > values[b]
            if ranks[a] == ranks[b]:
                assert values[a] == pytest.approx(values[b], abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(ratings_st, ratings_st, st.sampled_from([(1, 2), (1, 1), (2, 1)]))
def test_two_player_symmetry(r_a: float, r_b: float, ranks: tuple[int, int]) -> None:
    forward = deltas(rate(list(ranks), [r_a, r_b]))
    mirrored = deltas(rate([ranks[1], ranks[0]], [r_b, r_a]))
    # The same game seen from the other seat gives the same changes, and it is zero-sum.
    assert forward == pytest.approx([mirrored[1], mirrored[0]], abs=1e-9)
    assert forward[0] == pytest.approx(-forward[1], abs=1e-9)
    # Plain Elo: K (S - E).
    rater = SYSTEM.configure()
    S = {(1, 2): 1.0, (1, 1): 0.5, (2, 1): 0.0}[ranks]
    E = rater.expected_score(PlayerState(r_a), PlayerState(r_b))
    assert forward[0] == pytest.approx(32 * (S - E), abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(ratings_st, ratings_st, st.sampled_from([(1, 2), (1, 1), (2, 1)]), params_st)
def test_duel_is_the_free_for_all_rule_exactly(
    r_a: float, r_b: float, ranks: tuple[int, int], params: dict[str, float]
) -> None:
    # Hand arithmetic of the module's rule with N = 2: R' = R + K / (N - 1) * (S - E), E the
    # logistic over `scale`, and the details of one duel; compared with ==, not approx.
    outcome = rate(list(ranks), [r_a, r_b], params)
    K, scale = params["k"], params["scale"]
    S = {(1, 2): 1.0, (1, 1): 0.5, (2, 1): 0.0}[ranks]
    seats = ((r_a, r_b, S, "p1"), (r_b, r_a, 1.0 - S, "p0"))
    for change, (mine, theirs, score, opponent) in zip(outcome.changes, seats, strict=True):
        E = logistic_expected_score(mine, theirs, scale)
        assert change.after.rating == mine + K / (2 - 1) * (score - E)
        assert dict(change.details) == {
            "k": K,
            "k_per_duel": K,
            "expected_score": E,
            "score": score,
            "duels": [
                {
                    "opponent": opponent,
                    "opponent_rating": theirs,
                    "expected_score": E,
                    "score": score,
                    "amount": K * (score - E),
                }
            ],
        }
