"""Concurrent results touching the same players never lose an update (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.services.admin import recompute_ladder
from tests.helpers import game, make_ladder

pytestmark = pytest.mark.anyio

INITIAL = 1600.0
GAMES = 60
PLAYERS = [f"p{i}" for i in range(6)]


async def test_concurrent_games_on_shared_players(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "fundox")
    rng = random.Random(7)
    bodies = []
    for index in range(GAMES):
        table = rng.sample(PLAYERS, 3)
        # Every game includes p0, so every pair of requests contends for one row.
        table[0] = "p0" if "p0" not in table else table[0]
        ranks = {
            player: (1 if seat == 0 else 2) for seat, player in enumerate(dict.fromkeys(table))
        }
        bodies.append(game("club", f"g{index}", ranks, minutes=index))
    # Each body twice: retries racing their originals must not apply twice.
    responses = await asyncio.gather(*(client.post("/games", json=b) for b in bodies + bodies))
    statuses = [r.status_code for r in responses]
    assert all(status in (200, 201) for status in statuses), statuses
    assert statuses.count(201) == GAMES

    with database.engine.connect() as connection:
        total, count = connection.execute(
            text("SELECT SUM(rating), COUNT(*) FROM player_ratings WHERE ladder_id = 'club'")
        ).one()
        games_stored = connection.execute(text("SELECT COUNT(*) FROM events")).scalar_one()
        chain_breaks = connection.execute(
            text(
                "SELECT COUNT(*) FROM player_ratings r WHERE r.games != "
                "(SELECT COUNT(*) FROM changes c WHERE c.player = r.player)"
            )
        ).scalar_one()
    # Fundox is zero-sum: no update lost or doubled.
    assert total == pytest.approx(INITIAL * count)
    assert games_stored == GAMES
    assert chain_breaks == 0
    before = _ratings(database)
    recompute_ladder(database, "club", None)
    assert _ratings(database) == before


def _ratings(database: Database) -> list[tuple[str, float, int]]:
    with database.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT player, rating, games FROM player_ratings ORDER BY player")
        )
        return [(r[0], r[1], r[2]) for r in rows]
