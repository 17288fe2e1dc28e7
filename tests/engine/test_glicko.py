"""Glicko-1 (SYSTEMS.md "glicko"; Glickman, "The Glicko system")."""

from __future__ import annotations

import itertools
import json
import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import glicko
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.glicko import SYSTEM, GlickoRater, Opponent, rate_period
from app.engine.protocols import DuelRater
from app.engine.types import EMPTY, Game, Participant, PlayerKey, PlayerState

# Glickman, "The Glicko system", the worked example: a 1500 / 200 player in one period beats
# 1400 / 30 and loses to 1550 / 100 and 1700 / 300.
PAPER_OPPONENTS = ((1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0))
PAPER_G = (0.9955, 0.9531, 0.7242)
PAPER_E = (0.639, 0.432, 0.303)
PAPER_D = 231.67  # the paper: d^2 = 231.67^2
PAPER_RATING = 1464.0
PAPER_DEVIATION = 151.4

DAY = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


def paper_opponents() -> list[Opponent]:
    return [Opponent(r, rd, s) for r, rd, s in PAPER_OPPONENTS]


def duel(at: datetime, winner: str, loser: str) -> Game:
    return Game(played_at=at, participants=(Participant(winner, 1), Participant(loser, 2)))


def play(
    rater: GlickoRater, at: datetime, me: PlayerState, opponent: PlayerState, score: float
) -> tuple[PlayerState, PlayerState, dict[str, object]]:
    """Rate a two-player game of ``me`` (player "p") against "o"; return both afters."""
    ranks = {1.0: (1, 2), 0.0: (2, 1), 0.5: (1, 1)}[score]
    game = Game(played_at=at, participants=(Participant("p", ranks[0]), Participant("o", ranks[1])))
    outcome = rater.rate_game(game, {PlayerKey("p"): me, PlayerKey("o"): opponent}, EMPTY)
    return outcome.changes[0].after, outcome.changes[1].after, dict(outcome.changes[0].details)


# --- the paper's example -----------------------------------------------------------------------


def test_q() -> None:
    assert pytest.approx(0.0057565, abs=5e-8) == glicko.Q


def test_paper_g_and_E() -> None:
    for (r, rd, _), g_j, E_j in zip(PAPER_OPPONENTS, PAPER_G, PAPER_E, strict=True):
        assert glicko.g(rd) == pytest.approx(g_j, abs=5e-5)
        assert glicko.E(1500.0, r, rd) == pytest.approx(E_j, abs=5e-4)


def test_paper_d_squared() -> None:
    d2 = glicko.d_squared(1500.0, paper_opponents())
    assert math.sqrt(d2) == pytest.approx(PAPER_D, abs=0.1)


def test_paper_example_one_period() -> None:
    update = rate_period(1500.0, 200.0, paper_opponents())
    assert update.r == pytest.approx(PAPER_RATING, abs=0.5)
    RD_new = update.RD
    assert RD_new == pytest.approx(PAPER_DEVIATION, abs=0.05)
    assert math.sqrt(update.d_squared) == pytest.approx(PAPER_D, abs=0.1)  # type: ignore[arg-type]


def test_paper_rd_prime_from_published_d() -> None:
    # RD' = sqrt((1/200^2 + 1/231.67^2)^-1) = 151.4 in the paper.
    assert glicko.RD_prime(200.0, PAPER_D**2) == pytest.approx(PAPER_DEVIATION, abs=0.05)


def test_no_game_period_keeps_r_and_rd() -> None:
    update = rate_period(1600.0, 120.0, [])
    assert (update.r, update.RD, update.d_squared) == (1600.0, 120.0, None)


def test_step_1_growth_and_cap() -> None:
    # Glickman chose c so that RD 50 returns to about 350 after 100 idle periods.
    assert glicko.RD_onset(50.0, 100, 34.6, 350.0) == pytest.approx(
        math.sqrt(50.0**2 + 34.6**2 * 100), rel=1e-12
    )
    assert glicko.RD_onset(50.0, 1, 34.6, 350.0) == pytest.approx(
        math.sqrt(50.0**2 + 34.6**2), rel=1e-12
    )
    assert glicko.RD_onset(300.0, 40, 34.6, 350.0) == 350.0  # sqrt(300^2 + 40 c^2) = 371
    assert glicko.RD_onset(80.0, 0, 34.6, 350.0) == 80.0


# --- the rater ---------------------------------------------------------------------------------


def paper_day(order: tuple[int, ...]) -> PlayerState:
    rater = SYSTEM.configure({"period": "day"})
    me = PlayerState(1500.0, 200.0)
    for n, index in enumerate(order):
        r, rd, s = PAPER_OPPONENTS[index]
        me, _, _ = play(rater, DAY + timedelta(hours=n), me, PlayerState(r, rd), s)
    return me


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 0, 2)])
def test_paper_example_as_three_games_in_day_mode(order: tuple[int, ...]) -> None:
    final = paper_day(order)
    assert final.rating == pytest.approx(PAPER_RATING, abs=0.5)
    assert final.deviation == pytest.approx(PAPER_DEVIATION, abs=0.05)
    assert final.volatility is None


def test_day_mode_details() -> None:
    rater = SYSTEM.configure({"period": "day"})
    me = PlayerState(1500.0, 200.0)
    details: dict[str, object] = {}
    for n, (r, rd, s) in enumerate(PAPER_OPPONENTS):
        me, _, details = play(rater, DAY + timedelta(hours=n), me, PlayerState(r, rd), s)
    assert details["period_results"] == 3
    assert details["idle_periods"] == 0
    assert details["deviation_start"] == 200.0
    assert math.sqrt(details["d_squared"]) == pytest.approx(PAPER_D, abs=0.1)  # type: ignore[arg-type]
    assert details["d"] == pytest.approx(PAPER_D, abs=0.1)
    assert details["g"] == pytest.approx(list(PAPER_G), abs=5e-5)
    assert details["E"] == pytest.approx(list(PAPER_E), abs=5e-4)
    assert details["volatility_before"] is None
    assert details["volatility_after"] is None
    json.dumps(details, allow_nan=False)


def test_game_mode_growth_between_consecutive_games() -> None:
    rater = SYSTEM.configure()
    me = PlayerState(1500.0, 200.0)
    # A first game (no history): no growth step.
    me, _, details = play(rater, DAY, me, PlayerState(1400.0, 30.0), 1.0)
    assert details["idle_periods"] == 0
    assert details["deviation_start"] == 200.0
    # The next game is the next period: t = 1.
    _, _, details = play(rater, DAY + timedelta(days=400), me, PlayerState(1400.0, 30.0), 1.0)
    assert details["idle_periods"] == 1
    assert details["deviation_start"] == pytest.approx(
        math.sqrt(me.deviation**2 + 34.6**2),  # type: ignore[operator]
        rel=1e-12,
    )


def test_game_mode_opponent_enters_after_its_growth_step() -> None:
    rater = SYSTEM.configure()
    states = {
        PlayerKey("a"): PlayerState(1500.0, 100.0),
        PlayerKey("b"): PlayerState(1500.0, 100.0),
    }
    first = rater.rate_game(duel(DAY, "a", "b"), states, EMPTY)
    b = first.changes[1].after
    outcome = rater.rate_game(
        duel(DAY + timedelta(hours=1), "c", "b"),
        {PlayerKey("c"): PlayerState(1500.0, 100.0), PlayerKey("b"): b},
        EMPTY,
    )
    opponent = dict(outcome.changes[0].details)["opponents"][0]  # type: ignore[index]
    assert opponent["rating"] == b.rating
    assert opponent["deviation"] == pytest.approx(math.sqrt(b.deviation**2 + 34.6**2), rel=1e-12)  # type: ignore[operator]


def test_month_mode_t_counts_periods_since_last_rated() -> None:
    rater = SYSTEM.configure({"period": "month", "c": 50.0})
    jan = datetime(2026, 1, 20, tzinfo=UTC)
    apr = datetime(2026, 4, 2, tzinfo=UTC)
    me, _, _ = play(rater, jan, PlayerState(1500.0, 100.0), PlayerState(1500.0, 100.0), 1.0)
    _, _, details = play(rater, apr, me, PlayerState(1500.0, 100.0), 1.0)
    assert details["idle_periods"] == 3
    assert details["deviation_start"] == pytest.approx(
        math.sqrt(me.deviation**2 + 50.0**2 * 3),  # type: ignore[operator]
        rel=1e-12,
    )


def test_consecutive_weeks_grow_once() -> None:
    rater = SYSTEM.configure({"period": "week"})
    me, _, _ = play(rater, DAY, PlayerState(1500.0, 100.0), PlayerState(1500.0, 100.0), 1.0)
    _, _, details = play(rater, DAY + timedelta(weeks=1), me, PlayerState(1500.0, 100.0), 1.0)
    assert details["idle_periods"] == 1
    assert details["deviation_start"] == pytest.approx(
        math.sqrt(me.deviation**2 + 34.6**2),  # type: ignore[operator]
        rel=1e-12,
    )


def test_opponents_enter_with_their_period_start_state() -> None:
    rater = SYSTEM.configure({"period": "day"})
    players = {
        PlayerKey("a"): PlayerState(1500.0, 350.0),
        PlayerKey("b"): PlayerState(1500.0, 350.0),
        PlayerKey("c"): PlayerState(1600.0, 80.0),
    }
    first = rater.rate_game(duel(DAY, "a", "b"), players, EMPTY)
    players[PlayerKey("b")] = first.changes[1].after
    second = rater.rate_game(duel(DAY + timedelta(hours=1), "c", "b"), players, EMPTY)
    opponent = dict(second.changes[0].details)["opponents"][0]  # type: ignore[index]
    assert (opponent["rating"], opponent["deviation"]) == (1500.0, 350.0)
    assert dict(second.changes[1].details)["period_results"] == 2


def test_multiplayer_is_pairwise_by_rank() -> None:
    rater = SYSTEM.configure()
    states = {
        PlayerKey("w"): PlayerState(1500.0, 200.0),
        PlayerKey("x"): PlayerState(1400.0, 30.0),
        PlayerKey("y"): PlayerState(1550.0, 100.0),
        PlayerKey("z"): PlayerState(1700.0, 300.0),
    }
    game = Game(
        played_at=DAY,
        participants=(
            Participant("w", 2),
            Participant("x", 3),
            Participant("y", 1),
            Participant("z", 1),
        ),
    )
    outcome = rater.rate_game(game, states, EMPTY)
    assert [c.key.player for c in outcome.changes] == ["w", "x", "y", "z"]
    w = outcome.changes[0]
    assert w.after.rating == pytest.approx(PAPER_RATING, abs=0.5)
    assert w.after.deviation == pytest.approx(PAPER_DEVIATION, abs=0.05)
    z_scores = {o["opponent"]: o["score"] for o in dict(outcome.changes[3].details)["opponents"]}  # type: ignore[union-attr]
    assert z_scores == {"w": 1.0, "x": 1.0, "y": 0.5}


# --- presentation, lobby, adjustments, validation ----------------------------------------------


def test_system_info_and_defaults() -> None:
    info = SYSTEM.info
    assert (info.id, info.kind, info.duel, info.rank_by) == (
        "glicko",
        "game",
        True,
        "ranking_value",
    )
    rater = SYSTEM.configure()
    assert dict(rater.params) == {
        "initial_rating": 1500.0,
        "initial_deviation": 350.0,
        "c": 34.6,
        "period": "game",
        "ranking_multiplier": 2.5,
    }
    assert rater.initial_state(EMPTY) == PlayerState(1500.0, 350.0, None)
    protocol_check: DuelRater = rater
    assert protocol_check is rater


def test_new_player_ranking_value() -> None:
    rater = SYSTEM.configure()
    standing = rater.standing(rater.initial_state(EMPTY))
    assert standing.ranking_value == 1500 - 2.5 * 350
    assert standing.volatility is None


def test_expected_score_is_glickmans_E() -> None:
    rater = SYSTEM.configure()
    me = PlayerState(1500.0, 200.0)
    assert rater.expected_score(me, PlayerState(1400.0, 30.0)) == pytest.approx(0.639, abs=5e-4)
    assert rater.expected_score(me, PlayerState(1550.0, 100.0)) == pytest.approx(0.432, abs=5e-4)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"period": "hour"}, "period"),
        ({"c": -1}, "c"),
        ({"initial_deviation": 0.5}, "initial_deviation"),
        ({"tau": 0.5}, "tau"),
    ],
)
def test_invalid_parameters(params: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidParameter) as info:
        SYSTEM.configure(params)
    assert info.value.name == name


def test_validate_game_needs_two_players() -> None:
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().validate_game(Game(played_at=DAY, participants=(Participant("a", 1),)))
    assert info.value.loc == ("players",)


@pytest.mark.parametrize(
    ("deviation", "volatility", "loc"),
    [
        (0.0, None, ("deviation",)),
        (400.0, None, ("deviation",)),
        (math.nan, None, ("deviation",)),
        (None, 0.06, ("volatility",)),
    ],
)
def test_adjustment_validation(
    deviation: float | None, volatility: float | None, loc: tuple[str]
) -> None:
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().adjusted_state(None, 1500.0, deviation, volatility, DAY)
    assert info.value.loc == loc


def test_adjustment_in_game_mode_is_the_next_games_start() -> None:
    rater = SYSTEM.configure()
    me, _, _ = play(rater, DAY, PlayerState(1500.0, 200.0), PlayerState(1500.0, 200.0), 1.0)
    adjusted = rater.adjusted_state(me, 1700.0, None, None, DAY + timedelta(hours=1))
    assert (adjusted.rating, adjusted.deviation) == (1700.0, me.deviation)
    _, _, details = play(rater, DAY + timedelta(days=2), adjusted, PlayerState(1500.0, 200.0), 1.0)
    assert details["idle_periods"] == 0
    assert details["deviation_start"] == me.deviation


def test_adjustment_in_period_mode_is_the_period_start() -> None:
    rater = SYSTEM.configure({"period": "week"})
    adjusted = rater.adjusted_state(None, 1650.0, 120.0, None, DAY)
    _, _, details = play(rater, DAY + timedelta(hours=2), adjusted, PlayerState(1500.0, 200.0), 1.0)
    assert (details["idle_periods"], details["deviation_start"], details["rating_start"]) == (
        0,
        120.0,
        1650.0,
    )
    # Two weeks on, t = 2 periods since the adjusted period started.
    _, _, details = play(rater, DAY + timedelta(weeks=2), adjusted, PlayerState(1500.0, 200.0), 1.0)
    assert details["idle_periods"] == 2
    assert details["deviation_start"] == pytest.approx(math.sqrt(120.0**2 + 2 * 34.6**2), rel=1e-12)


# --- properties --------------------------------------------------------------------------------

ratings = st.floats(min_value=-3500.0, max_value=6500.0)
deviations = st.floats(min_value=1.0, max_value=350.0)
states = st.builds(PlayerState, ratings, deviations)
scores = st.sampled_from([0.0, 0.5, 1.0])
periods = st.sampled_from(["game", "day", "week", "month"])


@settings(max_examples=200, deadline=None)
@given(
    me=states,
    opponent=states,
    score=scores,
    period=periods,
    c=st.floats(min_value=0.0, max_value=500.0),
    gap_days=st.integers(min_value=0, max_value=3000),
)
def test_property_finite_and_rd_capped(
    me: PlayerState, opponent: PlayerState, score: float, period: str, c: float, gap_days: int
) -> None:
    rater = SYSTEM.configure({"period": period, "c": c})
    me, opponent, _ = play(rater, DAY, me, opponent, score)
    after_me, after_opponent, details = play(
        rater, DAY + timedelta(days=gap_days), me, opponent, score
    )
    for state in (after_me, after_opponent):
        assert math.isfinite(state.rating)
        assert 0.0 < state.deviation <= 350.0  # type: ignore[operator]
    json.dumps(details, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(me=states, opponent=states)
def test_property_winning_never_lowers_the_rating(me: PlayerState, opponent: PlayerState) -> None:
    after_win, after_loss, _ = play(SYSTEM.configure(), DAY, me, opponent, 1.0)
    assert after_win.rating >= me.rating
    assert after_loss.rating <= opponent.rating


@settings(max_examples=100, deadline=None)
@given(me=states, games=st.lists(st.tuples(states, scores), min_size=1, max_size=6))
def test_property_day_batch_equals_one_period_step(
    me: PlayerState, games: list[tuple[PlayerState, float]]
) -> None:
    rater = SYSTEM.configure({"period": "day"})
    state = me
    for n, (opponent, score) in enumerate(games):
        state, _, _ = play(rater, DAY + timedelta(minutes=n), state, opponent, score)
    step = rate_period(
        me.rating,
        me.deviation,  # type: ignore[arg-type]
        [Opponent(o.rating, o.deviation, s) for o, s in games],  # type: ignore[arg-type]
    )
    assert state.rating == pytest.approx(step.r, rel=1e-12, abs=1e-9)
    assert state.deviation == pytest.approx(step.RD, rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    base=st.tuples(ratings, deviations),
    ranks=st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=6),
)
def test_property_better_place_never_earns_less(
    base: tuple[float, float], ranks: list[int]
) -> None:
    rater = SYSTEM.configure()
    state = PlayerState(*base)
    players = tuple(Participant(f"p{i}", rank) for i, rank in enumerate(ranks))
    outcome = rater.rate_game(
        Game(played_at=DAY, participants=players),
        {PlayerKey(p.player): state for p in players},
        EMPTY,
    )
    results = list(zip(ranks, (c.after.rating for c in outcome.changes), strict=True))
    for (rank_a, rating_a), (rank_b, rating_b) in itertools.permutations(results, 2):
        if rank_a < rank_b:
            assert rating_a >= rating_b - 1e-9
