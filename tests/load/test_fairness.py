"""One key floods expensive requests; another client's cheap ones stay fast (issue 39).

A read key keeps ``FLOODERS`` requests at a time in flight, a mix of as-of leaderboards and
as-of players on a large ladder, evaluations, what-ifs and 100-player predictions, backing off
only when told to (429 ``Retry-After``: it stays within its rate limit). Meanwhile another key
posts games to an unrelated ladder and asks for two-player predictions there, one at a time;
each of those must answer within ``P99_LIMIT`` at the 99th percentile. Real ``ratings serve``
processes (two workers); see docs/testing-load.md.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.load.helpers import (
    ServerLauncher,
    finish,
    http_client,
    iso,
    load_size,
    postgres_base_url,
    postgres_connection_budget,
)

pytestmark = pytest.mark.slow

#: The attack's ladder held 80,545 events; the quick size keeps each test near half a minute.
BIG_GAMES = load_size(full=80_000, quick=30_000)
BIG_PLAYERS = load_size(full=8_000, quick=3_000)
#: Seconds the probes run while the flood goes on.
PROBE_SECONDS = load_size(full=60, quick=12)
#: Seconds of flood before the first probe: every heavy slot busy and a queue behind it.
WARMUP_SECONDS = 2.0
#: Requests the flooding key keeps in flight.
FLOODERS = 8
#: Pause between two probes (a probe is a client doing its ordinary work, not a load).
PROBE_PAUSE = 0.05
#: The issue's bound on the probes' 99th percentile (seconds).
P99_LIMIT = 1.0
BATCH = 5_000
WORKERS = 2
POOL_SIZE = 5
POOL_OVERFLOW = 3
BIG = "big-elo"
PROBE = "probe-elo"
#: The most players a prediction may name by default (RATINGS_MAX_PREDICTION_PLAYERS).
TABLE = 100
#: The flooder's rate limit: its default (1,200 a minute) refuses most of the flood once the
#: heavy reads are charged by their cost, which would test the limit rather than the
#: scheduling; the flood stays within this one, so that the slots alone must keep it fair.
FLOOD_RATE_LIMIT = 10**9


def _percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (the smallest value with ``share`` of them at or below)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[int(rank) - 1]


async def _build(url: str, base: datetime) -> tuple[str, str]:
    """The two ladders, the large one's history, and the flooding and probing keys."""
    rng = random.Random(39)
    async with http_client(2) as admin:
        for ladder in (BIG, PROBE):
            made = await admin.post(f"{url}/ladders", json={"id": ladder, "system": "elo"})
            assert made.status_code == 201, made.text
        players = [f"p{index:05d}" for index in range(BIG_PLAYERS)]
        for start in range(0, BIG_GAMES, BATCH):
            games = []
            for index in range(start, min(start + BATCH, BIG_GAMES)):
                first, second = rng.sample(players, 2)
                games.append(
                    {
                        "ladder": BIG,
                        "id": f"b{index:06d}",
                        "played_at": iso(base + timedelta(minutes=index)),
                        "players": [
                            {"player": first, "rank": 1},
                            {"player": second, "rank": 2},
                        ],
                    }
                )
            stored = await admin.post(f"{url}/games/batch", json={"games": games}, timeout=600)
            assert stored.status_code == 200, stored.text[:500]
        keys = []
        for name, scopes in (("flood", ["read"]), ("probe", ["read", "results:write"])):
            created = await admin.post(f"{url}/keys", json={"name": name, "scopes": scopes})
            assert created.status_code == 201, created.text
            keys.append(str(created.json()["key"]))
    return keys[0], keys[1]


def _flood_requests(base: datetime, rng: random.Random) -> list[tuple[str, str, str, Any]]:
    """(class, method, path, body) of the flood's mix, one of each class."""
    moment = iso(base + timedelta(minutes=rng.randrange(BIG_GAMES // 2, BIG_GAMES)))
    player = f"p{rng.randrange(BIG_PLAYERS):05d}"
    table = {"ladder": BIG, "players": [{"player": f"p{i:05d}"} for i in range(TABLE)]}
    return [
        ("as_of_board", "GET", f"/ladders/{BIG}/leaderboard?as_of={moment}&limit=50", None),
        ("evaluate", "POST", f"/ladders/{BIG}/evaluate", {}),
        ("as_of_player", "GET", f"/ladders/{BIG}/players/{player}?as_of={moment}", None),
        ("whatif", "POST", f"/ladders/{BIG}/whatif", {"params": {"k": 40}}),
        ("prediction_100", "POST", "/predictions", table),
    ]


async def _flood(
    url: str, key: str, base: datetime, stop: asyncio.Event, seen: dict[str, list[Any]]
) -> None:
    async with http_client(FLOODERS, key) as client:

        async def one(worker: int) -> None:
            rng = random.Random(worker)
            turn = worker
            while not stop.is_set():
                requests = _flood_requests(base, rng)
                kind, method, path, body = requests[turn % len(requests)]
                turn += 1
                started = time.perf_counter()
                try:
                    response = await client.request(method, f"{url}{path}", json=body)
                except httpx.HTTPError as exc:
                    seen[kind].append((type(exc).__name__, time.perf_counter() - started))
                    continue
                seen[kind].append((response.status_code, time.perf_counter() - started))
                if response.status_code == 429:  # within its limit: wait as told
                    await asyncio.sleep(float(response.headers.get("retry-after", "1")))

        await asyncio.gather(*(one(worker) for worker in range(FLOODERS)))


async def _probe(
    url: str, key: str, stop: asyncio.Event, seen: dict[str, list[tuple[Any, float]]]
) -> None:
    """Alternately a game posted to the probe ladder and a two-player prediction there."""
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(days=1)
    async with http_client(1, key) as client:
        index = 0
        while not stop.is_set():
            body = {
                "ladder": PROBE,
                "id": f"probe{index:05d}",
                "played_at": iso(start + timedelta(seconds=index)),
                "players": [{"player": "ann", "rank": 1 + index % 2}, {"player": "bo", "rank": 1}],
            }
            pair = {"ladder": PROBE, "players": [{"player": "ann"}, {"player": "bo"}]}
            for kind, path, payload in (
                ("games", "/games", body),
                ("prediction_2", "/predictions", pair),
            ):
                started = time.perf_counter()
                try:
                    response = await client.post(f"{url}{path}", json=payload)
                    outcome: Any = response.status_code
                except httpx.HTTPError as exc:
                    outcome = type(exc).__name__
                seen[kind].append((outcome, time.perf_counter() - started))
                await asyncio.sleep(PROBE_PAUSE)
            index += 1


def _flood_test(name: str, database_url: str, launcher: ServerLauncher) -> None:
    [server] = launcher.start(
        database_url,
        count=1,
        workers=WORKERS,
        pool_size=POOL_SIZE,
        pool_overflow=POOL_OVERFLOW,
        settings={"RATINGS_RATE_LIMIT_PER_MINUTE": str(FLOOD_RATE_LIMIT)},
    )
    base = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=BIG_GAMES + 60)

    async def scenario() -> dict[str, Any]:
        built = time.perf_counter()
        flood_key, probe_key = await _build(server.url, base)
        build_seconds = time.perf_counter() - built
        flooded: dict[str, list[Any]] = defaultdict(list)
        probed: dict[str, list[tuple[Any, float]]] = defaultdict(list)
        stop_flood, stop_probe = asyncio.Event(), asyncio.Event()
        flood_started = time.perf_counter()
        flood = asyncio.ensure_future(_flood(server.url, flood_key, base, stop_flood, flooded))
        await asyncio.sleep(WARMUP_SECONDS)
        probing_started = time.perf_counter()
        probe = asyncio.ensure_future(_probe(server.url, probe_key, stop_probe, probed))
        await asyncio.sleep(PROBE_SECONDS)
        stop_probe.set()
        await probe
        probing = time.perf_counter() - probing_started
        stop_flood.set()
        await flood
        return {
            "flood_seconds": round(time.perf_counter() - flood_started, 1),
            "build_seconds": round(build_seconds, 1),
            "probing_seconds": round(probing, 1),
            "flooded": flooded,
            "probed": probed,
        }

    run = asyncio.run(scenario())
    problems: list[str] = []
    probes: dict[str, Any] = {}
    for kind, answers in sorted(run["probed"].items()):
        times = [seconds for _, seconds in answers]
        statuses = Counter(str(status) for status, _ in answers)
        p99 = _percentile(times, 0.99)
        probes[kind] = {
            "count": len(times),
            "statuses": dict(statuses),
            "p50_ms": round(1000 * (_percentile(times, 0.5) or 0), 1),
            "p99_ms": round(1000 * (p99 or 0), 1),
            "max_ms": round(1000 * max(times, default=0), 1),
        }
        wrong = {s: n for s, n in statuses.items() if s not in ("200", "201")}
        if wrong:
            problems.append(f"probe {kind}: answers other than 200/201: {wrong}")
        if p99 is None or p99 >= P99_LIMIT:
            problems.append(f"probe {kind}: p99 {p99} s, not under {P99_LIMIT} s")
    flood: dict[str, Any] = {}
    done = 0
    for kind, answers in sorted(run["flooded"].items()):
        ok = [seconds for status, seconds in answers if status == 200]
        done += len(ok)
        flood[kind] = {
            "statuses": dict(Counter(str(status) for status, _ in answers)),
            "p50_ms": round(1000 * (_percentile(ok, 0.5) or 0), 1),
            "max_ms": round(1000 * max(ok, default=0), 1),
        }
        errors = [s for s, _ in answers if s not in (200, 429)]
        if errors:
            problems.append(f"flood {kind}: unexpected answers {Counter(map(str, errors))}")
    if done == 0:
        problems.append("the flood got nothing done: it tested nothing")
    summary = {
        "big_ladder_events": BIG_GAMES,
        "big_ladder_players": BIG_PLAYERS,
        "build_seconds": run["build_seconds"],
        "flooders": FLOODERS,
        "probing_seconds": run["probing_seconds"],
        "flood_seconds": run["flood_seconds"],
        "flood_completed_per_second": round(done / run["flood_seconds"], 2),
        "flood": flood,
        "probes": probes,
    }
    finish(name, summary, problems, [server])


def test_flood_on_sqlite(load_sqlite_url: str, launcher: ServerLauncher) -> None:
    _flood_test("fairness_flood_on_sqlite", load_sqlite_url, launcher)


def test_flood_on_postgres(load_postgres_url: str, launcher: ServerLauncher) -> None:
    postgres_connection_budget(postgres_base_url(), WORKERS * (POOL_SIZE + POOL_OVERFLOW))
    _flood_test("fairness_flood_on_postgres", load_postgres_url, launcher)
