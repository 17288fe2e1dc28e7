"""A game's sides (SYSTEMS.md "Teams"): participants grouped by team label in input order, a
free-for-all being sides of one, and where each participant stands in the request body."""

from __future__ import annotations

from datetime import UTC, datetime

from app.engine.types import Game, Participant

PLAYED = datetime(2026, 11, 29, 10, tzinfo=UTC)


def test_a_free_for_all_is_sides_of_one() -> None:
    game = Game(PLAYED, (Participant("ann", 1), Participant("bob", 2), Participant("cat", 2)))
    assert [(s.team, s.rank, [m.player for m in s.members]) for s in game.sides] == [
        (None, 1, ["ann"]),
        (None, 2, ["bob"]),
        (None, 2, ["cat"]),
    ]
    assert not game.has_teams
    assert [game.where(i) for i in range(3)] == [("players", 0), ("players", 1), ("players", 2)]


def test_members_are_grouped_by_label_in_order_of_first_appearance() -> None:
    # Conversion writes a side's members together; the grouping does not depend on it.
    parts = (
        Participant("ann", 1, team="red"),
        Participant("cat", 2, team="blue"),
        Participant("bob", 1, team="red", weight=0.5),
        Participant("dan", 2, team="blue"),
    )
    game = Game(PLAYED, parts)
    assert [(s.team, s.rank, s.indices) for s in game.sides] == [
        ("red", 1, (0, 2)),
        ("blue", 2, (1, 3)),
    ]
    assert game.has_teams
    assert [game.where(i) for i in range(4)] == [
        ("teams", 0, "players", 0),
        ("teams", 1, "players", 0),
        ("teams", 0, "players", 1),
        ("teams", 1, "players", 1),
    ]
