"""POST /games under three HTTP servers, alternated in one run (issue 34).

    flock /tmp/bench.lock .venv/bin/python bench/servers.py [--rounds 3] [--duration 15]

Contenders, each with 2 workers on the same PostgreSQL schema, reset and migrated before every
start: ``ratings serve`` as the checkout has it (uvicorn with app/workers.py and
app/protocol.py before 0dda71e, granian since), granian (ASGI) and gunicorn with uvicorn
workers (``--reuse-port``; ``pip install gunicorn uvicorn-worker``, not dependencies). Each
round runs every contender once, in an order rotated by the round; each run is a 5 s warm-up,
ANALYZE, then wrk (bench/post_games.lua, fundox, 64 connections) for the measured seconds.
Prints a table and writes bench/results/servers-<UTC>.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.metadata
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LUA = ROOT / "bench" / "post_games.lua"
RESULTS = ROOT / "bench" / "results"
SCHEMA = "bench"
#: played_at of the warm-up and of the measured run (later: no game arrives late).
WARMUP_EPOCH = int(dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp())
MEASURE_EPOCH = int(dt.datetime(2026, 7, 1, tzinfo=dt.UTC).timestamp())
CLK_TCK = os.sysconf("SC_CLK_TCK")
APP = "app.main:create_app"


def command(contender: str, port: int, workers: int) -> list[str]:
    if contender == "ratings-serve":
        return [str(BIN / "ratings"), "serve"]
    if contender == "granian":
        return [
            str(BIN / "granian"), "--interface", "asgi", "--factory", "--workers", str(workers),
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", APP,
        ]  # fmt: skip
    if contender == "gunicorn":
        return [
            str(BIN / "gunicorn"), "-k", "uvicorn_worker.UvicornWorker", "--workers",
            str(workers), "--reuse-port", "--bind", f"127.0.0.1:{port}", f"{APP}()",
        ]  # fmt: skip
    raise SystemExit(f"unknown contender {contender!r}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tree(pid: int) -> list[int]:
    found = [pid]
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            kids = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except FileNotFoundError:
            continue
        for kid in kids:
            found.extend(tree(int(kid)))
    return found


def cpu_ticks(pids: list[int]) -> dict[int, int]:
    ticks = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        ticks[pid] = int(fields[11]) + int(fields[12])
    return ticks


def reset_schema(admin_dsn: str) -> None:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {SCHEMA}")


def analyze(admin_dsn: str) -> None:
    """Statistics for what the warm-up wrote, as autovacuum would give them."""
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        for table in ("ladders", "events", "changes", "player_ratings"):
            conn.execute(f"ANALYZE {SCHEMA}.{table}")


def wrk(base: str, token: str, prefix: str, epoch: int, seconds: int, connections: int) -> Any:
    args = [
        "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "-s", str(LUA),
        base, "--", "bench-fundox", "fundox", "1000", token, prefix, "20261204", str(epoch), "1",
    ]  # fmt: skip
    out = subprocess.run(args, capture_output=True, text=True, check=True, timeout=seconds + 120)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("WRK_RESULT "))
    return json.loads(line.removeprefix("WRK_RESULT "))


def run_one(contender: str, args: argparse.Namespace, token: str, tmp: Path) -> dict[str, Any]:
    reset_schema(args.admin_dsn)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGS_")}
    env.update(
        RATINGS_DATABASE_URL=args.url,
        RATINGS_HOST="127.0.0.1",
        RATINGS_PORT=str(port),
        RATINGS_WORKERS=str(args.workers),
        RATINGS_ADMIN_TOKEN=token,
        # What ratings serve sets with several workers; the same metrics cost for all.
        PROMETHEUS_MULTIPROC_DIR=tempfile.mkdtemp(prefix="metrics-", dir=tmp),
    )
    subprocess.run([str(BIN / "ratings"), "migrate"], env=env, check=True, cwd=ROOT)
    log = (tmp / f"{contender}.log").open("wb")
    server = subprocess.Popen(
        command(contender, port, args.workers),
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"})
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"{contender} exited; see {log.name}"
            assert time.monotonic() < deadline, f"{contender} did not answer /healthz"
            try:
                if client.get("/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        client.post("/ladders", json={"id": "bench-fundox", "system": "fundox"}).raise_for_status()
        warm = wrk(base, token, "w", WARMUP_EPOCH, args.warmup, args.connections)
        analyze(args.admin_dsn)
        before = cpu_ticks(tree(server.pid))
        started = time.monotonic()
        load = wrk(base, token, "m", MEASURE_EPOCH, args.duration, args.connections)
        wall = time.monotonic() - started
        after = cpu_ticks(tree(server.pid))
        stored = int(client.get("/ladders/bench-fundox").raise_for_status().json()["games"])
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
    seconds = load["duration_us"] / 1e6
    created = sum(r["statuses"].get("201", 0) for r in (warm, load))
    unanswered = sum(len(r["unanswered_ids"]) for r in (warm, load))
    errors = sum(v for r in (warm, load) for v in r["errors"].values())
    bad = {k: v for r in (warm, load) for k, v in r["statuses"].items() if k != "201"}
    # Busiest processes of the server's tree, % of one core: a worker left idle shows here.
    shares = sorted(
        (100 * (t - before.get(pid, 0)) / CLK_TCK / wall for pid, t in after.items()),
        reverse=True,
    )
    pct = load["latency_us"]["percentiles"]
    return {
        "contender": contender,
        "games_per_s": load["statuses"].get("201", 0) / seconds,
        "p50_ms": pct["50"] / 1000,
        "p99_ms": pct["99"] / 1000,
        "cpu": "/".join(f"{s:.0f}" for s in shares[: args.workers + 1]),
        "ok": not bad and errors == 0 and created <= stored <= created + unanswered,
        "check": f"{stored} stored, {created} × 201, {unanswered} cut at stop, "
        f"other statuses {bad or 'none'}, socket errors {errors}",
    }


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--contenders", default="ratings-serve,granian,gunicorn")
    parser.add_argument("--pg-database", default="bench_servers")
    args = parser.parse_args()
    args.admin_dsn = f"postgresql://postgres@127.0.0.1:5432/{args.pg_database}"
    args.url = (
        f"postgresql+psycopg://postgres@127.0.0.1:5432/{args.pg_database}"
        f"?options=-csearch_path%3D{SCHEMA}"
    )
    contenders = args.contenders.split(",")
    token = secrets.token_urlsafe(24)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-servers-") as tmp:
        for round_ in range(1, args.rounds + 1):
            shift = (round_ - 1) % len(contenders)
            for contender in contenders[shift:] + contenders[:shift]:
                load = os.getloadavg()[0]
                result = run_one(contender, args, token, Path(tmp))
                row = {"round": round_, "load_before": load, **result}
                rows.append(row)
                print(
                    f"round {round_} {contender}: {row['games_per_s']:.0f} games/s, "
                    f"p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms, cpu {row['cpu']}, "
                    f"{'ok' if row['ok'] else 'CHECK FAILED: ' + row['check']}",
                    flush=True,
                )
    lines = [
        f"# POST /games by HTTP server, {stamp}",
        "",
        f"Commit {commit}; {os.cpu_count()} cores; PostgreSQL on 127.0.0.1 (TCP); fundox; "
        f"{args.workers} workers; wrk {args.connections} connections, {args.warmup} s warm-up, "
        f"{args.duration} s measured; {args.rounds} rounds, order rotated each round. "
        f"uvicorn {version('uvicorn')}, granian {version('granian')}, gunicorn "
        f"{version('gunicorn')}, uvicorn-worker {version('uvicorn-worker')}.",
        "",
        "| round | contender | games/s | p50 ms | p99 ms | server CPU % by process | "
        "load avg before | check |",
        "|---:|---|---:|---:|---:|---|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['round']} | {r['contender']} | {r['games_per_s']:.0f} | {r['p50_ms']:.1f} | "
            f"{r['p99_ms']:.1f} | {r['cpu']} | {r['load_before']:.2f} | "
            f"{'ok' if r['ok'] else 'FAILED'}: {r['check']} |"
        )
    lines += ["", "| contender | median games/s | median p99 ms |", "|---|---:|---:|"]
    for contender in contenders:
        mine = [r for r in rows if r["contender"] == contender]
        lines.append(
            f"| {contender} | {statistics.median(r['games_per_s'] for r in mine):.0f} | "
            f"{statistics.median(r['p99_ms'] for r in mine):.1f} |"
        )
    text = "\n".join(lines) + "\n"
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"servers-{stamp}.md"
    path.write_text(text)
    print()
    print(text)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
