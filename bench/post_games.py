"""POST /games: games/s and latency of ``ratings serve`` under wrk, on SQLite and PostgreSQL,
against the same requests to a server with no database (the ceiling).

    flock /tmp/bench.lock .venv/bin/python bench/post_games.py [--databases sqlite,postgresql]
        [--systems fundox] [--duration 15] [--warmup 3] [--connections 64] [--workers 2]
        [--rounds 1] [--auth key] [--rate-limit on] [--against REV] [--profile]

Sides: every build (this checkout, and each ``--against REV``) × ``--auth`` (``key``: an API
key of scope ``results:write``, made with the admin token; ``admin``: the admin token) ×
``--rate-limit`` (``on``: RATINGS_RATE_LIMIT_PER_MINUTE at 10**9, counted for every request
but never reached; ``off``: 0). Each round measures the ceiling, then for each database every
side in turn (the order reversed every other round): a server of its own with a fresh
database, ladders made with the admin token, a warm-up, ``ANALYZE`` on PostgreSQL, the
measured wrk run (bench/post_games.lua: unique ids, random tables, no game late), then the
check that every 201 is a stored game and nothing else is.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import Build, Server

LUA = common.BENCH / "post_games.lua"
#: Players per table of each system the load knows.
SYSTEMS = {"fundox": 4, "naf": 2}
#: played_at of the warm-up's first round, and of the measured run's (later: never late).
WARMUP_EPOCH = 1767225600  # 2026-01-01
MEASURE_EPOCH = 1782864000  # 2026-07-01
RATE_LIMITS = {"on": str(10**9), "off": "0"}
PG_APPLICATION = "ratings-bench"
PG_SCHEMA = "bench_post_games"
#: How often pg_stat_activity is sampled during a measured PostgreSQL run (seconds).
PG_SAMPLE_INTERVAL = 0.05


@dataclass(frozen=True)
class Side:
    build: Build
    auth: str
    rate_limit: str

    @property
    def label(self) -> str:
        return f"{self.build.label}/{self.auth}/rate-limit-{self.rate_limit}"


def database_url(target: str, workdir: Path) -> str:
    if target == "sqlite":
        return common.fresh_sqlite(workdir / "post_games.db")
    common.fresh_schema(PG_SCHEMA)
    options = f"options=-csearch_path%3D{PG_SCHEMA}&application_name={PG_APPLICATION}"
    if target == "postgresql-unix":  # the socket, as docs/deploy.md advises on one machine
        return f"postgresql+psycopg://postgres@/{common.PG_DATABASE}?host=/var/run/postgresql&{options}"
    return common.pg_url(PG_SCHEMA, PG_APPLICATION)


class PgSampler(threading.Thread):
    """What the server's PostgreSQL sessions are doing meanwhile (pg_stat_activity): the
    average number in each state, e.g. ``idle in transaction / Client:ClientRead`` (PostgreSQL
    waits for Python mid-transaction) or ``active / Lock:transactionid`` (a row lock)."""

    QUERY = (
        "SELECT state, wait_event_type, wait_event FROM pg_stat_activity "
        "WHERE application_name = %s AND pid <> pg_backend_pid()"
    )

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.halt = threading.Event()
        self.samples = 0
        self.states: Counter[str] = Counter()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(common.PG_DSN, autocommit=True) as connection:
            while not self.halt.is_set():
                for state, kind, event in connection.execute(self.QUERY, (PG_APPLICATION,)):
                    self.states[f"{state}" + (f" / {kind}:{event}" if kind else "")] += 1
                self.samples += 1
                time.sleep(PG_SAMPLE_INTERVAL)

    def stop(self) -> dict[str, float]:
        self.halt.set()
        self.join(timeout=5)
        n = max(self.samples, 1)
        return {k: round(v / n, 2) for k, v in self.states.most_common()}


def run_wrk(
    server: Server,
    args: argparse.Namespace,
    *,
    ladder: str,
    system: str,
    token: str,
    prefix: str,
    seed: int,
    epoch: int,
    seconds: int,
    measure: bool = False,
    sample_pg: bool = False,
) -> dict[str, Any]:
    command = [
        "wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--timeout", "30s",
        "-s", str(LUA), server.base, "--", ladder, system, str(args.players), token, prefix,
        str(seed), str(epoch), str(args.threads),
    ]  # fmt: skip
    spies = []
    if measure and args.profile:
        # py-spy on each worker, the GIL holder only: where the Python CPU time goes.
        for pid in server.worker_pids():
            out = args.profile / f"{server.name}-{system}-{pid}.txt"
            spies.append(
                subprocess.Popen(
                    ["py-spy", "record", "--pid", str(pid), "--rate", "200", "--format", "raw",
                     "--duration", str(seconds), "--nonblocking", "--gil", "--output", str(out)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        time.sleep(1.0)  # let py-spy attach
    meter = common.CpuMeter(server.tree())
    sampler = PgSampler() if sample_pg else None
    if sampler:
        sampler.start()
    wrk = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120)
    cpu = meter.read()
    activity = sampler.stop() if sampler else None
    for spy in spies:
        spy.wait(timeout=60)
    line = next((x for x in wrk.stdout.splitlines() if x.startswith("WRK_RESULT ")), None)
    if wrk.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({wrk.returncode}): {wrk.stdout[-2000:]}{wrk.stderr}")
    result: dict[str, Any] = json.loads(line.removeprefix("WRK_RESULT "))
    result["statuses"] = {str(k): v for k, v in sorted(result["statuses"].items())}
    result["cpu"] = cpu
    result["postgres_sessions"] = activity
    return result


def wait_quiet(client: httpx.Client, ladder: str) -> int:
    """The ladder's games once the count stops moving (requests cut at wrk's stop finish)."""
    readings: list[int] = []
    for _ in range(240):
        readings.append(int(client.get(f"/ladders/{ladder}").raise_for_status().json()["games"]))
        if len(readings) >= 4 and len(set(readings[-4:])) == 1:
            break
        time.sleep(0.5)
    return readings[-1]


def check(client: httpx.Client, ladder: str, loads: list[dict[str, Any]]) -> dict[str, Any]:
    """Every 201 is a stored game; the only other stored games are requests cut at the stop
    (sent without an answer: each is asked for, 200 stored or 404 not)."""
    created = sum(load["statuses"].get("201", 0) for load in loads)
    others = Counter(
        {c: n for load in loads for c, n in load["statuses"].items() if c != "201"}
    )  # every id is new: a 200 would be a replay
    games = wait_quiet(client, ladder)
    cut = [i for load in loads for i in load["unanswered_ids"]]
    stored_cut = sum(client.get(f"/ladders/{ladder}/games/{i}").status_code == 200 for i in cut)
    socket_errors = sum(v for load in loads for k, v in load["errors"].items() if k != "status")
    return {
        "ok": games == created + stored_cut and not others and not socket_errors,
        "stored": games,
        "answered_201": created,
        "cut_at_stop_but_stored": stored_cut,
        "other_statuses": dict(others),
        "socket_errors": socket_errors,
    }


def measure(
    target: str,
    side: Side | None,
    round_: int,
    args: argparse.Namespace,
    workdir: Path,
) -> list[dict[str, Any]]:
    """One server (a side's on a database, or the ceiling), every system; a row each."""
    background = common.busy_pct()
    name = f"{target}-{side.label.replace('/', '-') if side else 'ceiling'}-{round_}"
    env = {"RATINGS_LOG_LEVEL": "WARNING"}
    build = side.build if side else Build("this", common.ROOT)
    if side is not None:
        env["RATINGS_DATABASE_URL"] = database_url(target, workdir)
        env["RATINGS_RATE_LIMIT_PER_MINUTE"] = RATE_LIMITS[side.rate_limit]
    server = Server(name, build, env, workdir, args.workers)
    if side is None:
        # Parses and answers like the service with no database; it knows the admin token.
        server.command = [
            common.PYTHON, str(common.BENCH / "ceiling_app.py"), "--host", "127.0.0.1",
            "--port", str(server.port), "--workers", str(args.workers),
        ]  # fmt: skip
    rows = []
    with server, common.admin_client(server.base, 30.0) as client:
        token = common.ADMIN_TOKEN
        if side is not None and side.auth == "key":
            token = common.writer_key(server.base)
        for index, system in enumerate(args.systems):
            ladder = f"bench-{system}"
            if side is not None:
                client.post("/ladders", json={"id": ladder, "system": system}).raise_for_status()
            common_args: dict[str, Any] = {"ladder": ladder, "system": system, "token": token}
            prefix = f"r{round_}{index}"
            warm = run_wrk(
                server, args, prefix=prefix + "w", seed=args.seed + index,
                epoch=WARMUP_EPOCH, seconds=args.warmup, **common_args,
            )  # fmt: skip
            if target.startswith("postgresql") and side is not None:
                # Statistics, as autovacuum gives any database up a minute: without them
                # the row locks' key lists are planned as scans of the whole ladder.
                tables = ("events", "changes", "player_ratings")
                common.pg_execute(*(f"ANALYZE {PG_SCHEMA}.{t}" for t in tables))
            load = run_wrk(
                server, args, prefix=prefix + "m", seed=args.seed + 100 + index,
                epoch=MEASURE_EPOCH, seconds=args.duration, measure=True,
                sample_pg=target.startswith("postgresql") and side is not None, **common_args,
            )  # fmt: skip
            verdict = (
                check(client, ladder, [warm, load])
                if side is not None
                else {"ok": set(load["statuses"]) <= {"201"}, "statuses": load["statuses"]}
            )
            rows.append(row(target, side, round_, system, load, verdict, background))
            show(rows[-1])
    return rows


def row(
    target: str,
    side: Side | None,
    round_: int,
    system: str,
    load: dict[str, Any],
    verdict: dict[str, Any],
    background: float,
) -> dict[str, Any]:
    seconds = load["duration_us"] / 1e6
    created = load["statuses"].get("201", 0)
    rate = created / seconds
    cpu = load["cpu"]
    per_game = {
        "server": round(1000 * cpu["processes_cpu_s"] / created, 3) if created else None,
        "postgres": round(1000 * cpu["postgres_cpu_s"] / created, 3) if created else None,
    }
    pct = load["latency_us"]["percentiles"]
    return {
        "round": round_,
        "database": target,
        "system": system,
        "side": side.label if side else "ceiling",
        "games_per_s": round(rate, 1),
        "p50_ms": pct["50"] / 1000,
        "p99_ms": pct["99"] / 1000,
        "max_ms": load["latency_us"]["max"] / 1000,
        "statuses": load["statuses"],
        "late_games": load["late"],
        "cpu_ms_per_game": per_game,
        "server_cpu_ms_per_game": per_game["server"],
        "machine_busy_pct": cpu["machine_busy_pct"],
        "busy_before_pct": background,
        "postgres_sessions": load["postgres_sessions"],
        "check": verdict,
    }


def show(r: dict[str, Any]) -> None:
    print(
        f"[round {r['round']}] {r['database']} {r['side']} {r['system']}: "
        f"{r['games_per_s']:.0f} games/s, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
        f"server CPU {r['server_cpu_ms_per_game']} ms/game, machine {r['machine_busy_pct']} %, "
        f"check {'ok' if r['check']['ok'] else 'FAILED ' + json.dumps(r['check'])}",
        flush=True,
    )


def markdown(report: dict[str, Any]) -> str:
    rows, sides = report["runs"], report["sides"]
    cfg = report["config"]
    lines = common.header("POST /games", report)
    lines += [
        f"wrk, {cfg['connections']} connections, {cfg['duration']} s measured after "
        f"{cfg['warmup']} s of warm-up; {cfg['workers']} worker(s); {cfg['players']} players; "
        f"{cfg['rounds']} round(s), the sides alternated. Sides: "
        + "; ".join(f"**{s}**" for s in sides)
        + ". The ceiling answers with no database and checks the admin token.",
        "",
        "| database | system | side | games/s | ÷ ceiling | p50 ms | p99 ms | "
        "CPU ms/game server / postgres | late | check |",
        "|---|---|---|---:|---:|---:|---:|---|---:|---|",
    ]
    order = ["ceiling", *report["config"]["databases"].split(","), *sides]
    groups = sorted(
        {(r["database"], r["system"], r["side"]) for r in rows},
        key=lambda g: (order.index(g[0]), g[1], order.index(g[2])),
    )
    for database, system, side in groups:
        mine = [
            r for r in rows if (r["database"], r["system"], r["side"]) == (database, system, side)
        ]
        ceiling = [
            r["games_per_s"] / c["games_per_s"]
            for r in mine
            for c in rows
            if c["side"] == "ceiling" and c["system"] == system and c["round"] == r["round"]
        ]
        lines.append(
            f"| {database} | {system} | {side} | "
            f"{common.spread([r['games_per_s'] for r in mine])} | "
            f"{common.spread(ceiling) if side != 'ceiling' else ''} | "
            f"{common.spread([r['p50_ms'] for r in mine])} | "
            f"{common.spread([r['p99_ms'] for r in mine])} | "
            f"{common.spread([r['cpu_ms_per_game']['server'] or 0 for r in mine])} / "
            f"{common.spread([r['cpu_ms_per_game']['postgres'] or 0 for r in mine])} | "
            f"{sum(r['late_games'] for r in mine)} | "
            f"{'ok' if all(r['check']['ok'] for r in mine) else 'FAILED'} |"
        )
    if len(sides) > 1:
        lines += [
            "",
            f"**{sides[0]}** ÷ each other side in the same round (median, and each round; "
            "for a change measured with --against REV: new ÷ old):",
            "",
            "| database | system | side | games/s | p99 | server CPU per game |",
            "|---|---|---|---|---|---|",
        ]
        for database, system, side in groups:
            if side in ("ceiling", sides[0]):
                continue
            cells = []
            for measure_ in ("games_per_s", "p99_ms", "server_cpu_ms_per_game"):
                values = by_round(rows, database, system, sides[0], side, measure_)
                cells.append(
                    f"{statistics.median(values):.2f} ({', '.join(f'{v:.2f}' for v in values)})"
                    if values
                    else "-"
                )
            lines.append(f"| {database} | {system} | {side} | " + " | ".join(cells) + " |")
    sessions = [r for r in rows if r["postgres_sessions"]]
    if sessions:
        lines += ["", "PostgreSQL sessions of the server, average number in each state:", ""]
        for r in sessions:
            states = ", ".join(f"{k} {v}" for k, v in list(r["postgres_sessions"].items())[:6])
            lines.append(f"- round {r['round']} {r['database']} {r['side']}: {states}")
    lines += [
        "",
        "games/s: 201 answers per second; latency from wrk (client side, closed loop); CPU ms "
        "per game stays comparable when other work shares the machine, games/s does not "
        "(busy before each server, % of one core: "
        + ", ".join(str(r["busy_before_pct"]) for r in rows)
        + "). late: games the service found late (recomputed); the load sends none.",
        "",
    ]
    return "\n".join(lines)


def by_round(
    rows: list[dict[str, Any]], database: str, system: str, side: str, base: str, key: str
) -> list[float]:
    out = []
    for r in rows:
        if (r["database"], r["system"], r["side"]) != (database, system, side):
            continue
        twin = next(
            x
            for x in rows
            if (x["database"], x["system"], x["side"], x["round"])
            == (database, system, base, r["round"])
        )
        if r[key] and twin[key]:
            out.append(r[key] / twin[key])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql",
                        help="sqlite, postgresql (TCP), postgresql-unix (the socket)")  # fmt: skip
    parser.add_argument("--systems", default="fundox", help="fundox (4 players), naf (2)")
    parser.add_argument("--duration", type=int, default=15, help="measured seconds")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of warm-up")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--auth", default="key", help="key, admin, or key,admin (both)")
    parser.add_argument("--rate-limit", default="on", help="on, off, or on,off (both)")
    parser.add_argument("--no-ceiling", action="store_true")
    parser.add_argument("--profile", action="store_true", help="py-spy on the workers (slower)")
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    common.add_against(parser)
    args = parser.parse_args()
    args.systems = args.systems.split(",")
    auths, limits = args.auth.split(","), args.rate_limit.split(",")
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed: apt-get install -y wrk")
    if (
        set(args.systems) - set(SYSTEMS)
        or set(auths) - {"key", "admin"}
        or set(limits) - set(RATE_LIMITS)
    ):
        parser.error("unknown --systems, --auth or --rate-limit value")
    if args.duration > 120 or args.warmup > 60 or args.rounds > 10:
        parser.error("keep runs bounded: --duration <= 120, --warmup <= 60, --rounds <= 10")
    with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
        report = common.new_report("POST /games", args, built)
        sides = [Side(*s) for s in itertools.product(built, auths, limits)]
        report["sides"] = [s.label for s in sides]
        if args.profile:
            args.profile = args.results / f"post_games-profile-{report['stamp']}"
            args.profile.mkdir(parents=True)
        report["runs"] = runs = []
        for round_ in range(args.rounds):
            if not args.no_ceiling:
                runs += measure("ceiling", None, round_, args, Path(tmp))
            for target in args.databases.split(","):
                for side in common.in_turn(round_, sides):
                    runs += measure(target, side, round_, args, Path(tmp))
        if "postgresql" in args.databases:
            common.drop_schema(PG_SCHEMA)
    args.profile = str(args.profile) if args.profile else False
    report["config"]["profile"] = args.profile
    common.write_results("post_games", report, markdown(report), args.results)
    return 0 if all(r["check"]["ok"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
