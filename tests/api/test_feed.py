"""The change feed (API.md "Change feed"): every committed write appends its item, in commit
order, naming every rating it moved, before and after; applying the items in cursor order to an
empty mirror gives every stored rating; repeats, dry runs and refused writes add nothing."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.core.database import Database
from app.main import create_app
from tests.conftest import AUTH, make_settings
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

ENTRY_FIELDS = (
    "rating", "deviation", "volatility", "ranking_value", "games", "wins", "draws", "losses",
    "last_played_at",
)  # fmt: skip


async def _items(client: httpx.AsyncClient, ladder: str, after: int = 0) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while True:
        response = await client.get(f"/ladders/{ladder}/feed", params={"after": after, "limit": 3})
        assert response.status_code == 200, response.text
        page = response.json()
        items += page["items"]
        if not page["items"]:
            assert page["next"] == after
            return items
        after = page["next"]


def _mirror(items: list[dict[str, Any]]) -> dict[tuple[str, str | None], dict[str, Any]]:
    """The ratings a client keeps by applying the items in cursor order."""
    mirror: dict[tuple[str, str | None], dict[str, Any]] = {}
    cursors = [item["cursor"] for item in items]
    assert cursors == sorted(set(cursors))
    for item in items:
        for moved in item["ratings"]:
            key = (moved["player"], moved["faction"])
            assert mirror.get(key) == moved["before"], (item["type"], key)
            if moved["after"] is None:
                del mirror[key]
            else:
                mirror[key] = moved["after"]
    return mirror


def _stored(database: Database, ladder: str) -> dict[tuple[str, str | None], dict[str, Any]]:
    """The stored ratings, as a mirror holds them (read from the table, not through the API)."""
    with database.engine.connect() as connection:
        rows = connection.execute(
            text(
                f"SELECT player, faction, {', '.join(ENTRY_FIELDS)} FROM player_ratings "
                "WHERE ladder_id = :l AND last_change_id IS NOT NULL"
            ),
            {"l": ladder},
        ).mappings()
        stored = {}
        for row in rows:
            played = row["last_played_at"]
            if isinstance(played, str):  # SQLite keeps UTC as naive text
                played = played.replace(" ", "T") + "Z"
            elif played is not None:
                played = played.isoformat().replace("+00:00", "Z")
            entry = {name: row[name] for name in ENTRY_FIELDS}
            faction = row["faction"] or None
            games = entry["games"]
            entry |= {
                "faction": faction,
                "last_played_at": played,
                "win_rate": entry["wins"] / games if games else None,
                "loss_rate": entry["losses"] / games if games else None,
            }
            stored[(row["player"], faction)] = entry
    return stored


def _same(mirror: dict[Any, dict[str, Any]], stored: dict[Any, dict[str, Any]]) -> None:
    assert mirror.keys() == stored.keys()
    for key, entry in stored.items():
        shown = dict(mirror[key])
        if shown["last_played_at"] is not None and entry["last_played_at"] is not None:
            # The same instant, however its fraction of a second is written (stripping zeros
            # from the text also stripped a time's ":00" seconds).
            shown["last_played_at"] = datetime.fromisoformat(shown["last_played_at"])
            entry = {**entry, "last_played_at": datetime.fromisoformat(entry["last_played_at"])}
        assert shown == entry, key


async def test_each_write_appends_what_it_moved_and_a_mirror_follows(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    g1 = game("club", "g1", {"a": 1, "b": 2}, 10)
    await post_game(client, g1)
    await post_game(client, game("club", "g2", {"b": 1, "c": 2}, 20))
    await post_game(client, game("club", "g3", {"x": 1, "y": 2}, 30))
    late = await post_game(client, game("club", "late", {"a": 2, "e": 1}, 5))
    assert late["recomputed_events"] == 2  # g1 and g2: a's and then b's
    corrected = await client.put(
        "/ladders/club/games/g1", json=game("club", "g1", {"a": 2, "b": 1}, 10)
    )
    assert corrected.status_code == 200
    assert (await client.delete("/ladders/club/games/g3")).status_code == 200
    adjusted = await client.put(
        "/ladders/club/players/x", json={"rating": 1600, "at": g1["played_at"]}
    )
    assert adjusted.status_code == 200
    assert (await client.patch("/ladders/club", json={"params": {"k": 16}})).status_code == 200
    items = await _items(client, "club")

    assert [(i["type"], i["event"]) for i in items] == [
        ("game.rated", {"kind": "game", "id": "g1"}),
        ("game.rated", {"kind": "game", "id": "g2"}),
        ("game.rated", {"kind": "game", "id": "g3"}),
        ("game.rated", {"kind": "game", "id": "late"}),
        ("game.corrected", {"kind": "game", "id": "g1"}),
        ("game.voided", {"kind": "game", "id": "g3"}),
        ("rating.adjusted", None),
        ("ladder.changed", None),
    ]
    moved = [
        {(r["player"], r["before"] is None, r["after"] is None) for r in i["ratings"]}
        for i in items
    ]
    assert moved[0] == {("a", True, False), ("b", True, False)}  # new players: no before
    # The late game's item names its whole cone: a and b and c re-rated, e new.
    assert moved[3] == {
        ("a", False, False),
        ("b", False, False),
        ("c", False, False),
        ("e", True, False),
    }
    # Voiding x's and y's only game removes their ratings.
    assert moved[5] == {("x", False, True), ("y", False, True)}
    assert moved[6] == {("x", True, False)}  # the adjustment rates x again
    assert {r["player"] for r in items[7]["ratings"]} == {"a", "b", "c", "e"}  # k changed
    _same(_mirror(items), _stored(database, "club"))


async def test_repeats_dry_runs_and_refusals_add_no_item(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    body = game("club", "g1", {"a": 1, "b": 2}, 10)
    await post_game(client, body)
    assert (await client.post("/games", json=body)).status_code == 200  # a repeat
    other = game("club", "g1", {"a": 2, "b": 1}, 10)
    assert (await client.post("/games", json=other)).status_code == 409
    dry = await client.post(
        "/games", json=game("club", "g2", {"a": 1, "c": 2}, 20), params={"dry_run": True}
    )
    assert dry.status_code == 200
    assert (
        await client.post("/games", json={**body, "id": "g3", "players": []})
    ).status_code == 422
    assert (await client.delete("/ladders/club/games/nope")).status_code == 404
    assert (await client.delete("/ladders/club/games/g1")).status_code == 200
    assert (await client.delete("/ladders/club/games/g1")).status_code == 200  # voided already
    items = await _items(client, "club")
    assert [i["type"] for i in items] == ["game.rated", "game.voided"]
    assert (await client.get("/ladders/nowhere/feed")).status_code == 404


async def test_a_batch_is_one_item_and_a_group_one_per_game(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    batch = [game("club", f"b{n}", {f"p{n}": 1, f"q{n}": 2}, n) for n in range(5)]
    assert (await client.post("/games/batch", json={"games": batch})).status_code == 200
    together = [game("club", f"g{n}", {"a": 1 + n % 2, "b": 2 - n % 2}, 100 + n) for n in range(6)]
    answers = await asyncio.gather(*(client.post("/games", json=body) for body in together))
    assert [a.status_code for a in answers] == [201] * 6
    items = await _items(client, "club")
    assert items[0]["type"] == "game.rated"
    assert items[0]["event"] is None
    assert len(items[0]["ratings"]) == 10
    # Each game of the group has its own item, with the ratings just before and after it.
    assert sorted(i["event"]["id"] for i in items[1:]) == [f"g{n}" for n in range(6)]
    by_id = {a.json()["id"]: a.json() for a in answers}
    for item in items[1:]:
        for moved in item["ratings"]:
            change = next(
                c for c in by_id[item["event"]["id"]]["changes"] if c["player"] == moved["player"]
            )
            assert moved["after"]["rating"] == change["rating_after"]
            assert (moved["before"] or {"rating": 1500.0})["rating"] == change["rating_before"]
    _same(_mirror(items), _stored(database, "club"))


async def _stream(app: FastAPI, path: str, headers: dict[str, str], wanted: int) -> list[bytes]:
    """Drive the ASGI app by hand: read the streamed body until ``wanted`` chunks carrying
    data have come, then hang up."""
    received: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await received.put({"type": "http.request", "body": b"", "more_body": False})
    chunks: list[bytes] = []
    done = asyncio.Event()

    async def receive() -> dict[str, Any]:
        return await received.get()

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200
        elif message.get("body"):
            chunks.append(message["body"])
            if len([c for c in chunks if c.strip() and not c.startswith(b":")]) >= wanted:
                done.set()

    raw = [(k.lower().encode(), v.encode()) for k, v in {**AUTH, **headers}.items()]
    path, _, query = path.partition("?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
        "headers": raw, "client": ("127.0.0.1", 1), "server": ("ratings.test", 80),
    }  # fmt: skip
    task = asyncio.ensure_future(app(scope, receive, send))
    await asyncio.wait_for(done.wait(), 20)
    await received.put({"type": "http.disconnect"})
    await asyncio.wait_for(task, 20)
    return chunks


@pytest.mark.parametrize("accept", ["application/x-ndjson", "text/event-stream"])
async def test_following_the_feed_streams_each_item_as_it_commits(
    client: httpx.AsyncClient, database: Database, accept: str
) -> None:
    await make_ladder(client, "club", "elo")
    first = await post_game(client, game("club", "g1", {"a": 1, "b": 2}, 10))
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    following = asyncio.ensure_future(
        _stream(app, "/ladders/club/feed?after=0&follow=true", {"Accept": accept}, wanted=2)
    )
    await asyncio.sleep(0.3)
    second = await post_game(client, game("club", "g2", {"a": 1, "c": 2}, 20))
    chunks = await following
    text_ = b"".join(chunks).decode()
    if accept == "text/event-stream":
        events = [block for block in text_.split("\n\n") if block.startswith("id:")]
        documents = [json.loads(block.split("data: ", 1)[1]) for block in events]
        assert [block.split("\n")[0] for block in events] == ["id: 1", "id: 2"]
    else:
        documents = [json.loads(line) for line in text_.splitlines() if line.strip()]
    assert [d["event"]["id"] for d in documents] == [first["id"], second["id"]]
    assert [d["cursor"] for d in documents] == [1, 2]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_cursors_follow_the_order_writes_commit_in(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writers of one ladder (players apart, so neither waits for the other's rows): the
    first takes its cursor and is held before its commit; the second waits for it, and its
    item comes after. A reader never sees cursor 2 without cursor 1 (SQLite has one writer:
    nothing to show there)."""
    import threading

    from app.repositories.feed import FeedRepository
    from app.schemas.events import GameIn
    from app.services.events import submit_game

    await make_ladder(client, "club", "elo")
    held, release = threading.Event(), threading.Event()
    real_append = FeedRepository.append

    def append_then_hold(self: FeedRepository, ladder_id: str, items: Any) -> None:
        real_append(self, ladder_id, items)
        if items and items[0]["event_id"] == "first":
            held.set()
            release.wait(20)

    monkeypatch.setattr(FeedRepository, "append", append_then_hold)

    def post(game_id: str, players: dict[str, int]) -> None:
        submit_game(database, GameIn.model_validate(game("club", game_id, players, 10)))

    first = threading.Thread(target=post, args=("first", {"a": 1, "b": 2}))
    first.start()
    assert await asyncio.to_thread(held.wait, 20)
    second = threading.Thread(target=post, args=("second", {"c": 1, "d": 2}))
    second.start()
    await asyncio.sleep(0.5)
    assert second.is_alive()  # waiting for the first's cursor
    assert await _items(client, "club") == []
    release.set()
    for thread in (first, second):
        await asyncio.to_thread(thread.join, 20)
    assert [(i["cursor"], i["event"]["id"]) for i in await _items(client, "club")] == [
        (1, "first"),
        (2, "second"),
    ]
