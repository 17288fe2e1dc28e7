"""Glicko-2 (SYSTEMS.md "glicko2"; Glickman, "Example of the Glicko-2 system", 2013)."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import glicko2
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.glicko2 import (
    SCALE,
    SYSTEM,
    Glicko2Rater,
    Opponent,
    rate_period,
    to_mu,
    to_phi,
)
from app.engine.glicko_family import GlickoFamilyRater
from app.engine.periods import GAME_MODE_EXTRA
from app.engine.protocols import DuelRater
from app.engine.types import EMPTY, Game, Json, Participant, PlayerKey, PlayerState

# Glickman (2013), the worked example: a 1500 / 200 / 0.06 player, tau 0.5, in one period
# beats 1400 / 30 and loses to 1550 / 100 and 1700 / 300.
PAPER_OPPONENTS = ((1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0))
PAPER_G = (0.9955, 0.9531, 0.7242)
PAPER_E = (0.639, 0.432, 0.303)
PAPER_V = 1.7785
PAPER_DELTA = -0.4834
PAPER_SIGMA = 0.05999
PAPER_MU = -0.2069
PAPER_PHI = 0.8722
PAPER_RATING = 1464.06
PAPER_DEVIATION = 151.52

DAY = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


def paper_opponents() -> list[Opponent]:
    return [Opponent(to_mu(r), to_phi(rd), s) for r, rd, s in PAPER_OPPONENTS]


def duel(at: datetime, winner: str, loser: str) -> Game:
    return Game(played_at=at, participants=(Participant(winner, 1), Participant(loser, 2)))


def play(
    rater: Glicko2Rater, at: datetime, me: PlayerState, opponent: PlayerState, score: float
) -> tuple[PlayerState, PlayerState, dict[str, object]]:
    """Rate a two-player game of ``me`` (player "p") against "o"; return both afters."""
    ranks = {1.0: (1, 2), 0.0: (2, 1), 0.5: (1, 1)}[score]
    game = Game(played_at=at, participants=(Participant("p", ranks[0]), Participant("o", ranks[1])))
    outcome = rater.rate_game(game, {PlayerKey("p"): me, PlayerKey("o"): opponent}, EMPTY)
    return outcome.changes[0].after, outcome.changes[1].after, dict(outcome.changes[0].details)


# --- the paper's example, step by step ---------------------------------------------------------


def test_scale_conversion() -> None:
    assert SCALE == 173.7178
    assert to_mu(1500.0) == 0.0
    assert to_phi(200.0) == pytest.approx(1.1513, abs=5e-5)  # the paper's phi
    assert to_mu(1400.0) == pytest.approx(-0.5756, abs=5e-5)  # the paper's mu_1


def test_paper_g_and_E() -> None:
    mu = to_mu(1500.0)
    for (r, rd, _), g_j, E_j in zip(PAPER_OPPONENTS, PAPER_G, PAPER_E, strict=True):
        assert glicko2.g(to_phi(rd)) == pytest.approx(g_j, abs=5e-5)
        assert glicko2.E(mu, to_mu(r), to_phi(rd)) == pytest.approx(E_j, abs=5e-4)


def test_paper_v_and_delta() -> None:
    mu = to_mu(1500.0)
    v = glicko2.v(mu, paper_opponents())
    assert v == pytest.approx(PAPER_V, abs=1e-3)
    assert glicko2.Delta(mu, paper_opponents(), v) == pytest.approx(PAPER_DELTA, abs=1e-3)


def test_paper_volatility_by_illinois() -> None:
    sigma = glicko2.sigma_prime(to_phi(200.0), 0.06, PAPER_V, PAPER_DELTA, 0.5, 1e-6)
    assert sigma == pytest.approx(PAPER_SIGMA, abs=1e-5)


def test_paper_phi_star_phi_prime_mu_prime() -> None:
    phi_star = glicko2.phi_star(to_phi(200.0), PAPER_SIGMA)
    assert phi_star == pytest.approx(math.sqrt(1.1513**2 + 0.05999**2), abs=1e-4)
    assert glicko2.phi_prime(phi_star, PAPER_V) == pytest.approx(PAPER_PHI, abs=1e-4)


def test_paper_example_one_period() -> None:
    update = rate_period(to_mu(1500.0), to_phi(200.0), 0.06, paper_opponents(), tau=0.5)
    assert update.v == pytest.approx(PAPER_V, abs=1e-3)
    assert update.Delta == pytest.approx(PAPER_DELTA, abs=1e-3)
    assert update.sigma == pytest.approx(PAPER_SIGMA, abs=1e-5)
    assert update.mu == pytest.approx(PAPER_MU, abs=1e-4)
    assert update.phi == pytest.approx(PAPER_PHI, abs=1e-4)
    assert glicko2.to_r(update.mu) == pytest.approx(PAPER_RATING, abs=0.01)
    assert glicko2.to_RD(update.phi) == pytest.approx(PAPER_DEVIATION, abs=0.01)


def test_no_game_period_only_grows_phi() -> None:
    update = rate_period(0.3, 1.0, 0.06, [])
    assert (update.mu, update.sigma) == (0.3, 0.06)
    assert update.phi == pytest.approx(math.sqrt(1.0 + 0.06**2), abs=1e-12)


def test_phi_star_cap() -> None:
    # A new player: phi* = sqrt(phi^2 + sigma'^2) would pass 350 / 173.7178; the rater caps it.
    opponent = [Opponent(0.0, to_phi(350.0), 1.0)]
    uncapped = rate_period(0.0, to_phi(350.0), 0.06, opponent)
    assert uncapped.phi_star == pytest.approx(
        math.sqrt(to_phi(350.0) ** 2 + uncapped.sigma**2), rel=1e-12
    )
    capped = rate_period(0.0, to_phi(350.0), 0.06, opponent, phi_max=to_phi(350.0))
    assert capped.phi_star == to_phi(350.0)
    assert capped.phi == pytest.approx(
        1 / math.sqrt(1 / to_phi(350.0) ** 2 + 1 / capped.v), rel=1e-12
    )  # type: ignore[operator]
    _, _, details = play(
        SYSTEM.configure(),
        DAY,
        PlayerState(1500.0, 350.0, 0.06),
        PlayerState(1500.0, 350.0, 0.06),
        1.0,
    )
    assert details["phi_star"] == to_phi(350.0)


# --- the rater: the paper's period played as three games on one day ----------------------------


def paper_day(order: tuple[int, ...]) -> PlayerState:
    rater = SYSTEM.configure({"period": "day"})
    me = PlayerState(1500.0, 200.0, 0.06)
    for n, index in enumerate(order):
        r, rd, s = PAPER_OPPONENTS[index]
        opponent = PlayerState(r, rd, 0.06)
        me, _, _ = play(rater, DAY + timedelta(hours=n), me, opponent, s)
    return me


def test_paper_example_as_three_games_in_day_mode() -> None:
    final = paper_day((0, 1, 2))
    assert final.rating == pytest.approx(PAPER_RATING, abs=0.01)
    assert final.deviation == pytest.approx(PAPER_DEVIATION, abs=0.01)
    assert final.volatility == pytest.approx(PAPER_SIGMA, abs=1e-5)


def test_day_mode_order_within_the_period_does_not_matter() -> None:
    final = paper_day((2, 0, 1))
    assert final.rating == pytest.approx(PAPER_RATING, abs=0.01)
    assert final.deviation == pytest.approx(PAPER_DEVIATION, abs=0.01)


def test_day_mode_details_show_the_batch() -> None:
    rater = SYSTEM.configure({"period": "day"})
    me = PlayerState(1500.0, 200.0, 0.06)
    details: dict[str, object] = {}
    for n, (r, rd, s) in enumerate(PAPER_OPPONENTS):
        me, _, details = play(rater, DAY + timedelta(hours=n), me, PlayerState(r, rd, 0.06), s)
    assert details["period_results"] == 3
    assert details["idle_periods"] == 0
    assert details["deviation_start"] == 200.0
    assert details["v"] == pytest.approx(PAPER_V, abs=1e-3)
    assert details["delta"] == pytest.approx(PAPER_DELTA, abs=1e-3)
    assert details["g"] == pytest.approx(list(PAPER_G), abs=5e-5)
    assert details["E"] == pytest.approx(list(PAPER_E), abs=5e-4)
    opponents = details["opponents"]
    assert isinstance(opponents, list)
    assert [o["opponent"] for o in opponents] == ["o"]
    assert opponents[0]["E"] == pytest.approx(PAPER_E[2], abs=5e-4)
    assert details["volatility_after"] == pytest.approx(PAPER_SIGMA, abs=1e-5)
    json.dumps(details)


def test_next_day_starts_a_new_period_from_the_rated_state() -> None:
    rater = SYSTEM.configure({"period": "day"})
    me = paper_day((0, 1, 2))
    # Consecutive days: no empty period between them, so no idle growth.
    after, _, details = play(
        rater, DAY + timedelta(days=1), me, PlayerState(1500.0, 350.0, 0.06), 1.0
    )
    assert details["idle_periods"] == 0
    assert details["deviation_start"] == me.deviation
    assert details["rating_start"] == me.rating
    assert details["period_results"] == 1
    assert after.rating > me.rating


def test_empty_periods_grow_rd_by_the_no_game_step() -> None:
    rater = SYSTEM.configure({"period": "week"})
    me = PlayerState(1500.0, 200.0, 0.06)
    me, _, _ = play(rater, DAY, me, PlayerState(1500.0, 100.0, 0.06), 1.0)
    # Three weeks later: two empty weeks between.
    _, _, details = play(rater, DAY + timedelta(weeks=3), me, PlayerState(1500.0, 100.0, 0.06), 1.0)
    assert details["idle_periods"] == 2
    phi, sigma = me.deviation / 173.7178, me.volatility  # type: ignore[operator]
    expected = 173.7178 * math.sqrt(phi**2 + 2 * sigma**2)  # type: ignore[operator]
    assert details["deviation_start"] == pytest.approx(expected, rel=1e-12)


def test_idle_growth_is_capped_at_the_initial_rd() -> None:
    rater = SYSTEM.configure({"period": "month"})
    me = rater.adjusted_state(None, 1500.0, 340.0, 0.06, datetime(2000, 1, 15, tzinfo=UTC))
    # 1200 empty months: sqrt(phi^2 + 1200 sigma^2) is far above 350 / 173.7178.
    later = datetime(2100, 1, 15, tzinfo=UTC)
    _, _, details = play(rater, later, me, PlayerState(1500.0, 100.0, 0.06), 1.0)
    assert details["idle_periods"] == 1200
    assert details["deviation_start"] == 350.0


def test_opponents_enter_with_their_period_start_state() -> None:
    rater = SYSTEM.configure({"period": "day"})
    players = {
        PlayerKey("a"): PlayerState(1500.0, 350.0, 0.06),
        PlayerKey("b"): PlayerState(1500.0, 350.0, 0.06),
        PlayerKey("c"): PlayerState(1600.0, 80.0, 0.06),
    }
    first = rater.rate_game(duel(DAY, "a", "b"), players, EMPTY)
    players[PlayerKey("b")] = first.changes[1].after
    assert players[PlayerKey("b")].rating < 1500.0
    second = rater.rate_game(duel(DAY + timedelta(hours=1), "c", "b"), players, EMPTY)
    c_details = dict(second.changes[0].details)
    # C meets B's period-start state (1500 / 350), not B's rating after its loss to A.
    assert c_details["opponents"][0]["rating"] == 1500.0
    assert c_details["opponents"][0]["deviation"] == 350.0
    # B's batch is both games, from its period start.
    b_details = dict(second.changes[1].details)
    assert b_details["period_results"] == 2
    assert b_details["rating_start"] == 1500.0


def test_opponent_in_a_later_period_enters_with_idle_growth() -> None:
    rater = SYSTEM.configure({"period": "week"})
    b_after_week_1 = (
        rater.rate_game(
            duel(DAY, "a", "b"),
            {
                PlayerKey("a"): PlayerState(1500.0, 200.0, 0.06),
                PlayerKey("b"): PlayerState(1500.0, 200.0, 0.06),
            },
            EMPTY,
        )
        .changes[1]
        .after
    )
    outcome = rater.rate_game(
        duel(DAY + timedelta(weeks=2), "c", "b"),
        {PlayerKey("c"): PlayerState(1500.0, 200.0, 0.06), PlayerKey("b"): b_after_week_1},
        EMPTY,
    )
    phi = b_after_week_1.deviation / 173.7178  # type: ignore[operator]
    sigma = b_after_week_1.volatility
    expected = 173.7178 * math.sqrt(phi**2 + sigma**2)  # type: ignore[operator]  # one empty week
    assert dict(outcome.changes[0].details)["opponents"][0]["deviation"] == pytest.approx(
        expected, rel=1e-12
    )


def test_game_mode_rates_each_game_alone_without_idle_growth() -> None:
    rater = SYSTEM.configure()
    me = PlayerState(1500.0, 200.0, 0.06)
    for n, (r, rd, s) in enumerate(PAPER_OPPONENTS):
        before = me
        me, _, details = play(rater, DAY + timedelta(days=30 * n), me, PlayerState(r, rd, 0.06), s)
        assert details["period"] is None
        assert details["idle_periods"] == 0
        assert details["period_results"] == 1
        assert details["deviation_start"] == before.deviation
        single = rate_period(
            to_mu(before.rating),
            to_phi(before.deviation),
            before.volatility,
            [Opponent(to_mu(r), to_phi(rd), s)],
            0.5,
        )  # type: ignore[arg-type]
        assert me.rating == pytest.approx(glicko2.to_r(single.mu), rel=1e-12)
    # Sequential single-game periods differ from the one-period batch of the paper.
    assert me.rating != pytest.approx(PAPER_RATING, abs=0.01)


# --- multiplayer -------------------------------------------------------------------------------


def test_multiplayer_is_pairwise_by_rank() -> None:
    rater = SYSTEM.configure()
    states = {
        PlayerKey("w"): PlayerState(1500.0, 200.0, 0.06),
        PlayerKey("x"): PlayerState(1400.0, 30.0, 0.06),
        PlayerKey("y"): PlayerState(1550.0, 100.0, 0.06),
        PlayerKey("z"): PlayerState(1700.0, 300.0, 0.06),
    }
    # The paper's results as one four-player game: w beats x, loses to y and z.
    game = Game(
        played_at=DAY,
        participants=(
            Participant("y", 1),
            Participant("z", 1),
            Participant("w", 2),
            Participant("x", 3),
        ),
    )
    outcome = rater.rate_game(game, states, EMPTY)
    assert [c.key for c in outcome.changes] == [
        PlayerKey("y"),
        PlayerKey("z"),
        PlayerKey("w"),
        PlayerKey("x"),
    ]
    w = outcome.changes[2]
    assert w.after.rating == pytest.approx(PAPER_RATING, abs=0.01)
    assert w.after.deviation == pytest.approx(PAPER_DEVIATION, abs=0.01)
    assert w.after.volatility == pytest.approx(PAPER_SIGMA, abs=1e-5)
    scores = {o["opponent"]: o["score"] for o in dict(w.details)["opponents"]}
    assert scores == {"y": 0.0, "z": 0.0, "x": 1.0}
    y_scores = {o["opponent"]: o["score"] for o in dict(outcome.changes[0].details)["opponents"]}
    assert y_scores == {"z": 0.5, "w": 1.0, "x": 1.0}


# --- presentation, lobby, adjustments, validation ----------------------------------------------


def test_system_info_and_defaults() -> None:
    info = SYSTEM.info
    assert (info.id, info.kind, info.duel, info.rank_by) == (
        "glicko2",
        "game",
        True,
        "ranking_value",
    )
    rater = SYSTEM.configure()
    assert dict(rater.params) == {
        "initial_rating": 1500.0,
        "initial_deviation": 350.0,
        "initial_volatility": 0.06,
        "tau": 0.5,
        "period": "game",
        "ranking_multiplier": 2.5,
    }
    assert rater.initial_state(EMPTY) == PlayerState(1500.0, 350.0, 0.06)
    protocol_check: DuelRater = rater
    assert protocol_check is rater


def test_new_coach_ranking_value_is_625() -> None:
    rater = SYSTEM.configure()
    standing = rater.standing(rater.initial_state(EMPTY))
    assert standing.ranking_value == 1500 - 2.5 * 350
    assert standing.ranking_value == 625.0
    assert (standing.rating, standing.deviation, standing.volatility) == (1500.0, 350.0, 0.06)


def test_ranking_multiplier_is_a_parameter() -> None:
    rater = SYSTEM.configure({"ranking_multiplier": 2.0})
    assert rater.standing(PlayerState(1600.0, 100.0, 0.06)).ranking_value == 1600 - 2 * 100


def test_expected_score_is_glickmans_E() -> None:
    rater = SYSTEM.configure()
    me = PlayerState(1500.0, 200.0, 0.06)
    assert rater.expected_score(me, PlayerState(1400.0, 30.0, 0.06)) == pytest.approx(
        0.639, abs=5e-4
    )
    assert rater.expected_score(me, PlayerState(1700.0, 300.0, 0.06)) == pytest.approx(
        0.303, abs=5e-4
    )
    assert rater.expected_score(me, PlayerState(1500.0, 10.0, 0.06)) == 0.5


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"period": "year"}, "period"),
        ({"tau": 0}, "tau"),
        ({"initial_deviation": 0}, "initial_deviation"),
        ({"initial_volatility": -0.1}, "initial_volatility"),
        ({"ranking_multiplier": -1}, "ranking_multiplier"),
        ({"k": 32}, "k"),
    ],
)
def test_invalid_parameters(params: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidParameter) as info:
        SYSTEM.configure(params)
    assert info.value.name == name


def test_validate_game_needs_two_players() -> None:
    rater = SYSTEM.configure()
    with pytest.raises(InvalidEvent) as info:
        rater.validate_game(Game(played_at=DAY, participants=(Participant("a", 1),)))
    assert info.value.loc == ("players",)
    rater.validate_game(duel(DAY, "a", "b"))


def test_adjustment_defaults_keep_previous_values() -> None:
    rater = SYSTEM.configure()
    previous = PlayerState(1600.0, 120.0, 0.07)
    adjusted = rater.adjusted_state(previous, 1700.0, None, None, DAY)
    assert (adjusted.rating, adjusted.deviation, adjusted.volatility) == (1700.0, 120.0, 0.07)
    new = rater.adjusted_state(None, 1700.0, None, None, DAY)
    assert (new.deviation, new.volatility) == (350.0, 0.06)
    # "game" mode: no open period; the next game starts from the adjusted values.
    assert dict(adjusted.extra) == {}


@pytest.mark.parametrize(
    ("rating", "deviation", "volatility", "loc"),
    [
        (math.nan, None, None, ("rating",)),
        (1_000_000.0, None, None, ("rating",)),
        (1500.0, 0.0, None, ("deviation",)),
        (1500.0, 351.0, None, ("deviation",)),
        (1500.0, math.inf, None, ("deviation",)),
        (1500.0, None, 0.0, ("volatility",)),
        (1500.0, None, -0.06, ("volatility",)),
        (1500.0, None, math.nan, ("volatility",)),
    ],
)
def test_adjustment_validation(
    rating: float, deviation: float | None, volatility: float | None, loc: tuple[str]
) -> None:
    rater = SYSTEM.configure()
    with pytest.raises(InvalidEvent) as info:
        rater.adjusted_state(None, rating, deviation, volatility, DAY)
    assert info.value.loc == loc


def test_adjustment_is_the_period_start_state() -> None:
    rater = SYSTEM.configure({"period": "day"})
    me = PlayerState(1500.0, 300.0, 0.06)
    me, _, _ = play(rater, DAY - timedelta(days=10), me, PlayerState(1500.0, 100.0, 0.06), 1.0)
    adjusted = rater.adjusted_state(me, 1800.0, 90.0, 0.05, DAY)
    assert (adjusted.rating, adjusted.deviation, adjusted.volatility) == (1800.0, 90.0, 0.05)
    # A game later the same day is rated from the adjusted state with no idle growth.
    _, _, details = play(
        rater, DAY + timedelta(hours=3), adjusted, PlayerState(1800.0, 90.0, 0.06), 0.5
    )
    assert details["idle_periods"] == 0
    assert (details["rating_start"], details["deviation_start"], details["volatility_start"]) == (
        1800.0,
        90.0,
        0.05,
    )
    # On the next day, the adjustment's own (empty) day counts as one empty period.
    _, _, details = play(
        rater, DAY + timedelta(days=1), adjusted, PlayerState(1800.0, 90.0, 0.06), 0.5
    )
    assert details["idle_periods"] == 1
    expected = 173.7178 * math.sqrt((90.0 / 173.7178) ** 2 + 0.05**2)
    assert details["deviation_start"] == pytest.approx(expected, rel=1e-12)


def test_inputs_are_not_mutated() -> None:
    rater = SYSTEM.configure({"period": "day"})
    me = PlayerState(1500.0, 200.0, 0.06)
    opponent = PlayerState(1400.0, 30.0, 0.06)
    before = {PlayerKey("p"): me, PlayerKey("o"): opponent}
    copy = dict(before)
    outcome = rater.rate_game(duel(DAY, "p", "o"), before, EMPTY)
    assert before == copy
    assert outcome.changes[0].before is me
    assert dict(me.extra) == {}


# --- properties --------------------------------------------------------------------------------

ratings = st.floats(min_value=-3500.0, max_value=6500.0)
deviations = st.floats(min_value=1.0, max_value=350.0)
volatilities = st.floats(min_value=1e-9, max_value=1.0)
states = st.builds(PlayerState, ratings, deviations, volatilities)
scores = st.sampled_from([0.0, 0.5, 1.0])
taus = st.floats(min_value=0.01, max_value=10.0)


def finite_state(state: PlayerState) -> bool:
    return all(
        math.isfinite(x)
        for x in (state.rating, state.deviation, state.volatility)  # type: ignore[arg-type]
    )


@settings(max_examples=200, deadline=None)
@given(me=states, opponent=states, score=scores, tau=taus, period=st.sampled_from(["game", "day"]))
def test_property_finite_and_rd_capped(
    me: PlayerState, opponent: PlayerState, score: float, tau: float, period: str
) -> None:
    rater = SYSTEM.configure({"tau": tau, "period": period})
    after_me, after_opponent, details = play(rater, DAY, me, opponent, score)
    for state in (after_me, after_opponent):
        assert finite_state(state)
        assert 0.0 < state.deviation <= 350.0  # type: ignore[operator]
        assert state.volatility > 0.0  # type: ignore[operator]
    json.dumps(details, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(me=states, opponent=states, tau=taus)
def test_property_winning_never_lowers_the_rating(
    me: PlayerState, opponent: PlayerState, tau: float
) -> None:
    rater = SYSTEM.configure({"tau": tau})
    after_win, after_loss, _ = play(rater, DAY, me, opponent, 1.0)
    assert after_win.rating >= me.rating
    assert after_loss.rating <= opponent.rating


@settings(max_examples=100, deadline=None)
@given(
    me=states,
    games=st.lists(st.tuples(states, scores), min_size=1, max_size=6),
)
def test_property_day_batch_equals_one_period_step(
    me: PlayerState, games: list[tuple[PlayerState, float]]
) -> None:
    rater = SYSTEM.configure({"period": "day"})
    state = me
    for n, (opponent, score) in enumerate(games):
        state, _, _ = play(rater, DAY + timedelta(minutes=n), state, opponent, score)
    step = rate_period(
        to_mu(me.rating),
        to_phi(me.deviation),  # type: ignore[arg-type]
        me.volatility,  # type: ignore[arg-type]
        [Opponent(to_mu(o.rating), to_phi(o.deviation), s) for o, s in games],  # type: ignore[arg-type]
        0.5,
        phi_max=350.0 / 173.7178,
    )
    assert state.rating == pytest.approx(glicko2.to_r(step.mu), rel=1e-12, abs=1e-9)
    assert state.deviation == pytest.approx(glicko2.to_RD(step.phi), rel=1e-12)
    assert state.volatility == pytest.approx(step.sigma, rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    base=st.tuples(ratings, deviations, volatilities),
    ranks=st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=6),
)
def test_property_better_place_never_earns_less(
    base: tuple[float, float, float], ranks: list[int]
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


@settings(max_examples=200, deadline=None)
@given(
    seats=st.lists(
        st.tuples(
            ratings,
            st.none() | deviations,
            st.none() | volatilities,
            st.sampled_from([EMPTY, GAME_MODE_EXTRA]),
            st.integers(min_value=1, max_value=4),
        ),
        min_size=2,
        max_size=6,
    ),
    tau=taus,
)
def test_property_game_mode_free_for_all_equals_the_family_path(
    seats: list[tuple[float, float | None, float | None, Mapping[str, Json], int]], tau: float
) -> None:
    """Glicko2Rater.rate_game rates a "game"-mode free-for-all directly; the family's path
    (periods, positions, period starts) gives the same floats and the same details."""
    rater = SYSTEM.configure({"tau": tau, "period": "game"})
    players = tuple(Participant(f"p{i}", seat[4]) for i, seat in enumerate(seats))
    before = {
        PlayerKey(p.player): PlayerState(*seat[:4]) for p, seat in zip(players, seats, strict=True)
    }
    game = Game(played_at=DAY, participants=players)
    direct = rater.rate_game(game, before, EMPTY)
    family = GlickoFamilyRater.rate_game(rater, game, before, EMPTY)
    assert len(direct.changes) == len(family.changes) == len(players)
    for a, b in zip(direct.changes, family.changes, strict=True):
        assert (a.key, a.before) == (b.key, b.before)
        # repr: the same text is the same float (equality would take -0.0 for 0.0).
        assert repr(a.after) == repr(b.after)
        assert json.dumps(dict(a.details)) == json.dumps(dict(b.details))
