"""A replay reads stored team games (and weights) directly too: the direct reading must equal
the validated conversion, and must be the one taken for the bodies the service stores."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.types import FULL_WEIGHT
from app.schemas.events import GameIn
from app.services.conversion import GAME, _stored_game, stored_to_engine
from tests.services.test_stored_conversion import _validated

TEAM_BODIES: list[dict[str, Any]] = [
    {
        "id": "t1",
        "played_at": "2026-01-02T03:04:05Z",
        "teams": [
            {"team": "red", "rank": 1, "players": [{"player": "a"}, {"player": "b"}]},
            {"team": "blue", "rank": 2, "players": [{"player": "c"}, {"player": "d"}]},
        ],
    },
    {
        # Labels left to their defaults, a tie, weights, factions and the game's own fields.
        "id": "t2",
        "played_at": "2026-01-02T03:04:05.5+02:00",
        "rated": False,
        "tournament": "cup",
        "event": {"coaches": 12},
        "teams": [
            {"rank": 2, "players": [{"player": "a", "weight": 0.5, "faction": "Orc"}]},
            {"rank": 2, "players": [{"player": "b"}, {"player": "c", "weight": 1}]},
            {"rank": 1, "players": [{"player": "d", "weight": 0.25}]},
        ],
    },
    {
        # The free-for-all form with a weight.
        "id": "w1",
        "played_at": "2026-01-02T03:04:05Z",
        "players": [{"player": "a", "rank": 1, "weight": 0.75}, {"player": "b", "rank": 2}],
    },
]


def _stored(raw: dict[str, Any]) -> dict[str, Any]:
    """What the service stores: the validated request body, dumped as JSON values."""
    return GameIn.model_validate({**raw, "ladder": "l"}).model_dump(mode="json", by_alias=True)


@pytest.mark.parametrize("raw", TEAM_BODIES)
def test_stored_team_games_are_read_directly_and_equal_the_validated_conversion(
    raw: dict[str, Any],
) -> None:
    stored = _stored(raw)
    direct = _stored_game(stored)
    assert direct is not None  # the direct reading took it
    assert direct == _validated(stored)
    assert stored_to_engine(GAME, stored, False) == direct


def test_the_direct_reading_keeps_sides_labels_and_weights() -> None:
    direct = _stored_game(_stored(TEAM_BODIES[1]))
    assert direct is not None
    assert [(p.player, p.team, p.rank, p.weight) for p in direct.participants] == [
        ("a", "1", 2, 0.5),
        ("b", "2", 2, FULL_WEIGHT),
        ("c", "2", 2, 1.0),
        ("d", "3", 1, 0.25),
    ]
    assert [len(side.members) for side in direct.sides] == [1, 2, 1]


@pytest.mark.parametrize(
    "odd",
    [
        # A label missing (bodies are stored with labels filled in): validation fills it.
        {"teams": [{"rank": 1, "players": [{"player": "a"}]},
                   {"rank": 2, "players": [{"player": "b"}]}]},
        # Both forms, or an unknown key in a side or a member: validation refuses.
        {"players": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}]},
        {"teams": [{"team": "x", "rank": 1, "size": 1, "players": [{"player": "a"}]},
                   {"team": "y", "rank": 2, "players": [{"player": "b"}]}]},
        {"teams": [{"team": "x", "rank": 1, "players": [{"player": "a", "centres": 3}]},
                   {"team": "y", "rank": 2, "players": [{"player": "b"}]}]},
        # A weight that is not a number: validation refuses.
        {"teams": [{"team": "x", "rank": 1, "players": [{"player": "a", "weight": True}]},
                   {"team": "y", "rank": 2, "players": [{"player": "b"}]}]},
    ],
)  # fmt: skip
def test_team_bodies_of_another_shape_go_through_validation(odd: dict[str, Any]) -> None:
    body = {**_stored(TEAM_BODIES[0]), **odd}
    assert _stored_game(body) is None
    try:
        expected: Any = _validated(body)
    except Exception as exc:  # the validated path refuses it: so must stored_to_engine
        with pytest.raises(type(exc)):
            stored_to_engine(GAME, body, False)
        return
    assert stored_to_engine(GAME, body, False) == expected
