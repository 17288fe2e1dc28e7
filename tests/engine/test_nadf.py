"""NADF ranking (seed 001_f1e33522112d1554.txt; SYSTEMS.md ``nadf``).

Expected values are the seed's rules written out by hand: contribution c = 0.12 R,
pot = Σ c, share = pot / W × LA / WA, winner + share × M / factor − c (at least 2W + 2,
at most (cap − R) / 2), loser − c × factor / M, base + 2W, floor at the base.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.errors import InvalidParameter
from app.engine.nadf import SYSTEM, NadfRater
from app.engine.types import Game, Json, Outcome, Participant, PlayerKey, PlayerState, frozen

PLAYED_AT = datetime(2010, 5, 1, tzinfo=UTC)
# The seed's country factors and their mean.
F = {"R": 16.1, "E": 16.3, "F": 16.2, "T": 15.1, "G": 13.2, "A": 12.1, "I": 10.4}
MEAN = (16.1 + 16.3 + 16.2 + 15.1 + 13.2 + 12.1 + 10.4) / 7  # = 14.2
FULL = {
    "R": "Russia",
    "E": "England",
    "F": "France",
    "T": "Turkey",
    "G": "Germany",
    "A": "Austria",
    "I": "Italy",
}

Row = tuple[str, int, int, float]  # power letter, centres, rank, rating before


def rate(
    rows: list[Row],
    base: float = 1000.0,
    rater: NadfRater | None = None,
    solos: Mapping[str, list[str]] | None = None,
) -> Outcome:
    rater = rater or SYSTEM.configure()
    g = Game(
        played_at=PLAYED_AT,
        participants=tuple(
            Participant(player=f"p{i}", rank=rank, faction=power, centres=centres)
            for i, (power, centres, rank, _) in enumerate(rows)
        ),
        end_year=1910,
    )
    rater.validate_game(g)
    before = {
        PlayerKey(f"p{i}"): PlayerState(
            rating=r, extra=frozen({"solos": list((solos or {}).get(f"p{i}", []))})
        )
        for i, (_, _, _, r) in enumerate(rows)
    }
    return rater.rate_game(g, before, frozen({"base": base}))


def after(out: Outcome) -> list[float]:
    return [c.after.rating for c in out.changes]


def test_mean_factor_is_14_2() -> None:
    assert round(MEAN, 12) == 14.2


def test_new_players_start_at_the_base() -> None:
    rater = SYSTEM.configure()
    assert rater.initial_ladder_state() == {"base": 1000.0}
    assert rater.initial_state(rater.initial_ladder_state()).rating == 1000.0
    assert rater.initial_state({"base": 1234.0}).rating == 1234.0
    assert SYSTEM.configure({"initial_base": 1500}).initial_ladder_state() == {"base": 1500.0}


SOLO_ALL_1000: list[Row] = [
    ("F", 18, 1, 1000.0),
    ("E", 5, 2, 1000.0),
    ("G", 4, 2, 1000.0),
    ("R", 3, 2, 1000.0),
    ("T", 2, 2, 1000.0),
    ("A", 1, 2, 1000.0),
    ("I", 1, 2, 1000.0),
]


def test_worked_example_seven_players_at_1000_france_solos() -> None:
    """docs/systems/nadf.md worked example 1."""
    out = rate(SOLO_ALL_1000)
    c = 0.12 * 1000  # 120 each
    pot = 7 * c  # 840
    share = pot / 1 * (1000 / 1000)  # W = 1, LA = WA = 1000
    france = 1000 + share * MEAN / 16.2 - c  # 1616.30
    base_after = 1000 + 2 * 1
    # Every loser falls below the new base (England 1000 − 120 × 16.3 / 14.2 = 862.25,
    # Italy 1000 − 120 × 10.4 / 14.2 = 912.11, ...) and is raised to it.
    raw_losses = [-c * F[p] / MEAN for p in "EGRTAI"]
    assert all(1000 + loss < base_after for loss in raw_losses)
    assert after(out) == pytest.approx([france] + [base_after] * 6, abs=1e-9)
    assert france == pytest.approx(1616.30, abs=0.005)
    assert [ch.details["raw_change"] for ch in out.changes[1:]] == pytest.approx(
        raw_losses, abs=1e-9
    )
    assert all(ch.details["floored"] for ch in out.changes[1:])
    d = out.changes[0].details
    assert d["pot"] == pytest.approx(pot, abs=1e-9)
    assert d["share"] == pytest.approx(share, abs=1e-9)
    assert d["contribution"] == pytest.approx(c, abs=1e-9)
    assert d["winners"] == 1
    assert d["minimum_gain"] == 2 * 1 + 2
    assert d["cap"] == 3000
    assert not d["capped"]
    assert not d["floored"]
    assert d["base_before"] == 1000
    assert d["base_after"] == 1000 + 2 * 1
    assert d["factor"] == 16.2
    assert d["mean_factor"] == pytest.approx(MEAN, abs=1e-12)
    assert out.ladder_state == {"base": 1002.0}
    # The solo is recorded: France raises this player's cap from now on.
    assert list(out.changes[0].after.extra["solos"]) == ["France"]
    assert list(out.changes[1].after.extra["solos"]) == []
    assert [c.key for c in out.changes] == [PlayerKey(f"p{i}") for i in range(7)]


def test_three_way_draw_with_mixed_ratings() -> None:
    rows: list[Row] = [
        ("E", 12, 1, 1400.0),
        ("R", 10, 1, 1250.0),
        ("T", 8, 1, 1150.0),
        ("F", 2, 2, 1500.0),
        ("G", 1, 2, 1300.0),
        ("A", 1, 2, 1350.0),
        ("I", 0, 3, 1200.0),
    ]
    out = rate(rows)
    pot = 0.12 * (1400 + 1250 + 1150 + 1500 + 1300 + 1350 + 1200)  # 1098
    WA = (1400 + 1250 + 1150) / 3
    LA = (1500 + 1300 + 1350 + 1200) / 4
    share = pot / 3 * (LA / WA)
    expected = [
        1400 + share * MEAN / 16.3 - 0.12 * 1400,
        1250 + share * MEAN / 16.1 - 0.12 * 1250,
        1150 + share * MEAN / 15.1 - 0.12 * 1150,
        1500 - 0.12 * 1500 * 16.2 / MEAN,
        1300 - 0.12 * 1300 * 13.2 / MEAN,
        1350 - 0.12 * 1350 * 12.1 / MEAN,
        1200 - 0.12 * 1200 * 10.4 / MEAN,
    ]
    assert after(out) == pytest.approx(expected, abs=1e-9)
    d = out.changes[0].details
    assert d["losers_average"] == pytest.approx(LA, abs=1e-9)
    assert d["winners_average"] == pytest.approx(WA, abs=1e-9)
    assert d["minimum_gain"] == 2 * 3 + 2
    assert out.ladder_state == {"base": 1000 + 2 * 3}
    # A draw is not a solo: nobody's solos change.
    assert all(list(c.after.extra["solos"]) == [] for c in out.changes)


def test_minimum_gain_and_floor() -> None:
    """Strong winners over weak losers: the raw gain is negative, the minimum 2W + 2 applies;
    losers falling below the new base are raised to it."""
    rows: list[Row] = [
        ("E", 17, 1, 2000.0),
        ("F", 17, 1, 2000.0),
        ("G", 0, 2, 1000.0),
        ("R", 0, 2, 1000.0),
        ("T", 0, 2, 1000.0),
        ("A", 0, 2, 1000.0),
        ("I", 0, 2, 1000.0),
    ]
    out = rate(rows)
    pot = 0.12 * (2 * 2000 + 5 * 1000)
    share = pot / 2 * (1000 / 2000)
    raw_england = share * MEAN / 16.3 - 0.12 * 2000
    assert raw_england < 0  # the rule being tested
    minimum = 2 * 2 + 2
    base_after = 1000 + 2 * 2
    assert after(out) == pytest.approx([2000 + minimum, 2000 + minimum] + [base_after] * 5)
    assert out.changes[0].details["raw_change"] == pytest.approx(raw_england, abs=1e-9)
    assert all(c.details["floored"] for c in out.changes[2:])
    assert not any(c.details["floored"] for c in out.changes[:2])


def test_stale_rating_is_floored_to_the_base_before_the_game() -> None:
    """A stored rating below the current base (the base rose in games the player missed)
    enters the game at the base."""
    rows: list[Row] = [
        ("F", 18, 1, 1300.0),
        ("E", 16, 2, 1050.0),  # stale: base is now 1100
    ]
    out = rate(rows, base=1100.0)
    pot = 0.12 * (1300 + 1100)
    share = pot * (1100 / 1300)
    assert after(out) == pytest.approx(
        [1300 + share * MEAN / 16.2 - 0.12 * 1300, max(1100 - 0.12 * 1100 * 16.3 / MEAN, 1102)],
        abs=1e-9,
    )
    e = out.changes[1]
    assert e.before.rating == 1050.0  # the stored state is reported as given
    assert e.details["rating"] == 1100.0
    assert e.details["floored_before"]
    assert e.details["floored"]


def test_floor_state_helper() -> None:
    rater = SYSTEM.configure()
    stale = PlayerState(rating=990.0, extra=frozen({"solos": ["Italy"]}))
    floored = rater.floor_state(stale, {"base": 1010.0})
    assert floored.rating == 1010.0
    assert floored.extra == stale.extra
    fine = PlayerState(rating=1500.0)
    assert rater.floor_state(fine, {"base": 1010.0}) is fine


def test_cap_limits_a_single_game_gain() -> None:
    """Italy solos at 2900 with an earlier English solo: cap 3000 + 50, gain ≤ (3050 − 2900)/2."""
    rows: list[Row] = [
        ("I", 18, 1, 2900.0),
        ("E", 4, 2, 1000.0),
        ("F", 4, 2, 1000.0),
        ("G", 4, 2, 1000.0),
        ("R", 2, 2, 1000.0),
        ("T", 1, 2, 1000.0),
        ("A", 1, 2, 1000.0),
    ]
    out = rate(rows, solos={"p0": ["England"]})
    pot = 0.12 * (2900 + 6 * 1000)
    share = pot * (1000 / 2900)
    uncapped = share * MEAN / 10.4 - 0.12 * 2900
    cap = 3000 + 50 * 1
    assert uncapped > (cap - 2900) / 2  # the rule being tested
    assert after(out)[0] == pytest.approx(2900 + (cap - 2900) / 2, abs=1e-9)
    d = out.changes[0].details
    assert d["cap"] == cap
    assert d["capped"]
    assert list(out.changes[0].after.extra["solos"]) == ["England", "Italy"]
    # The same power again does not raise the cap twice.
    again = rate(rows, solos={"p0": ["England", "Italy"]})
    assert again.changes[0].details["cap"] == 3000 + 50 * 2
    assert list(again.changes[0].after.extra["solos"]) == ["England", "Italy"]


def test_cap_beats_minimum_gain_and_never_takes_rating_away() -> None:
    rows: list[Row] = [("E", 17, 1, 2995.0), ("F", 17, 1, 3100.0)]
    out = rate(rows, base=1000.0)
    # E: minimum 2·2 + 2 = 6 but half the distance to 3000 is 2.5; F: above its cap, gains 0.
    assert after(out) == pytest.approx([2995 + (3000 - 2995) / 2, 3100.0], abs=1e-9)
    assert all(c.details["capped"] for c in out.changes)


def test_country_adjust_none() -> None:
    rater = SYSTEM.configure({"country_adjust": "none"})
    out = rate(SOLO_ALL_1000, rater=rater)
    c = 0.12 * 1000
    # No country adjustment: France gains pot − c; losers' raw change is −c, then the floor.
    assert after(out) == pytest.approx([1000 + 7 * c - c] + [1002.0] * 6, abs=1e-9)
    assert [ch.details["raw_change"] for ch in out.changes] == pytest.approx(
        [7 * c - c] + [-c] * 6, abs=1e-9
    )
    # Against the default reading, France's gain differs by the factor MEAN / 16.2.
    default = rate(SOLO_ALL_1000)
    assert default.changes[0].details["raw_change"] == pytest.approx(7 * c * MEAN / 16.2 - c)


def test_everyone_draws_share_is_not_modified() -> None:
    """No losers: LA / WA is undefined and taken as 1 (docs/systems/nadf.md)."""
    rows: list[Row] = [(p, 4, 1, 1000.0) for p in "REFTGAI"]
    out = rate(rows)
    c = 0.12 * 1000
    share = 7 * c / 7
    minimum = 2 * 7 + 2
    expected = [1000 + max(share * MEAN / F[p] - c, minimum) for p in "REFTGAI"]
    assert after(out) == pytest.approx(expected, abs=1e-9)
    assert out.changes[0].details["losers_average"] is None
    # England (16.3 > MEAN) would lose without the minimum gain.
    assert share * MEAN / 16.3 - c < minimum


def test_custom_parameters() -> None:
    factors = {FULL[p]: 1.0 for p in F}  # equal factors: M / factor = 1
    rater = SYSTEM.configure(
        {
            "country_factors": factors,
            "pot_rate": 0.1,
            "base_step": 3,
            "minimum_gain_bonus": 1,
            "cap_base": 2000,
            "cap_per_solo": 10,
        }
    )
    out = rate(SOLO_ALL_1000, rater=rater)
    c = 0.1 * 1000
    # Winner: 7c − c = 600 is capped at (2000 − 1000) / 2; losers 900 are floored to 1003.
    assert after(out) == pytest.approx([1000 + (2000 - 1000) / 2] + [1000 + 3 * 1] * 6, abs=1e-9)
    assert [ch.details["raw_change"] for ch in out.changes] == pytest.approx(
        [7 * c - c] + [-c] * 6, abs=1e-9
    )
    assert out.ladder_state == {"base": 1000 + 3 * 1}
    assert out.changes[0].details["minimum_gain"] == 3 * 1 + 1
    assert out.changes[0].details["cap"] == 2000


@pytest.mark.parametrize(
    "params",
    [
        {"country_factors": {"Russia": 16.1}},
        {"country_factors": {**{FULL[p]: v for p, v in F.items()}, "Prussia": 3.0}},
        {"country_factors": {**{FULL[p]: v for p, v in F.items()}, "Italy": 0}},
        {"country_factors": {**{FULL[p]: v for p, v in F.items()}, "Italy": "x"}},
        {"country_adjust": "sqrt"},
        {"pot_rate": 0},
        {"pot_rate": 1.5},
        {"initial_base": 0},
        {"base_step": -1},
    ],
)
def test_invalid_parameters(params: dict[str, Json]) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure(params)


def test_info() -> None:
    info = SYSTEM.info
    assert info.id == "nadf"
    assert info.ladder_scoped
    assert info.kind == "game"
    # Seed 001 by its title (Edi Birsan's article).
    assert any("Edi Birsan" in source for source in info.sources)
    defaults = {p.name: p.default for p in info.params}
    assert defaults["country_factors"] == {FULL[p]: v for p, v in F.items()}
    assert defaults["pot_rate"] == 0.12
    assert defaults["country_adjust"] == "mean_ratio"


# --- properties ---------------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[list[Row], float]:
    """A valid game of 2..7 players with ratings around a base, some stale below it."""
    n = draw(st.integers(2, 7))
    powers = draw(st.permutations(list("AEFGIRT")))[:n]
    base = draw(st.floats(1000, 3000))
    ratings = [draw(st.floats(base - 200, base + 3000)) for _ in range(n)]
    solo = draw(st.booleans())
    if solo:
        ranks = [1] + [draw(st.integers(2, 7)) for _ in range(n - 1)]
        centres = [18] + [draw(st.integers(0, 2)) for _ in range(n - 1)]
    else:
        w = draw(st.integers(2, n))
        ranks = [1] * w + [draw(st.integers(2, 7)) for _ in range(n - w)]
        centres = [draw(st.integers(1, 4)) for _ in range(w)] + [
            draw(st.integers(0, 4)) for _ in range(n - w)
        ]
    return [(powers[i], centres[i], ranks[i], ratings[i]) for i in range(n)], base


@settings(max_examples=200, deadline=None)
@given(games(), st.sampled_from(["mean_ratio", "none"]))
def test_property_finite_and_directions(case: tuple[list[Row], float], adjust: str) -> None:
    rows, base = case
    out = rate(rows, base=base, rater=SYSTEM.configure({"country_adjust": adjust}))
    base_after = out.ladder_state["base"]
    for (_, _, rank, rating), change in zip(rows, out.changes, strict=True):
        new = change.after.rating
        assert math.isfinite(new)
        for v in change.details.values():
            if isinstance(v, float):
                assert math.isfinite(v)
        assert new >= base_after  # nobody ends below the base
        entered = max(rating, base)  # the lazily floored rating
        if rank == 1:
            assert new >= rating  # a winner never loses
        else:
            # A loser never gains, except by the floor.
            assert new <= entered or new == base_after


@settings(max_examples=200, deadline=None)
@given(games())
def test_property_winner_gain_within_minimum_and_cap(case: tuple[list[Row], float]) -> None:
    rows, base = case
    out = rate(rows, base=base)
    for (_, _, rank, rating), change in zip(rows, out.changes, strict=True):
        if rank != 1:
            continue
        entered = max(rating, base)
        gain = change.after.rating - entered
        limit = max(0.0, (3000 - entered) / 2)
        if change.details["floored"]:
            continue
        assert gain <= limit + 1e-9
        assert gain >= min(change.details["minimum_gain"], limit) - 1e-9
