"""A ladder's lifecycle: archived (read-only: every write is a 409 naming the rule, reads go
on) and deleted (the admin token only, ``?confirm=`` repeating its id; its whole history
goes, its community's profiles stay, and keys and webhooks limited to it forget it)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.main import create_app
from tests.api.test_community_isolation import _snapshot
from tests.conftest import AUTH, make_settings
from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

ARCHIVED = "ladder 'club' is archived, and an archived ladder is read-only"


async def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


async def test_an_archived_ladder_is_read_only(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    archived = await _ok(await client.patch("/ladders/club", json={"archived": True}))
    assert archived["archived_at"] is not None
    assert (await _ok(await client.get("/ladders/club")))["archived_at"] == archived["archived_at"]
    board = await _ok(await client.get("/ladders/club/leaderboard?active_within_days=0"))
    assert [(e["player"], e["rating"]) for e in board["entries"]] == [("a", 1516), ("b", 1484)]
    standings = [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}]
    tournament = {"ladder": "club", "id": "t1", "held_on": "2025-01-10", "standings": standings}
    writes: list[tuple[str, str, Any]] = [
        ("POST", "/games", game("club", "g2", {"a": 1, "b": 2}, minutes=2)),
        ("POST", "/games/batch", {"games": [game("club", "g3", {"a": 1, "b": 2}, minutes=3)]}),
        ("PUT", "/ladders/club/games/g1", game("club", "g1", {"b": 1, "a": 2}, minutes=1)),
        ("DELETE", "/ladders/club/games/g1", None),
        ("POST", "/tournaments", tournament),
        ("PUT", "/ladders/club/players/a", {"rating": 1700, "at": at(30)}),
        ("POST", "/ladders/club/seasons", {"id": "s1", "starts_at": at(-600)}),
        ("PATCH", "/ladders/club", {"title": "new"}),
        ("PATCH", "/ladders/club", {"params": {"k": 16}}),
    ]
    before = _snapshot(database)
    for method, path, body in writes:
        problem = await _ok(await client.request(method, path, json=body), 409)
        assert problem["detail"].startswith(ARCHIVED), (method, path, problem)
    assert _snapshot(database) == before
    # Archiving again changes nothing; archiving with other changes is refused, naming it.
    again = await _ok(await client.patch("/ladders/club", json={"archived": True}))
    assert again["archived_at"] == archived["archived_at"]
    mixed = await _ok(
        await client.patch("/ladders/club", json={"archived": False, "title": "x"}), 422
    )
    assert [e["loc"] for e in mixed["errors"]] == [["archived"]]
    # Un-archived, it takes writes again.
    assert (await _ok(await client.patch("/ladders/club", json={"archived": False})))[
        "archived_at"
    ] is None
    await post_game(client, game("club", "g2", {"a": 1, "b": 2}, minutes=2))


async def test_deleting_a_ladder(database: Database) -> None:
    settings = make_settings(database_url=str(database.url), webhook_allowed_hosts="127.0.0.1")
    app = create_app(settings, database=database)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://r.test", headers=AUTH
    ) as client:
        await _delete_a_ladder(client, database)


async def _delete_a_ladder(client: httpx.AsyncClient, database: Database) -> None:
    await make_ladder(client, "club", "elo")
    await make_ladder(client, "other", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    await post_game(client, game("other", "g1", {"a": 1, "b": 2}, minutes=1))
    await _ok(await client.put("/players/a", json={"name": "Ann"}))
    key = await _ok(
        await client.post(
            "/keys", json={"name": "k", "scopes": ["read", "ladders:admin"], "ladders": ["club"]}
        ),
        201,
    )
    limited = {"Authorization": f"Bearer {key['key']}"}
    hook = await _ok(
        await client.post(
            "/webhooks", json={"url": "http://127.0.0.1:9/hook", "ladders": ["club"]}
        ),
        201,
    )
    refused = await _ok(await client.delete("/ladders/club?confirm=club", headers=limited), 403)
    assert refused["detail"] == "only the admin token deletes a ladder"
    for query in ("", "?confirm=other", "?confirm=CLUB"):
        problem = await _ok(await client.delete(f"/ladders/club{query}"), 422)
        assert [e["loc"] for e in problem["errors"]] == [["confirm"]], query
    await _ok(await client.get("/ladders/club"))
    assert await _ok(await client.delete("/ladders/club?confirm=club"), 204) is None
    assert (await client.get("/ladders/club")).status_code == 404
    assert (await client.delete("/ladders/club?confirm=club")).status_code == 404
    with database.engine.connect() as connection:
        for table in ("events", "changes", "player_ratings", "feed_items"):
            left = connection.execute(text(f"SELECT ladder_id FROM {table}")).scalars().all()
            assert set(left) == {"other"}, table
    # The other ladder and the community's profiles stay.
    profile = await _ok(await client.get("/players/a"))
    assert (profile["name"], [r["ladder"] for r in profile["ratings"]]) == ("Ann", ["other"])
    # Keys and webhooks limited to it forget it: a ladder made later under its id, here in
    # another community, is not theirs.
    keys = {k["id"]: k["ladders"] for k in (await _ok(await client.get("/keys")))["keys"]}
    assert keys[key["id"]] == []
    assert (await _ok(await client.get(f"/webhooks/{hook['id']}")))["ladders"] == []
    await _ok(await client.post("/ladders", json={"id": "club", "system": "elo",
                                                  "community": "elsewhere"}), 201)  # fmt: skip
    assert (await client.get("/ladders/club", headers=limited)).status_code == 404


async def test_an_archived_ladder_refuses_group_committed_games(database: Database) -> None:
    """POST /games through the group committer (several at once) is refused the same way."""
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://r.test", headers=AUTH
    ) as http:
        await make_ladder(http, "club", "elo")
        await _ok(await http.patch("/ladders/club", json={"archived": True}))
        response = await http.post("/games", json=game("club", "g1", {"a": 1, "b": 2}))
        assert response.status_code == 409
        assert response.json()["detail"].startswith(ARCHIVED)
