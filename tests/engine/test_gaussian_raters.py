"""The ``trueskill`` and ``weng-lin`` systems as the services drive them (SYSTEMS.md "Teams"):
configured from a ladder's parameters, a ``Game`` with teams checked and rated through
``app.engine.ledger``, one change per participant in input order, the leaderboard's
standing, adjustments, and the prediction numbers (side win probability, match quality).

Expected values come from the independent implementations (the ``trueskill`` package with
its scipy backend, ``openskill`` 6.x), the papers' formulas written out by hand, and the
published match qualities (0.447 for two new players; skillratings' 0.0841).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from statistics import NormalDist
from typing import Any

import pytest
import trueskill as ts_package
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from app.engine import trueskill, weng_lin
from app.engine.errors import InvalidEvent, NonFiniteResult
from app.engine.gaussian import GaussianRater
from app.engine.ledger import rate_event, validate_game
from app.engine.registry import SYSTEMS
from app.engine.types import Game, Outcome, Participant, PlayerKey, PlayerState

AT = datetime(2026, 12, 1, 12, tzinfo=UTC)
OPENSKILL = {
    weng_lin.PLACKETT_LUCE: PlackettLuce,
    weng_lin.BRADLEY_TERRY_FULL: BradleyTerryFull,
    weng_lin.BRADLEY_TERRY_PART: BradleyTerryPart,
    weng_lin.THURSTONE_MOSTELLER_FULL: ThurstoneMostellerFull,
    weng_lin.THURSTONE_MOSTELLER_PART: ThurstoneMostellerPart,
}
#: skillratings' 2v2 example (SYSTEMS.md): 20/8, 25/6 against 35/7, 40/5.
UPSET = {"a": (20.0, 8.0), "b": (25.0, 6.0), "c": (35.0, 7.0), "d": (40.0, 5.0)}


def team_game(*sides: tuple[str, int, list[tuple[str, float]]]) -> Game:
    """A game of (label, rank, [(player, weight)]) sides, participants in that order."""
    return Game(
        AT,
        tuple(
            Participant(player, rank, team=label, weight=weight)
            for label, rank, members in sides
            for player, weight in members
        ),
    )


def states(ratings: dict[str, tuple[float, float]]) -> dict[PlayerKey, PlayerState]:
    return {PlayerKey(p): PlayerState(mu, sigma) for p, (mu, sigma) in ratings.items()}


def rate(system: str, game: Game, before: dict[PlayerKey, PlayerState], **params: Any) -> Outcome:
    """Check and rate ``game`` as the services do (ledger.validate_game, ledger.rate_event)."""
    info = SYSTEMS[system].info
    rater = SYSTEMS[system].configure(params)
    validate_game(info, rater, game)  # type: ignore[arg-type]
    return rate_event(info, rater, game, before, {})


def raters() -> list[GaussianRater[Any]]:
    return [trueskill.SYSTEM.configure({}), weng_lin.SYSTEM.configure({})]


# --- the systems as GET /systems lists them --------------------------------------------------


@pytest.mark.parametrize("system", ["trueskill", "weng-lin"])
def test_both_are_registered_team_systems_ranked_by_their_ranking_value(system: str) -> None:
    info = SYSTEMS[system].info
    assert (info.kind, info.sides, info.weights, info.rank_by) == (
        "game",
        True,
        True,
        "ranking_value",
    )
    assert not info.duel
    params = {spec.name: spec.describe() for spec in info.params}
    assert params["mu"]["default"] == 25.0
    assert params["sigma"]["default"] == pytest.approx(25 / 3, abs=1e-15)
    assert params["beta"]["default"] == pytest.approx(25 / 6, abs=1e-15)
    assert params["tau"]["default"] == pytest.approx(25 / 300, abs=1e-15)
    assert params["ranking_multiplier"]["default"] == 3.0
    assert list(SYSTEMS).index(system) > list(SYSTEMS).index("glicko")


def test_each_systems_own_parameters() -> None:
    ts = {spec.name: spec for spec in trueskill.INFO.params}
    assert ts["draw_probability"].default == 0.10
    assert 0.0 < ts["draw_probability"].minimum < ts["draw_probability"].maximum < 1.0  # type: ignore[operator]
    wl = {spec.name: spec for spec in weng_lin.INFO.params}
    assert wl["model"].default == "plackett-luce"
    assert wl["model"].choices == (
        "plackett-luce",
        "bradley-terry-full",
        "bradley-terry-part",
        "thurstone-mosteller-full",
        "thurstone-mosteller-part",
    )
    assert wl["kappa"].default == 0.0001


# --- a team game through the rater ----------------------------------------------------------


def test_trueskill_2v2_team_game_agrees_with_the_trueskill_package() -> None:
    # Listed loser side first, and members out of name order: the changes follow the input.
    game = team_game(("blue", 2, [("d", 1.0), ("c", 1.0)]), ("red", 1, [("a", 1.0), ("b", 1.0)]))
    outcome = rate("trueskill", game, states(UPSET))
    env = ts_package.TrueSkill(backend="scipy")
    (a, b), (c, d) = env.rate(
        [[env.create_rating(*UPSET["a"]), env.create_rating(*UPSET["b"])],
         [env.create_rating(*UPSET["c"]), env.create_rating(*UPSET["d"])]],
        ranks=[0, 1],
    )  # fmt: skip
    expected = {"a": a, "b": b, "c": c, "d": d}
    assert [change.key.player for change in outcome.changes] == ["d", "c", "a", "b"]
    for change in outcome.changes:
        want = expected[change.key.player]
        assert change.after.rating == pytest.approx(want.mu, abs=1e-6)
        assert change.after.deviation == pytest.approx(want.sigma, abs=1e-6)
        assert change.after.volatility is None
    # The published upset (trueskilltest.py test_upset): 29.698 / 7.008 for a.
    assert outcome.changes[2].after.rating == pytest.approx(29.698, abs=1e-3)


def test_trueskill_details_hold_the_closed_forms_terms() -> None:
    game = team_game(("red", 1, [("a", 1.0), ("b", 1.0)]), ("blue", 2, [("c", 1.0), ("d", 1.0)]))
    outcome = rate("trueskill", game, states(UPSET))
    beta2, tau2 = (25 / 6) ** 2, (25 / 300) ** 2
    red_mean, blue_mean = 20 + 25, 35 + 40
    red_var = 64 + 36 + 2 * (tau2 + beta2)
    blue_var = 49 + 25 + 2 * (tau2 + beta2)
    c = math.sqrt(red_var + blue_var)
    eps = NormalDist().inv_cdf(0.55) * math.sqrt(4) * (25 / 6)
    a = outcome.changes[0].details
    assert a["side"] == {
        "performance_mean": red_mean,
        "performance_variance": pytest.approx(red_var, abs=1e-12),
    }
    assert outcome.changes[2].details["side"]["performance_mean"] == blue_mean
    assert a["c"] == pytest.approx(c, abs=1e-12)
    assert a["draw_margin"] == pytest.approx(eps, abs=1e-12)
    assert a["t"] == pytest.approx((red_mean - blue_mean) / c, abs=1e-12)
    x = a["t"] - eps / c
    v = NormalDist().pdf(x) / NormalDist().cdf(x)
    assert a["v"] == pytest.approx(v, abs=1e-9)
    assert a["w"] == pytest.approx(v * (v + x), abs=1e-9)
    s2 = 64 + tau2  # a's sigma^2 with the dynamics
    assert a["sigma_dynamics"] == pytest.approx(math.sqrt(s2), abs=1e-12)
    assert a["mu_after"] == pytest.approx(20 + s2 / c * v, abs=1e-9)
    assert (a["mu_before"], a["sigma_before"], a["weight"]) == (20.0, 8.0, 1.0)
    assert a["ranking_value_before"] == pytest.approx(20 - 3 * 8, abs=1e-12)
    assert a["ranking_value_after"] == pytest.approx(a["mu_after"] - 3 * a["sigma_after"])


def test_trueskill_three_sides_report_the_schedules_terms() -> None:
    game = team_game(
        ("x", 1, [("a", 1.0)]), ("y", 2, [("b", 1.0), ("c", 0.5)]), ("z", 2, [("d", 1.0)])
    )
    details = rate("trueskill", game, states(UPSET)).changes[0].details
    assert 1 <= details["iterations"] <= trueskill.EP_MAX_ITERATIONS
    quantile = NormalDist().inv_cdf(0.55) * (25 / 6)
    # Neighbours in rank order: x, then the tied y and z by content (z's sum of mu, 40, is
    # smaller than y's, 60): x-z of 1 + 1 players, z-y of 1 + 2.
    assert details["draw_margins"] == [
        pytest.approx(quantile * math.sqrt(2), abs=1e-12),
        pytest.approx(quantile * math.sqrt(3), abs=1e-12),
    ]


@pytest.mark.parametrize("model", weng_lin.MODELS)
def test_weng_lin_team_game_with_weights_agrees_with_openskill(model: str) -> None:
    ratings = {**UPSET, "e": (28.0, 3.0)}
    game = team_game(
        ("red", 2, [("a", 1.0), ("b", 0.5)]),
        ("blue", 1, [("c", 1.0)]),
        ("green", 3, [("d", 0.25), ("e", 1.0)]),
    )
    outcome = rate("weng-lin", game, states(ratings), model=model)
    reference = OPENSKILL[model]()
    teams = [
        [reference.rating(*ratings["a"]), reference.rating(*ratings["b"])],
        [reference.rating(*ratings["c"])],
        [reference.rating(*ratings["d"]), reference.rating(*ratings["e"])],
    ]
    (a, b), (c,), (d, e) = reference.rate(
        teams, ranks=[2, 1, 3], weights=[[1.0, 0.5], [1.0], [0.25, 1.0]]
    )
    expected = {"a": a, "b": b, "c": c, "d": d, "e": e}
    assert [change.key.player for change in outcome.changes] == ["a", "b", "c", "d", "e"]
    for change in outcome.changes:
        want = expected[change.key.player]
        assert change.after.rating == pytest.approx(want.mu, abs=1e-9)
        assert change.after.deviation == pytest.approx(want.sigma, abs=1e-9)
    red = outcome.changes[0].details
    assert red["model"] == model
    assert red["side"]["mu"] == 45.0
    # openskill's rescaling of each side's weights to [1, 2]: red (1, 0.5) gains, by w;
    # green (0.25, 1) loses, by 1 / w.
    assert red["side"]["omega"] > 0
    assert red["side"]["weight_factors"] == [2.0, 1.0]
    green = outcome.changes[3].details["side"]
    assert green["omega"] < 0
    assert green["weight_factors"] == [1.0, 0.5]
    if model == weng_lin.PLACKETT_LUCE:
        tau2, beta2 = (25 / 300) ** 2, (25 / 6) ** 2
        variance = sum(s**2 + tau2 for _, s in ratings.values()) + 3 * beta2
        assert red["c"] == pytest.approx(math.sqrt(variance), abs=1e-12)


def test_weng_lin_two_new_players_openskills_documented_example() -> None:
    # SYSTEMS.md: PlackettLuce, two new players: 27.635 / 8.066 and 22.365 / 8.066.
    game = Game(AT, (Participant("ann", 1), Participant("bob", 2)))
    winner, loser = rate("weng-lin", game, {}).changes
    assert (round(winner.after.rating, 3), round(winner.after.deviation or 0, 3)) == (27.635, 8.066)
    assert (round(loser.after.rating, 3), round(loser.after.deviation or 0, 3)) == (22.365, 8.066)


# --- invariances (issue 20) -------------------------------------------------------------------

SYSTEM_PARAMS = [("trueskill", {})] + [("weng-lin", {"model": m}) for m in weng_lin.MODELS]

member = st.tuples(
    st.floats(0.0, 50.0), st.floats(0.5, 9.0), st.sampled_from([1.0, 1.0, 1.0, 0.5, 0.25])
)
sides_strategy = st.lists(
    st.lists(member, min_size=1, max_size=3),
    min_size=2,
    max_size=5,
    # Tied sides of identical contents are interchangeable (gaussian.rank_order): drawn apart.
    unique_by=lambda side: tuple(sorted(side)),
)


@st.composite
def team_games(draw: st.DrawFn) -> tuple[list[list[tuple[str, float, float, float]]], list[int]]:
    sides = draw(sides_strategy)
    named = [
        [(f"p{s}_{m}", mu, sigma, weight) for m, (mu, sigma, weight) in enumerate(side)]
        for s, side in enumerate(sides)
    ]
    ranks = draw(st.lists(st.integers(1, 3), min_size=len(sides), max_size=len(sides)))
    return named, ranks


def _game_of(
    sides: list[list[tuple[str, float, float, float]]], ranks: list[int]
) -> tuple[Game, dict[PlayerKey, PlayerState]]:
    game = team_game(
        *(
            (f"t{i}", rank, [(p, w) for p, _, _, w in side])
            for i, (side, rank) in enumerate(zip(sides, ranks, strict=True))
        )
    )
    before = {PlayerKey(p): PlayerState(mu, sigma) for side in sides for p, mu, sigma, _ in side}
    return game, before


def _by_player(outcome: Outcome) -> dict[str, PlayerState]:
    return {change.key.player: change.after for change in outcome.changes}


@pytest.mark.parametrize(("system", "params"), SYSTEM_PARAMS, ids=lambda v: str(v))
@settings(max_examples=40, deadline=None)
@given(game=team_games(), data=st.data())
def test_the_order_of_sides_and_members_changes_no_players_result(
    system: str, params: dict[str, Any], game: Any, data: st.DataObject
) -> None:
    sides, ranks = game
    base = _by_player(rate(system, *_game_of(sides, ranks), **params))
    order = data.draw(st.permutations(range(len(sides))))
    moved_sides = [data.draw(st.permutations(sides[i])) for i in order]
    moved = _by_player(rate(system, *_game_of(moved_sides, [ranks[i] for i in order]), **params))
    assert moved.keys() == base.keys()
    for player, state in base.items():
        assert moved[player].rating == pytest.approx(state.rating, abs=1e-9)
        assert moved[player].deviation == pytest.approx(state.deviation, abs=1e-9)


@pytest.mark.parametrize(("system", "params"), SYSTEM_PARAMS, ids=lambda v: str(v))
@settings(max_examples=30, deadline=None)
@given(game=team_games())
def test_sides_of_one_are_the_same_free_for_all(
    system: str, params: dict[str, Any], game: Any
) -> None:
    sides, ranks = game
    singles = [[m] for side in sides for m in side]
    single_ranks = [rank for side, rank in zip(sides, ranks, strict=True) for _ in side]
    as_teams, before = _game_of(singles, single_ranks)
    players_form = Game(
        AT, tuple(Participant(p.player, p.rank, weight=p.weight) for p in as_teams.participants)
    )
    teams_outcome = rate(system, as_teams, before, **params)
    players_outcome = rate(system, players_form, before, **params)
    for ours, theirs in zip(teams_outcome.changes, players_outcome.changes, strict=True):
        assert ours.key == theirs.key
        assert ours.after == theirs.after
        assert ours.details == theirs.details


# --- what the game checks -----------------------------------------------------------------------


@pytest.mark.parametrize("rater", raters(), ids=["trueskill", "weng-lin"])
def test_a_game_needs_two_sides_and_weights_in_0_1(rater: GaussianRater[Any]) -> None:
    with pytest.raises(InvalidEvent) as raised:
        rater.validate_game(Game(AT, (Participant("ann", 1),)))
    assert raised.value.loc == ("players",)
    with pytest.raises(InvalidEvent) as raised:
        rater.validate_game(team_game(("red", 1, [("ann", 1.0), ("bob", 1.0)])))
    assert raised.value.loc == ("teams",)
    for weight in (0.0, -0.5, 1.5, math.nan):
        with pytest.raises(InvalidEvent) as raised:
            rater.validate_game(
                team_game(("red", 1, [("ann", 1.0), ("bob", weight)]), ("blue", 2, [("cat", 1.0)]))
            )
        assert raised.value.loc == ("teams", 0, "players", 1, "weight")
    with pytest.raises(InvalidEvent) as raised:
        rater.validate_game(Game(AT, (Participant("ann", 1), Participant("bob", 2, weight=2.0))))
    assert raised.value.loc == ("players", 1, "weight")
    rater.validate_game(team_game(("red", 1, [("ann", 0.01)]), ("blue", 1, [("bob", 1.0)])))


def test_an_arithmetic_failure_is_the_events_refusal() -> None:
    # A draw between sides a million apart leaves TrueSkill's range (w~ reaches 1).
    game = team_game(("red", 1, [("ann", 1.0)]), ("blue", 1, [("bob", 1.0)]))
    with pytest.raises(NonFiniteResult) as raised:
        rate("trueskill", game, states({"ann": (0.0, 1.0), "bob": (1e6, 1.0)}))
    assert raised.value.loc == ("players",)


# --- standing, adjustments, predictions -------------------------------------------------------


@pytest.mark.parametrize("rater", raters(), ids=["trueskill", "weng-lin"])
def test_the_standing_ranks_by_mu_minus_3_sigma(rater: GaussianRater[Any]) -> None:
    new = rater.initial_state({})
    assert (new.rating, new.deviation, new.volatility) == (25.0, 25 / 3, None)
    standing = rater.standing(new)
    assert standing.ranking_value == pytest.approx(0.0, abs=1e-12)
    standing = rater.standing(PlayerState(30.0, 2.0))
    assert (standing.rating, standing.deviation, standing.ranking_value) == (30.0, 2.0, 24.0)
    two = type(rater)(rater.params, type(rater.config)(ranking_multiplier=2.0))
    assert two.standing(PlayerState(30.0, 2.0)).ranking_value == 26.0


@pytest.mark.parametrize("rater", raters(), ids=["trueskill", "weng-lin"])
def test_an_adjustment_sets_mu_and_sigma(rater: GaussianRater[Any]) -> None:
    state = rater.adjusted_state(None, 31.5, 2.5, None, AT)
    assert (state.rating, state.deviation) == (31.5, 2.5)
    # Without a deviation: the previous one, or a new player's.
    assert rater.adjusted_state(state, 20.0, None, None, AT).deviation == 2.5
    assert rater.adjusted_state(None, 20.0, None, None, AT).deviation == 25 / 3
    for rating, deviation, volatility, field in (
        (math.inf, 1.0, None, "rating"),
        (2e15, 1.0, None, "rating"),
        (25.0, 0.0, None, "deviation"),
        (25.0, 1e-4, None, "deviation"),
        (25.0, 2e6, None, "deviation"),
        (25.0, math.nan, None, "deviation"),
        (25.0, 1.0, 0.06, "volatility"),
    ):
        with pytest.raises(InvalidEvent) as raised:
            rater.adjusted_state(None, rating, deviation, volatility, AT)
        assert raised.value.loc == (field,)


def test_trueskill_side_win_probability_is_systems_md_formula() -> None:
    rater = trueskill.SYSTEM.configure({})
    red = [PlayerState(20.0, 8.0), PlayerState(25.0, 6.0)]
    blue = [PlayerState(35.0, 7.0)]
    beta2 = (25 / 6) ** 2
    # Phi((mu_a - mu_b) / sqrt((n_a + n_b) beta^2 + sigma_a^2 + sigma_b^2)) on side sums.
    expected = NormalDist().cdf((45 - 35) / math.sqrt(3 * beta2 + 64 + 36 + 49))
    p = rater.side_win_probability(red, blue)
    assert p == pytest.approx(expected, abs=1e-15)
    assert p + (rater.side_win_probability(blue, red) or 0.0) == pytest.approx(1.0, abs=1e-15)


def test_trueskill_match_quality_published_values() -> None:
    rater = trueskill.SYSTEM.configure({})
    new = rater.initial_state({})
    assert rater.match_quality([[new], [new]]) == pytest.approx(0.447, abs=5e-4)
    assert rater.match_quality([[new], [new]]) == pytest.approx(math.sqrt(1 / 5), abs=1e-15)
    red = [PlayerState(*UPSET["a"]), PlayerState(*UPSET["b"])]
    blue = [PlayerState(*UPSET["c"]), PlayerState(*UPSET["d"])]
    assert rater.match_quality([red, blue]) == pytest.approx(0.0841, abs=5e-5)
    env = ts_package.TrueSkill(backend="scipy")
    groups = [[env.create_rating(s.rating, s.deviation) for s in side] for side in (red, blue)]
    assert rater.match_quality([red, blue]) == pytest.approx(env.quality(groups), abs=1e-9)


def test_weng_lin_win_probability_is_openskills_predict_win_and_it_has_no_quality() -> None:
    rater = weng_lin.SYSTEM.configure({})
    red = [PlayerState(*UPSET["a"]), PlayerState(*UPSET["b"])]
    blue = [PlayerState(*UPSET["c"]), PlayerState(*UPSET["d"])]
    model = PlackettLuce()
    expected = model.predict_win(
        [[model.rating(s.rating, s.deviation) for s in side] for side in (red, blue)]
    )
    assert rater.side_win_probability(red, blue) == pytest.approx(expected[0], abs=1e-12)
    assert rater.side_win_probability(blue, red) == pytest.approx(expected[1], abs=1e-12)
    # No quality of its own: the service falls back to 1 - |2p - 1| (API.md "Teams").
    assert rater.match_quality([red, blue]) is None
