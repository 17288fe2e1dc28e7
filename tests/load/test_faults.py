"""PostgreSQL restarted in the middle of a load on three replicas (issue "Safe to expose").

During the outage the service may answer 503 (with Retry-After) or drop a connection, nothing
else; every acknowledged game survives exactly once; the ratings stay exactly the replay of
the stored history; and within 10 s of PostgreSQL being back the service is ready and accepts
new games. See docs/testing-load.md.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from datetime import datetime
from typing import Any

import pytest

from tests.load.helpers import (
    Expectations,
    LoadRun,
    ServerLauncher,
    await_recovery,
    build_workload,
    create_ladder,
    finish,
    load_size,
    postgres_base_url,
    postgres_cluster,
    postgres_connection_budget,
    restart_postgres,
    run_load,
    status_key,
    verify,
    wait_postgres_ready,
    writer_key,
)

pytestmark = pytest.mark.slow

#: The issue asks for 3,000 games; the quick size keeps tests/load within about four minutes.
GAMES = load_size(full=3_000, quick=1_200)
#: 0: ``pg_ctlcluster restart`` (PostgreSQL is down well under a second, which the service's own
#: retries absorb); N > 0: stop, N seconds down, start (the clients then see 503s).
DOWN_SECONDS = float(os.environ.get("RATINGS_LOAD_FAULT_DOWN_SECONDS", "0"))
PLAYERS = 200
CLIENTS = 50
REPLICAS = 3
WORKERS = 2
POOL_SIZE = 5
POOL_OVERFLOW = 3
#: The restart starts when this share of the jobs is done.
RESTART_AT = 1 / 3
#: Seconds the service may take to be ready and accept a game once PostgreSQL is back.
RECOVERY_LIMIT = 10.0


def test_postgres_restart_during_load(load_postgres_url: str, launcher: ServerLauncher) -> None:
    version, host, port = postgres_cluster()
    budget = postgres_connection_budget(
        postgres_base_url(), REPLICAS * WORKERS * (POOL_SIZE + POOL_OVERFLOW)
    )
    servers = launcher.start(
        load_postgres_url,
        count=REPLICAS,
        workers=WORKERS,
        pool_size=POOL_SIZE,
        pool_overflow=POOL_OVERFLOW,
    )
    urls = [s.url for s in servers]
    workload = build_workload(games=GAMES, players=PLAYERS, servers=REPLICAS, seed=4)
    last_played = datetime.fromisoformat(workload.bodies[-1]["played_at"].replace("Z", "+00:00"))
    outage: dict[str, Any] = {}
    keys: list[str] = []

    async def restart_in_the_middle(run: LoadRun) -> None:
        while run.jobs_done < len(workload.jobs) * RESTART_AT:
            await asyncio.sleep(0.05)
        outage["restart_started_at"] = round(run.clock(), 2)
        outage["down_seconds"] = DOWN_SECONDS
        await restart_postgres(version, DOWN_SECONDS)
        await wait_postgres_ready(host, port)
        outage["postgres_back_at"] = round(run.clock(), 2)
        recovery = await await_recovery(urls, workload.ladder, last_played, run, keys[0])
        outage["recovery_seconds"] = None if recovery is None else round(recovery, 2)
        outage["recovered_at"] = round(run.clock(), 2)

    async def scenario() -> tuple[dict[str, Any], list[str], LoadRun]:
        await create_ladder(urls)
        keys.append(await writer_key(urls))
        run = await run_load(
            urls, workload, key=keys[0], clients=CLIENTS, alongside=restart_in_the_middle
        )
        expect = Expectations(exactly_one_201=False, allow_connection_errors=True)
        summary, problems = await verify(urls, load_postgres_url, workload, run, expect)
        return summary, problems, run

    summary, problems, run = asyncio.run(scenario())

    if "recovered_at" not in outage:
        problems.append(f"the restart did not complete: {outage}")
    else:
        recovery = outage["recovery_seconds"]
        if recovery is None or recovery > RECOVERY_LIMIT:
            problems.append(
                f"not ready and accepting games {RECOVERY_LIMIT} s after PostgreSQL came back "
                f"(took {recovery} s)"
            )
        # Errors belong to the outage: from the restart to the recovery (plus the clients'
        # longest back-off), never before it nor long after.
        start, end = outage["restart_started_at"], outage["recovered_at"] + 2.5
        phases: dict[str, Counter[str]] = {
            "before": Counter(),
            "outage": Counter(),
            "after": Counter(),
        }
        for attempt in run.attempts:
            phase = "before" if attempt.at < start else "outage" if attempt.at <= end else "after"
            phases[phase][status_key(attempt)] += 1
        outage["statuses_by_phase"] = {k: dict(sorted(v.items())) for k, v in phases.items()}
        stray = [
            (a.at, a.game, a.error)
            for a in run.attempts
            # A socket this client closed itself is the client's (helpers._closed_here).
            if a.status is None and not a.closed_here and not start <= a.at <= end
        ]
        if stray:
            problems.append(f"{len(stray)} connection errors outside the outage: {stray[:5]}")
        if not any(
            a.status == 503 or a.status is None for a in run.attempts if start <= a.at <= end
        ):
            outage["note"] = "no request failed during the restart"
    summary["outage"] = outage
    summary["postgres_connections"] = budget
    finish("postgres_restart_during_load", summary, problems, servers)
