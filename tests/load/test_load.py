"""Replicas under load: duplicates and retries, never a lost or doubled update (issue "Safe to
expose"). Real ``ratings serve`` processes; see docs/testing-load.md."""

from __future__ import annotations

import asyncio

import pytest

from tests.load.helpers import (
    Expectations,
    ServerLauncher,
    build_workload,
    create_ladder,
    finish,
    load_size,
    postgres_base_url,
    postgres_connection_budget,
    run_load,
    verify,
    writer_key,
)

pytestmark = pytest.mark.slow

#: The issue asks for 5,000 games per test; the quick sizes keep tests/load within about four
#: minutes on a 2-core machine (measured full-size rates: docs/testing-load.md).
GAMES = load_size(full=5_000, quick=2_000)
HOT_GAMES = load_size(full=5_000, quick=1_000)
SQLITE_GAMES = load_size(full=5_000, quick=2_000)
PLAYERS = 200
CLIENTS = 50
REPLICAS = 3
WORKERS = 2
POOL_SIZE = 5
POOL_OVERFLOW = 3


def _replicas_on_postgres(
    name: str,
    database_url: str,
    launcher: ServerLauncher,
    *,
    games: int,
    hot_player: str | None,
    seed: int,
) -> None:
    budget = postgres_connection_budget(
        postgres_base_url(), REPLICAS * WORKERS * (POOL_SIZE + POOL_OVERFLOW)
    )
    servers = launcher.start(
        database_url,
        count=REPLICAS,
        workers=WORKERS,
        pool_size=POOL_SIZE,
        pool_overflow=POOL_OVERFLOW,
    )
    urls = [s.url for s in servers]
    workload = build_workload(
        games=games, players=PLAYERS, servers=REPLICAS, seed=seed, hot_player=hot_player
    )

    async def scenario() -> tuple[dict[str, object], list[str]]:
        await create_ladder(urls)
        run = await run_load(urls, workload, key=await writer_key(urls), clients=CLIENTS)
        return await verify(urls, database_url, workload, run, Expectations())

    summary, problems = asyncio.run(scenario())
    summary["postgres_connections"] = budget
    finish(name, summary, problems, servers)


def test_replicas_on_postgres(load_postgres_url: str, launcher: ServerLauncher) -> None:
    _replicas_on_postgres(
        "replicas_on_postgres", load_postgres_url, launcher, games=GAMES, hot_player=None, seed=1
    )


def test_hot_player_on_postgres(load_postgres_url: str, launcher: ServerLauncher) -> None:
    # Every game shares "hot": most arrive after a later game of it (late: recomputed).
    _replicas_on_postgres(
        "hot_player_on_postgres",
        load_postgres_url,
        launcher,
        games=HOT_GAMES,
        hot_player="hot",
        seed=2,
    )


def test_sqlite_two_workers(load_sqlite_url: str, launcher: ServerLauncher) -> None:
    servers = launcher.start(load_sqlite_url, count=1, workers=WORKERS)
    urls = [s.url for s in servers]
    workload = build_workload(games=SQLITE_GAMES, players=PLAYERS, servers=1, seed=3)

    async def scenario() -> tuple[dict[str, object], list[str]]:
        await create_ladder(urls)
        run = await run_load(urls, workload, key=await writer_key(urls), clients=CLIENTS)
        # SQLite serialises writers: no "database is locked", no 5xx at all, not even a 503.
        return await verify(urls, load_sqlite_url, workload, run, Expectations(allow_503=False))

    summary, problems = asyncio.run(scenario())
    finish("sqlite_two_workers", summary, problems, servers)
