"""DAANZ masterpoints (app/engine/daanz.py): the two data points of seed
001_f1e33522112d1554.txt, and the project's documented reading of the rest."""

from __future__ import annotations

import math
from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.daanz import SYSTEM
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.types import Change, Placement, PlayerState, Tournament


def tournament(results: list[tuple[int, int | None]]) -> Tournament:
    """(rank, centres) per player p0, p1, ..."""
    return Tournament(
        held_on=date(2012, 3, 10),
        rounds=3,
        standings=tuple(
            Placement(f"p{i}", rank, centres) for i, (rank, centres) in enumerate(results)
        ),
    )


def holding(classification: str, total: float = 0.0) -> PlayerState:
    return PlayerState(rating=total, extra={"classification": classification})


def rate_one(classification: str, centres: int, total: float = 0.0) -> Change:
    """Rate p0 (of the given classification) with ``centres`` in a two-player event."""
    rater = SYSTEM.configure()
    t = tournament([(1, centres), (2, 0)])
    rater.validate_tournament(t)
    out = rater.rate_tournament(
        t, {"p0": holding(classification, total), "p1": rater.initial_state({})}, {}
    )
    return out.changes[0]


def test_veteran_earns_3_for_a_10_centre_result() -> None:
    # Seed 001: "for a Veteran to get point you need to have a result with 10 centers to get
    # 3 Master points".
    got = rate_one("veteran", 10)
    assert got.details["masterpoints"] == 3
    assert got.delta == 3
    assert got.details["classification"] == "veteran"
    assert got.details["centres"] == 10


def test_veteran_earns_nothing_below_10_centres() -> None:
    assert rate_one("veteran", 9).delta == 0


@pytest.mark.parametrize("centres", [0, 5, 10, 15])
def test_champion_earns_nothing_below_16_centres(centres: int) -> None:
    # Seed 001: "a Champion only gets points for centers if his ... final count is 16".
    assert rate_one("champion", centres, total=100.0).delta == 0


def test_champion_earns_from_16_centres() -> None:
    assert rate_one("champion", 16, total=100.0).delta > 0
    assert rate_one("champion", 16, total=100.0).delta == 5  # default row [16, 5]


def test_new_player_is_a_novice() -> None:
    state = SYSTEM.configure().initial_state({})
    assert state.rating == 0
    assert state.extra["classification"] == "novice"
    # A stored state without a classification is read as the first one.
    assert rate_one("novice", 4).delta == 1
    rater = SYSTEM.configure()
    assert rater.classification_of(PlayerState(rating=0.0)) == "novice"


def test_promotion_when_the_total_reaches_the_threshold() -> None:
    got = rate_one("novice", 7, total=8.0)  # 8 + 2 = 10: the intermediate threshold
    assert got.details["promoted_to"] == "intermediate"
    after = got.after
    assert after.extra["classification"] == "intermediate"
    assert after.rating == 10


def test_no_promotion_below_the_threshold() -> None:
    got = rate_one("novice", 7, total=7.0)  # 9 < 10
    assert got.details["promoted_to"] is None
    after = got.after
    assert after.extra["classification"] == "novice"


def test_promotion_can_skip_a_classification() -> None:
    got = rate_one("novice", 18, total=29.0)  # 29 + 6 = 35 >= 30 (veteran)
    assert got.details["promoted_to"] == "veteran"


def test_points_are_earned_at_the_classification_held_before_the_event() -> None:
    # An intermediate at 29 with 10 centres earns the intermediate 3, then becomes veteran.
    got = rate_one("intermediate", 10, total=29.0)
    assert got.details["masterpoints"] == 3
    assert got.details["classification"] == "intermediate"
    assert got.details["promoted_to"] == "veteran"


def test_placing_bonus_parameter_with_ties_averaged() -> None:
    rater = SYSTEM.configure({"placing_bonus": [3, 2, 1]})
    t = tournament([(1, 0), (1, 0), (3, 0), (4, 0)])
    before = {s.player: rater.initial_state({}) for s in t.standings}
    out = rater.rate_tournament(t, before, {})
    assert [c.details["masterpoints"] for c in out.changes] == pytest.approx(
        [(3 + 2) / 2, (3 + 2) / 2, 1, 0], abs=1e-12
    )


def test_centres_are_required_and_bounded() -> None:
    rater = SYSTEM.configure()
    with pytest.raises(InvalidEvent) as err:
        rater.validate_tournament(tournament([(1, 10), (2, None)]))
    assert err.value.loc == ("standings", 1, "centres")
    with pytest.raises(InvalidEvent) as err:
        rater.validate_tournament(tournament([(1, 35), (2, 0)]))
    assert err.value.loc == ("standings", 0, "centres")
    with pytest.raises(InvalidEvent):
        rater.validate_tournament(tournament([(1, 10)]))


def test_adjustment_sets_the_total_and_may_promote() -> None:
    rater = SYSTEM.configure()
    state = rater.adjusted_state(holding("novice", 3.0), 45.0, None, None, datetime(2012, 1, 1))
    assert state.rating == 45
    assert state.extra["classification"] == "veteran"
    # Never demoted.
    state = rater.adjusted_state(holding("champion", 90.0), 1.0, None, None, datetime(2012, 1, 1))
    assert state.extra["classification"] == "champion"


@pytest.mark.parametrize(
    "params",
    [
        {"classifications": ["a", "a"]},
        {"classifications": []},
        {"masterpoints": {"novice": [[4, 1]]}},  # tables missing
        {"promotion": {"intermediate": 10, "veteran": 5, "champion": 60}},  # not rising
        {"promotion": {"veteran": 30, "champion": 60}},  # intermediate missing
        {
            "masterpoints": {
                "novice": [[4, 1]],
                "intermediate": [[7, 2]],
                "veteran": [[10, 3], [9, 4]],  # not rising in centres
                "champion": [[16, 5]],
            }
        },
        {
            "masterpoints": {
                "novice": [[4, 1]],
                "intermediate": [[7, 2]],
                "veteran": [[10, 3]],
                "champion": [[16, 5], [18, 2]],  # falls as centres rise
            }
        },
        {"placing_bonus": [1, 2]},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure(params)


def test_custom_classifications() -> None:
    rater = SYSTEM.configure(
        {
            "classifications": ["open", "master"],
            "masterpoints": {"open": [[0, 1]], "master": [[18, 10]]},
            "promotion": {"master": 2},
        }
    )
    t = tournament([(1, 0), (2, 0)])
    before = {s.player: holding("open", 1.0) for s in t.standings}
    out = rater.rate_tournament(t, before, {})
    assert out.changes[0].details["promoted_to"] == "master"


@settings(max_examples=200, deadline=None)
@given(
    classification=st.sampled_from(["novice", "intermediate", "veteran", "champion"]),
    total=st.floats(0, 1000),
    centres=st.lists(st.integers(0, 34), min_size=2, max_size=12),
    bonus=st.lists(st.floats(0, 10), max_size=4).map(lambda b: sorted(b, reverse=True)),
)
def test_finite_and_monotone_in_place_and_centres(
    classification: str, total: float, centres: list[int], bonus: list[float]
) -> None:
    rater = SYSTEM.configure({"placing_bonus": bonus})
    # Players ranked in input order, each with its centres.
    t = tournament([(i + 1, c) for i, c in enumerate(centres)])
    rater.validate_tournament(t)
    out = rater.rate_tournament(
        t, {s.player: holding(classification, total) for s in t.standings}, {}
    )
    points = [c.details["masterpoints"] for c in out.changes]
    assert all(math.isfinite(p) and p >= 0 for p in points)
    assert all(c.after.rating >= c.before.rating for c in out.changes)
    for i in range(len(centres)):
        for j in range(i + 1, len(centres)):
            # A better place with at least as many centres never earns less.
            if centres[i] >= centres[j]:
                assert points[i] >= points[j]
