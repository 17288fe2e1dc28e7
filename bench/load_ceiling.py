"""How fast the load tests' three-replica setup can go on this machine, and where the CPU goes.

    .venv/bin/python bench/load_ceiling.py [--games 5000] [--players 200,20000]

The load tests (tests/load/test_load.py) drive three replicas of two workers each from one
asyncio client (50 clients, ``tests.load.helpers.run_load``). This runs that same client, on
the same seeded workloads (``build_workload``), against:

- ``no-database``: three ``bench/ceiling_app.py`` servers of two workers (the service's
  framework path and body model, no database): the most the client itself can send;
- ``service``: three ``ratings serve`` replicas on PostgreSQL with the load tests' settings
  (``ServerLauncher``, pool 5 + 3, a fresh migrated schema), for 200 players (the load
  tests': games share players, so some arrive late) and 20,000 (almost none late).

For each it records games/s, the games that re-rated others, and the CPU seconds of the
client (this process), the servers and PostgreSQL over the load, per game, with the
PostgreSQL transactions per game (``pg_stat_database``). No check of the stored state: the
load tests do that. Results: ``bench/results/load-ceiling-<UTC time>.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

import run_post_games as rpg  # noqa: E402

from tests.load.helpers import (  # noqa: E402
    ADMIN_TOKEN,
    ServerLauncher,
    build_workload,
    create_ladder,
    free_port,
    postgres_base_url,
    postgres_schema,
    run_load,
)

REPLICAS = 3
WORKERS = 2
CLIENTS = 50
ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"


def cpu_snapshot(servers: list[int]) -> tuple[float, dict[int, int], dict[int, int]]:
    """CPU so far of this process (the client, seconds), and the jiffies of each server
    process (the given ones and their workers) and of each PostgreSQL process."""
    own = os.times()
    tree = [pid for root in servers for pid in (root, *rpg.children(root))]
    return own.user + own.system, rpg.cpu_ticks(tree), rpg.cpu_ticks(rpg.postgres_pids())


def cpu_spent(
    before: tuple[float, dict[int, int], dict[int, int]],
    after: tuple[float, dict[int, int], dict[int, int]],
) -> dict[str, float]:
    """CPU seconds between two snapshots, by group (run_post_games's accounting)."""
    return {
        "client": round(after[0] - before[0], 2),
        "servers": round(rpg.ticks_spent(before[1], after[1]) / rpg.CLK_TCK, 2),
        "postgres": round(rpg.ticks_spent(before[2], after[2]) / rpg.CLK_TCK, 2),
    }


def transactions() -> int:
    with psycopg.connect(ADMIN_DSN, autocommit=True) as connection:
        row = connection.execute("SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database")
        return int(row.fetchone()[0])  # type: ignore[index]


def measure(
    urls: list[str], servers: list[int], games: int, players: int, *, ladder: bool
) -> dict[str, Any]:
    workload = build_workload(games=games, players=players, servers=REPLICAS, seed=1)
    if ladder:
        asyncio.run(create_ladder(urls))
    cpu_before, xact_before = cpu_snapshot(servers), transactions()
    run = asyncio.run(run_load(urls, workload, clients=CLIENTS))
    cpu_after, xact_after = cpu_snapshot(servers), transactions()
    cpu = cpu_spent(cpu_before, cpu_after)
    rerating = sum(1 for a in run.attempts if a.recomputed > 0)
    return {
        "players": players,
        "games": games,
        "sends": run.sends,
        "unacknowledged": len(run.unacknowledged),
        "seconds": round(run.duration, 2),
        "games_per_s": round(games / run.duration, 1),
        "games_rerating_others": rerating,
        "cpu_s": cpu,
        "cpu_ms_per_game": {g: round(1000 * s / games, 2) for g, s in cpu.items()},
        "machine_cores_busy": round(sum(cpu.values()) / run.duration, 2),
        "pg_transactions_per_game": round((xact_after - xact_before) / games, 2),
    }


def no_database(games: int, players: int) -> dict[str, Any]:
    ports = [free_port() for _ in range(REPLICAS)]
    env = dict(os.environ, RATINGS_ADMIN_TOKEN=ADMIN_TOKEN, PYTHONPATH=str(ROOT))
    command = [sys.executable, str(ROOT / "bench" / "ceiling_app.py"), "--workers", str(WORKERS)]
    servers = [
        subprocess.Popen([*command, "--port", str(port)], env=env, cwd=ROOT) for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for url in urls:
            for _ in range(200):
                try:
                    if httpx.get(f"{url}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
        return measure(urls, [s.pid for s in servers], games, players, ladder=False)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait()


def service(games: int, players: int) -> dict[str, Any]:
    launcher = ServerLauncher("bench-load-ceiling")
    with postgres_schema(postgres_base_url()) as url:
        try:
            servers = launcher.start(url, count=REPLICAS, workers=WORKERS)
            urls = [s.url for s in servers]
            return measure(urls, [s.process.pid for s in servers], games, players, ladder=True)
        finally:
            launcher.stop_all()


def report(rows: list[dict[str, Any]], stamp: str, args: argparse.Namespace) -> str:
    lines = [
        f"# The load tests' client and three replicas: how fast on this machine ({stamp})",
        "",
        f"`bench/load_ceiling.py --games {args.games} --players {args.players}`; "
        f"{REPLICAS} servers x {WORKERS} workers, {CLIENTS} clients (tests/load's), nproc "
        f"{os.cpu_count()}, load average after {os.getloadavg()}.",
        "",
        "| target | players | games/s | games re-rating others | CPU ms per game: client / "
        "servers / postgres | cores busy | PG transactions per game |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for row in rows:
        per = row["cpu_ms_per_game"]
        lines.append(
            f"| {row['target']} | {row['players']} | {row['games_per_s']} | "
            f"{row['games_rerating_others']} | {per['client']} / {per['servers']} / "
            f"{per['postgres']} | {row['machine_cores_busy']} | "
            f"{row['pg_transactions_per_game']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5_000)
    parser.add_argument("--players", default="200,20000")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args()
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        for target, run in (("no-database", no_database), ("service", service)):
            row = {"target": target, **run(args.games, players)}
            print(json.dumps(row), flush=True)
            rows.append(row)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    args.results.mkdir(parents=True, exist_ok=True)
    base = args.results / f"load-ceiling-{stamp}"
    base.with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")
    text = report(rows, stamp, args)
    base.with_suffix(".md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
