"""A refused write changes nothing; one ladder's recomputation does not stall another's
writes; the row locks of the largest event the limits allow work (issue "Hostile input").
"""

from __future__ import annotations

import asyncio
import time
from datetime import date

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.repositories.ladders import LadderRepository
from app.schemas.events import GameIn
from app.services import bulk
from app.services.events import new_game_event
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


#: A history long enough that recomputing it takes seconds, not milliseconds.
LONG_HISTORY = 10_000
#: How long a test waits for a recomputation to take its ladder's exclusive lock.
LOCK_WAIT_SECONDS = 20.0
BATCH = 2_500


async def test_other_ladders_are_written_while_one_recomputes_a_long_history(
    client: httpx.AsyncClient, database: Database
) -> None:
    """While ladder A replays a long history — for a parameter change and an import
    reaching back — a game for ladder B is answered within a second each time. (A late
    game holds only its cone's rows, not the ladder: tests/api/test_cone_locks.py.)"""
    if database.is_sqlite:
        pytest.skip("SQLite serialises all writers: one ladder's recomputation holds them all")
    await make_ladder(client, "a", "elo")
    await make_ladder(client, "b", "elo")
    for begin in range(0, LONG_HISTORY, BATCH):
        games = [
            game("a", f"g{i}", {f"p{i % 200}": 1, f"p{(i * 7 + 1) % 200}": 2}, minutes=i)
            for i in range(begin, begin + BATCH)
        ]
        assert (await client.post("/games/batch", json={"games": games})).status_code == 200

    def import_reaching_back() -> tuple[int, int]:
        items = [
            new_game_event(GameIn.model_validate(game("a", f"old{i}", {"p1": 1, "p2": 2}, i - 10)))
            for i in range(3)
        ]
        return bulk.apply_in_chunks(database, items)

    operations = {
        "parameter change": lambda: client.patch("/ladders/a", json={"params": {"k": 16}}),
        "import": lambda: asyncio.to_thread(import_reaching_back),
    }
    for number, (name, operation) in enumerate(operations.items()):
        running = asyncio.ensure_future(operation())
        await _exclusive_lock_taken(database)
        began = time.perf_counter()
        other = await client.post("/games", json=game("b", f"b{number}", {"x": 1, "y": 2}, number))
        took = time.perf_counter() - began
        assert other.status_code == 201, (name, other.text)
        assert not running.done(), f"{name}: finished before the other ladder's game was sent"
        assert took < 1.0, (name, took)
        await running


async def _exclusive_lock_taken(database: Database) -> None:
    """Wait until some transaction holds a ladder's exclusive (advisory) lock."""
    deadline = time.perf_counter() + LOCK_WAIT_SECONDS
    query = text(
        "SELECT count(*) FROM pg_locks "
        "WHERE locktype = 'advisory' AND mode = 'ExclusiveLock' AND granted"
    )
    while time.perf_counter() < deadline:
        with database.engine.connect() as connection:
            if connection.execute(query).scalar_one():
                return
        await asyncio.sleep(0.01)
    raise AssertionError("no ladder's exclusive lock was taken")
