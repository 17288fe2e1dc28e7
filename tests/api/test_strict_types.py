"""Types are strict (issue 40, item 8; API.md "Conventions"): a value of the wrong JSON type is
a 422 naming the field and repeating what was sent, never converted, and nothing is stored.
Time errors echo the text received, and say when a query string's "+" arrived as a space."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.helpers import at, game, make_ladder

pytestmark = pytest.mark.anyio


def _refused(response: httpx.Response) -> list[tuple[list[Any], str]]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return [(e["loc"], e["msg"]) for e in response.json()["errors"]]


def _with(body: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """``body`` with the value at ``path`` replaced (a deep copy along the path)."""
    head, *rest = path
    copy: Any = list(body) if isinstance(body, list) else dict(body)
    copy[head] = value if not rest else _with(body[head], tuple(rest), value)  # type: ignore[index]
    return copy  # type: ignore[no-any-return]


GAME = {
    **game("club", "g1", {"ann": 1, "bob": 2}),
    "event": {"id": "cup", "coaches": 48, "major": False},
}


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("players", 0, "rank"), "1", 'Input should be a valid integer, got the string "1"'),
        (("players", 0, "rank"), 1.0, "Input should be a valid integer, got the number 1.0"),
        (("players", 0, "rank"), True, "Input should be a valid integer, got the boolean true"),
        (("rated",), "true", 'Input should be a valid boolean, got the string "true"'),
        (("rated",), 1, "Input should be a valid boolean, got the number 1"),
        (("event", "coaches"), "48", 'Input should be a valid integer, got the string "48"'),
        (("event", "major"), "false", 'Input should be a valid boolean, got the string "false"'),
        (("players", 1, "player"), 7, "Input should be a valid string, got the number 7"),
        (("players",), {"ann": 1}, "Input should be a valid list, got an object"),
    ],
)
async def test_a_wrong_json_type_in_a_game_is_refused_naming_the_field_and_the_value(
    client: httpx.AsyncClient, path: tuple[str | int, ...], value: Any, message: str
) -> None:
    await make_ladder(client, "club", "elo")
    response = await client.post("/games", json=_with(GAME, path, value))
    assert _refused(response) == [(list(path), message)]
    assert (await client.get("/ladders/club/games/g1")).status_code == 404
    # The same body in a batch names the game too.
    batch = await client.post("/games/batch", json={"games": [_with(GAME, path, value)]})
    assert _refused(batch) == [(["games", 0, *path], message)]
    # The well-typed body is recorded.
    assert (await client.post("/games", json=GAME)).status_code == 201


async def test_tournaments_adjustments_and_ladders_are_strict_too(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "wdd", "dptr")
    standings = [{"player": "ann", "rank": 1}, {"player": "bob", "rank": "2"}]
    body = {"ladder": "wdd", "id": "t1", "held_on": "2026-11-01", "standings": standings}
    assert _refused(await client.post("/tournaments", json=body)) == [
        (["standings", 1, "rank"], 'Input should be a valid integer, got the string "2"')
    ]
    numbered = {**body, "standings": [*standings[:1], {"player": "bob", "rank": 2}]}
    for field, value, rule in (
        ("rounds", "3", 'Input should be a valid integer, got the string "3"'),
        ("held_on", 20261101, "must be an ISO date, e.g. 2012-08-04, got 20261101"),
    ):
        refused = await client.post("/tournaments", json={**numbered, field: value})
        assert _refused(refused) == [([field], rule)]
    assert (await client.post("/tournaments", json=numbered)).status_code == 201

    await make_ladder(client, "club", "elo")
    adjusted = await client.put("/ladders/club/players/ann", json={"rating": "1700"})
    assert _refused(adjusted) == [
        (["rating"], 'Input should be a valid number, got the string "1700"')
    ]
    # A whole number where any number is expected is a number.
    assert (await client.put("/ladders/club/players/ann", json={"rating": 1700})).status_code == 200
    ladder = await client.post("/ladders", json={"id": "x", "system": "elo", "title": 5})
    assert _refused(ladder) == [(["title"], "Input should be a valid string, got the number 5")]
    # A system's parameters were strict already (the engine checks them).
    params = await client.post("/ladders", json={"id": "x", "system": "elo", "params": {"k": "32"}})
    assert _refused(params) == [(["params", "k"], "must be a number")]


async def test_time_errors_echo_what_was_received(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    for sent, rule in (
        (
            "2026-11-01T10:00:00",
            "must carry a timezone (RFC 3339, e.g. 2026-11-29T10:00:00Z), "
            "got '2026-11-01T10:00:00'",
        ),
        (
            "2026-11-01T10:00:00 01:00",
            "must be an RFC 3339 time, e.g. 2026-11-29T10:00:00Z, got '2026-11-01T10:00:00 01:00'",
        ),
        (1700000000, "must be an RFC 3339 time, e.g. 2026-11-29T10:00:00Z, got 1700000000"),
    ):
        response = await client.post("/games", json={**GAME, "played_at": sent})
        assert _refused(response) == [(["played_at"], rule)]
    # In a query string an unescaped "+" arrives as a space: the error says how to send it.
    response = await client.get("/ladders/club/leaderboard?as_of=2026-12-01T20:00:00+01:00")
    assert _refused(response) == [
        (
            ["query", "as_of"],
            "must be an RFC 3339 time, e.g. 2026-11-29T10:00:00Z, got '2026-12-01T20:00:00 01:00'"
            " — a '+' in a query string must be sent as %2B",
        )
    ]
    escaped = await client.get(
        "/ladders/club/leaderboard", params={"as_of": "2026-12-01T20:00:00+01:00"}
    )
    assert escaped.status_code == 200, escaped.text
    naive = await client.get("/ladders/club/games", params={"from": at(0).rstrip("Z")})
    assert _refused(naive) == [
        (
            ["query", "from"],
            f"must carry a timezone, e.g. 2026-11-29T10:00:00Z, got {at(0).rstrip('Z')!r}",
        )
    ]
