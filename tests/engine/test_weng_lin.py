"""Weng-Lin Bayesian approximation (SYSTEMS.md ``weng-lin``; Weng & Lin, JMLR 12, 2011).

Expected values are hand arithmetic from the update rules written out in the tests, the
documented examples of openskill (SYSTEMS.md: two new players, Plackett-Luce, 27.635 / 8.066),
and the published vectors of openskill.py's earlier releases (which had no tau: reproduced
with ``tau=0``). The ``openskill`` package (6.x) is an independent reference on random games,
never an expected value of a worked example.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest
from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from app.engine import weng_lin
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.gaussian import Gaussian, Member, Side, rank_order, ranking_value
from app.engine.weng_lin import WengLinConfig, rate, win_probability

DEFAULT = WengLinConfig()
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0
REFERENCE = {
    weng_lin.PLACKETT_LUCE: PlackettLuce,
    weng_lin.BRADLEY_TERRY_FULL: BradleyTerryFull,
    weng_lin.BRADLEY_TERRY_PART: BradleyTerryPart,
    weng_lin.THURSTONE_MOSTELLER_FULL: ThurstoneMostellerFull,
    weng_lin.THURSTONE_MOSTELLER_PART: ThurstoneMostellerPart,
}
EXACT = 1e-12


def side(*ratings: tuple[float, float], weights: tuple[float, ...] | None = None) -> Side:
    ws = weights or (1.0,) * len(ratings)
    return tuple(Member(Gaussian(mu, sigma), w) for (mu, sigma), w in zip(ratings, ws, strict=True))


def new(n: int = 1) -> Side:
    return side(*[(MU, SIGMA)] * n)


def assert_ratings(
    got: tuple[tuple[Gaussian, ...], ...], expected: list[tuple[float, float]], tol: float
) -> None:
    values = [(g.mu, g.sigma) for s in got for g in s]
    assert len(values) == len(expected)
    for (mu, sigma), (e_mu, e_sigma) in zip(values, expected, strict=True):
        assert mu == pytest.approx(e_mu, abs=tol)
        assert sigma == pytest.approx(e_sigma, abs=tol)


# --- hand arithmetic (docs/systems/weng-lin.md worked example) --------------------------------


def test_worked_example_two_new_players_plackett_luce_by_hand() -> None:
    s2 = SIGMA**2 + TAU**2  # dynamics first
    c = math.sqrt(2 * (s2 + BETA**2))
    # e^(mu/c) equal for both: p = 1/2 for the winner's only q (itself); the loser's q are both.
    omega_winner = s2 / c * (1 - 0.5)
    omega_loser = s2 / c * ((0 - 0.5) + (1 - 0.5))  # q = winner, then q = loser (sum_q = e)
    delta_winner = math.sqrt(s2) / c * s2 / c**2 * (0.5 * 0.5)
    (a,), (b,) = rate(DEFAULT, [new(), new()], [1, 2])
    assert a.mu == pytest.approx(MU + omega_winner, abs=EXACT)
    assert a.sigma == pytest.approx(math.sqrt(s2) * math.sqrt(1 - delta_winner), abs=EXACT)
    # The loser's q = loser term: p = 1 (it is alone in its set), so omega_loser = -s2/c/2 and
    # its delta only has the q = winner term.
    assert omega_loser == pytest.approx(0.0)
    assert b.mu == pytest.approx(MU - s2 / c * 0.5, abs=EXACT)
    assert b.sigma == pytest.approx(a.sigma, abs=EXACT)
    # openskill's documented example (SYSTEMS.md): 27.635 / 8.066 and 22.365 / 8.066.
    assert (round(a.mu, 3), round(a.sigma, 3), round(b.mu, 3)) == (27.635, 8.066, 22.365)
    # The numbers docs/systems/weng-lin.md shows:
    assert c == pytest.approx(13.1767, abs=5e-5)
    assert omega_winner == pytest.approx(2.6354, abs=5e-5)
    assert delta_winner == pytest.approx(0.06325, abs=5e-6)
    assert ranking_value(a, DEFAULT.ranking_multiplier) == pytest.approx(3.438, abs=5e-4)


def test_a_draw_of_equals_moves_no_mean_plackett_luce() -> None:
    # Tied: A_q = 2 and sum_q = 2e for both q, p = 1/2: Omega = (1 - 1/2)/2 + (0 - 1/2)/2 = 0,
    # Delta's sum = 2 * (1/4)/2 = 1/4, the same as a win's.
    (a,), (b,) = rate(DEFAULT, [new(), new()], [1, 1])
    (win,), _ = rate(DEFAULT, [new(), new()], [1, 2])
    assert a.mu == pytest.approx(MU, abs=EXACT)
    assert b.mu == pytest.approx(MU, abs=EXACT)
    assert a.sigma == pytest.approx(win.sigma, abs=EXACT)


def test_thurstone_mosteller_full_1v1_by_hand() -> None:
    normal = NormalDist()
    config = WengLinConfig(model=weng_lin.THURSTONE_MOSTELLER_FULL)
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(2 * s2 + 2 * BETA**2)
    t = 0.1 / c  # epsilon / c_iq
    v = normal.pdf(-t) / normal.cdf(-t)  # v(0, t)
    w = v * (v - t)
    omega = s2 / c * v
    delta = math.sqrt(s2) / c * s2 / c**2 * w
    (a,), (b,) = rate(config, [new(), new()], [1, 2])
    assert a.mu == pytest.approx(MU + omega, abs=EXACT)
    assert b.mu == pytest.approx(MU - omega, abs=EXACT)
    assert a.sigma == pytest.approx(math.sqrt(s2 * (1 - delta)), abs=EXACT)


def test_thurstone_mosteller_part_doubles_c_as_openskill() -> None:
    normal = NormalDist()
    config = WengLinConfig(model=weng_lin.THURSTONE_MOSTELLER_PART)
    s2 = SIGMA**2 + TAU**2
    c = 2 * math.sqrt(2 * s2 + 2 * BETA**2)
    t = 0.1 / c
    v = normal.pdf(-t) / normal.cdf(-t)
    (a,), _ = rate(config, [new(), new()], [1, 2])
    assert a.mu == pytest.approx(MU + s2 / c * v, abs=EXACT)


def test_bradley_terry_1v1_by_hand_full_equals_part() -> None:
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(2 * s2 + 2 * BETA**2)
    p = 0.5  # 1 / (1 + e^0)
    omega = s2 / c * (1 - p)
    delta = math.sqrt(s2) / c * s2 / c**2 * p * (1 - p)
    for model in (weng_lin.BRADLEY_TERRY_FULL, weng_lin.BRADLEY_TERRY_PART):
        (a,), (b,) = rate(WengLinConfig(model=model), [new(), new()], [1, 2])
        assert a.mu == pytest.approx(MU + omega, abs=EXACT)
        assert b.mu == pytest.approx(MU - omega, abs=EXACT)
        assert a.sigma == pytest.approx(math.sqrt(s2 * (1 - delta)), abs=EXACT)


def test_partial_pairing_compares_only_within_the_window() -> None:
    # With window_size 1 the first of five only meets the second: its step is that of a 1v1
    # between them (Omega and Delta averaged over one comparison), whatever the others are.
    config = WengLinConfig(model=weng_lin.BRADLEY_TERRY_PART, window_size=1)
    first, second = side((30, 5)), side((20, 6))
    sides = [first, second, side((40, 2)), side((10, 8)), side((35, 3))]
    got = rate(config, sides, [1, 2, 3, 4, 5])
    alone = rate(config, [first, second], [1, 2])
    assert got[0][0].mu == pytest.approx(alone[0][0].mu, abs=EXACT)
    assert got[0][0].sigma == pytest.approx(alone[0][0].sigma, abs=EXACT)


# --- published vectors --------------------------------------------------------------------------


def test_openskill_readme_example_plackett_luce_without_tau() -> None:
    # openskill.py README (3.x, before tau existed): a1, a2 beat b1, b2.
    config = WengLinConfig(tau=0.0)
    got = rate(
        config,
        [side((25, 25 / 3), (32.444, 5.123)), side((43.381, 2.421), (25.188, 6.211))],
        [1, 2],
    )
    assert_ratings(
        got,
        [
            (28.669648436582808, 8.071520788025197),
            (33.83086971107981, 5.062772998705765),
            (43.071274808241974, 2.4166900452721256),
            (23.149503312339064, 6.1378606973362135),
        ],
        1e-12,
    )


BRADLEY_TERRY_FULL_VECTORS = {
    # openskill.py tests/models/test_bradley_terry_full.py (releases without tau).
    "2p": (
        [new(), new()],
        [(27.63523138347365, 8.065506316323548), (22.36476861652635, 8.065506316323548)],
    ),
    "3p": (
        [new()] * 3,
        [
            (30.2704627669473, 7.788474807872566),
            (25.0, 7.788474807872566),
            (19.7295372330527, 7.788474807872566),
        ],
    ),
    "4p": (
        [new()] * 4,
        [
            (32.90569415042095, 7.5012190693964005),
            (27.63523138347365, 7.5012190693964005),
            (22.36476861652635, 7.5012190693964005),
            (17.09430584957905, 7.5012190693964005),
        ],
    ),
    "5p": (
        [new()] * 5,
        [
            (35.5409255338946, 7.202515895247076),
            (30.2704627669473, 7.202515895247076),
            (25.0, 7.202515895247076),
            (19.729537233052703, 7.202515895247076),
            (14.4590744661054, 7.202515895247076),
        ],
    ),
    "3 sizes": (
        [new(3), new(1), new(2)],
        [(25.992743915179297, 8.19709997489984)] * 3
        + [(28.48909130001799, 8.220848339985736)]
        + [(20.518164784802718, 8.127515465304823)] * 2,
    ),
}


@pytest.mark.parametrize("name", list(BRADLEY_TERRY_FULL_VECTORS))
def test_openskill_bradley_terry_full_vectors_without_tau(name: str) -> None:
    sides, expected = BRADLEY_TERRY_FULL_VECTORS[name]
    config = WengLinConfig(model=weng_lin.BRADLEY_TERRY_FULL, tau=0.0)
    assert_ratings(rate(config, sides, list(range(1, len(sides) + 1))), expected, 1e-12)


# --- weights (openskill's semantics, SYSTEMS.md) -----------------------------------------------


def test_weights_rescale_per_side_and_scale_the_step() -> None:
    # Side 1 weights (1, 0.5) rescale to [1, 2]: the full member 2, the half member 1; side 2's
    # equal weights map to the lower bound 1. Gains are Omega * w, so the winners' gains are
    # 2x and 1x the unweighted gain; the losers' are unchanged.
    plain = rate(DEFAULT, [new(2), new(2)], [1, 2])
    weighted = rate(
        DEFAULT,
        [side((MU, SIGMA), (MU, SIGMA), weights=(1.0, 0.5)), new(2)],
        [1, 2],
    )
    gain = plain[0][0].mu - MU
    assert weighted[0][0].mu - MU == pytest.approx(2 * gain, abs=EXACT)
    assert weighted[0][1].mu - MU == pytest.approx(gain, abs=EXACT)
    assert weighted[1][0].mu == pytest.approx(plain[1][0].mu, abs=EXACT)


def test_a_single_member_side_takes_the_upper_bound_when_the_game_has_weights() -> None:
    # openskill: a side of one rescales to the upper bound 2, so the winner gains 2x and the
    # loser loses 1/2x; a game whose weights are all 1 is rated without weights.
    plain = rate(DEFAULT, [new(), new()], [1, 2])
    assert rate(DEFAULT, [new(), new()], [1, 2]) == plain
    weighted = rate(DEFAULT, [new(), side((MU, SIGMA), weights=(0.5,))], [1, 2])
    assert weighted[0][0].mu - MU == pytest.approx(2 * (plain[0][0].mu - MU), abs=EXACT)
    assert weighted[1][0].mu - MU == pytest.approx((plain[1][0].mu - MU) / 2, abs=EXACT)


# --- win probability ---------------------------------------------------------------------------


def test_win_probability_by_hand_and_complementary() -> None:
    a, b = side((30, 4), (20, 6)), side((28, 5))
    expected = NormalDist().cdf((50 - 28) / math.sqrt(2 * BETA**2 + 16 + 36 + 25))
    assert win_probability(DEFAULT, a, b) == pytest.approx(expected, abs=1e-15)
    assert win_probability(DEFAULT, a, b) + win_probability(DEFAULT, b, a) == pytest.approx(1.0)


# --- invariances and robustness ---------------------------------------------------------------


@pytest.mark.parametrize("model", weng_lin.MODELS)
def test_swapping_sides_or_members_changes_nothing(model: str) -> None:
    config = WengLinConfig(model=model)
    a, b, c = side((30, 4), (20, 6)), side((28, 5), (22, 7), (25, 3)), side((26, 2))
    base = rate(config, [a, b, c], [2, 1, 3])
    swapped = rate(config, [c, a, b], [3, 2, 1])
    for got, want in zip((swapped[1], swapped[2], swapped[0]), base, strict=True):
        assert_ratings((got,), [(g.mu, g.sigma) for g in want], EXACT)
    members = rate(config, [a, tuple(reversed(b)), c], [2, 1, 3])
    assert_ratings((tuple(reversed(members[1])),), [(g.mu, g.sigma) for g in base[1]], EXACT)


@pytest.mark.parametrize("model", weng_lin.MODELS)
def test_huge_gaps_stay_finite(model: str) -> None:
    config = WengLinConfig(model=model)
    for ranks in ([1, 2], [2, 1], [1, 1]):
        for s in rate(config, [side((1e6, 1.0)), side((-1e6, 8.0))], ranks):
            assert all(math.isfinite(g.mu) and math.isfinite(g.sigma) and g.sigma > 0 for g in s)


# --- agreement with openskill 6.x on random games ----------------------------------------------


@pytest.mark.parametrize("model", weng_lin.MODELS)
def test_agrees_with_openskill_on_random_games(model: str) -> None:
    config = WengLinConfig(model=model)
    reference = REFERENCE[model]()
    rng = random.Random(model)
    for _ in range(200):
        k = rng.randint(2, 10)
        sides = [
            tuple(
                Member(
                    Gaussian(rng.uniform(0.0, 50.0), rng.uniform(0.5, 9.0)),
                    rng.choice((1.0, 1.0, 1.0, rng.uniform(0.05, 1.0))),
                )
                for _ in range(rng.randint(1, 4))
            )
            for _ in range(k)
        ]
        ranks = [rng.randint(1, k) for _ in range(k)]  # ties included
        # openskill keeps tied sides in input order, this module in content order.
        order = rank_order(sides, ranks)
        sides, ranks = [sides[i] for i in order], [ranks[i] for i in order]
        teams = [[reference.rating(m.rating.mu, m.rating.sigma) for m in s] for s in sides]
        weighted = any(m.weight != 1.0 for s in sides for m in s)
        weights = [[m.weight for m in s] for s in sides] if weighted else None
        expected = reference.rate(teams, ranks=ranks, weights=weights)
        for got_side, want_side in zip(rate(config, sides, ranks), expected, strict=True):
            for got, want in zip(got_side, want_side, strict=True):
                assert got.mu == pytest.approx(want.mu, abs=1e-9)
                assert got.sigma == pytest.approx(want.sigma, abs=1e-9)
        assert win_probability(config, sides[0], sides[1]) == pytest.approx(
            reference.predict_win([teams[0], teams[1]])[0], abs=1e-12
        )


# --- validation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("model", "elo"),
        ("sigma", 0.0),
        ("sigma", 1e-4),  # below DEVIATION_MIN
        ("beta", 0.0),
        ("kappa", 0.0),
        ("kappa", 1.5),
        ("tau", -1.0),
        ("epsilon", -0.1),
        ("window_size", 0),
        ("window_size", 101),
        ("mu", math.inf),
        ("mu", 2e6),
        ("ranking_multiplier", 11.0),
        ("weight_bounds", [2.0, 1.0]),  # openskill's bounds are fixed: not a parameter
    ],
)
def test_parameters_out_of_range_are_refused_by_name(field: str, value: object) -> None:
    with pytest.raises(InvalidParameter) as info:
        weng_lin.SYSTEM.configure({field: value})
    assert info.value.name == field


def test_defaults_are_openskills() -> None:
    rater = weng_lin.SYSTEM.configure({})
    assert rater.config == WengLinConfig()
    assert (rater.config.mu, rater.config.sigma, rater.config.beta) == (25.0, 25 / 3, 25 / 6)
    assert (rater.config.kappa, rater.config.tau) == (0.0001, 25 / 300)
    assert rater.config.model == "plackett-luce"
    assert rater.config.ranking_multiplier == 3.0


def test_bad_games_are_refused_with_their_field() -> None:
    with pytest.raises(InvalidEvent):
        rate(DEFAULT, [new()], [1])
    with pytest.raises(InvalidEvent) as info:
        rate(DEFAULT, [new(), ()], [1, 2])
    assert info.value.loc == ("teams", 1, "players")
    with pytest.raises(InvalidEvent):
        rate(DEFAULT, [new(), side((25, 8), weights=(-0.5,))], [1, 2])


@pytest.mark.parametrize("model", weng_lin.MODELS)
def test_extreme_inputs_give_finite_results(model: str) -> None:
    # Ratings up to 1e12 apart, deviations 1e-3 to 1e3, weights down to 1e-9, ties: always
    # finite (openskill itself overflows in e^(mu / c) there).
    config = WengLinConfig(model=model)
    rng = random.Random(model)
    for _ in range(200):
        k = rng.randint(2, 6)
        scale = rng.choice((1.0, 1e4, 1e12))
        sides = [
            tuple(
                Member(
                    Gaussian(rng.uniform(-scale, scale), 10 ** rng.uniform(-3, 3)),
                    rng.choice((1.0, 0.3, 1e-9)),
                )
                for _ in range(rng.randint(1, 3))
            )
            for _ in range(k)
        ]
        ranks = [rng.randint(1, k) for _ in range(k)]
        for s in rate(config, sides, ranks):
            assert all(math.isfinite(g.mu) and math.isfinite(g.sigma) and g.sigma > 0 for g in s)
