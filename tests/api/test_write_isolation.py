"""A refused write changes nothing; one ladder's recomputation does not stall another's
writes; the row locks of the largest event the limits allow work (issue "Hostile input").
"""

from __future__ import annotations

import asyncio
import time
from datetime import date

import httpx
import pytest

from app.core.database import Database
from app.repositories.ladders import LadderRepository
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: RATINGS_MAX_STANDINGS's default.
MOST_STANDINGS = 10_000


async def test_a_refused_write_creates_no_rating_rows(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}))
    other = game("club", "g1", {"a": 1, "newcomer": 2}, minutes=5)
    assert (await client.post("/games", json=other)).status_code == 409
    assert (await client.get("/ladders/club")).json()["players"] == 2
    assert (await client.get("/ladders/club/players/newcomer")).status_code == 404
    board = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    assert board["total"] == 2


async def test_a_tournament_of_the_most_standings_allowed_is_rated(
    client: httpx.AsyncClient,
) -> None:
    """Every standing's rating row is locked in one statement (on PostgreSQL a row-value IN
    list of 10,000 pairs exceeded the server's stack depth)."""
    await make_ladder(client, "wdd", "dptr")
    standings = [{"player": f"p{i:05d}", "rank": i + 1} for i in range(MOST_STANDINGS)]
    body = {
        "ladder": "wdd",
        "id": "huge",
        "held_on": str(date(2026, 6, 1)),
        "rounds": 3,
        "standings": standings,
    }
    response = await client.post("/tournaments", json=body)
    assert response.status_code == 201, response.text[:500]
    assert len(response.json()["changes"]) == MOST_STANDINGS
    assert (await client.get("/ladders/wdd")).json()["players"] == MOST_STANDINGS


async def test_a_game_for_another_ladder_goes_on_while_one_ladder_is_locked_exclusively(
    client: httpx.AsyncClient, database: Database
) -> None:
    """While ladder A's exclusive lock is held (as a recomputation holds it), a game for A
    waits, and a game for B, sent after it, is answered at once: the process's group-commit
    writer does not wait for A. SQLite serialises every writer on the database file, so
    there the test has nothing to show."""
    if database.is_sqlite:
        pytest.skip("SQLite serialises all writers: one ladder's recomputation holds them all")
    await make_ladder(client, "a", "elo")
    await make_ladder(client, "b", "elo")
    with database.session(write=True) as session:
        LadderRepository(session).get_locked("a", exclusive=True)
        waiting = asyncio.create_task(client.post("/games", json=game("a", "g1", {"x": 1, "y": 2})))
        await asyncio.sleep(0.3)  # the game for A is in the writer's hands by now
        began = time.perf_counter()
        other = await asyncio.wait_for(
            client.post("/games", json=game("b", "g1", {"x": 1, "y": 2})), timeout=5
        )
        took = time.perf_counter() - began
        assert other.status_code == 201
        assert not waiting.done()
    assert took < 1.0, took
    assert (await waiting).status_code == 201
