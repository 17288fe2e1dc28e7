"""A replay reads stored game bodies directly; it must equal the validated conversion."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from app.schemas.events import GameBody, GameIn
from app.services.conversion import GAME, game_to_engine, stored_to_engine

BODIES: list[dict[str, Any]] = [
    {
        "id": "g1",
        "played_at": "2026-01-02T03:04:05Z",
        "players": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}],
    },
    {
        "id": "g2",
        "played_at": "2026-01-02T03:04:05.123456+02:00",
        "rated": False,
        "tournament": "t-1",
        "end_year": 1907,
        "event": {"id": "e1", "coaches": 48, "major": True},
        "players": [
            {"player": "a", "rank": 1, "faction": "France", "centres": 18},
            {"player": "b", "rank": 2, "faction": "Italy", "centres": 0, "eliminated_in": 1905},
            {"player": "c", "rank": 2, "faction": "Turkey", "centres": 16},
        ],
    },
    {
        "id": "g3",
        "played_at": "2026-06-30T23:59:59.000001Z",
        "event": {"coaches": 12},
        "players": [{"player": "x:1", "rank": 3}, {"player": "y@2", "rank": 3}],
    },
]


def _validated(body: dict[str, Any]) -> Any:
    return game_to_engine(
        GameBody.model_validate({k: v for k, v in body.items() if k not in ("ladder", "id")})
    )


@pytest.mark.parametrize("raw", BODIES)
@pytest.mark.parametrize("per_faction", [False, True])
def test_stored_games_read_directly_equal_the_validated_conversion(
    raw: dict[str, Any], per_faction: bool
) -> None:
    # What the service stores: the validated request body, dumped as JSON values.
    stored = GameIn.model_validate({**raw, "ladder": "l"}).model_dump(mode="json", by_alias=True)
    fast = stored_to_engine(GAME, stored, per_faction)
    assert fast == _validated(stored)
    assert fast.played_at.tzinfo is not None
    assert fast.played_at.utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    "odd",
    [
        {"unknown": 1},
        {"played_at": "2026-01-02T03:04:05+00:00", "rated": "yes"},
        {"players": [{"player": "a", "rank": 1.0}, {"player": "b", "rank": 2}]},
        {"event": {"coaches": "48"}},
    ],
)
def test_bodies_of_another_shape_go_through_validation(odd: dict[str, Any]) -> None:
    stored = GameIn.model_validate({**BODIES[0], "ladder": "l"}).model_dump(mode="json")
    body = {**stored, **odd}
    try:
        expected: Any = _validated(body)
    except Exception as exc:  # the validated path refuses it: so must stored_to_engine
        with pytest.raises(type(exc)):
            stored_to_engine(GAME, body, False)
        return
    assert stored_to_engine(GAME, body, False) == expected
