"""Places with ties, N, and the validation common to tournament standings (placements.py)."""

from __future__ import annotations

from datetime import date

import pytest

from app.engine.errors import InvalidEvent
from app.engine.placements import (
    TIES_AVERAGE,
    TIES_SHARED,
    Place,
    places,
    player_count,
    validate_centres,
    validate_rounds,
    validate_standings,
)
from app.engine.types import Placement, Tournament


def event(ranks: list[int], rounds: int = 3, centres: list[int | None] | None = None) -> Tournament:
    cs = centres if centres is not None else [None] * len(ranks)
    return Tournament(
        held_on=date(2012, 8, 4),
        rounds=rounds,
        standings=tuple(
            Placement(player=f"p{i}", rank=r, centres=c)
            for i, (r, c) in enumerate(zip(ranks, cs, strict=True))
        ),
    )


def test_places_of_a_tie_group_in_input_order() -> None:
    t = event([7, 1, 7, 7, 2, 3, 4, 5, 6, 10])
    got = places(t.standings)
    assert got[0] == Place(rank=7, tied=3)
    assert got[1] == Place(rank=1, tied=1)
    assert player_count(t.standings) == 10


def test_shared_and_average_place() -> None:
    p = Place(rank=7, tied=3)  # 7th of 33 three times, seed 000's table
    assert list(p.occupied) == [7, 8, 9]
    assert p.value(TIES_SHARED) == 7
    assert p.value(TIES_AVERAGE) == pytest.approx((7 + 8 + 9) / 3, abs=1e-12)


def test_mean_over_the_occupied_places() -> None:
    assert Place(rank=2, tied=2).mean_over(lambda k: 10 / k) == pytest.approx(
        (10 / 2 + 10 / 3) / 2, abs=1e-12
    )


def test_valid_competition_ranking_passes() -> None:
    validate_standings(event([1, 2, 2, 4, 5, 5, 5, 8]))
    validate_standings(event([4, 1, 2, 2]))  # order of input does not matter


def test_fewer_than_two_players_is_refused() -> None:
    with pytest.raises(InvalidEvent) as err:
        validate_standings(event([1]))
    assert err.value.loc == ("standings",)
    assert "at least 2" in err.value.message


def test_rank_below_one_is_refused() -> None:
    with pytest.raises(InvalidEvent) as err:
        validate_standings(event([1, 0]))
    assert err.value.loc == ("standings", 1, "rank")


def test_dense_ranks_are_refused() -> None:
    with pytest.raises(InvalidEvent) as err:
        validate_standings(event([1, 2, 2, 3]))
    assert err.value.loc == ("standings", 3, "rank")
    assert "should be 4" in err.value.message


def test_a_gap_is_refused() -> None:
    with pytest.raises(InvalidEvent) as err:
        validate_standings(event([1, 3]))
    assert err.value.loc == ("standings", 1, "rank")


def test_a_player_twice_is_refused() -> None:
    t = Tournament(
        held_on=date(2012, 8, 4),
        rounds=1,
        standings=(Placement("a", 1), Placement("a", 2)),
    )
    with pytest.raises(InvalidEvent) as err:
        validate_standings(t)
    assert err.value.loc == ("standings", 1, "player")


def test_rounds_at_least_one() -> None:
    validate_rounds(event([1, 2], rounds=1))
    with pytest.raises(InvalidEvent) as err:
        validate_rounds(event([1, 2], rounds=0))
    assert err.value.loc == ("rounds",)


def test_centres_required_and_in_range() -> None:
    validate_centres(event([1, 2], centres=[34, 0]), 34)
    with pytest.raises(InvalidEvent) as err:
        validate_centres(event([1, 2], centres=[10, None]), 34)
    assert err.value.loc == ("standings", 1, "centres")
    with pytest.raises(InvalidEvent) as err:
        validate_centres(event([1, 2], centres=[35, 0]), 34)
    assert err.value.loc == ("standings", 0, "centres")
    with pytest.raises(InvalidEvent):
        validate_centres(event([1, 2], centres=[-1, 0]), 34)
