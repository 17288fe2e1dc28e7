"""PostgreSQL fails over under load (issue 39): a primary and a synchronous streaming standby,
the service given both hosts (``host=A&host=B&target_session_attrs=read-write``); a third of
the way into a load of games on two replicas the primary is stopped at once (``pg_ctl stop -m
immediate``) and, 5 s later (a failover manager's detection time), the standby promoted
(``pg_ctl promote``), as docs/deploy.md "PostgreSQL failover" tells an operator to.

The service goes on without a restart: during the failover it answers 503 with Retry-After
(never a 500, never a dropped connection), then takes writes on the new primary; no
acknowledged game is lost or doubled and the ratings are exactly the replay of what is
stored (tests/load/helpers.verify). The unavailability is measured two ways and reported
in tests/artifacts/load-postgres_failover.json: from the promotion to the first game every
replica acknowledges again, and the longest time no game was acknowledged.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from app.cli import migrate
from tests.faults.postgres_pair import PostgresPair
from tests.load.helpers import (
    Expectations,
    LoadRun,
    ServerLauncher,
    await_recovery,
    build_workload,
    create_ladder,
    finish,
    load_size,
    run_load,
    verify,
    writer_key,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

GAMES = load_size(full=3_000, quick=900)
PLAYERS = 200
CLIENTS = 30
REPLICAS = 2
WORKERS = 2
#: The failover starts when this share of the jobs is done.
FAIL_AT = 1 / 3
#: Seconds between the stop and the promotion: a failover manager's detection time (and
#: longer than the service's own retries absorb, so that clients see the 503s).
PROMOTE_AFTER = 5.0
#: Seconds the service may take to take writes again once the standby is promoted.
RECOVERY_LIMIT = 10.0


@pytest.fixture
def pair() -> Iterator[PostgresPair]:
    clusters = PostgresPair()
    try:
        clusters.start()
        yield clusters
    finally:
        clusters.stop()


def test_postgres_failover_during_load(pair: PostgresPair, launcher: ServerLauncher) -> None:
    url = pair.url()
    migrate(url)
    servers = launcher.start(url, count=REPLICAS, workers=WORKERS, pool_size=5, pool_overflow=3)
    urls = [s.url for s in servers]
    workload = build_workload(games=GAMES, players=PLAYERS, servers=REPLICAS, seed=39)
    last_played = datetime.fromisoformat(workload.bodies[-1]["played_at"].replace("Z", "+00:00"))
    outage: dict[str, Any] = {"synchronous": pair.sync_state()}
    keys: list[str] = []

    async def fail_over(run: LoadRun) -> None:
        while run.jobs_done < len(workload.jobs) * FAIL_AT:
            await asyncio.sleep(0.05)
        outage["acknowledged_before"] = sum(1 for a in run.attempts if a.status in (200, 201))
        outage["primary_stopped_at"] = round(run.clock(), 2)
        await asyncio.to_thread(pair.stop_primary)
        await asyncio.sleep(PROMOTE_AFTER)
        await asyncio.to_thread(pair.promote)
        outage["standby_promoted_at"] = round(run.clock(), 2)
        recovery = await await_recovery(
            urls, workload.ladder, last_played, run, keys[0], limit=RECOVERY_LIMIT * 2
        )
        outage["recovered_at"] = round(run.clock(), 2)
        outage["seconds_from_promotion_to_recovery"] = (
            None if recovery is None else round(recovery, 2)
        )

    async def scenario() -> tuple[dict[str, Any], list[str], LoadRun]:
        await create_ladder(urls)
        keys.append(await writer_key(urls))
        run = await run_load(urls, workload, key=keys[0], clients=CLIENTS, alongside=fail_over)
        # The answers of the failover: 503s (retried), nothing else; no connection dropped.
        expect = Expectations(exactly_one_201=False, allow_connection_errors=False)
        summary, problems = await verify(urls, url, workload, run, expect)
        return summary, problems, run

    summary, problems, run = asyncio.run(scenario())

    if "recovered_at" not in outage:
        problems.append(f"the failover did not complete: {outage}")
    else:
        took = outage["seconds_from_promotion_to_recovery"]
        if took is None or took > RECOVERY_LIMIT:
            problems.append(f"not taking games {RECOVERY_LIMIT} s after the promotion ({took})")
        acknowledged = sorted(a.at for a in run.attempts if a.status in (200, 201))
        gaps = [later - earlier for earlier, later in itertools.pairwise(acknowledged)]
        outage["longest_seconds_without_an_acknowledgement"] = round(max(gaps, default=0.0), 2)
        outage["answers_503"] = sum(1 for a in run.attempts if a.status == 503)
        if not outage["answers_503"]:
            problems.append("no 503 while no primary was there: the outage was not exercised")
    summary["failover"] = outage
    finish("postgres_failover", summary, problems, servers)
