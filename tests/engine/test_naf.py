"""Tests of the NAF coach rating (app.engine.naf; seed 004_3c56f4e0f8d4dd82.txt).

Expected values are the seed's formulas worked by hand:
E = 1 / (10^((R_opp - R_you)/150) + 1), K = sqrt(min(coaches, MAX)) * 2, R' = R + K (S - E).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.naf import SYSTEM, NafRater
from app.engine.types import (
    EMPTY,
    EventContext,
    Game,
    Outcome,
    Participant,
    PlayerKey,
    PlayerState,
)

PLAYED_AT = datetime(2026, 1, 1, 12, 0)
TIGHT = 1e-9
RACES = ("Orc", "Wood Elf")


def make_game(
    ranks: Sequence[int],
    event: EventContext | None,
    races: Sequence[str | None] = RACES,
) -> Game:
    return Game(
        played_at=PLAYED_AT,
        participants=tuple(
            Participant(player=f"c{i}", rank=rank, faction=race)
            for i, (rank, race) in enumerate(zip(ranks, races, strict=False))
        ),
        event=event,
    )


def rate(
    ranks: Sequence[int],
    ratings: Sequence[float],
    event: EventContext | None,
    params: Mapping[str, object] | None = None,
) -> Outcome:
    rater = SYSTEM.configure(params)
    game = make_game(ranks, event)
    rater.validate_game(game)
    before = {PlayerKey(f"c{i}", RACES[i]): PlayerState(rating=r) for i, r in enumerate(ratings)}
    return rater.rate_game(game, before, EMPTY)


def deltas(outcome: Outcome) -> list[float]:
    return [change.delta for change in outcome.changes]


def E(you: float, opponent: float) -> float:
    """The seed's Win Probability, written out."""
    return 1 / (10 ** ((opponent - you) / 150) + 1)


NON_MAJOR_48 = EventContext(id="ukbbc", coaches=48, major=False)


# --- description and parameters --------------------------------------------------------------


def test_info_flags() -> None:
    info = SYSTEM.info
    assert info.id == "naf"
    assert info.kind == "game"
    assert info.per_faction is True
    assert info.duel is True
    assert {spec.name: spec.default for spec in info.params} == {
        "initial": 150.0,
        "scale": 150.0,
        "k_multiplier": 2.0,
        "max_coaches_major": 60,
        "max_coaches": 32,
    }


def test_initial_rating_is_150() -> None:
    rater = SYSTEM.configure()
    assert isinstance(rater, NafRater)
    assert rater.initial_state(EMPTY) == PlayerState(rating=150.0)


@pytest.mark.parametrize(
    "params",
    [{"max_coaches": 0}, {"max_coaches": 32.5}, {"k_multiplier": 0}, {"scale": -1}],
)
def test_invalid_parameters(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameter):
        SYSTEM.configure(params)


# --- the formula -----------------------------------------------------------------------------


def test_equal_coaches_at_48_coach_event() -> None:
    # 48 coaches at a non-major count as MAX 32: K = 2 sqrt(32); E = 1/2.
    K = 2 * math.sqrt(32)
    outcome = rate([1, 2], [150, 150], NON_MAJOR_48)
    assert [c.after.rating for c in outcome.changes] == pytest.approx(
        [150 + K * 0.5, 150 - K * 0.5], abs=TIGHT
    )
    details = outcome.changes[0].details
    assert details["k"] == pytest.approx(K, abs=TIGHT)
    assert details["coaches_counted"] == 32
    assert details["expected_score"] == 0.5
    assert details["score"] == 1.0
    assert details["opponent"] == "c1"
    assert details["opponent_faction"] == "Wood Elf"


def test_small_event_uses_its_coach_count() -> None:
    K = 2 * math.sqrt(20)
    values = deltas(rate([1, 2], [150, 150], EventContext(coaches=20)))
    assert values == pytest.approx([K * 0.5, -K * 0.5], abs=TIGHT)


@pytest.mark.parametrize("coaches", [20, 60, 150, None])
def test_major_always_counts_60(coaches: int | None) -> None:
    # Seed: Majors "are treated as always having 60 coaches, even if there are fewer".
    K = 2 * math.sqrt(60)
    outcome = rate([2, 1], [150, 150], EventContext(coaches=coaches, major=True))
    assert deltas(outcome) == pytest.approx([-K * 0.5, K * 0.5], abs=TIGHT)
    assert outcome.changes[0].details["coaches_counted"] == 60
    assert outcome.changes[0].details["major"] is True


def test_upset_by_hand() -> None:
    # 120 beats 180 at a 16-coach event: K = 2 sqrt(16) = 8.
    E_low = 1 / (10 ** ((180 - 120) / 150) + 1)
    values = deltas(rate([1, 2], [120, 180], EventContext(coaches=16)))
    assert values == pytest.approx([8 * (1 - E_low), -8 * (1 - E_low)], abs=TIGHT)
    assert values[0] > 4  # an upset pays more than half of K


def test_draw_by_hand() -> None:
    # 180 draws 120 at a 10-coach event: the favourite drops K (1/2 - E).
    K = 2 * math.sqrt(10)
    values = deltas(rate([1, 1], [180, 120], EventContext(coaches=10)))
    assert values == pytest.approx([K * (0.5 - E(180, 120)), K * (0.5 - E(120, 180))], abs=TIGHT)
    assert values[0] < 0


def test_custom_maximum_and_multiplier() -> None:
    K = 3 * math.sqrt(24)
    params = {"max_coaches": 24, "k_multiplier": 3}
    values = deltas(rate([1, 2], [150, 150], NON_MAJOR_48, params))
    assert values == pytest.approx([K * 0.5, -K * 0.5], abs=TIGHT)


def test_expected_score_is_the_seed_win_probability() -> None:
    rater = SYSTEM.configure()
    assert rater.expected_score(PlayerState(200.0), PlayerState(170.0)) == pytest.approx(
        E(200, 170), abs=TIGHT
    )
    # 150 points ahead means odds of 10 to 1.
    assert rater.expected_score(PlayerState(300.0), PlayerState(150.0)) == pytest.approx(
        10 / 11, abs=TIGHT
    )


def test_ratings_are_per_race() -> None:
    rater = SYSTEM.configure()
    game = make_game([1, 2], NON_MAJOR_48, ("Orc", "Orc"))
    before = {
        PlayerKey("c0", "Orc"): PlayerState(150.0),
        PlayerKey("c1", "Orc"): PlayerState(150.0),
    }
    outcome = rater.rate_game(game, before, EMPTY)
    assert [c.key for c in outcome.changes] == [PlayerKey("c0", "Orc"), PlayerKey("c1", "Orc")]


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize("ranks", [[1], [1, 2, 3]])
def test_exactly_two_players(ranks: list[int]) -> None:
    game = make_game(ranks, NON_MAJOR_48, ("Orc", "Dwarf", "Skaven"))
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().validate_game(game)
    assert info.value.loc == ("players",)


def test_race_required() -> None:
    game = make_game([1, 2], NON_MAJOR_48, ("Orc", None))
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().validate_game(game)
    assert info.value.loc == ("players", 1, "faction")


@pytest.mark.parametrize(
    "event",
    [
        None,
        EventContext(coaches=None),
        EventContext(coaches=0),
        EventContext(coaches=-3, major=True),
    ],
)
def test_coaches_required_and_positive(event: EventContext | None) -> None:
    with pytest.raises(InvalidEvent) as info:
        SYSTEM.configure().validate_game(make_game([1, 2], event))
    assert info.value.loc == ("event", "coaches")


def test_major_without_coach_count_is_valid() -> None:
    SYSTEM.configure().validate_game(make_game([1, 2], EventContext(major=True)))


# --- properties ------------------------------------------------------------------------------

ratings_st = st.floats(min_value=-2000, max_value=2000, allow_nan=False)
events = st.builds(
    EventContext,
    coaches=st.integers(min_value=1, max_value=500),
    major=st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(ratings_st, ratings_st, st.sampled_from([(1, 2), (1, 1), (2, 1)]), events)
def test_zero_sum_finite_and_bounded(
    r_a: float, r_b: float, ranks: tuple[int, int], event: EventContext
) -> None:
    outcome = rate(list(ranks), [r_a, r_b], event)
    values = deltas(outcome)
    assert all(math.isfinite(c.after.rating) for c in outcome.changes)
    assert sum(values) == pytest.approx(0.0, abs=1e-9)
    assert abs(values[0]) <= 2 * math.sqrt(60) + 1e-9


@settings(max_examples=200, deadline=None)
@given(ratings_st, ratings_st, events)
def test_win_beats_draw_beats_loss(r_a: float, r_b: float, event: EventContext) -> None:
    win = deltas(rate([1, 2], [r_a, r_b], event))[0]
    draw = deltas(rate([1, 1], [r_a, r_b], event))[0]
    loss = deltas(rate([2, 1], [r_a, r_b], event))[0]
    assert win >= draw >= loss
    assert win > loss
