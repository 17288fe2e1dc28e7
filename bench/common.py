"""What the drivers share: the builds compared (``--against``), servers and units run from a
build, CPU accounting from /proc, PostgreSQL schemas, and the result files.

A *build* is a tree holding ``app/``, ``migrations/`` and ``alembic.ini``: this checkout
("this"), or a commit checked out by ``--against REV`` into a temporary ``git worktree``.
Every server and unit runs in a process of its own with the build as its cwd and first on
``PYTHONPATH`` (the venv is this checkout's, so both builds run with the same packages), and
``import_probe/sitecustomize.py`` records where each process imported ``app`` from: a run
stops unless every process ran its build's code.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import json
import os
import platform
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
RESULTS = BENCH / "results"
IMPORT_PROBE = BENCH / "import_probe"
IMPORT_LOG_ENV = "RATINGS_BENCH_IMPORT_LOG"
PYTHON = sys.executable
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: The admin token of every server the drivers start (loopback only, never kept).
ADMIN_TOKEN = "bench-admin-token-0123456789abcdef"
#: Where PostgreSQL answers (user postgres, trust auth); each driver uses schemas of its own.
PG_DATABASE = os.environ.get("RATINGS_BENCH_PG_DATABASE", "test")
PG_DSN = f"postgresql://postgres@127.0.0.1:5432/{PG_DATABASE}"


# -- builds ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    """One tree of the service's code, and what it holds."""

    label: str
    path: Path

    def facts(self) -> dict[str, Any]:
        def git(*command: str) -> str:
            return subprocess.run(
                ["git", "-C", str(self.path), *command], capture_output=True, text=True
            ).stdout.strip()

        return {
            "label": self.label,
            "path": str(self.path),
            "commit": git("rev-parse", "--short", "HEAD"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", "app")),
            "app_sha256": tree_hash(self.path / "app", self.path / "migrations"),
        }

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The environment of a process running this build (no RATINGS_ setting leaks in)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGS_")}
        env["PYTHONPATH"] = os.pathsep.join([str(self.path), str(IMPORT_PROBE)])
        env["PYTHONUNBUFFERED"] = "1"
        env.update(extra or {})
        return env


def add_against(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--against",
        action="append",
        default=[],
        metavar="REV",
        help="also run this commit (a temporary git worktree), alternated with this checkout "
        "in every round; repeatable",
    )


@contextlib.contextmanager
def builds(against: Sequence[str]) -> Iterator[list[Build]]:
    """This checkout, then each ``--against`` revision in a worktree removed at the end."""
    made: list[Path] = []
    out = [Build("this", ROOT)]
    try:
        for rev in against:
            path = Path(tempfile.mkdtemp(prefix="ratings-against-"))
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(path), rev],
                check=True,
                capture_output=True,
            )
            made.append(path)
            out.append(Build(rev, path))
        yield out
    finally:
        for path in made:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                capture_output=True,
            )
            shutil.rmtree(path, ignore_errors=True)


def in_turn(round_: int, sides: Sequence[Any]) -> list[Any]:
    """The sides in the order of this round: reversed every other round, so that neither
    always goes first."""
    return list(sides) if round_ % 2 == 0 else list(reversed(sides))


def run_unit(build: Build, code: str, *args: str, env: dict[str, str] | None = None) -> Any:
    """``python -c code args`` at ``build``; its last line of output, as JSON. The code must
    put ``app.__file__`` in that JSON as ``app`` (checked against the build)."""
    done = subprocess.run(
        [PYTHON, "-c", code, *args],
        cwd=build.path,
        env=build.env(env),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"unit at {build.label} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    ran = Path(result["app"]).resolve()
    if ran != (build.path / "app" / "__init__.py").resolve():
        raise RuntimeError(f"unit at {build.label} ran {ran}")
    return result


#: Migrates, then imports a JSON Lines history with ``ratings import`` (argv: file, ladder).
IMPORT_UNIT = r"""
import json, sys, time
import app
from app import cli

def command(*argv):
    try:
        cli.main(list(argv))
    except SystemExit as exc:
        if exc.code:
            raise
command("migrate")
began = time.perf_counter()
command("import", sys.argv[1], "--ladder", sys.argv[2])
print(json.dumps({"app": app.__file__, "import_s": time.perf_counter() - began}))
"""


def import_history(build: Build, url: str, path: Path, ladder: str) -> float:
    """A fresh database at ``url`` migrated and loaded by ``build``; the import's seconds."""
    env = {"RATINGS_DATABASE_URL": url}
    return float(run_unit(build, IMPORT_UNIT, str(path), ladder, env=env)["import_s"])


# -- databases -------------------------------------------------------------------------------


def pg_url(schema: str, application: str = "ratings-bench") -> str:
    options = f"options=-csearch_path%3D{schema}&application_name={application}"
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_DATABASE}?{options}"


def pg_execute(*statements: str) -> None:
    import psycopg

    with psycopg.connect(PG_DSN, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)  # type: ignore[arg-type]


def fresh_schema(schema: str) -> str:
    """An empty PostgreSQL schema (dropped first); its URL."""
    pg_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"')
    return pg_url(schema)


def drop_schema(schema: str) -> None:
    pg_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def fresh_sqlite(path: Path) -> str:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


def database_url(database: str, schema: str, workdir: Path) -> str:
    """A fresh database of the kind ``database`` (sqlite, postgresql) named by ``schema``."""
    if database == "sqlite":
        return fresh_sqlite(workdir / f"{schema}.db")
    if database == "postgresql":
        return fresh_schema(schema)
    raise SystemExit(f"unknown database {database!r} (sqlite, postgresql)")


def drop_database(database: str, schema: str, workdir: Path) -> None:
    if database == "postgresql":
        drop_schema(schema)
    else:
        fresh_sqlite(workdir / f"{schema}.db")


# -- CPU from /proc --------------------------------------------------------------------------


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
            found += [int(child), *children(int(child))]
    return found


def cpu_ticks(pids: Sequence[int], reaped: bool = False) -> dict[int, int]:
    """CPU jiffies (user + system) of each process still alive; with ``reaped``, also of the
    children it has waited for (the postmaster's: backends that exited)."""
    ticks: dict[int, int] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        ticks[pid] = sum(int(f) for f in fields[11 : 15 if reaped else 13])
    return ticks


def spent(before: dict[int, int], after: dict[int, int]) -> float:
    """CPU seconds between two snapshots (processes born in between count from zero; those
    that ended in between are lost, so this is a lower bound)."""
    return sum(value - before.get(pid, 0) for pid, value in after.items()) / CLK_TCK


def postgres_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                if Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                    pids.append(int(entry))
    return pids


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class CpuMeter:
    """CPU seconds of some processes, of PostgreSQL and of the whole machine over a span."""

    pids: Sequence[int] = ()
    began: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.before = (machine_ticks(), cpu_ticks(self.pids), cpu_ticks(postgres_pids(), True))

    def read(self) -> dict[str, float]:
        wall = time.monotonic() - self.began
        (busy0, total0), own0, pg0 = self.before
        busy1, total1 = machine_ticks()
        cores = os.cpu_count() or 1
        return {
            "wall_s": round(wall, 3),
            "processes_cpu_s": round(spent(own0, cpu_ticks(list(own0))), 3),
            "postgres_cpu_s": round(spent(pg0, cpu_ticks(postgres_pids(), True)), 3),
            # 100 % = one core busy for the whole span; the machine has ``cores``.
            "machine_busy_pct": round(100 * cores * (busy1 - busy0) / max(1, total1 - total0), 1),
        }


def busy_pct(seconds: float = 2.0) -> float:
    """How busy the machine is now (% of one core): other people's work, before a unit."""
    busy0, total0 = machine_ticks()
    time.sleep(seconds)
    busy1, total1 = machine_ticks()
    return round(100 * (os.cpu_count() or 1) * (busy1 - busy0) / max(1, total1 - total0), 1)


# -- servers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


@dataclass
class Server:
    """``ratings serve`` of a build (or another command) on a free loopback port."""

    name: str
    build: Build
    env: dict[str, str]
    workdir: Path
    workers: int = 1
    command: list[str] | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> None:
        self.import_log = Path(tempfile.mkdtemp(prefix="imports-", dir=self.workdir))
        self.log_path = self.workdir / f"{self.name}.log"
        settings = {
            "RATINGS_HOST": "127.0.0.1",
            "RATINGS_PORT": str(self.port),
            "RATINGS_WORKERS": str(self.workers),
            "RATINGS_ADMIN_TOKEN": ADMIN_TOKEN,
            "RATINGS_PUBLIC_READS": "false",
            IMPORT_LOG_ENV: str(self.import_log),
            **self.env,
        }
        with self.log_path.open("wb") as log:
            # The cwd is the build too: serve's migration puts alembic's '.' first on the
            # supervisor's sys.path, and spawned workers inherit it with the cwd.
            self.process = subprocess.Popen(
                self.command or [PYTHON, "-m", "app.cli", "serve"],
                cwd=self.build.path,
                env=self.build.env(settings),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=1.0).status_code == 200:
                    break
            time.sleep(0.2)
        else:
            self.stop()
            raise RuntimeError(f"{self.name}: no /healthz in {timeout} s:\n{self.tail()}")
        while len(self.worker_pids()) < self.workers and time.monotonic() < deadline:
            time.sleep(0.2)
        if self.command is None:
            self.verify_build(deadline)

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

    def verify_build(self, deadline: float) -> None:
        """Raise unless the supervisor and every worker imported ``app`` from the build."""
        expected = (self.build.path / "app" / "__init__.py").resolve()
        assert self.process is not None
        while True:
            seen = {int(p.name): p.read_text().strip() for p in self.import_log.iterdir()}
            pids = {self.process.pid, *self.worker_pids()}
            if pids <= seen.keys() or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        wrong = {p: seen.get(p) for p in pids if Path(seen.get(p) or "/").resolve() != expected}
        if wrong:
            self.stop()
            raise RuntimeError(f"{self.name}: processes not running {expected}: {wrong}")

    def peak_rss_mb(self) -> float:
        """The server process's peak RSS (VmHWM; one worker: the process itself)."""
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def tail(self, lines: int = 30) -> str:
        with contextlib.suppress(FileNotFoundError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def admin_client(base: str, timeout: float = 600.0) -> httpx.Client:
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    return httpx.Client(base_url=base, headers=headers, timeout=timeout)


def writer_key(base: str) -> str:
    """A new API key of scope ``results:write`` on every ladder, made with the admin token."""
    with admin_client(base, 30.0) as client:
        body = {"name": "bench writer", "scopes": ["results:write"], "ladders": ["*"]}
        response = client.post("/keys", json=body)
        response.raise_for_status()
        return str(response.json()["key"])


# -- facts and results -----------------------------------------------------------------------


def tree_hash(*folders: Path) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(folder.parent)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def machine_facts() -> dict[str, Any]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "?",
    )
    try:
        import psycopg

        with psycopg.connect(PG_DSN, connect_timeout=3) as connection:
            row = connection.execute("SHOW server_version").fetchone()
            postgres = str(row[0]) if row else "?"
    except Exception as exc:
        postgres = f"unavailable: {exc}"
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(int(Path("/proc/meminfo").read_text().split()[1]) / 2**20, 1),
        "python": platform.python_version(),
        "postgresql": postgres,
        "sqlite": sqlite3.sqlite_version,
        "loadavg": [round(v, 2) for v in os.getloadavg()],
    }


def stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def write_results(name: str, report: dict[str, Any], text: str, folder: Path = RESULTS) -> Path:
    """``<folder>/<name>-<UTC time>.json`` (everything) and ``.md`` (the tables); the .md."""
    folder.mkdir(parents=True, exist_ok=True)
    base = folder / f"{name}-{report['stamp']}"
    base.with_suffix(".json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    base.with_suffix(".md").write_text(text)
    print(text)
    print(f"wrote {base}.json and .md")
    return base.with_suffix(".md")


def header(title: str, report: dict[str, Any]) -> list[str]:
    """The first lines of a result's Markdown: what ran, on what, when."""
    m = report["machine"]
    sides = "; ".join(
        f"**{b['label']}** {b['commit']}{' (dirty)' if b['dirty'] else ''}"
        for b in report.get("builds", [])
    )
    return [
        f"# {title}, {report['stamp']}",
        "",
        f"`{report['command']}`",
        "",
        f"{m['nproc']} cores ({m['cpu']}), {m['memory_gib']} GiB, Python {m['python']}, "
        f"PostgreSQL {m['postgresql']}, SQLite {m['sqlite']}; load average at the start "
        f"{m['loadavg']}." + (f" Builds: {sides}." if sides else ""),
        "",
    ]


def new_report(benchmark: str, args: argparse.Namespace, built: list[Build]) -> dict[str, Any]:
    return {
        "benchmark": benchmark,
        "stamp": stamp(),
        "command": " ".join(["bench/" + Path(sys.argv[0]).name, *sys.argv[1:]]),
        "machine": machine_facts(),
        "builds": [b.facts() for b in built],
        "config": {k: v for k, v in vars(args).items() if k != "results"},
    }


def spread(values: Sequence[float]) -> str:
    """'median (min-max)' of some values."""
    if not values:
        return "-"
    if len(values) == 1:
        return number(values[0])
    return f"{number(statistics.median(values))} ({number(min(values))}-{number(max(values))})"


def number(value: float) -> str:
    """Three significant digits, or a whole number from 100 on."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
