"""A write's API key is verified, checked and counted inside the write's own transaction
(docs/architecture.md, "The write path"): the limit holds exactly across replicas and
concurrent groups, every request of a key counts once whatever becomes of it, and each caller
of a group commit gets its own answer."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.core.errors import Forbidden, NotFound, Unauthorized
from app.main import create_app
from app.schemas.events import GameIn
from app.services import auth
from app.services.auth import RATE_WINDOW_SECONDS
from app.services.events import new_game_event
from app.services.group_commit import record_group
from app.services.unit_of_work import Created
from tests.conftest import ADMIN_TOKEN, make_settings
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio


async def _key(client: httpx.AsyncClient, scopes: list[str], ladders: list[str]) -> str:
    body = {"name": "site", "scopes": scopes, "ladders": ladders}
    response = await client.post("/keys", json=body)
    assert response.status_code == 201, response.text
    key: str = response.json()["key"]
    return key


def _window_count(database: Database) -> int:
    with database.engine.connect() as connection:
        counted = connection.execute(text("SELECT COALESCE(SUM(count), 0) FROM rate_windows"))
        return int(counted.scalar_one())


def _replica(database: Database, **settings: Any) -> httpx.AsyncClient:
    app = create_app(make_settings(**settings), database=database)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://r.test")


async def test_concurrent_keyed_games_on_two_replicas_stop_exactly_at_the_limit(
    client: httpx.AsyncClient, database: Database
) -> None:
    """Twelve games at once, half through each replica, from a key allowed five a minute:
    exactly five are recorded, the others are 429, and the window counts five."""
    await make_ladder(client, "club", "elo")
    limit, sent = 5, 12
    for _attempt in range(2):  # again if the minute rolled over mid-run
        key = await _key(client, ["results:write"], ["club"])
        window = int(time.time() // RATE_WINDOW_SECONDS)
        headers = {"Authorization": f"Bearer {key}"}
        replicas = [_replica(database, rate_limit_per_minute=limit) for _ in range(2)]
        async with replicas[0] as one, replicas[1] as two:
            answers = await asyncio.gather(
                *(
                    (one, two)[n % 2].post(
                        "/games",
                        json=game("club", f"k{_attempt}-{n}", {f"p{n}": 1, f"q{n}": 2}, n),
                        headers=headers,
                    )
                    for n in range(sent)
                )
            )
        if int(time.time() // RATE_WINDOW_SECONDS) == window:
            break
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] * limit + [429] * (sent - limit), [a.text for a in answers]
    assert all("retry-after" in a.headers for a in answers if a.status_code == 429)
    stored = [a.json()["id"] for a in answers if a.status_code == 201]
    for game_id in stored:
        assert (await client.get(f"/ladders/club/games/{game_id}")).status_code == 200


async def test_every_request_of_a_key_counts_once_whatever_becomes_of_it(
    client: httpx.AsyncClient, database: Database
) -> None:
    """A conflict (409), another ladder (404), an invalid body (422), a late game (handed
    back by its group and written on its own) and a new game each count one request: the
    limit of five is then reached, and the next game is refused without counting."""
    await make_ladder(client, "club", "elo")
    await make_ladder(client, "other", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, 10))
    async with _replica(database, rate_limit_per_minute=5) as http:
        for _attempt in range(2):
            key = await _key(client, ["results:write"], ["club"])
            before = _window_count(database)
            window = int(time.time() // RATE_WINDOW_SECONDS)
            headers = {"Authorization": f"Bearer {key}"}
            sent = [
                game("club", "g1", {"a": 2, "b": 1}, 10),  # another body: 409
                game("other", "o1", {"a": 1, "b": 2}, 10),  # not its ladder: 404
                {**game("club", "bad", {"a": 1, "b": 2}, 11), "players": []},  # 422
                game("club", f"late{_attempt}", {"a": 1, "c": 2}, 5 - _attempt),  # late
                game("club", f"new{_attempt}", {"d": 1, "e": 2}, 20),
                game("club", f"over{_attempt}", {"f": 1, "g": 2}, 30),  # past the limit
            ]
            statuses = [
                (await http.post("/games", json=b, headers=headers)).status_code for b in sent
            ]
            counted = _window_count(database) - before
            if int(time.time() // RATE_WINDOW_SECONDS) == window:
                break
    assert statuses == [409, 404, 422, 201, 201, 429]
    assert counted == 5


async def test_a_key_revoked_on_one_replica_is_refused_at_once_by_another(
    client: httpx.AsyncClient, database: Database
) -> None:
    """Revocation is exact (app/services/auth.py): a replica that has just written with a key
    refuses the key's next game once another replica revoked it, and stores nothing."""
    await make_ladder(client, "club", "elo")
    created = await client.post(
        "/keys", json={"name": "site", "scopes": ["results:write"], "ladders": ["club"]}
    )
    key_id, headers = created.json()["id"], {"Authorization": f"Bearer {created.json()['key']}"}
    async with _replica(database) as writer:
        first = await writer.post(
            "/games", json=game("club", "r1", {"a": 1, "b": 2}, 1), headers=headers
        )
        assert first.status_code == 201, first.text
        assert (await client.delete(f"/keys/{key_id}")).status_code == 200  # the other replica
        again = await writer.post(
            "/games", json=game("club", "r2", {"a": 1, "b": 2}, 2), headers=headers
        )
    assert again.status_code == 401, again.text
    assert "revoked" in again.json()["detail"]
    assert (await client.get("/ladders/club/games/r2")).status_code == 404


async def test_each_caller_of_a_group_gets_its_own_answer(
    client: httpx.AsyncClient, database: Database
) -> None:
    """One group, four callers: the admin and a valid key are recorded; an unknown key is
    401, a read-only key 403, a key limited to another ladder 404."""
    await make_ladder(client, "club", "elo")
    secret = auth.hashing_secret(ADMIN_TOKEN, None)

    def claim(token: str) -> auth.Caller:
        return auth.claim(ADMIN_TOKEN, secret, token, auth.RESULTS_WRITE, 0)

    writer = claim(await _key(client, ["results:write"], ["club"]))
    reader = claim(await _key(client, ["read"], ["club"]))
    elsewhere = claim(await _key(client, ["results:write"], ["other"]))
    unknown = claim("rk_000000000000_" + "x" * 43)
    callers = [auth.ADMIN, unknown, reader, elsewhere, writer]
    items = [
        new_game_event(GameIn.model_validate(game("club", f"g{n}", {f"a{n}": 1, f"b{n}": 2}, n)))
        for n in range(len(callers))
    ]
    results = record_group(database, "club", items, callers)
    assert [type(result) for result in results] == [
        Created,
        Unauthorized,
        Forbidden,
        NotFound,
        Created,
    ]
    for n, stored in ((0, 200), (1, 404), (2, 404), (3, 404), (4, 200)):
        assert (await client.get(f"/ladders/club/games/g{n}")).status_code == stored


async def test_a_rate_limited_caller_is_told_its_window(
    client: httpx.AsyncClient, database: Database
) -> None:
    """RateLimit-Limit, -Remaining and -Reset on every answer to a key (API.md "Clients"),
    its writes included; none for the admin token, which has no limit."""
    await make_ladder(client, "club", "elo")
    async with _replica(database, rate_limit_per_minute=5) as http:
        for _attempt in range(2):
            key = await _key(client, ["results:write", "read"], ["club"])
            window = int(time.time() // RATE_WINDOW_SECONDS)
            headers = {"Authorization": f"Bearer {key}"}
            answers = [
                await http.post(
                    "/games",
                    json=game("club", f"r{_attempt}", {"a": 1, "b": 2}, 1),
                    headers=headers,
                ),
                await http.get("/ladders/club/leaderboard", headers=headers),
                await http.post("/games", json={"ladder": "club"}, headers=headers),  # 422
            ]
            if int(time.time() // RATE_WINDOW_SECONDS) == window:
                break
    assert [a.status_code for a in answers] == [201, 200, 422]
    assert [a.headers["ratelimit-limit"] for a in answers] == ["5", "5", "5"]
    assert [a.headers["ratelimit-remaining"] for a in answers] == ["4", "3", "2"]
    assert all(1 <= int(a.headers["ratelimit-reset"]) <= RATE_WINDOW_SECONDS + 1 for a in answers)
    assert "ratelimit-limit" not in (await client.get("/ladders/club")).headers
