"""The authorization matrix: every route x every kind of caller -> the expected status,
and nothing changed by any refused request."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.main import create_app
from app.services.auth import RATE_WINDOW_SECONDS
from tests.conftest import AUTH, make_settings
from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

READ, WRITE, ADMIN_SCOPE = "read", "results:write", "ladders:admin"
KEYS = "keys"  # admin token only
OPEN = "open"


def _game(game_id: str, minutes: int) -> dict[str, Any]:
    return game("club", game_id, {"a": 1, "b": 2}, minutes=minutes)


# (method, path, body, scope, touches the ladder "club")
ROUTES: list[tuple[str, str, Any, str, bool]] = [
    ("GET", "/healthz", None, OPEN, False),
    ("GET", "/readyz", None, OPEN, False),
    ("GET", "/metrics", None, OPEN, False),
    ("GET", "/systems", None, READ, False),
    ("GET", "/systems/elo", None, READ, False),
    ("GET", "/ladders/club", None, READ, True),
    ("GET", "/ladders/club/leaderboard", None, READ, True),
    ("GET", "/ladders/club/players/a", None, READ, True),
    ("GET", "/ladders/club/players/a/history", None, READ, True),
    ("GET", "/ladders/club/games/g1", None, READ, True),
    ("GET", "/ladders/club/games", None, READ, True),
    ("GET", "/ladders/club/tournaments", None, READ, True),
    ("GET", "/ladders/club/players", None, READ, True),
    ("GET", "/players/a", None, READ, False),
    ("PUT", "/players/a", {"name": "Ann", "country": "FR"}, ADMIN_SCOPE, False),
    ("POST", "/predictions", {"ladder": "club", "players": [{"player": "a"}, {"player": "b"}]},
     READ, True),
    ("POST", "/ladders/club/whatif", {"system": "elo"}, READ, True),
    ("POST", "/games", _game("g2", 5), WRITE, True),
    ("POST", "/games/batch", {"games": [_game("g3", 6)]}, WRITE, True),
    ("PUT", "/ladders/club/games/g1", _game("g1", 1), WRITE, True),
    ("PUT", "/ladders/club/players/a", {"rating": 1700, "at": at(30)}, ADMIN_SCOPE, True),
    ("PATCH", "/ladders/club", {"title": "Club"}, ADMIN_SCOPE, True),
    ("POST", "/ladders", {"id": "club-two", "system": "elo"}, ADMIN_SCOPE, True),
    ("DELETE", "/ladders/club/games/g1", None, WRITE, True),
    ("POST", "/ladders/club/seasons", {"id": "s1", "starts_at": at(-600)}, ADMIN_SCOPE, True),
    ("GET", "/ladders/club/seasons", None, READ, True),
    ("PUT", "/ladders/club/seasons/s1", {"id": "s1", "starts_at": at(-500)}, ADMIN_SCOPE, True),
    ("GET", "/ladders/club/seasons/s1", None, READ, True),
    ("GET", "/ladders/club/leaderboard?season=s1", None, READ, True),
    ("DELETE", "/ladders/club/seasons/s1", None, ADMIN_SCOPE, True),
    ("GET", "/keys", None, KEYS, False),
]  # fmt: skip


async def _snapshot(database: Database) -> tuple[Any, ...]:
    with database.engine.connect() as connection:
        return tuple(
            connection.execute(text(sql)).one()
            for sql in (
                "SELECT COUNT(*) FROM ladders",
                "SELECT COUNT(*), COUNT(voided_at) FROM events",
                "SELECT COUNT(*), COALESCE(SUM(rating_after), 0) FROM changes",
                "SELECT COUNT(*), COALESCE(SUM(rating), 0) FROM player_ratings",
                "SELECT COUNT(*), COUNT(revoked_at) FROM api_keys",
                "SELECT COUNT(*), COUNT(name) FROM player_profiles",
                "SELECT title FROM ladders WHERE id = 'club'",
                "SELECT seasons FROM ladders WHERE id = 'club'",
            )
        )


async def _key(client: httpx.AsyncClient, scopes: list[str], ladders: list[str]) -> dict[str, Any]:
    response = await client.post("/keys", json={"name": "k", "scopes": scopes, "ladders": ladders})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def test_authorization_matrix(client: httpx.AsyncClient, database: Database) -> None:
    await make_ladder(client, "club", "fundox")
    await make_ladder(client, "other", "fundox")
    await post_game(client, _game("g1", 1))
    everything = [READ, WRITE, ADMIN_SCOPE]
    right = (await _key(client, everything, ["club", "club-two"]))["key"]
    other_ladder = (await _key(client, everything, ["other"]))["key"]
    revoked = await _key(client, everything, ["*"])
    assert (await client.delete(f"/keys/{revoked['id']}")).status_code == 200
    expired = await _key(client, everything, ["*"])
    with database.engine.begin() as connection:
        connection.execute(
            text("UPDATE api_keys SET expires_at = :t WHERE id = :id"),
            {"t": datetime.now(UTC) - timedelta(seconds=1), "id": expired["id"]},
        )
    only = {scope: (await _key(client, [scope], ["*"]))["key"] for scope in everything}

    app = create_app(make_settings(), database=database)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://ratings.test") as anon:

        async def call(method: str, path: str, body: Any, token: str | None) -> int:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            response = await anon.request(method, path, json=body, headers=headers)
            assert response.headers["content-type"].startswith("application/") or (
                path == "/metrics"
            )
            return response.status_code

        for method, path, body, scope, on_ladder in ROUTES:
            if scope == OPEN:
                assert await call(method, path, body, None) == 200, path
                continue
            refused: list[tuple[str | None, int]] = [
                (None, 401),
                ("garbage", 401),
                ("rk_000000000000_forged", 401),
                (revoked["key"], 401),
                (expired["key"], 401),
            ]
            if scope == KEYS:
                refused.append((right, 403))
            else:
                wrong_scope = next(only[s] for s in everything if s != scope)
                refused.append((wrong_scope, 403))
                if on_ladder:
                    refused.append((other_ladder, 404 if method != "POST" or path != "/ladders"
                                    else 403))  # fmt: skip
            for token, expected in refused:
                before = await _snapshot(database)
                status = await call(method, path, body, token)
                assert status == expected, (method, path, token, status)
                assert await _snapshot(database) == before, (method, path, token)
            token = ADMIN_TOKEN_VALUE if scope == KEYS else right
            status = await call(method, path, body, token)
            assert 200 <= status < 300, (method, path, status)


ADMIN_TOKEN_VALUE = AUTH["Authorization"].removeprefix("Bearer ")


async def test_key_is_shown_once_and_stored_hashed(
    client: httpx.AsyncClient, database: Database
) -> None:
    created = await _key(client, [READ], ["*"])
    assert created["key"].startswith("rk_")
    listed = (await client.get("/keys")).json()["keys"]
    assert "key" not in listed[0]
    with database.engine.connect() as connection:
        stored = connection.execute(text("SELECT secret_hash FROM api_keys")).scalar_one()
    assert created["key"] not in stored
    assert len(stored) == 64


async def test_limited_key_lists_only_its_ladders(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "fundox")
    await make_ladder(client, "other", "fundox")
    key = (await _key(client, [READ], ["club"]))["key"]
    response = await client.get("/ladders", headers={"Authorization": f"Bearer {key}"})
    assert [lad["id"] for lad in response.json()["ladders"]] == ["club"]


async def test_rate_limit_is_shared_by_replicas(
    client: httpx.AsyncClient, database: Database
) -> None:
    """Two replicas on one database share each key's count: the 4th request of a minute,
    whichever replica serves it, is a 429 with Retry-After."""
    await make_ladder(client, "club", "fundox")
    limit = 3
    replicas = [
        create_app(make_settings(rate_limit_per_minute=limit), database=database) for _ in range(2)
    ]
    for _attempt in range(2):  # a second try if the minute rolled over mid-run
        key = (await _key(client, [READ], ["*"]))["key"]
        window = int(time.time() // RATE_WINDOW_SECONDS)
        responses = []
        for index in range(limit + 2):
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=replicas[index % 2]),
                base_url="http://ratings.test",
            ) as http:
                responses.append(
                    await http.get("/ladders/club", headers={"Authorization": f"Bearer {key}"})
                )
        if int(time.time() // RATE_WINDOW_SECONDS) == window:
            break
    assert [r.status_code for r in responses] == [200] * limit + [429, 429]
    assert 1 <= int(responses[-1].headers["retry-after"]) <= RATE_WINDOW_SECONDS + 1
    assert responses[-1].headers["content-type"] == "application/problem+json"
