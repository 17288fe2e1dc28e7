"""Benchmark POST /games against a no-database ceiling, on SQLite and PostgreSQL, in one run.

    .venv/bin/python bench/run_post_games.py [--duration 15] [--connections 64] [--workers 2]
        [--databases sqlite,postgresql,postgresql-unix] [--systems fundox,naf] [--profile]

For each target (the no-database ceiling first, then each database) it starts the server as a
subprocess on a free loopback port, waits for /healthz, creates one ladder per system, warms
up, runs wrk (bench/post_games.lua) for a bounded time, checks that every 201 is a stored game
and nothing else is, and stops the server. Results (games/s, latency percentiles, status
counts, CPU shares, the ratio to the ceiling, machine facts) are printed and written to
bench/results/post_games-<UTC time>.json and .md. See bench/README.md.

PostgreSQL is measured over both ways a service on the database's machine can reach it: TCP
on 127.0.0.1 (``postgresql``) and the Unix socket (``postgresql-unix``). They differ here:
psycopg flushes a statement's bytes to the socket holding the GIL, and on loopback TCP the
sending call also runs the receiving side of the network stack and wakes the backend, so the
worker's other thread (the event loop) waits meanwhile.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.metadata
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
RESULTS = BENCH / "results"
LUA_SCRIPT = BENCH / "post_games.lua"
VENV_BIN = Path(sys.executable).parent

PG_SCHEMA = "bench"
PG_APP_NAME = "ratings-bench"
#: Where this machine's PostgreSQL listens on its Unix socket (Debian's default).
PG_SOCKET_DIR = "/var/run/postgresql"
_PG_OPTIONS = f"options=-csearch_path%3D{PG_SCHEMA}&application_name={PG_APP_NAME}"


def pg_admin_dsn(database: str) -> str:
    return f"postgresql://postgres@127.0.0.1:5432/{database}"


def pg_urls(database: str) -> dict[str, str]:
    """The server's database URL for each PostgreSQL target: TCP on loopback, or the socket."""
    return {
        "postgresql": f"postgresql+psycopg://postgres@127.0.0.1:5432/{database}?{_PG_OPTIONS}",
        "postgresql-unix": (
            f"postgresql+psycopg://postgres@/{database}?host={PG_SOCKET_DIR}&{_PG_OPTIONS}"
        ),
    }


#: The database the benchmark's schema lives in (``--pg-database``; set by ``use_pg_database``).
PG_ADMIN_DSN = pg_admin_dsn("test")
PG_URLS = pg_urls("test")


def use_pg_database(database: str) -> None:
    """Measure in another PostgreSQL database than ``test`` (one of the caller's own)."""
    global PG_ADMIN_DSN, PG_URLS
    PG_ADMIN_DSN, PG_URLS = pg_admin_dsn(database), pg_urls(database)


#: On a server's PYTHONPATH with ``--checkout``: records where each of its processes imported
#: ``app`` from (bench/import_probe/sitecustomize.py), in the folder this variable names.
IMPORT_PROBE = BENCH / "import_probe"
IMPORT_LOG_ENV = "RATINGS_BENCH_IMPORT_LOG"
#: How often the PostgreSQL sampler looks at pg_stat_activity (seconds).
PG_SAMPLE_INTERVAL = 0.05

#: Players per table of each benchmarked system.
SYSTEMS = {"fundox": 4, "naf": 2}
#: played_at of the warm-up's first round, and of the measured run's (later, so never late).
WARMUP_EPOCH = int(dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp())
MEASURE_EPOCH = int(dt.datetime(2026, 7, 1, tzinfo=dt.UTC).timestamp())
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- processes -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return found
    for task in tasks:
        try:
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
        except FileNotFoundError:
            continue
        for child in text.split():
            found.append(int(child))
            found.extend(children(int(child)))
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def cpu_ticks(pids: list[int]) -> dict[int, int]:
    """CPU jiffies (user + system) of each process still alive."""
    ticks: dict[int, int] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        ticks[pid] = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks


def ticks_spent(before: dict[int, int], after: dict[int, int]) -> int:
    """Jiffies spent between two snapshots (processes born in between count from zero)."""
    return sum(value - before.get(pid, 0) for pid, value in after.items())


def postgres_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                    pids.append(int(entry))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return pids


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class Server:
    name: str
    command: list[str]
    env: dict[str, str]
    port: int
    log_path: Path
    workers: int
    #: The server's working directory: the checkout it runs (see ``server_for``).
    cwd: Path = ROOT
    #: Where its processes record the ``app`` they imported (``--checkout`` only).
    import_log: Path | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        self.log_file = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            env=self.env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.tail()}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            self.stop()
            raise RuntimeError(f"{self.name} did not answer /healthz in {timeout}s:\n{self.tail()}")
        # Every worker must be up before the clock starts.
        while len(self.worker_pids()) < self.workers and time.monotonic() < deadline:
            time.sleep(0.2)

    def tree(self) -> list[int]:
        assert self.process is not None
        return [self.process.pid, *children(self.process.pid)]

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        if self.workers == 1:
            return [self.process.pid]
        return [
            pid
            for pid in children(self.process.pid)
            if "multiprocessing" in cmdline(pid) and "resource_tracker" not in cmdline(pid)
        ]

    def imports(self) -> dict[int, str]:
        """The file each of its processes imported ``app`` from (pid -> path)."""
        if self.import_log is None:
            return {}
        return {int(path.name): path.read_text().strip() for path in self.import_log.iterdir()}

    def verify_checkout(self, timeout: float = 60.0) -> dict[str, str]:
        """Raise unless the supervisor and every worker imported ``app`` from ``self.cwd``
        (waiting for workers that are up but have not yet imported it)."""
        expected = (self.cwd / "app" / "__init__.py").resolve()
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while True:
            imports = self.imports()
            pids = {self.process.pid, *self.worker_pids()}
            if pids <= imports.keys() or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        wrong = {
            pid: imports.get(pid)
            for pid in pids
            if imports.get(pid) is None or Path(imports[pid]).resolve() != expected
        }
        if wrong:
            raise RuntimeError(
                f"{self.name}: processes not running {self.cwd}'s code (pid -> app imported "
                f"from): {wrong}; all: {imports}"
            )
        return {str(pid): imports[pid] for pid in sorted(pids)}

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log_file.close()


class PgSampler(threading.Thread):
    """Samples what the server's PostgreSQL sessions are doing (pg_stat_activity) meanwhile.

    The result is the average number of the server's sessions in each state: "active" with its
    wait event (Lock:transactionid = waiting for another transaction's row lock, IO:WALSync =
    the commit's fsync, none = running on the CPU), "idle in transaction" (PostgreSQL waits
    for the Python side in the middle of a transaction), "idle" (in the pool).
    """

    QUERY = (
        "SELECT state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', "
        "'g'), 70) FROM pg_stat_activity WHERE application_name = %s AND pid <> pg_backend_pid()"
    )

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stop_event = threading.Event()
        self.samples = 0
        self.states: Counter[str] = Counter()
        self.active_queries: Counter[str] = Counter()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            while not self.stop_event.is_set():
                rows = conn.execute(self.QUERY, (PG_APP_NAME,)).fetchall()
                self.samples += 1
                for state, wait_type, wait, query in rows:
                    where = f"{state}" + (f" / {wait_type}:{wait}" if wait_type else "")
                    self.states[where] += 1
                    if state != "idle":
                        self.active_queries[f"{where} | {query}"] += 1
                time.sleep(PG_SAMPLE_INTERVAL)

    def stop(self) -> dict[str, Any]:
        self.stop_event.set()
        self.join(timeout=5)
        n = max(self.samples, 1)
        return {
            "samples": self.samples,
            "avg_sessions_by_state": {k: round(v / n, 2) for k, v in self.states.most_common()},
            "avg_sessions_by_statement": {
                k: round(v / n, 2) for k, v in self.active_queries.most_common(15)
            },
        }


# -- load ------------------------------------------------------------------------------------


@dataclass
class LoadResult:
    wrk: dict[str, Any]
    wrk_cpu_s: float
    wall_s: float
    cpu: dict[str, float] = field(default_factory=dict)
    postgres_activity: dict[str, Any] | None = None


def run_wrk(
    server: Server,
    *,
    ladder: str,
    system: str,
    players: int,
    token: str,
    prefix: str,
    seed: int,
    start_epoch: int,
    duration: int,
    connections: int,
    threads: int,
    measure_cpu: bool = False,
    sample_postgres: bool = False,
    profile_dir: Path | None = None,
    py_spy: str | None = None,
) -> LoadResult:
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{duration}s",
        "--timeout",
        "30s",
        "-s",
        str(LUA_SCRIPT),
        server.base,
        "--",
        ladder,
        system,
        str(players),
        token,
        prefix,
        str(seed),
        str(start_epoch),
        str(threads),
    ]
    spies: list[subprocess.Popen[bytes]] = []
    if profile_dir is not None and py_spy is not None:
        profile_dir.mkdir(parents=True, exist_ok=True)
        for pid in server.worker_pids():
            out = profile_dir / f"{server.name}-{system}-{pid}.txt"
            spies.append(
                subprocess.Popen(
                    [
                        py_spy,
                        "record",
                        "--pid",
                        str(pid),
                        "--rate",
                        "200",
                        "--format",
                        "raw",
                        "--duration",
                        str(int(duration)),
                        "--nonblocking",
                        # Only the thread holding the GIL: where the Python CPU time goes
                        # (threads waiting on PostgreSQL or for the GIL are not sampled).
                        "--gil",
                        "--output",
                        str(out),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        time.sleep(1.0)  # let py-spy attach before the clock starts
    server_pids = server.tree()
    before = (machine_ticks(), cpu_ticks(server_pids), cpu_ticks(postgres_pids()))
    sampler = PgSampler() if sample_postgres else None
    children_before = os.times()
    started = time.monotonic()
    wrk = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if sampler is not None:
        sampler.start()
    stdout, stderr = wrk.communicate(timeout=duration + 120)
    wall = time.monotonic() - started
    activity = sampler.stop() if sampler is not None else None
    # communicate() reaped wrk, so its CPU time is now in this process's children usage.
    children_after = os.times()
    wrk_cpu = (children_after.children_user - children_before.children_user) + (
        children_after.children_system - children_before.children_system
    )
    after = (machine_ticks(), cpu_ticks(server_pids), cpu_ticks(postgres_pids()))
    for spy in spies:
        spy.wait(timeout=60)
    if wrk.returncode != 0:
        raise RuntimeError(f"wrk failed ({wrk.returncode}): {stderr.decode()}")
    line = next((ln for ln in stdout.decode().splitlines() if ln.startswith("WRK_RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no result:\n{stdout.decode()}\n{stderr.decode()}")
    result = json.loads(line.removeprefix("WRK_RESULT "))
    result["statuses"] = {str(k): v for k, v in sorted(result["statuses"].items())}
    load = LoadResult(result, wrk_cpu, wall, postgres_activity=activity)
    if measure_cpu:
        busy = after[0][0] - before[0][0]
        total = after[0][1] - before[0][1]
        seconds = total / CLK_TCK / (os.cpu_count() or 1)
        load.cpu = {
            # Shares of one core (100 = one core busy for the whole run); the machine has nproc.
            "machine_busy_pct": round(100 * busy / CLK_TCK / seconds, 1),
            "server_pct": round(100 * ticks_spent(before[1], after[1]) / CLK_TCK / seconds, 1),
            "postgres_pct": round(100 * ticks_spent(before[2], after[2]) / CLK_TCK / seconds, 1),
            "wrk_pct": round(100 * wrk_cpu / wall, 1),
        }
        load.cpu["other_pct"] = round(
            load.cpu["machine_busy_pct"]
            - load.cpu["server_pct"]
            - load.cpu["postgres_pct"]
            - load.cpu["wrk_pct"],
            1,
        )
    return load


# -- checks ----------------------------------------------------------------------------------


def games_count(client: httpx.Client, ladder: str) -> int:
    return int(client.get(f"/ladders/{ladder}").raise_for_status().json()["games"])


def wait_quiet(client: httpx.Client, ladder: str, steady: int = 4) -> int:
    """The ladder's games count once it stops moving (requests cut at wrk's stop finish)."""
    readings: list[int] = []
    for _ in range(240):
        readings.append(games_count(client, ladder))
        if len(readings) >= steady and len(set(readings[-steady:])) == 1:
            break
        time.sleep(0.5)
    return readings[-1]


def check(client: httpx.Client, ladder: str, loads: list[LoadResult]) -> dict[str, Any]:
    """Every 201 is a stored game; the only other stored games are requests cut at the stop."""
    created = sum(load.wrk["statuses"].get("201", 0) for load in loads)
    replayed = sum(load.wrk["statuses"].get("200", 0) for load in loads)
    not_2xx = {
        code: sum(load.wrk["statuses"].get(code, 0) for load in loads)
        for load in loads
        for code in load.wrk["statuses"]
        if not code.startswith("2")
    }
    # Ids sent without a 2xx answer: cut in flight when wrk stopped (the server may still have
    # stored them), refused, or the one request wrk builds to verify the script and never sends.
    unanswered = [i for load in loads for i in load.wrk["unanswered_ids"]]
    for _attempt in range(10):
        games = wait_quiet(client, ladder)
        stored_unanswered = 0
        for game_id in unanswered:
            status = client.get(f"/ladders/{ladder}/games/{game_id}").status_code
            if status == 200:
                stored_unanswered += 1
            elif status != 404:
                raise RuntimeError(f"GET game {game_id}: unexpected {status}")
        if games_count(client, ladder) == games:
            break
    socket_errors = sum(
        sum(v for k, v in load.wrk["errors"].items() if k != "status") for load in loads
    )
    ok = (
        games == created + stored_unanswered
        and replayed == 0
        and not not_2xx
        and socket_errors == 0
    )
    return {
        "ok": ok,
        "ladder_games": games,
        "responses_201": created,
        "responses_200": replayed,
        "non_2xx": not_2xx,
        "unanswered_at_stop": len(unanswered),
        "unanswered_but_stored": stored_unanswered,
        "socket_errors": socket_errors,
    }


# -- targets ---------------------------------------------------------------------------------


def reset_postgres() -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {PG_SCHEMA}")
        version = conn.execute("SHOW server_version").fetchone()
    return str(version[0]) if version else "?"


def analyze_postgres() -> None:
    """Statistics for the tables the warm-up filled, as autovacuum gives any database that
    has been up a minute: without them PostgreSQL plans the row locks' key lists as a scan
    of the whole ladder (the schema is new at every run)."""
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        for table in ("ladders", "events", "changes", "player_ratings"):
            conn.execute(f"ANALYZE {PG_SCHEMA}.{table}")


def server_for(target: str, args: argparse.Namespace, token: str, workdir: Path) -> Server:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGS_")}
    env.update(
        RATINGS_HOST="127.0.0.1",
        RATINGS_PORT=str(port),
        RATINGS_WORKERS=str(args.workers),
        RATINGS_ADMIN_TOKEN=token,
        RATINGS_PUBLIC_READS="false",
    )
    for item in args.server_env:
        key, _, value = item.partition("=")
        env[key] = value
    log = workdir / f"{target}.log"
    cwd, import_log = ROOT, None
    checkout: Path | None = getattr(args, "checkout", None)
    if checkout is not None and target != "ceiling":
        # Run the checkout's code in the supervisor and in every worker. PYTHONPATH puts it
        # before the shared venv's editable install (which maps ``app`` to /work/main) for the
        # supervisor. The spawned workers get the supervisor's sys.path, and by then it starts
        # with '.' (alembic's prepend_sys_path, when serve migrates), resolved in the
        # supervisor's cwd: so the cwd must be the checkout too, or they import the harness's
        # tree.
        cwd = checkout
        import_log = Path(tempfile.mkdtemp(prefix=f"imports-{target}-", dir=workdir))
        env["PYTHONPATH"] = os.pathsep.join([str(checkout), str(IMPORT_PROBE)])
        env[IMPORT_LOG_ENV] = str(import_log)
    if target == "ceiling":
        command = [
            str(VENV_BIN / "python"),
            str(BENCH / "ceiling_app.py"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
        ]
        return Server(target, command, env, port, log, args.workers)
    if target == "sqlite":
        env["RATINGS_DATABASE_URL"] = f"sqlite:///{workdir / 'ratings.db'}"
    elif target in PG_URLS:
        reset_postgres()
        env["RATINGS_DATABASE_URL"] = PG_URLS[target]
    else:
        raise SystemExit(f"unknown database {target!r} (sqlite, {', '.join(PG_URLS)})")
    command = [str(VENV_BIN / "ratings"), "serve"]
    return Server(target, command, env, port, log, args.workers, cwd, import_log)


def background_busy_pct(seconds: float = 2.0) -> float:
    """How busy the machine is before a target starts (% of one core): other people's work."""
    before = machine_ticks()
    time.sleep(seconds)
    after = machine_ticks()
    total = (after[1] - before[1]) / CLK_TCK / (os.cpu_count() or 1)
    return round(100 * (after[0] - before[0]) / CLK_TCK / total, 1)


def bench_target(
    target: str, args: argparse.Namespace, token: str, workdir: Path, run_id: str
) -> list[dict[str, Any]]:
    background = background_busy_pct()
    if background > 20:
        print(
            f"[{target}] WARNING: the machine is already {background} % busy (of one core) "
            "before the benchmark starts; numbers will be low",
            flush=True,
        )
    server = server_for(target, args, token, workdir)
    print(f"[{target}] starting on port {server.port} in {server.cwd}", flush=True)
    server.start()
    rows: list[dict[str, Any]] = []
    try:
        imports = server.verify_checkout() if server.import_log is not None else None
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=server.base, headers=headers, timeout=30.0) as client:
            for index, system in enumerate(args.systems):
                ladder = f"bench-{system}"
                if target != "ceiling":
                    client.post(
                        "/ladders", json={"id": ladder, "system": system}
                    ).raise_for_status()
                common: dict[str, Any] = {
                    "ladder": ladder,
                    "system": system,
                    "players": args.players,
                    "token": token,
                    "connections": args.connections,
                    "threads": args.threads,
                }
                warm = run_wrk(
                    server,
                    prefix=f"{run_id}w",
                    seed=args.seed + index,
                    start_epoch=WARMUP_EPOCH,
                    duration=args.warmup,
                    **common,
                )
                if target in PG_URLS:
                    analyze_postgres()
                load = run_wrk(
                    server,
                    prefix=f"{run_id}m",
                    seed=args.seed + 100 + index,
                    start_epoch=MEASURE_EPOCH,
                    duration=args.duration,
                    measure_cpu=True,
                    sample_postgres=target in PG_URLS,
                    profile_dir=args.profile_dir,
                    py_spy=args.py_spy,
                    **common,
                )
                verdict = (
                    check(client, ladder, [warm, load])
                    if target != "ceiling"
                    else {
                        "ok": not any(not c.startswith("2") for c in load.wrk["statuses"]),
                        "non_2xx": {
                            c: n for c, n in load.wrk["statuses"].items() if not c.startswith("2")
                        },
                    }
                )
                rows.append(summarise(target, system, args, load, warm, verdict))
                rows[-1]["background_busy_pct_before"] = background
                if imports is not None:
                    rows[-1]["checkout"] = str(server.cwd)
                    rows[-1]["app_imported_from"] = imports
                print_row(rows[-1])
    except Exception:
        code = server.process.poll() if server.process else None
        if code is not None:
            print(f"[{target}] the server exited during the run (code {code})", file=sys.stderr)
        print(f"[{target}] server log tail:\n{server.tail()}", file=sys.stderr)
        raise
    finally:
        server.stop()
    return rows


def summarise(
    target: str,
    system: str,
    args: argparse.Namespace,
    load: LoadResult,
    warm: LoadResult,
    verdict: dict[str, Any],
) -> dict[str, Any]:
    wrk = load.wrk
    seconds = wrk["duration_us"] / 1e6
    created = wrk["statuses"].get("201", 0)
    pct = wrk["latency_us"]["percentiles"]
    return {
        "target": target,
        "system": system,
        "players_per_game": SYSTEMS[system],
        "workers": args.workers,
        "connections": args.connections,
        "duration_s": round(seconds, 2),
        "games": created,
        "games_per_s": round(created / seconds, 1),
        "latency_ms": {
            "p50": pct["50"] / 1000,
            "p90": pct["90"] / 1000,
            "p99": pct["99"] / 1000,
            "p99.9": pct["99.9"] / 1000,
            "max": wrk["latency_us"]["max"] / 1000,
            "mean": round(wrk["latency_us"]["mean"] / 1000, 3),
        },
        "statuses": wrk["statuses"],
        "warmup_statuses": warm.wrk["statuses"],
        "late_games": wrk["late"] + warm.wrk["late"],
        "wrk_errors": wrk["errors"],
        "failures": wrk["failures"][:3],
        "cpu_pct_of_one_core": load.cpu,
        # CPU time per stored game: comparable between runs even when the machine is shared.
        "cpu_ms_per_game": {
            key.removesuffix("_pct"): round(10 * value / (created / seconds), 2)
            for key, value in load.cpu.items()
            if created and key in ("server_pct", "postgres_pct", "wrk_pct")
        },
        "postgres_activity": load.postgres_activity,
        "check": verdict,
    }


def print_row(row: dict[str, Any]) -> None:
    lat = row["latency_ms"]
    cpu = row["cpu_pct_of_one_core"]
    print(
        f"[{row['target']}] {row['system']:6s} {row['games_per_s']:8.1f} games/s  "
        f"p50 {lat['p50']:7.2f} ms  p99 {lat['p99']:7.2f} ms  statuses {row['statuses']}  "
        f"cpu% server {cpu.get('server_pct')} postgres {cpu.get('postgres_pct')} "
        f"wrk {cpu.get('wrk_pct')} other {cpu.get('other_pct')} "
        f"machine {cpu.get('machine_busy_pct')}  "
        f"check {'ok' if row['check']['ok'] else 'FAILED ' + json.dumps(row['check'])}",
        flush=True,
    )


# -- facts and reports -----------------------------------------------------------------------


def tree_hash(*folders: Path, root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def checkout_facts(checkout: Path) -> dict[str, Any]:
    """The code a checkout holds: its commit, whether it is dirty, a hash of app/ + migrations/."""

    def git(*command: str) -> str:
        return subprocess.run(
            ["git", "-C", str(checkout), *command], capture_output=True, text=True, timeout=10
        ).stdout.strip()

    return {
        "path": str(checkout),
        "git_commit": git("rev-parse", "--short", "HEAD"),
        "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "app_tree_sha256": tree_hash(checkout / "app", checkout / "migrations", root=checkout),
    }


def machine_facts() -> dict[str, Any]:
    def run(*command: str) -> str:
        try:
            return subprocess.run(
                command, capture_output=True, text=True, timeout=10, cwd=ROOT
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "?"

    cpu_model = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        "?",
    )
    mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    versions: dict[str, str | None] = {}
    for package in (
        "fastapi",
        "starlette",
        "uvicorn",
        "uvloop",
        "httptools",
        "pydantic",
        "sqlalchemy",
        "psycopg",
        "psycopg-binary",
    ):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_DSN) as conn:
            row = conn.execute("SHOW server_version").fetchone()
            postgres = str(row[0]) if row else "?"
    except Exception as exc:
        postgres = f"unavailable: {exc}"
    wrk_version = run("wrk", "--version").splitlines()
    return {
        "nproc": run("nproc"),
        "cpu_model": cpu_model,
        "memory_gib": round(mem_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "postgresql": postgres,
        "sqlite": sqlite3.sqlite_version,
        "wrk": wrk_version[0] if wrk_version else "?",
        "packages": versions,
        "git_commit": run("git", "rev-parse", "--short", "HEAD"),
        "git_dirty": bool(run("git", "status", "--porcelain", "--untracked-files=no")),
        # The code actually measured (others may be editing the tree): a hash of app/ and
        # migrations/ as they were at the start of the run.
        "app_tree_sha256": tree_hash(ROOT / "app", ROOT / "migrations"),
    }


def with_ratios(rows: list[dict[str, Any]]) -> None:
    ceilings = {r["system"]: r["games_per_s"] for r in rows if r["target"] == "ceiling"}
    for row in rows:
        ceiling = ceilings.get(row["system"])
        row["ceiling_games_per_s"] = ceiling
        row["ratio_to_ceiling"] = round(row["games_per_s"] / ceiling, 3) if ceiling else None


def markdown(report: dict[str, Any]) -> str:
    facts = report["machine"]
    cfg = report["config"]
    dirty = " (dirty tree)" if facts["git_dirty"] else ""
    profiled = " PROFILED RUN (py-spy attached): slower than normal." if cfg["profile"] else ""
    lines = [
        f"# POST /games benchmark — {report['date']}",
        "",
        f"Machine: nproc {facts['nproc']} ({facts['cpu_model']}), {facts['memory_gib']} GiB, "
        f"Python {facts['python']}, PostgreSQL {facts['postgresql']}, SQLite {facts['sqlite']}, "
        f"{facts['wrk']}; commit {facts['git_commit']}{dirty}, app/ + migrations/ "
        f"sha256 {facts['app_tree_sha256']}.",
        "",
        f"Load: wrk, {cfg['connections']} connections, {cfg['threads']} thread(s), "
        f"{cfg['duration']} s measured after {cfg['warmup']} s warm-up; server: "
        f"{cfg['workers']} uvicorn worker(s); {cfg['players']} players, random tables, unique "
        f"game ids, increasing played_at.{profiled}",
        "",
        "| target | system | games/s | p50 ms | p99 ms | max ms | ceiling games/s | ratio | "
        "statuses | late | CPU % server / postgres / wrk / other / machine | "
        "CPU ms per game server / postgres | check |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|---|---|",
    ]
    for row in report["results"]:
        lat = row["latency_ms"]
        cpu = row["cpu_pct_of_one_core"]
        per_game = row["cpu_ms_per_game"]
        statuses = ", ".join(f"{k}: {v}" for k, v in row["statuses"].items())
        check_text = "ok" if row["check"]["ok"] else "FAILED"
        if row["target"] != "ceiling":
            c = row["check"]
            check_text += (
                f" ({c['ladder_games']} stored = {c['responses_201']} × 201 + "
                f"{c['unanswered_but_stored']} cut at stop)"
            )
        ratio = row["ratio_to_ceiling"]
        lines.append(
            f"| {row['target']} | {row['system']} | {row['games_per_s']:.0f} | "
            f"{lat['p50']:.1f} | {lat['p99']:.1f} | {lat['max']:.0f} | "
            f"{row['ceiling_games_per_s'] or 0:.0f} | {f'{ratio:.2f}' if ratio else '-'} | "
            f"{statuses} | {row['late_games']} | "
            f"{cpu.get('server_pct')} / {cpu.get('postgres_pct')} / "
            f"{cpu.get('wrk_pct')} / {cpu.get('other_pct')} / {cpu.get('machine_busy_pct')} | "
            f"{per_game.get('server', '-')} / {per_game.get('postgres', '-')} | {check_text} |"
        )
    lines += [
        "",
        "CPU % is of one core over the measured run (the machine has "
        f"{facts['nproc']} cores, so {100 * int(facts['nproc'] or 1)} % is all of it); postgres "
        "counts every PostgreSQL process on the machine; other is whatever else ran (not this "
        "benchmark; before each target the runner also measures how busy the machine already "
        "is: "
        + ", ".join(
            f"{t} {b} %"
            for t, b in dict.fromkeys(
                (r["target"], r.get("background_busy_pct_before")) for r in report["results"]
            )
        )
        + "). Goal: ≥ 1000 games/s on PostgreSQL with "
        "2 workers at 64 connections, p99 < 100 ms. late = games the service found earlier "
        "than a player's last game (recomputed; the load never sends them late, they arrive "
        "late when a request waits longer than a player's next game takes to come round).",
        "",
    ]
    goal = [r for r in report["results"] if r["target"] in PG_URLS]
    for row in goal:
        met = row["games_per_s"] >= 1000 and row["latency_ms"]["p99"] < 100
        lines.append(
            f"- {row['target']}/{row['system']}: {'goal met' if met else 'goal NOT met'} "
            f"({row['games_per_s']:.0f} games/s, p99 {row['latency_ms']['p99']:.1f} ms)"
        )
    for row in goal:
        activity = row.get("postgres_activity")
        if not activity:
            continue
        lines += [
            "",
            f"PostgreSQL sessions of the server during {row['target']}/{row['system']} (average "
            f"number in each state over {activity['samples']} samples of pg_stat_activity):",
            "",
            "| state / wait event | sessions |",
            "|---|---:|",
        ]
        lines += [f"| {k} | {v} |" for k, v in activity["avg_sessions_by_state"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=15, help="measured seconds per case")
    parser.add_argument("--warmup", type=int, default=3, help="warm-up seconds per case")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers (both servers)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--players", type=int, default=1000, help="player pool per ladder")
    parser.add_argument("--databases", default="sqlite,postgresql,postgresql-unix")
    parser.add_argument("--systems", default="fundox,naf")
    parser.add_argument("--no-ceiling", action="store_true", help="skip the no-database server")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra environment for the servers (e.g. RATINGS_POOL_SIZE=32); repeatable",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="attach py-spy to every worker during the measured runs (slows them down)",
    )
    parser.add_argument("--py-spy", default=None, help="py-spy binary (default: on PATH)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument(
        "--checkout",
        type=Path,
        default=None,
        help="run the database servers from this checkout of the service (its cwd and "
        "PYTHONPATH; every process's app import is checked), e.g. a git worktree",
    )
    parser.add_argument(
        "--pg-database",
        default="test",
        help="PostgreSQL database for the benchmark's schema (default test)",
    )
    args = parser.parse_args(argv)
    use_pg_database(args.pg_database)
    if args.checkout is not None:
        args.checkout = args.checkout.resolve()
        if not (args.checkout / "app" / "__init__.py").is_file():
            parser.error(f"--checkout {args.checkout}: no app/ package there")
    args.systems = [s for s in args.systems.split(",") if s]
    for system in args.systems:
        if system not in SYSTEMS:
            parser.error(f"unknown system {system!r} (fundox, naf)")
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed: apt-get install -y wrk")
    if args.duration > 120 or args.warmup > 60:
        parser.error("keep runs bounded: --duration <= 120, --warmup <= 60")
    if args.players < 4 * 2 * args.threads:
        parser.error("--players too small for the table size and wrk threads")

    now = dt.datetime.now(dt.UTC)
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    run_id = secrets.token_hex(3)
    args.profile_dir = None
    if args.profile:
        args.py_spy = args.py_spy or shutil.which("py-spy")
        if not args.py_spy:
            parser.error("py-spy not found: pip install py-spy, or pass --py-spy PATH")
        args.profile_dir = args.results / f"profile-{stamp}"
    token = secrets.token_urlsafe(24)
    targets = ([] if args.no_ceiling else ["ceiling"]) + [d for d in args.databases.split(",") if d]
    report: dict[str, Any] = {
        "benchmark": "POST /games",
        "date": now.isoformat(timespec="seconds"),
        "machine": machine_facts(),
        "config": {
            "duration": args.duration,
            "warmup": args.warmup,
            "connections": args.connections,
            "workers": args.workers,
            "threads": args.threads,
            "players": args.players,
            "systems": args.systems,
            "targets": targets,
            "seed": args.seed,
            "server_env": args.server_env,
            "profile": args.profile,
            "load_generator": "wrk + bench/post_games.lua",
            "pg_database": args.pg_database,
            "checkout": checkout_facts(args.checkout) if args.checkout else None,
        },
        "results": [],
    }
    shown = {k: report["machine"][k] for k in ("nproc", "python", "postgresql")}
    print(f"machine: {json.dumps(shown)}")
    with tempfile.TemporaryDirectory(prefix="ratings-bench-") as tmp:
        workdir = Path(tmp)
        for target in targets:
            report["results"].extend(bench_target(target, args, token, workdir, run_id))
    with_ratios(report["results"])
    args.results.mkdir(parents=True, exist_ok=True)
    name = f"post_games{'-profiled' if args.profile else ''}-{stamp}"
    json_path = args.results / f"{name}.json"
    md_path = args.results / f"{name}.md"
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    md_path.write_text(text)
    print()
    print(text)
    print(f"wrote {json_path} and {md_path}")
    if not all(row["check"]["ok"] for row in report["results"]):
        raise SystemExit("correctness check FAILED (see the check column)")


if __name__ == "__main__":
    main()
