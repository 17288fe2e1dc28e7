"""Kinzett rating system (seed 002_d521cad107983002.txt; SYSTEMS.md ``kinzett``)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.kinzett import SYSTEM, KinzettRater, f, sort_key
from app.engine.types import Game, Outcome, Participant, PlayerKey, PlayerState

PLAYED_AT = datetime(1986, 8, 23, tzinfo=UTC)
ORDER = ("F", "G", "I", "A", "E", "R", "T")

Row = tuple[int, int, int | None]  # centres, rank, eliminated_in


def game(rows: list[Row], end_year: int | None = 1909) -> Game:
    """Seven rows in ORDER of powers; players are p0..p6."""
    return Game(
        played_at=PLAYED_AT,
        participants=tuple(
            Participant(
                player=f"p{i}",
                rank=rank,
                faction=ORDER[i],
                centres=centres,
                eliminated_in=elim,
            )
            for i, (centres, rank, elim) in enumerate(rows)
        ),
        end_year=end_year,
    )


def rate(rows: list[Row], rater: KinzettRater | None = None, **kw: int | None) -> Outcome:
    rater = rater or SYSTEM.configure()
    g = game(rows, **kw)
    rater.validate_game(g)
    fresh = rater.initial_state(rater.initial_ladder_state())
    before = {PlayerKey(p.player): fresh for p in g.participants}
    return rater.rate_game(g, before, rater.initial_ladder_state())


def secondary(outcome: Outcome) -> list[float]:
    return [c.details["secondary"] for c in outcome.changes]


def primary(outcome: Outcome) -> list[float]:
    return [c.details["primary"] for c in outcome.changes]


# 17-16-1 with four eliminated (seed 002's example), a 3-way draw.
SEVENTEEN_SIXTEEN_ONE: list[Row] = [
    (17, 1, None),
    (16, 1, None),
    (1, 1, None),
    (0, 2, 1905),
    (0, 2, 1906),
    (0, 2, 1907),
    (0, 2, 1908),
]
# The 16 takes the 1's last centre with the 17's support: 17-17 with five eliminated.
SEVENTEEN_SEVENTEEN: list[Row] = [
    (17, 1, None),
    (17, 1, None),
    (0, 2, 1909),
    (0, 2, 1905),
    (0, 2, 1906),
    (0, 2, 1907),
    (0, 2, 1908),
]


def test_f_is_the_seed_formula() -> None:
    assert f(0) == 4
    assert f(1) == 0.5 * (1 + 1) + 4
    assert f(17) == 0.5 * (17**2 + 17) + 4 == 157
    assert f(16) == 0.5 * (16**2 + 16) + 4 == 140


def test_seventeen_sixteen_one_seed_reference() -> None:
    """SYSTEMS.md reference check: the 17 scores 49.37 (divisor includes f(0) = 4 four times)."""
    out = rate(SEVENTEEN_SIXTEEN_ONE)
    divisor = 157 + 140 + 5 + 4 * 4
    assert out.changes[0].details["divisor"] == pytest.approx(divisor, abs=1e-12)
    assert secondary(out)[0] == pytest.approx(100 * 157 / divisor, abs=1e-12)
    assert secondary(out)[0] == pytest.approx(49.37, abs=0.005)
    assert secondary(out)[1] == pytest.approx(100 * 140 / divisor, abs=1e-12)
    assert secondary(out)[2] == pytest.approx(100 * 5 / divisor, abs=1e-12)
    # Eliminated in 1905..1908: 4..7 complete years at 0.1.
    assert secondary(out)[3:] == pytest.approx([0.4, 0.5, 0.6, 0.7], abs=1e-12)
    assert [c.details["years_survived"] for c in out.changes] == [None, None, None, 4, 5, 6, 7]
    assert primary(out) == [1, 1, 1, 0, 0, 0, 0]


def test_seventeen_seventeen_each_scores_47_01_so_the_17_loses_by_helping() -> None:
    out = rate(SEVENTEEN_SEVENTEEN)
    divisor = 157 + 157 + 5 * 4
    assert secondary(out)[0] == pytest.approx(100 * 157 / divisor, abs=1e-12)
    assert secondary(out)[0] == pytest.approx(47.01, abs=0.005)
    assert secondary(out)[1] == pytest.approx(47.01, abs=0.005)
    before = rate(SEVENTEEN_SIXTEEN_ONE)
    assert secondary(out)[0] < secondary(before)[0]  # the seed's point
    assert primary(out) == [1, 1, 0, 0, 0, 0, 0]


def test_four_way_draw_hand_computed() -> None:
    rows: list[Row] = [
        (10, 1, None),
        (9, 1, None),
        (8, 1, None),
        (7, 1, None),
        (0, 2, 1903),
        (0, 2, 1905),
        (0, 2, 1907),
    ]
    out = rate(rows)
    f10, f9, f8, f7 = 55 + 4, 45 + 4, 36 + 4, 28 + 4  # (n² + n)/2 + 4
    divisor = f10 + f9 + f8 + f7 + 3 * 4
    assert secondary(out) == pytest.approx(
        [
            100 * f10 / divisor,
            100 * f9 / divisor,
            100 * f8 / divisor,
            100 * f7 / divisor,
            0.2,
            0.4,
            0.6,
        ],
        abs=1e-12,
    )
    assert primary(out) == [1, 1, 1, 1, 0, 0, 0]
    assert [c.details["f"] for c in out.changes] == [f10, f9, f8, f7, 4, 4, 4]


def test_solo_gets_two_primary_points() -> None:
    rows: list[Row] = [
        (18, 1, None),
        (8, 2, None),
        (5, 3, None),
        (3, 4, None),
        (0, 5, 1904),
        (0, 5, 1906),
        (0, 5, 1907),
    ]
    out = rate(rows)
    assert primary(out) == [2, 0, 0, 0, 0, 0, 0]
    divisor = (171 + 4) + (36 + 4) + (15 + 4) + (6 + 4) + 3 * 4
    assert secondary(out)[0] == pytest.approx(100 * (171 + 4) / divisor, abs=1e-12)
    assert secondary(out)[4:] == pytest.approx([0.3, 0.5, 0.6], abs=1e-12)


def test_eliminated_in_first_year_survives_zero_years() -> None:
    rows: list[Row] = [
        (18, 1, None),
        (16, 2, None),
        (0, 3, 1901),
        (0, 3, 1902),
        (0, 3, 1903),
        (0, 3, 1904),
        (0, 3, 1905),
    ]
    assert secondary(rate(rows))[2:] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4], abs=1e-12)


def test_parameters_change_points() -> None:
    rater = SYSTEM.configure(
        {
            "solo_points": 3,
            "draw_points": 0.5,
            "survivor_pool": 50,
            "per_year": 1,
            "start_year": 1900,
        }
    )
    out = rate(SEVENTEEN_SIXTEEN_ONE, rater)
    assert primary(out) == [0.5, 0.5, 0.5, 0, 0, 0, 0]
    assert secondary(out)[0] == pytest.approx(50 * 157 / 318, abs=1e-12)
    assert secondary(out)[3] == pytest.approx(1905 - 1900, abs=1e-12)


def test_totals_accumulate_and_sort_key_ranks_primary_then_secondary() -> None:
    rater = SYSTEM.configure()
    first = rate(SEVENTEEN_SIXTEEN_ONE, rater)
    states = {c.key: c.after for c in first.changes}
    g = game(SEVENTEEN_SEVENTEEN)
    second = rater.rate_game(g, states, rater.initial_ladder_state())
    p0 = second.changes[0].after
    assert p0.rating == 2
    assert p0.extra["primary"] == 2
    assert p0.extra["games"] == 2
    assert p0.extra["secondary"] == pytest.approx(100 * 157 / 318 + 100 * 157 / 334, abs=1e-12)
    assert rater.standing(p0).rating == 2
    # p0 and p1 both have 2 primary points; p0's secondary total is higher (49.37 > 44.03).
    p1 = second.changes[1].after
    assert p1.rating == 2
    ranked = sorted([p1, p0], key=sort_key, reverse=True)
    assert ranked == [p0, p1]
    assert sort_key(PlayerState(rating=3.0)) > sort_key(p0)  # primary points come first


def test_changes_in_input_order_with_plain_keys() -> None:
    out = rate(SEVENTEEN_SIXTEEN_ONE)
    assert [c.key for c in out.changes] == [PlayerKey(f"p{i}") for i in range(7)]
    assert [c.details["power"] for c in out.changes] == [
        "France",
        "Germany",
        "Italy",
        "Austria",
        "England",
        "Russia",
        "Turkey",
    ]


def test_needs_seven_players() -> None:
    rater = SYSTEM.configure()
    g = game(SEVENTEEN_SIXTEEN_ONE)
    six = Game(played_at=PLAYED_AT, participants=g.participants[:6], end_year=1909)
    with pytest.raises(InvalidEvent) as err:
        rater.validate_game(six)
    assert err.value.loc == ("players",)


def test_zero_centres_needs_elimination_year() -> None:
    rows = list(SEVENTEEN_SIXTEEN_ONE)
    rows[4] = (0, 2, None)
    with pytest.raises(InvalidEvent) as err:
        SYSTEM.configure().validate_game(game(rows))
    assert err.value.loc == ("players", 4, "eliminated_in")


def test_elimination_before_start_year_parameter() -> None:
    rater = SYSTEM.configure({"start_year": 1906})
    with pytest.raises(InvalidEvent) as err:
        rater.validate_game(game(SEVENTEEN_SIXTEEN_ONE))
    assert err.value.loc == ("players", 3, "eliminated_in")


def test_invalid_parameters() -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"per_year": -0.1})
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"start_year": 1901.5})
    with pytest.raises(InvalidParameter):
        SYSTEM.configure({"unknown": 1})


def test_adjusted_state_sets_primary_and_keeps_secondary() -> None:
    rater = SYSTEM.configure()
    prev = rate(SEVENTEEN_SIXTEEN_ONE).changes[0].after
    adj = rater.adjusted_state(prev, 5.0, None, None, PLAYED_AT)
    assert adj.rating == 5.0
    assert adj.extra["primary"] == 5.0
    assert adj.extra["secondary"] == prev.extra["secondary"]
    assert adj.extra["games"] == 1
    with pytest.raises(InvalidEvent):
        rater.adjusted_state(prev, -1.0, None, None, PLAYED_AT)
    with pytest.raises(InvalidEvent):
        rater.adjusted_state(prev, 1.0, 50.0, None, PLAYED_AT)


def test_info() -> None:
    info = SYSTEM.info
    assert info.id == "kinzett"
    assert info.kind == "game"
    # Seed 002 by its title (the World Diplomacy Database page).
    assert any("Kinzett Rating System" in source for source in info.sources)
    assert {p.name for p in info.params} == {
        "solo_points",
        "draw_points",
        "survivor_pool",
        "per_year",
        "start_year",
    }


# --- properties ---------------------------------------------------------------------------


@st.composite
def results(draw: st.DrawFn) -> list[Row]:
    """A valid seven-player result: a solo (18+ centres) or a draw of two or more survivors."""
    solo = draw(st.booleans())
    w = draw(st.integers(0, 6))
    centres = [0] * 7
    remaining = 34
    if solo:
        centres[w] = draw(st.integers(18, 34))
        remaining -= centres[w]
    for i in range(7):
        if solo and i == w:
            continue
        centres[i] = draw(st.integers(0, min(17, remaining)))
        remaining -= centres[i]
    survivors = [i for i, n in enumerate(centres) if n > 0]
    if solo:
        winners = [w]
    elif len(survivors) < 2:
        # Fewer than two survivors cannot draw: make it a 17-17 draw.
        centres = [17, 17, 0, 0, 0, 0, 0]
        winners = [0, 1]
    else:
        winners = draw(
            st.lists(st.sampled_from(survivors), min_size=2, max_size=len(survivors), unique=True)
        )
    return [
        (
            n,
            1 if i in winners else 2,
            None if n > 0 else draw(st.integers(1901, 1920)),
        )
        for i, n in enumerate(centres)
    ]


@settings(max_examples=200, deadline=None)
@given(results())
def test_property_survivors_share_pool_by_f(rows: list[Row]) -> None:
    out = rate(rows, end_year=1920)
    divisor = sum(0.5 * (n * n + n) + 4 for n, _, _ in rows)
    eliminated = sum(1 for n, _, _ in rows if n == 0)
    survivors_points = sum(s for s, (n, _, _) in zip(secondary(out), rows, strict=True) if n > 0)
    surviving_f = sum(0.5 * (n * n + n) + 4 for n, _, _ in rows if n > 0)
    assert survivors_points == pytest.approx(100 * surviving_f / divisor, abs=1e-9)
    assert survivors_points == pytest.approx(100 - 100 * 4 * eliminated / divisor, abs=1e-9)
    for s in secondary(out):
        assert math.isfinite(s)
        assert s >= 0


@settings(max_examples=200, deadline=None)
@given(results(), st.integers(0, 6))
def test_property_one_more_centre_never_fewer_secondary_points(rows: list[Row], i: int) -> None:
    n, rank, _ = rows[i]
    if n == 0 or n + 1 == 18 or sum(r[0] for r in rows) >= 34:
        return
    more = list(rows)
    more[i] = (n + 1, rank, None)
    assert secondary(rate(more, end_year=1920))[i] >= secondary(rate(rows, end_year=1920))[i]


@settings(max_examples=200, deadline=None)
@given(results())
def test_property_winners_never_score_fewer_primary_points(rows: list[Row]) -> None:
    out = rate(rows, end_year=1920)
    winners = [p for p, (_, rank, _) in zip(primary(out), rows, strict=True) if rank == 1]
    others = [p for p, (_, rank, _) in zip(primary(out), rows, strict=True) if rank != 1]
    assert min(winners) > max(others, default=-1)
