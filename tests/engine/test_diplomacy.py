"""Shared Diplomacy input rules (app/engine/diplomacy.py; SYSTEMS.md "Diplomacy game systems")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.engine.diplomacy import POWERS, canonical_power, read_game
from app.engine.errors import InvalidEvent
from app.engine.types import Game, Participant

PLAYED_AT = datetime(1986, 8, 1, tzinfo=UTC)


def game(
    rows: list[tuple[str, int, int] | tuple[str, int, int, int | None]],
    end_year: int | None = 1909,
) -> Game:
    """rows: (faction, centres, rank[, eliminated_in]); players are p0, p1, ..."""
    participants = []
    for i, row in enumerate(rows):
        faction, centres, rank = row[0], row[1], row[2]
        eliminated_in = row[3] if len(row) > 3 else None
        participants.append(
            Participant(
                player=f"p{i}",
                rank=rank,
                faction=faction,
                centres=centres,
                eliminated_in=eliminated_in,
            )
        )
    return Game(played_at=PLAYED_AT, participants=tuple(participants), end_year=end_year)


def full_draw() -> list[tuple[str, int, int] | tuple[str, int, int, int | None]]:
    """A valid seven-player 3-way draw (17-16-1, four eliminated)."""
    return [
        ("F", 17, 1),
        ("Germany", 16, 1),
        ("italy", 1, 1),
        ("A", 0, 2, 1905),
        ("E", 0, 2, 1906),
        ("R", 0, 2, 1907),
        ("T", 0, 2, 1908),
    ]


def expect(g: Game, loc: tuple[str | int, ...], words: str, **kw: bool) -> None:
    with pytest.raises(InvalidEvent) as err:
        read_game(g, min_players=2, max_players=7, **kw)
    assert err.value.loc == loc
    assert words in err.value.message


@pytest.mark.parametrize(
    ("given", "power"),
    [
        ("A", "Austria"),
        ("e", "England"),
        ("F", "France"),
        ("G", "Germany"),
        ("I", "Italy"),
        ("R", "Russia"),
        ("T", "Turkey"),
        ("turkey", "Turkey"),
        (" France ", "France"),
        ("X", None),
        ("Prussia", None),
        ("", None),
        (None, None),
    ],
)
def test_canonical_power(given: str | None, power: str | None) -> None:
    assert canonical_power(given) == power


def test_powers_are_the_seven_great_powers() -> None:
    assert POWERS == ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def test_valid_game_reads_canonical_powers_in_input_order() -> None:
    dip = read_game(game(full_draw()), min_players=7, max_players=7)
    assert [p.power for p in dip.players] == [
        "France",
        "Germany",
        "Italy",
        "Austria",
        "England",
        "Russia",
        "Turkey",
    ]
    assert dip.W == 3
    assert not dip.solo
    assert [p.index for p in dip.players] == list(range(7))


def test_player_count() -> None:
    rows = full_draw()[:6]
    with pytest.raises(InvalidEvent) as err:
        read_game(game(rows), min_players=7, max_players=7)
    assert err.value.loc == ("players",)
    assert "exactly 7" in err.value.message
    with pytest.raises(InvalidEvent) as err:
        read_game(game([("F", 18, 1)]), min_players=2, max_players=7)
    assert "2 to 7" in err.value.message


def test_faction_required_and_known() -> None:
    expect(game([("F", 18, 1), (None, 0, 2)]), ("players", 1, "faction"), "required")  # type: ignore[list-item]
    expect(game([("F", 18, 1), ("Prussia", 0, 2)]), ("players", 1, "faction"), "unknown power")


def test_each_power_once() -> None:
    expect(game([("F", 18, 1), ("France", 0, 2)]), ("players", 1, "faction"), "once")


def test_centres_required_and_in_range() -> None:
    expect(game([("F", 18, 1), ("G", None, 2)]), ("players", 1, "centres"), "required")  # type: ignore[list-item]
    expect(game([("F", 18, 1), ("G", -1, 2)]), ("players", 1, "centres"), "0 to 34")
    expect(game([("F", 35, 1), ("G", 0, 2)]), ("players", 0, "centres"), "0 to 34")


def test_centres_sum_to_at_most_34() -> None:
    expect(game([("F", 18, 1), ("G", 16, 2), ("I", 1, 2)]), ("players",), "at most 34, got 35")
    read_game(game([("F", 18, 1), ("G", 16, 2)]), min_players=2, max_players=7)


def test_someone_has_rank_1() -> None:
    expect(game([("F", 10, 2), ("G", 10, 3)]), ("players",), "rank 1")


def test_solo_needs_18_centres() -> None:
    expect(game([("F", 17, 1), ("G", 16, 2)]), ("players", 0, "centres"), "at least 18")


def test_player_with_18_centres_is_the_only_winner() -> None:
    # 18 centres in a draw, or 18 centres while someone else is rank 1: both contradictions.
    expect(game([("F", 18, 1), ("G", 16, 1)]), ("players", 0, "rank"), "18 or more")
    expect(game([("F", 18, 2), ("G", 10, 1), ("I", 6, 1)]), ("players", 0, "rank"), "18 or more")


def test_eliminated_player_has_zero_centres() -> None:
    expect(game([("F", 18, 1), ("G", 3, 2, 1905)]), ("players", 1, "centres"), "0 centres, got 3")


def test_winner_cannot_be_eliminated() -> None:
    expect(game([("F", 17, 1), ("G", 0, 1, 1905)]), ("players", 1, "rank"), "cannot be eliminated")
    expect(game([("F", 17, 1), ("G", 0, 1)]), ("players", 1, "rank"), "cannot be eliminated")


def test_elimination_year_range() -> None:
    expect(game([("F", 18, 1), ("G", 0, 2, 1900)]), ("players", 1, "eliminated_in"), "from 1901")
    expect(
        game([("F", 18, 1), ("G", 0, 2, 1910)], end_year=1909),
        ("players", 1, "eliminated_in"),
        "after the game's end_year",
    )
    # Without end_year only the lower bound applies; the boundaries themselves are valid.
    read_game(game([("F", 18, 1), ("G", 0, 2, 1930)], end_year=None), min_players=2, max_players=7)
    read_game(game([("F", 18, 1), ("G", 0, 2, 1901)]), min_players=2, max_players=7)
    read_game(game([("F", 18, 1), ("G", 0, 2, 1909)], end_year=1909), min_players=2, max_players=7)


def test_end_year_not_before_start() -> None:
    expect(game([("F", 18, 1), ("G", 0, 2)], end_year=1900), ("end_year",), "from 1901")


def test_zero_centres_without_year() -> None:
    g = game([("F", 18, 1), ("G", 0, 2)])
    read_game(g, min_players=2, max_players=7)  # accepted by default (NADF)
    with pytest.raises(InvalidEvent) as err:
        read_game(g, min_players=2, max_players=7, zero_centres_need_elimination=True)
    assert err.value.loc == ("players", 1, "eliminated_in")


def test_start_year_parameter_moves_the_bound() -> None:
    g = game([("F", 18, 1), ("G", 0, 2, 1905)], end_year=1909)
    with pytest.raises(InvalidEvent) as err:
        read_game(g, min_players=2, max_players=7, start_year=1906)
    assert err.value.loc == ("players", 1, "eliminated_in")
