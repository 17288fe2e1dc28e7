"""Ranked play's arithmetic against the numbers of its sources (SYSTEMS.md "Ranked play" and
"Seasons"), worked by hand in each test's comment."""

from __future__ import annotations

import math

import pytest

from app.engine.errors import InvalidParameter
from app.engine.ranked import (
    DeviationGrowth,
    Division,
    PointDecay,
    SigmaGrowth,
    decayed,
    division,
    parse_decay,
    parse_divisions,
    provisional,
    soft_reset,
    uncertainty_reset,
)
from app.engine.types import PlayerState

GLICKO = PlayerState(1500.0, 350.0, 0.06)
TRUESKILL = PlayerState(25.0, 25 / 3)


def test_fivethirtyeight_regresses_a_third_toward_the_mean() -> None:
    # 1500 + (1700 - 1500) * (1 - 1/3) = 1500 + 133.33... = 1633.33...
    after = soft_reset(PlayerState(1700.0), 1 / 3, PlayerState(1500.0))
    assert after.rating == pytest.approx(1633.3333333333333, abs=1e-9)


@pytest.mark.parametrize(
    ("idle_days", "sigma"),
    [
        (30, 5.0),  # clamp((30 - 30) / 330) = 0: m
        (60, 5.303030303030303),  # 5 + (25/3 - 5) * 30/330 = 5 + 10/33
        (360, 8.333333333333334),  # clamp(1) = 1: D0 = 25/3
        (1000, 25 / 3),
    ],
)
def test_beyond_all_reasons_uncertainty_reset(idle_days: float, sigma: float) -> None:
    """teiserver#539: m 5, a 30, b 360 on sigma0 = 25/3, from a settled player (sigma 2)."""
    after = uncertainty_reset(PlayerState(31.0, 2.0), idle_days, 5.0, 30.0, 360.0, TRUESKILL)
    assert after.deviation == pytest.approx(sigma, abs=1e-9)
    assert after.rating == 31.0


def test_an_uncertain_player_keeps_its_larger_sigma() -> None:
    after = uncertainty_reset(PlayerState(31.0, 7.5), 30, 5.0, 30.0, 360.0, TRUESKILL)
    assert after.deviation == 7.5


def test_lichess_deviation_growth() -> None:
    """RD 60, volatility 0.06, x = 0.21436, 365 idle days: phi = 60 / 173.7178 = 0.345388;
    phi^2 + 0.06^2 * 0.21436 * 365 = 0.119293 + 0.281669 = 0.400962; sqrt * 173.7178 = 110.0."""
    after = decayed(DeviationGrowth(0.21436), PlayerState(1800.0, 60.0, 0.06), 365, GLICKO)
    assert after.deviation == pytest.approx(110.0, abs=0.01)
    assert after.rating == 1800.0
    assert after.volatility == 0.06


def test_deviation_growth_is_capped_at_the_initial_deviation() -> None:
    after = decayed(DeviationGrowth(1.0), PlayerState(1800.0, 60.0, 0.06), 100_000, GLICKO)
    assert after.deviation == 350.0


def test_glickos_c_per_period() -> None:
    """Glicko step 1 with c = 34.6 and one period a day: RD 50 after 100 days is
    sqrt(50^2 + 34.6^2 * 100) = sqrt(2500 + 119716) = 349.59."""
    after = decayed(DeviationGrowth(1.0), PlayerState(1700.0, 50.0), 100, GLICKO, 34.6)
    assert after.deviation == pytest.approx(math.sqrt(2500 + 34.6**2 * 100))


def test_sigma_growth() -> None:
    """sigma^2 + s^2 t: 2^2 + 0.1^2 * 300 = 7, so sqrt(7)."""
    after = decayed(SigmaGrowth(0.1), PlayerState(30.0, 2.0), 300, TRUESKILL)
    assert after.deviation == pytest.approx(math.sqrt(7))


@pytest.mark.parametrize(
    ("idle_days", "fall"),
    [(3, 0.0), (7, 0.0), (14, 50.0), (17.5, 75.0), (42, 250.0), (1000, 250.0)],
)
def test_zero_k_falls_50_a_week_at_most_250(idle_days: float, fall: float) -> None:
    """After a week idle, 50 points a week: 14 days is one week past it (50), 42 days five
    weeks (250), and no more however long."""
    after = decayed(
        PointDecay(7.0, 50.0, 250.0), PlayerState(1800.0), idle_days, PlayerState(1500.0)
    )
    assert after.rating == pytest.approx(1800.0 - fall)


def test_divisions_and_provisional_status() -> None:
    tiers = (Division("Bronze", None), Division("Silver", 1400.0), Division("Gold", 1600.0))
    assert [division(tiers, v) for v in (900.0, 1400.0, 1599.9, 1600.0, 3000.0)] == [
        "Bronze", "Silver", "Silver", "Gold", "Gold"
    ]  # fmt: skip
    assert division(None, 1500.0) is None
    assert provisional(10, 9, None, None)
    assert not provisional(10, 10, None, None)
    assert provisional(0, 50, 110.0, 110.0)  # lichess: RD at least 110
    assert not provisional(0, 50, 110.0, 109.9)


@pytest.mark.parametrize(
    ("system", "value", "message"),
    [
        ("fundox", {"after_days": 7, "points_per_week": 50, "max_points": 250}, "takes no decay"),
        ("elo", {"periods_per_day": 1}, "takes exactly after_days"),
        ("glicko2", {"periods_per_day": -1}, "between"),
        ("elo", [1, 2], "must be an object"),
    ],
)
def test_decay_parameters_are_checked_by_family(system: str, value: object, message: str) -> None:
    with pytest.raises(InvalidParameter, match=message):
        parse_decay(system, value)  # type: ignore[arg-type]


def test_division_parameters() -> None:
    parsed = parse_divisions([{"name": "Bronze"}, {"name": "Silver", "min": 1400}])
    assert parsed == (Division("Bronze", None), Division("Silver", 1400.0))
    for bad in ([], [{"name": "A", "min": 1}], [{"name": "A"}, {"name": "B"}],
                [{"name": "A"}, {"name": "B", "min": 2}, {"name": "C", "min": 1}],
                [{"name": "A"}, {"name": "A", "min": 1}]):  # fmt: skip
        with pytest.raises(InvalidParameter):
            parse_divisions(bad)  # type: ignore[arg-type]
