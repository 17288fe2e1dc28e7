"""Migration 0014: ladders, profiles and keys of a database at 0013 move into the community
``default`` with no change for anyone: every read answers as before, every key keeps its
rights, and profiles are set and read as before."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import inspect, text

from app.core.database import Database
from tests.helpers import game, make_ladder, post_game
from tests.models.test_tournament_placings_migration import alembic

pytestmark = pytest.mark.anyio

READS = (
    "/ladders",
    "/ladders/club",
    "/players/ann",
    "/ladders/club/players/ann",
    "/ladders/club/leaderboard?active_within_days=0&country=FR",
    "/ladders/club/games",
)


async def _reads(client: httpx.AsyncClient, headers: dict[str, str]) -> list[Any]:
    answers = []
    for path in READS:
        response = await client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        answers.append(response.json())
    return answers


async def test_existing_data_moves_into_the_default_community(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}, minutes=1))
    assert (await client.put("/players/ann", json={"name": "Ann", "country": "FR"})).is_success
    created = await client.post(
        "/keys", json={"name": "k", "scopes": ["read", "ladders:admin"], "ladders": ["club"]}
    )
    key = {"Authorization": f"Bearer {created.json()['key']}"}
    before = await _reads(client, key)
    # The data as the previous revision holds it.
    alembic(database, "downgrade", "0013")
    columns = inspect(database.engine)
    assert "community" not in {c["name"] for c in columns.get_columns("ladders")}
    assert "community" not in {c["name"] for c in columns.get_columns("player_profiles")}
    with database.engine.connect() as connection:
        stored = connection.execute(text("SELECT player, name, country FROM player_profiles"))
        assert [tuple(row) for row in stored] == [("ann", "Ann", "FR")]
    alembic(database, "upgrade", "head")
    with database.engine.connect() as connection:
        ladders = connection.execute(text("SELECT id, community FROM ladders")).all()
        profiles = connection.execute(text("SELECT community, player FROM player_profiles")).all()
    assert [tuple(row) for row in ladders] == [("club", "default")]
    assert [tuple(row) for row in profiles] == [("default", "ann")]
    listed = (await client.get("/keys")).json()["keys"]
    assert [(k["ladders"], k["communities"]) for k in listed] == [(["club"], ["*"])]
    after = await _reads(client, key)
    assert after == before
    assert after[1]["community"] == "default"
    assert after[2]["community"] == "default"
    assert (after[2]["name"], after[2]["country"]) == ("Ann", "FR")
    assert [e["player"] for e in after[4]["entries"]] == ["ann"]
    assert after[0]["ladders"][0]["community"] == "default"
    # The key still writes what it wrote: the profile of a player of its ladder.
    put = await client.put("/players/bob", json={"name": "Bob"}, headers=key)
    assert put.status_code == 200, put.text
    assert (await client.get("/players/bob", headers=key)).json()["name"] == "Bob"
