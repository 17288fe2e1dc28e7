"""Rename, merge and erasure of players (API.md "Communities"; docs/players-data.md), on both
databases: what each keeps and what it changes, their refusals, and that an erased id is
nowhere afterwards (every column of every table, the export, the log records)."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import httpx
import pytest
from sqlalchemy import select, text

from app.core.database import Database
from app.models import Base
from app.services import admin, bulk
from tests.conftest import AUTH
from tests.helpers import game, make_ladder, post_game, rating_rows

pytestmark = pytest.mark.anyio

#: Every column of the rating rows but the player: what an erasure must keep bit for bit.
ROW = (
    "SELECT ladder_id, player, faction, rating, deviation, volatility, ranking_value, tiebreak, "
    "state, games, wins, draws, losses, last_played_at, last_change_id, last_event_at, "
    "last_event_seq FROM player_ratings ORDER BY ladder_id, player, faction"
)


#: What a refused request of a key still changes: its rate-limit window.
COUNTERS = {"rate_windows", "address_windows"}


def _rows(database: Database) -> dict[tuple[str, str, str], tuple[Any, ...]]:
    """Each rating row by (ladder, player, faction), its other columns as stored."""
    with database.engine.connect() as connection:
        rows = connection.execute(text(ROW)).all()
    return {(r[0], r[1], r[2]): tuple(_plain(v) for v in r[3:]) for r in rows}


def _plain(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) and value[:1] in "{[" else value


def _everything(database: Database) -> dict[str, list[str]]:
    """Every row of every table, each value as text (JSON as JSON text)."""
    with database.engine.connect() as connection:
        return {
            table.name: [
                repr([json.dumps(v, default=str) for v in row])
                for row in connection.execute(select(table)).all()
            ]
            for table in Base.metadata.sorted_tables
            if table.name not in COUNTERS
        }


async def _key(http: httpx.AsyncClient, **body: Any) -> dict[str, str]:
    response = await http.post(
        "/keys", json={"name": "k", "scopes": ["read", "ladders:admin"], **body}
    )
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['key']}"}


async def _board(client: httpx.AsyncClient, ladder: str) -> dict[str, tuple[float, int]]:
    response = await client.get(f"/ladders/{ladder}/leaderboard", params={"limit": 100})
    assert response.status_code == 200, response.text
    return {e["player"]: (e["rating"], e["games"]) for e in response.json()["entries"]}


async def test_rename_keeps_history_ratings_and_profile(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "l", "elo")
    first = game("l", "g1", {"ann": 1, "bob": 2}, minutes=1)
    await post_game(client, first)
    await post_game(client, game("l", "g2", {"cat": 1, "ann": 2}, minutes=2))
    await client.put("/players/ann", json={"name": "Ann", "country": "FR"})
    before = await _board(client, "l")

    response = await client.post("/players/ann/rename", json={"to": "anne"})

    assert response.status_code == 200, response.text
    assert response.json() == {
        "action": "rename",
        "community": "default",
        "player": "anne",
        "ladders": ["l"],
    }
    after = await _board(client, "l")
    assert after == {("anne" if p == "ann" else p): v for p, v in before.items()}
    assert (await client.get("/ladders/l/players/ann")).status_code == 404
    profile = (await client.get("/players/anne")).json()
    assert (profile["name"], profile["country"]) == ("Ann", "FR")
    history = (await client.get("/ladders/l/players/anne/history")).json()
    assert [e["id"] for e in history["entries"]] == ["g1", "g2"]
    stored = (await client.get("/ladders/l/games/g1")).json()
    assert {c["player"] for c in stored["changes"]} == {"anne", "bob"}
    # An honest retry of a result sent before the rename is the same result, not a conflict.
    retry = await client.post("/games", json=first)
    assert retry.status_code == 200, retry.text
    assert retry.json()["seq"] == stored["seq"]
    # The old id is free: a new player.
    await post_game(client, game("l", "g3", {"ann": 1, "bob": 2}, minutes=3))
    assert (await _board(client, "l"))["ann"][1] == 1
    audit = (await client.get("/audit")).json()
    assert audit["total"] == 1
    entry = audit["entries"][0]
    assert (entry["actor"], entry["action"], entry["community"]) == ("admin", "rename", "default")
    assert (entry["players"], entry["ladders"]) == (["ann", "anne"], ["l"])


async def test_refusals_name_the_rule_and_change_nothing(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "l", "elo")
    await client.post("/ladders", json={"id": "f", "system": "elo", "community": "fed"})
    await post_game(client, game("l", "g1", {"ann": 1, "bob": 2}))
    await post_game(client, game("f", "g1", {"ann": 1, "bob": 2}))
    await client.put("/players/pro", json={"name": "Only a profile"})
    await post_game(client, game("l", "g2", {"gone": 1, "bob": 2}, minutes=2))
    assert (await client.delete("/ladders/l/games/g2")).status_code == 200
    fed_key = await _key(client, communities=["fed"])
    ladder_key = await _key(client, ladders=["l"])
    reader = await _key(client, scopes=["read"])
    snapshot = _everything(database)
    cases: list[tuple[str, str, Any, dict[str, str], int, str]] = [
        ("POST", "/players/ann/rename", {"to": "bob"}, AUTH, 409, "'bob' already exists"),
        ("POST", "/players/ann/rename", {"to": "pro"}, AUTH, 409, "'pro' already exists"),
        # Named only by a voided result: still the community's (its body is kept).
        ("POST", "/players/ann/rename", {"to": "gone"}, AUTH, 409, "'gone' already exists"),
        ("POST", "/players/ghost/rename", {"to": "x"}, AUTH, 404, "'ghost' does not exist"),
        ("POST", "/players/ann/rename", {"to": "a b"}, AUTH, 422, "to"),
        ("POST", "/players/ann/rename", {"into": "x"}, AUTH, 422, "to"),
        ("POST", "/players/ann/rename", {"to": "ann"}, AUTH, 422, "must differ"),
        ("POST", "/players/ann/merge", {"into": "bob"}, AUTH, 409, "game 'g1' in ladder 'l'"),
        ("POST", "/players/ann/merge", {"into": "ghost"}, AUTH, 404, "'ghost' does not exist"),
        ("POST", "/players/ann/merge", {"into": 7}, AUTH, 422, "into"),
        ("POST", "/players/ann/merge", {"into": "ann"}, AUTH, 422, "must differ"),
        ("DELETE", "/players/ghost", None, AUTH, 404, "'ghost' does not exist"),
        (
            "DELETE",
            "/players/ann",
            None,
            fed_key,
            404,
            "'ann' does not exist in community 'default'",
        ),
        ("POST", "/players/ann/rename", {"to": "x"}, fed_key, 404, "'ann' does not exist"),
        ("POST", "/players/ann/merge", {"into": "x"}, fed_key, 404, "'ann' does not exist"),
        ("DELETE", "/players/ann", None, ladder_key, 403, "limited to ladders"),
        ("POST", "/players/ann/rename", {"to": "x"}, ladder_key, 403, "limited to ladders"),
        ("DELETE", "/players/ann", None, reader, 403, "ladders:admin"),
        ("GET", "/audit", None, fed_key, 403, "admin token"),
    ]
    for method, path, body, headers, status, says in cases:
        response = await client.request(method, path, json=body, headers=headers)
        assert response.status_code == status, (path, body, response.text)
        assert response.headers["content-type"] == "application/problem+json"
        problem = response.json()
        assert says in json.dumps(problem), (path, body, problem)
        assert _everything(database) == snapshot, (path, body)
    # A foreign key is told exactly what it would be of an unknown player.
    foreign = await client.delete("/players/ann", headers=fed_key)
    ghost = await client.delete("/players/nobody", headers=fed_key)
    assert foreign.json()["detail"].replace("ann", "nobody") == ghost.json()["detail"]
    # The community's own key may (the fed's player, in the fed).
    renamed = await client.post(
        "/players/ann/rename?community=fed", json={"to": "x"}, headers=fed_key
    )
    assert renamed.status_code == 200, renamed.text
    assert (await client.get("/audit")).json()["entries"][0]["actor"] != "admin"


async def test_merge_recomputes_as_a_fresh_replay(
    client: httpx.AsyncClient, database: Database
) -> None:
    """Merging ``b`` into ``a`` stores what a ladder where ``a`` played ``b``'s games from
    the start stores, and what a replay of the merged ladder from scratch stores."""
    games = [
        ("g1", {"a": 1, "x": 2}),
        ("g2", {"b": 1, "y": 2}),
        ("g3", {"y": 1, "a": 2}),
        ("g4", {"x": 1, "b": 2}),
        ("g5", {"a": 1, "y": 2}),
    ]
    await make_ladder(client, "m", "glicko2")
    await make_ladder(client, "fresh", "glicko2")
    for minute, (game_id, ranks) in enumerate(games):
        await post_game(client, game("m", game_id, ranks, minutes=minute))
        merged = {("a" if p == "b" else p): r for p, r in ranks.items()}
        await post_game(client, game("fresh", game_id, merged, minutes=minute))
    await client.put("/players/b", json={"name": "Bee"})

    response = await client.post("/players/b/merge", json={"into": "a"})

    assert response.status_code == 200, response.text
    assert response.json()["ladders"] == ["m"]
    assert (await _board(client, "m")) == (await _board(client, "fresh"))
    rows = _rows(database)
    # Equal but for the last change's id and event's seq (the other ladder's).
    mine = {k[1:]: v[:11] + v[12:13] for k, v in rows.items() if k[0] == "m"}
    fresh = {k[1:]: v[:11] + v[12:13] for k, v in rows.items() if k[0] == "fresh"}
    assert mine == fresh
    assert {k[0] for k in mine} == {"a", "x", "y"}
    assert (await client.get("/players/a")).json()["name"] == "Bee"  # a had no profile
    history = (await client.get("/ladders/m/players/a/history")).json()
    assert [e["id"] for e in history["entries"]] == ["g1", "g2", "g3", "g4", "g5"]
    before = rating_rows(database)
    admin.recompute_ladder(database, "m", None)
    assert rating_rows(database) == before


async def test_erasure_leaves_the_id_nowhere(
    client: httpx.AsyncClient, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    old = "zoe.erasable"
    await make_ladder(client, "e", "glicko2")
    await make_ladder(client, "t", "dptr")
    await post_game(client, game("e", "g1", {"zoe": 1, "bob": 2}, minutes=1))
    await client.post("/players/zoe/rename", json={"to": old})  # the audit names it
    await post_game(client, game("e", "g2", {old: 1, "bob": 2}, minutes=2))
    await post_game(client, game("e", "g3", {"cat": 1, old: 2}, minutes=3))
    await post_game(client, game("e", "g4", {old: 1, "cat": 2}, minutes=4))
    assert (await client.delete("/ladders/e/games/g4")).status_code == 200  # voided changes
    tournament = {
        "ladder": "t",
        "id": "t1",
        "held_on": "2025-01-10",
        "standings": [{"player": old, "rank": 1}, {"player": "bob", "rank": 2}],
    }
    assert (await client.post("/tournaments", json=tournament)).status_code == 201
    await client.put(f"/players/{old}", json={"name": "Zoe Private", "country": "FR"})
    rows = _rows(database)

    caplog.clear()
    with caplog.at_level(logging.INFO):
        response = await client.delete(f"/players/{old}")
    erasure_records = list(caplog.records)

    assert response.status_code == 200, response.text
    pseudonym = response.json()["player"]
    assert pseudonym.startswith("erased-")
    assert response.json()["ladders"] == ["e", "t"]
    # Every rating bit-identical: the others' as they were, the erased one's under its
    # pseudonym.
    renamed = {(k[0], pseudonym if k[1] == old else k[1], k[2]): v for k, v in rows.items()}
    assert _rows(database) == renamed
    for table, values in _everything(database).items():
        for value in values:
            assert old not in value, (table, value)
            assert "Zoe Private" not in value, (table, value)
    for ladder in ("e", "t"):
        out = io.StringIO()
        bulk.write_export(database, ladder, out)
        assert old not in out.getvalue()
        assert pseudonym in out.getvalue()
    # The erasure's own log lines (earlier requests' lines are the operator's to expire).
    served = [r for r in erasure_records if r.name.startswith("ratings")]  # not the client's
    for record in served:
        assert old not in json.dumps(record.__dict__, default=str), record.__dict__
    assert [getattr(r, "path", None) for r in served] == ["/players/{player}"]
    audit = (await client.get("/audit")).json()["entries"]
    assert audit[0]["players"] == [pseudonym]
    # Its earlier id is its personal data too.
    assert audit[1]["players"] == [pseudonym, pseudonym]
    # The id is free again: a new player, with a first game's rating.
    new = await post_game(client, game("e", "g9", {old: 1, "dan": 2}, minutes=9))
    assert next(c for c in new["changes"] if c["player"] == old)["rating_before"] == 1500
    # A retry of an erased player's result is no longer its result.
    again = await client.post("/games", json=game("e", "g2", {old: 1, "bob": 2}, minutes=2))
    assert again.status_code == 409
    assert (await client.get(f"/players/{old}")).json()["name"] is None


async def test_audit_pages(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "l", "elo")
    await post_game(client, game("l", "g1", {"p0": 1, "q": 2}, minutes=1))
    for n in range(3):
        response = await client.post(f"/players/p{n}/rename", json={"to": f"p{n + 1}"})
        assert response.status_code == 200, response.text
    page = (await client.get("/audit", params={"limit": 2, "offset": 1})).json()
    assert page["total"] == 3
    assert [e["players"] for e in page["entries"]] == [["p1", "p2"], ["p0", "p1"]]
    assert (await client.get("/audit", params={"community": "other"})).json()["total"] == 0


async def test_only_players_are_renamed(client: httpx.AsyncClient) -> None:
    """A game id and a team label equal to the player's id are not the player: kept."""
    await make_ladder(client, "l", "elo")
    body = {
        "ladder": "l",
        "id": "ann",
        "played_at": game("l", "x", {})["played_at"],
        "teams": [
            {"team": "ann", "rank": 1, "players": [{"player": "ann"}, {"player": "cat"}]},
            {"team": "b", "rank": 2, "players": [{"player": "bob"}, {"player": "dan"}]},
        ],
    }
    await post_game(client, body)

    assert (await client.post("/players/ann/rename", json={"to": "anne"})).status_code == 200

    stored = await client.get("/ladders/l/games/ann")
    assert stored.status_code == 200, stored.text
    teams = {c["player"]: c["team"] for c in stored.json()["changes"]}
    assert teams == {"anne": "ann", "cat": "ann", "bob": "b", "dan": "b"}
    assert (await client.post("/games", json=body)).status_code == 200
