"""Benchmark history at scale: import, full recomputation and a deep void, against two ceilings.

    .venv/bin/python bench/run_history.py [--scale 1.0] [--databases sqlite,postgresql]
        [--elo-games 1000000] [--glicko2-games 100000] [--void-games 50000] [--chunk 5000]
        [--profile] [--max-minutes 150]

In one run, for each database (a SQLite file; PostgreSQL in the schema ``bench_history``,
dropped and recreated), it measures:

a. ``ratings import`` of N two-player ``elo`` games and M four-player ``glicko2`` games, from
   seeded JSON Lines files, through the real import path in-process (``import_files.read`` →
   ``bulk.ensure_ladder`` → ``bulk.to_items`` → ``bulk.apply_in_chunks``: the body of
   ``app.cli.import_file`` without its progress bar);
b. ``ratings recompute LADDER`` of both ladders (``app.services.admin.recompute_ladder``, what
   the command calls);
c. two ceilings: the pure engine replay in memory (``app.engine.ledger.final_states``) and a
   raw bulk insert of the very rows the service stores (events and changes, computed with the
   engine beforehand) with no service logic: psycopg COPY on PostgreSQL, INSERTs of 2,000
   rows each in one transaction on SQLite, into a freshly migrated database;
d. a void at 1 % depth: a ``--void-games`` elo ladder is imported, the game at index 99 % is
   voided (``app.services.events.void_event``, what DELETE /games/{id} calls), then a full
   recompute must leave ``player_ratings`` bit-for-bit unchanged.

Correctness checks: every import stores all games; after import the ratings equal the pure
engine's replay; a full recompute leaves them unchanged; incremental void == full recompute.
Results go to bench/results/history-<UTC time>.json and .md (see bench/README.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import faulthandler
import fcntl
import gc
import hashlib
import importlib.metadata
import itertools
import json
import os
import platform
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
RESULTS = BENCH / "results"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import history_data as data  # noqa: E402

from app.cli import migrate  # noqa: E402
from app.core.database import Database  # noqa: E402
from app.engine.ledger import final_states  # noqa: E402
from app.models import PlayerRating  # noqa: E402
from app.services import bulk, import_files  # noqa: E402
from app.services.admin import recompute_ladder  # noqa: E402
from app.services.conversion import GAME  # noqa: E402
from app.services.events import void_event  # noqa: E402
from app.services.runtime import canonical_json, db_key, encode_state  # noqa: E402

PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"
PG_SCHEMA = "bench_history"
#: Names this benchmark's PostgreSQL sessions, to count their CPU apart from other users'.
PG_APP_NAME = "ratings-bench-history"
PG_URL = (
    f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{PG_SCHEMA}"
    f"&application_name={PG_APP_NAME}"
)
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: The issue's goal: import and recomputation at half the raw-insert ceiling or more.
GOAL_RATIO = 0.5
#: Depth of the voided game, from the end of the ladder's history.
VOID_DEPTH = 0.01
SNAPSHOT_COLUMNS = (
    "player", "faction", "rating", "deviation", "volatility", "state", "games", "wins",
    "draws", "losses",
)  # fmt: skip


# -- measuring -------------------------------------------------------------------------------


def postgres_ticks() -> dict[int, int]:
    """CPU jiffies (user + system) of each PostgreSQL process on the machine."""
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if Path(f"/proc/{entry}/comm").read_text().strip() != "postgres":
                continue
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        ticks[int(entry)] = int(fields[11]) + int(fields[12])
    return ticks


def bench_backend_ticks() -> dict[int, int]:
    """CPU jiffies of the PostgreSQL backends serving this benchmark (by application_name)."""
    import psycopg

    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3) as connection:
            pids = [
                int(row[0])
                for row in connection.execute(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                    (PG_APP_NAME,),
                )
            ]
    except psycopg.Error:
        return {}
    everything = postgres_ticks()
    return {pid: everything[pid] for pid in pids if pid in everything}


def ticks_spent(before: dict[int, int], after: dict[int, int]) -> int:
    """Jiffies spent between two snapshots (processes born in between count from zero;
    processes that ended in between are lost, so this is a lower bound)."""
    return sum(value - before.get(pid, 0) for pid, value in after.items())


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class Profiler:
    """py-spy recording this process (wall clock: --idle, so waits on the database count)."""

    binary: str | None
    folder: Path | None

    @contextmanager
    def record(self, name: str) -> Iterator[None]:
        if self.binary is None or self.folder is None:
            yield
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        # "<group>-<pid>.txt", as bench/profile_summary.py groups them.
        output = self.folder / f"{name}-{os.getpid()}.txt"
        process = subprocess.Popen(
            [
                self.binary,
                "record",
                "--pid",
                str(os.getpid()),
                "--rate",
                "50",
                "--idle",
                "--nonblocking",
                "--format",
                "raw",
                "--output",
                str(output),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)  # let it attach
        try:
            yield
        finally:
            process.send_signal(2)  # SIGINT: py-spy writes its file and exits
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def measure(
    name: str, work: Callable[[], Any], profiler: Profiler | None = None
) -> tuple[Any, dict[str, Any]]:
    """Run ``work`` once; its wall time, CPU (this process, PostgreSQL) and the machine's load."""
    gc.collect()
    load_before = os.getloadavg()
    busy0, total0 = machine_ticks()
    pg0 = postgres_ticks()
    own0 = bench_backend_ticks()
    cpu0 = time.process_time()
    began = time.perf_counter()
    if profiler is not None:
        with profiler.record(name):
            began = time.perf_counter()
            result = work()
            seconds = time.perf_counter() - began
    else:
        result = work()
        seconds = time.perf_counter() - began
    cpu = time.process_time() - cpu0
    own = ticks_spent(own0, bench_backend_ticks()) / CLK_TCK
    pg = ticks_spent(pg0, postgres_ticks()) / CLK_TCK
    busy1, total1 = machine_ticks()
    load_after = os.getloadavg()
    cores = os.cpu_count() or 1
    stats = {
        "seconds": round(seconds, 3),
        "python_cpu_s": round(cpu, 3),
        # The benchmark's own PostgreSQL sessions (backends alive at the end), and every
        # PostgreSQL process on the machine (other users' sessions included).
        "postgres_cpu_s": round(own, 3),
        "postgres_all_cpu_s": round(pg, 3),
        # 100 % = every core busy; "other" is what this process and PostgreSQL do not explain.
        "machine_busy_pct": round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
        "other_cpu_pct_of_machine": round(
            min(100.0, max(0.0, 100 * ((busy1 - busy0) / CLK_TCK - cpu - own) / (seconds * cores))),
            1,
        ),
        "loadavg_start": [round(v, 2) for v in load_before],
        "loadavg_end": [round(v, 2) for v in load_after],
    }
    print(
        f"    {name}: {seconds:.1f} s (python cpu {cpu:.1f} s, postgres cpu {own:.1f} s "
        f"(all postgres {pg:.1f} s), "
        f"machine busy {stats['machine_busy_pct']} %, load {load_before[0]:.2f}→"
        f"{load_after[0]:.2f})",
        flush=True,
    )
    return result, stats


def rate(games: int, stats: dict[str, Any]) -> float:
    return round(games / stats["seconds"], 1) if stats["seconds"] else 0.0


# -- databases -------------------------------------------------------------------------------


@dataclass
class Target:
    name: str
    workdir: Path
    generation: int = 0

    @property
    def sqlite_path(self) -> Path:
        return self.workdir / f"history-{self.generation}.db"

    @property
    def url(self) -> str:
        if self.name == "sqlite":
            return f"sqlite+pysqlite:///{self.sqlite_path}"
        return PG_URL

    def fresh(self) -> None:
        """An empty, migrated database (SQLite: a new file; PostgreSQL: the schema recreated)."""
        if self.name == "sqlite":
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
            self.generation += 1
        else:
            import psycopg

            with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as connection:
                connection.execute(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")
                connection.execute(f"CREATE SCHEMA {PG_SCHEMA}")
        migrate(self.url)

    def drop(self) -> None:
        if self.name == "sqlite":
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)
        else:
            import psycopg

            with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as connection:
                connection.execute(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")

    def database(self) -> Database:
        return Database(self.url)


def create_ladder(db: Database, ds: data.Dataset) -> None:
    bulk.ensure_ladder(db, ds.ladder, ds.header["ladder"])


def snapshot(db: Database, ladder_id: str) -> list[tuple[Any, ...]]:
    """player_ratings of a ladder, floats as hex and states as canonical JSON (exact)."""
    from sqlalchemy import select

    def exact(value: Any) -> Any:
        if isinstance(value, float):
            return value.hex()
        if isinstance(value, dict):
            return canonical_json(value)
        return value

    def work(session: Any) -> list[tuple[Any, ...]]:
        columns = [getattr(PlayerRating, c) for c in SNAPSHOT_COLUMNS]
        rows = session.execute(
            select(*columns)
            .where(PlayerRating.ladder_id == ladder_id)
            .order_by(PlayerRating.player, PlayerRating.faction)
        )
        return [tuple(exact(v) for v in row) for row in rows]

    return db.run(work, write=False)


def compare(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> dict[str, Any]:
    differing = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    return {
        "equal": a == b,
        "rows": [len(a), len(b)],
        "differing_rows": len(differing) + abs(len(a) - len(b)),
        "first_differences": [[list(x), list(y)] for x, y in differing[:3]],
    }


def engine_agrees(rows: list[tuple[Any, ...]], engine: dict[str, str]) -> dict[str, Any]:
    """The stored states (column ``state``) equal the pure engine's final states."""
    stored = {f"{r[0]}\x00{r[1]}": r[5] for r in rows}
    differing = [k for k in engine if stored.get(k) != engine[k]]
    return {
        "equal": not differing and len(stored) == len(engine),
        "ratings": [len(stored), len(engine)],
        "differing": len(differing) + abs(len(stored) - len(engine)),
        "first_differences": [
            {"key": k.replace("\x00", "/"), "db": stored.get(k), "engine": engine[k]}
            for k in differing[:3]
        ],
    }


# -- the measurements ------------------------------------------------------------------------


def import_file(db: Database, ds: data.Dataset, path: Path, chunk: int) -> dict[str, Any]:
    """What ``ratings import FILE --ladder L --chunk N`` does, timed phase by phase."""
    phases: dict[str, float] = {}
    began = time.perf_counter()
    with path.open(encoding="utf-8", newline="") as stream:
        parsed = import_files.read(stream, "jsonl")
    phases["read_s"] = time.perf_counter() - began
    mark = time.perf_counter()
    bulk.ensure_ladder(db, ds.ladder, parsed.header)
    items, errors = bulk.to_items(db, ds.ladder, parsed)
    phases["validate_s"] = time.perf_counter() - mark
    if errors:
        raise SystemExit(f"import of {ds.ladder}: {len(errors)} invalid line(s): {errors[:3]}")
    del parsed
    mark = time.perf_counter()
    ticks = [mark]
    created, existing = bulk.apply_in_chunks(
        db, [item for _, item in items], chunk, lambda _count: ticks.append(time.perf_counter())
    )
    phases["apply_s"] = time.perf_counter() - mark
    if created != ds.games or existing:
        raise SystemExit(f"import of {ds.ladder}: created {created}, existing {existing}")
    out: dict[str, Any] = {k: round(v, 3) for k, v in phases.items()}
    # Seconds per chunk (transaction) at the start and at the end of the import: equal if the
    # cost of a chunk does not depend on how much history is already stored.
    spans = [b - a for a, b in itertools.pairwise(ticks)]
    if spans:
        few = min(3, len(spans))
        out["chunk_s_first"] = round(sum(spans[:few]) / few, 3)
        out["chunk_s_last"] = round(sum(spans[-few:]) / few, 3)
        out["chunks"] = len(spans)
    return out


def engine_ceiling(prepared: data.Prepared) -> tuple[dict[str, str], dict[str, Any]]:
    runtime = prepared.dataset.runtime()
    states, stats = measure(
        f"engine {prepared.dataset.ladder}",
        lambda: final_states(runtime.info, runtime.rater, prepared.events),
    )
    exact = {
        "\x00".join(db_key(key)): canonical_json(encode_state(state))
        for key, state in states.items()
    }
    return exact, stats


def raw_ceiling(target: Target, prepared: data.Prepared) -> dict[str, Any]:
    ds = prepared.dataset
    target.fresh()
    db = target.database()
    try:
        create_ladder(db, ds)
    finally:
        db.dispose()
    if target.name == "sqlite":
        events, changes = data.sqlite_rows(prepared)
        parts, stats = measure(
            f"raw insert {target.name}/{ds.ladder}",
            lambda: data.raw_insert_sqlite(str(target.sqlite_path), events, changes),
        )
        del events, changes
    else:
        parts, stats = measure(
            f"raw insert {target.name}/{ds.ladder}",
            lambda: data.raw_insert_postgres(PG_ADMIN_DSN, PG_SCHEMA, prepared, PG_APP_NAME),
        )
        stats["postgres_cpu_s"] = round(parts["backend_cpu_s"], 3)
    stats["events_s"] = round(parts["events_s"], 3)
    stats["changes_s"] = round(parts["changes_s"], 3)
    stats["event_rows"] = len(prepared.event_rows)
    stats["change_rows"] = len(prepared.change_rows)
    stats["method"] = (
        "sqlite3 INSERTs of up to 2,000 rows each, both tables in one BEGIN IMMEDIATE "
        "transaction (WAL, synchronous=NORMAL, foreign_keys=ON, as the service)"
        if target.name == "sqlite"
        else "psycopg COPY FROM STDIN (text, write_row of Python tuples), both tables, one "
        "transaction"
    )
    target.drop()
    return stats


@dataclass
class Deadline:
    at: float

    def passed(self) -> bool:
        return time.monotonic() > self.at


def postgres_uptime() -> tuple[str, float] | None:
    """(pg_postmaster_start_time(), seconds since), or None when PostgreSQL does not answer."""
    import psycopg

    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3) as connection:
            row = connection.execute(
                "SELECT pg_postmaster_start_time()::text, "
                "extract(epoch FROM now() - pg_postmaster_start_time())::float8"
            ).fetchone()
    except psycopg.Error:
        return None
    return (str(row[0]), float(row[1])) if row else None


def postgres_started_at() -> str | None:
    up = postgres_uptime()
    return up[0] if up else None


def wait_for_postgres(quiet: float = 90.0, timeout: float = 1800.0) -> str | None:
    """Wait until PostgreSQL answers and has not restarted for ``quiet`` seconds (restarts
    come in bursts while other engineers' fault-injection tests run); its start time."""
    deadline = time.monotonic() + timeout
    announced = False
    while time.monotonic() < deadline:
        up = postgres_uptime()
        if up is not None and up[1] >= quiet:
            return up[0]
        if not announced:
            print(f"    waiting for PostgreSQL to stay up {quiet:.0f} s", flush=True)
            announced = True
        time.sleep(5.0)
    return postgres_started_at()


#: Attempts of one unit (a ladder's import + recompute, or the void test) on PostgreSQL when
#: the server restarts under it (other engineers' fault-injection tests restart it).
ATTEMPTS = 5


def with_restarts(target: str, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``work()``, run again (from scratch) when PostgreSQL restarted under it."""
    for attempt in range(1, ATTEMPTS + 1):
        started = wait_for_postgres() if target == "postgresql" else None
        try:
            result = work()
        except Exception:
            if target != "postgresql" or attempt == ATTEMPTS or wait_for_postgres() == started:
                raise
            print("    PostgreSQL restarted: again", flush=True)
            continue
        if target == "postgresql" and postgres_started_at() != started:
            if attempt < ATTEMPTS:
                print("    PostgreSQL restarted: again", flush=True)
                continue
            result["postgres_restarted_during"] = True
        return result
    raise AssertionError("unreachable")


def run_target(
    target: Target,
    datasets: list[data.Dataset],
    void_ds: data.Dataset,
    files: dict[str, Path],
    engine_states: dict[str, dict[str, str]],
    args: argparse.Namespace,
    profiler: Profiler | None,
    deadline: Deadline,
) -> dict[str, Any]:
    """Each ladder in a freshly migrated database of its own: import, check, recompute, check;
    then the void test. On PostgreSQL a unit that fails because the server restarted is
    run again from a fresh schema (at most ATTEMPTS times); restarts are recorded."""
    out: dict[str, Any] = {"import": {}, "recompute": {}, "checks": {}, "restarts": []}
    print(f"[{target.name}] import and recompute", flush=True)
    out["workaround"] = None
    try:
        for ds in [*datasets, void_ds]:
            if deadline.passed():
                if ds is void_ds:
                    out["void"] = {"skipped": "time limit"}
                else:
                    out["import"][ds.ladder] = {"skipped": "time limit"}
                continue
            for attempt in range(1, ATTEMPTS + 1):
                started = wait_for_postgres() if target.name == "postgresql" else None
                unit: dict[str, Any] = {}
                try:
                    target.fresh()
                    db = target.database()
                    try:
                        if ds is void_ds:
                            unit["void"] = void_at_depth(target, db, ds, files[ds.ladder], args)
                        else:
                            run_ladder(target, db, ds, files, engine_states, args, profiler, unit)
                    finally:
                        db.dispose()
                except Exception as exc:
                    if target.name != "postgresql" or attempt == ATTEMPTS:
                        raise
                    now_started = wait_for_postgres()
                    if now_started == started:
                        raise  # not a restart: a real failure
                    out["restarts"].append(
                        {"unit": ds.ladder, "attempt": attempt, "error": repr(exc)[:300]}
                    )
                    print(f"    PostgreSQL restarted during {ds.ladder}: again", flush=True)
                    continue
                if target.name == "postgresql" and postgres_started_at() != started:
                    # The service's own retries absorbed a restart: numbers include it.
                    out["restarts"].append({"unit": ds.ladder, "absorbed": True})
                    for part in ("import", "recompute", "void"):
                        if part in unit:
                            unit[part]["postgres_restarted_during"] = True
                if ds is void_ds:
                    out["void"] = unit["void"]
                else:
                    out["import"][ds.ladder] = unit["import"]
                    if "recompute" in unit:
                        out["recompute"][ds.ladder] = unit["recompute"]
                    out["checks"].update(unit["checks"])
                break
            try:
                target.drop()
            except Exception as exc:  # PostgreSQL restarting: the next fresh() drops it
                print(f"    could not drop the test database: {exc!r}", flush=True)
    finally:
        pass
    return out


def run_ladder(
    target: Target,
    db: Database,
    ds: data.Dataset,
    files: dict[str, Path],
    engine_states: dict[str, dict[str, str]],
    args: argparse.Namespace,
    profiler: Profiler | None,
    unit: dict[str, Any],
) -> None:
    """Import the ladder, check it against the engine, recompute it, check it is unchanged."""
    unit["checks"] = {}
    phases, stats = _measure_profiled(
        f"{target.name}-import-{ds.ladder}",
        lambda: import_file(db, ds, files[ds.ladder], args.chunk),
        profiler,
    )
    stats.update(phases, games=ds.games, games_per_s=rate(ds.games, stats))
    unit["import"] = stats
    after_import = snapshot(db, ds.ladder)
    unit["checks"][f"{ds.ladder}: import == engine"] = engine_agrees(
        after_import, engine_states[ds.ladder]
    )
    (events, players), stats = _measure_profiled(
        f"{target.name}-recompute-{ds.ladder}",
        lambda: recompute_ladder(db, ds.ladder, None),
        profiler,
    )
    if events != ds.games:
        raise SystemExit(f"recompute {ds.ladder}: replayed {events}, not {ds.games}")
    stats.update(games=ds.games, ratings=players, games_per_s=rate(ds.games, stats))
    unit["recompute"] = stats
    unit["checks"][f"{ds.ladder}: recompute == import"] = compare(
        after_import, snapshot(db, ds.ladder)
    )


def summarise_profiles(folder: Path) -> None:
    """SUMMARY.md of the py-spy profiles (bench/profile_summary.py), then gzip the raw files."""
    subprocess.run(
        [sys.executable, str(BENCH / "profile_summary.py"), str(folder), "--top", "40",
         "--output", str(folder / "SUMMARY.md")],
        check=False,
    )  # fmt: skip
    for path in folder.glob("*.txt"):
        subprocess.run(["gzip", "-9", "-f", str(path)], check=False)


def _measure_profiled(
    name: str, work: Callable[[], Any], profiler: Profiler | None
) -> tuple[Any, dict[str, Any]]:
    if profiler is None or profiler.binary is None:
        return measure(name, work)
    return measure(name, work, profiler)


def void_at_depth(
    target: Target, db: Database, ds: data.Dataset, path: Path, args: argparse.Namespace
) -> dict[str, Any]:
    index = int(ds.games * (1 - VOID_DEPTH))
    victim = data.game_id(index)
    phases, import_stats = measure(
        f"import {target.name}/{ds.ladder}", lambda: import_file(db, ds, path, args.chunk)
    )
    import_stats.update(phases, games=ds.games, games_per_s=rate(ds.games, import_stats))
    voided, void_stats = measure(
        f"void {target.name}/{ds.ladder} game {index}",
        lambda: void_event(db, ds.ladder, GAME, victim),
    )
    incremental = snapshot(db, ds.ladder)
    (events, _players), full_stats = measure(
        f"full recompute {target.name}/{ds.ladder}",
        lambda: recompute_ladder(db, ds.ladder, None),
    )
    full = snapshot(db, ds.ladder)
    verdict = compare(incremental, full)
    print(f"    incremental == full: {verdict['equal']}", flush=True)
    return {
        "games": ds.games,
        "voided_index": index,
        "voided_id": victim,
        "games_after_voided": ds.games - index - 1,
        "import": import_stats,
        "void": {**void_stats, "recomputed_events": voided.recomputed_events},
        "full_recompute": {**full_stats, "replayed_events": events},
        "incremental_equals_full": verdict,
    }


# -- facts and reports -----------------------------------------------------------------------


def tree_hash(*folders: Path) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


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
    for package in ("sqlalchemy", "psycopg", "psycopg-binary", "pydantic"):
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
    return {
        "nproc": run("nproc"),
        "cpu_model": cpu_model,
        "memory_gib": round(mem_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "postgresql": postgres,
        "sqlite": sqlite3.sqlite_version,
        "packages": versions,
        "git_commit": run("git", "rev-parse", "--short", "HEAD"),
        "git_dirty": bool(run("git", "status", "--porcelain", "--untracked-files=no")),
        "app_tree_sha256": tree_hash(ROOT / "app", ROOT / "migrations"),
        "loadavg_at_start": [round(v, 2) for v in os.getloadavg()],
    }


def summary_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for target, result in report["databases"].items():
        for ds in report["config"]["datasets"]:
            ladder = ds["ladder"]
            imp = result["import"].get(ladder, {})
            rec = result["recompute"].get(ladder, {})
            raw = report["raw_ceiling"].get(target, {}).get(ladder, {})
            engine = report["engine_ceiling"].get(ladder, {})
            raw_gps = raw.get("games_per_s")
            engine_gps = engine.get("games_per_s")

            def ratio(value: float | None, ceiling: float | None) -> float | None:
                return round(value / ceiling, 3) if value and ceiling else None

            row = {
                "database": target,
                "ladder": ladder,
                "games": ds["games"],
                "import_games_per_s": imp.get("games_per_s"),
                "recompute_games_per_s": rec.get("games_per_s"),
                "engine_games_per_s": engine_gps,
                "raw_insert_games_per_s": raw_gps,
                "import_to_raw": ratio(imp.get("games_per_s"), raw_gps),
                "recompute_to_raw": ratio(rec.get("games_per_s"), raw_gps),
                "import_to_engine": ratio(imp.get("games_per_s"), engine_gps),
                "recompute_to_engine": ratio(rec.get("games_per_s"), engine_gps),
            }
            row["goal_met"] = bool(
                row["import_to_raw"]
                and row["recompute_to_raw"]
                and row["import_to_raw"] >= GOAL_RATIO
                and row["recompute_to_raw"] >= GOAL_RATIO
            )
            rows.append(row)
    return rows


def _n(value: Any, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def markdown(report: dict[str, Any]) -> str:
    facts = report["machine"]
    cfg = report["config"]
    dirty = " (dirty tree)" if facts["git_dirty"] else ""
    lines = [
        f"# History benchmark — {report['date']}",
        "",
        f"Machine: nproc {facts['nproc']} ({facts['cpu_model']}), {facts['memory_gib']} GiB, "
        f"Python {facts['python']}, PostgreSQL {facts['postgresql']}, SQLite {facts['sqlite']}; "
        f"commit {facts['git_commit']}{dirty}, app/ + migrations/ sha256 "
        f"{facts['app_tree_sha256']}. Load average at start: {facts['loadavg_at_start']}.",
        "",
        f"Scale {cfg['scale']}: "
        + "; ".join(
            f"`{d['ladder']}` = {d['games']:,} {d['system']} games of {d['seats']} players "
            f"among {d['players']:,}"
            for d in cfg["datasets"]
        )
        + f"; void ladder {cfg['void_dataset']['games']:,} elo games among "
        f"{cfg['void_dataset']['players']:,} players. Import chunk {cfg['chunk']} events per "
        f"transaction. Import path: {cfg['import_path']}. Total run time "
        f"{report['total_minutes']} min, peak memory {report['peak_rss_mib']:,} MiB."
        f"{' PROFILED (py-spy attached to imports and recomputes).' if cfg['profile'] else ''}",
        "",
        "| database | ladder | games | import games/s | recompute games/s | engine ceiling "
        "games/s | raw-insert ceiling games/s | import ÷ raw | recompute ÷ raw | import ÷ "
        "engine | recompute ÷ engine | goal (≥ 0.5 × raw) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in report["summary"]:
        lines.append(
            f"| {row['database']} | {row['ladder']} | {row['games']:,} | "
            f"{_n(row['import_games_per_s'])} | {_n(row['recompute_games_per_s'])} | "
            f"{_n(row['engine_games_per_s'])} | {_n(row['raw_insert_games_per_s'])} | "
            f"{_n(row['import_to_raw'], 3)} | {_n(row['recompute_to_raw'], 3)} | "
            f"{_n(row['import_to_engine'], 3)} | {_n(row['recompute_to_engine'], 3)} | "
            f"{'met' if row['goal_met'] else 'NOT met'} |"
        )
    goal = "met" if report["goal_met"] else "NOT met"
    lines += [
        "",
        f"**Goal (import and recomputation at ≥ {GOAL_RATIO} × the raw-insert ceiling, every "
        f"database and ladder): {goal}.**",
    ]
    for target, result in report["databases"].items():
        if result.get("workaround"):
            lines += ["", f"Note ({target}): {result['workaround']}"]
    lines += [
        "",
        "## Void at 1 % depth",
        "",
        "| database | games | voided (index) | games after it | void s (replayed) | "
        "full recompute s | incremental == full |",
        "|---|---:|---|---:|---:|---:|---|",
    ]
    for target, result in report["databases"].items():
        v = result.get("void", {})
        if "skipped" in v or not v:
            lines.append(f"| {target} | – | – | – | – | – | skipped |")
            continue
        eq = v["incremental_equals_full"]
        lines.append(
            f"| {target} | {v['games']:,} | {v['voided_id']} ({v['voided_index']:,}) | "
            f"{v['games_after_voided']:,} | {v['void']['seconds']:.3f} "
            f"({v['void']['recomputed_events']:,}) | {v['full_recompute']['seconds']:.2f} | "
            f"{'yes, bit for bit' if eq['equal'] else 'NO'} ({eq['rows'][0]:,} ratings, "
            f"{eq['differing_rows']} differing) |"
        )
    for target, result in report["databases"].items():
        if result.get("restarts"):
            lines += [
                "",
                f"PostgreSQL restarted (other engineers' fault-injection tests) during {target} "
                f"units: {json.dumps(result['restarts'])}; a failed unit was run again from a "
                "fresh schema; an absorbed restart (the service's retries) is flagged on the "
                "measurement (`postgres_restarted_during` in the JSON).",
            ]
    lines += ["", "## Checks", "", "| database | check | result |", "|---|---|---|"]
    for target, result in report["databases"].items():
        for name, verdict in result["checks"].items():
            count = verdict.get("rows", verdict.get("ratings"))
            lines.append(
                f"| {target} | {name} | {'equal' if verdict['equal'] else 'DIFFERENT'} "
                f"({count[0]:,} ratings) |"
            )
    lines += [
        "",
        "## Every measurement",
        "",
        "Wall time; CPU seconds of this (single-threaded) Python process, of this benchmark's "
        "PostgreSQL sessions (by application_name) and of every PostgreSQL process (other "
        "users' sessions included); how busy the whole machine was (100 % = both cores), and "
        "the share not explained by this process and its PostgreSQL sessions (other "
        "engineers' work); load average (1 min) at start and end.",
        "",
        "| measurement | s | games/s | Python CPU s | PostgreSQL CPU s (ours / all) | "
        "machine busy % | other % | load start → end | phases |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, stats in measurements(report):
        phases = ", ".join(
            f"{k.removesuffix('_s')} {stats[k]:.1f} s"
            for k in ("read_s", "validate_s", "apply_s", "events_s", "changes_s")
            if k in stats
        )
        if "chunk_s_first" in stats:
            phases += (
                f"; {stats['chunks']} chunks, first {stats['chunk_s_first']:.2f} s → "
                f"last {stats['chunk_s_last']:.2f} s each"
            )
        lines.append(
            f"| {name} | {stats['seconds']:.2f} | {_n(stats.get('games_per_s'))} | "
            f"{stats['python_cpu_s']:.1f} | {stats['postgres_cpu_s']:.1f} / "
            f"{stats['postgres_all_cpu_s']:.1f} | "
            f"{stats['machine_busy_pct']} | {stats['other_cpu_pct_of_machine']} | "
            f"{stats['loadavg_start'][0]} → {stats['loadavg_end'][0]} | {phases} |"
        )
    lines += [
        "",
        "Ceilings: *engine* = `app.engine.ledger.final_states` over the same engine events in "
        "memory (no database, no conversion). *raw insert* = the same events and changes rows "
        "the service stores (values computed beforehand with the engine, untimed: "
        + ", ".join(f"{k} {v:.1f} s" for k, v in report["prepare_seconds"].items())
        + ") inserted into a freshly migrated database (same tables and indexes) with no "
        "service logic: "
        + "; ".join(
            f"{t}: {next(iter(r.values())).get('method', '?')}"
            for t, r in report["raw_ceiling"].items()
            if r
        )
        + ". games/s of a ceiling = games ÷ its time. Recompute writes only changes and "
        "ratings (it reads the events), so recompute ÷ raw compares with a ceiling that also "
        "inserted the events.",
        "",
    ]
    return "\n".join(lines) + "\n"


def measurements(report: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for ladder, stats in report["engine_ceiling"].items():
        yield f"engine ceiling {ladder}", stats
    for target, per in report["raw_ceiling"].items():
        for ladder, stats in per.items():
            yield f"raw insert {target}/{ladder}", stats
    for target, result in report["databases"].items():
        for phase in ("import", "recompute"):
            for ladder, stats in result[phase].items():
                if "seconds" in stats:
                    yield f"{phase} {target}/{ladder}", stats
        v = result.get("void", {})
        if "import" in v:
            yield f"import {target}/void-elo", v["import"]
            yield f"void {target} (1 % depth)", v["void"]
            yield f"full recompute {target} (void ladder)", v["full_recompute"]


def print_table(report: dict[str, Any]) -> None:
    print()
    print(markdown(report))


# -- main ------------------------------------------------------------------------------------


#: One run at a time on this machine: runs share the PostgreSQL schema (and the cores).
RUN_LOCK = Path(tempfile.gettempdir()) / "ratings-bench-history.lock"


_held: list[Any] = []


def hold_run_lock() -> None:
    """An exclusive lock on RUN_LOCK, held until the process exits (waits for another run)."""
    stream = RUN_LOCK.open("a+")
    _held.append(stream)  # open (and so locked) until the process ends
    try:
        fcntl.flock(stream, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"another run_history.py holds {RUN_LOCK}: waiting for it to end", flush=True)
        fcntl.flock(stream, fcntl.LOCK_EX)


def _on_signal(signum: int, _frame: Any) -> None:
    print(f"run_history: stopped by signal {signal.Signals(signum).name}", flush=True)
    faulthandler.dump_traceback()
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every game count")
    parser.add_argument("--elo-games", type=int, default=1_000_000)
    parser.add_argument("--glicko2-games", type=int, default=100_000)
    parser.add_argument("--void-games", type=int, default=50_000)
    parser.add_argument("--chunk", type=int, default=bulk.DEFAULT_CHUNK, help="import chunk")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=150.0,
        help="soft limit: measurements not started by then are skipped (and marked so)",
    )
    parser.add_argument(
        "--no-sqlite-workaround",
        action="store_true",
        help="accepted for old command lines; the SQLite id bug is fixed in app/ (no-op)",
    )
    parser.add_argument("--profile", action="store_true", help="py-spy each import/recompute")
    parser.add_argument("--py-spy", default=None, help="py-spy binary (default: on PATH)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--workdir", type=Path, default=None, help="default: a temporary dir")
    args = parser.parse_args(argv)
    # A long run on a shared machine: say why it ended if it is killed or crashes.
    faulthandler.enable()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    targets = [t for t in args.databases.split(",") if t]
    hold_run_lock()
    for target in targets:
        if target not in ("sqlite", "postgresql"):
            parser.error(f"unknown database {target!r}")
    if not 0 < args.scale <= 1.0:
        parser.error("--scale must be in (0, 1]")

    def scaled(count: int) -> int:
        return max(200, round(count * float(args.scale)))

    elo_games, glicko_games = scaled(args.elo_games), scaled(args.glicko2_games)
    void_games = scaled(args.void_games)
    datasets = [
        data.Dataset(
            "elo",
            "elo",
            {"k": 32},
            elo_games,
            2,
            max(20, min(10_000, elo_games // 100)),
            args.seed,
        ),
        data.Dataset(
            "glicko2",
            "glicko2",
            {"period": "game"},
            glicko_games,
            4,
            max(20, min(2_000, glicko_games // 50)),
            args.seed,
        ),
    ]
    void_ds = data.Dataset(
        "void-elo",
        "elo",
        {"k": 32},
        void_games,
        2,
        max(20, min(10_000, void_games // 100)),
        args.seed,
    )

    now = dt.datetime.now(dt.UTC)
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    profiler = None
    if args.profile:
        binary = (
            args.py_spy or shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        )
        if not Path(binary).exists() and not shutil.which(binary):
            parser.error("py-spy not found: pip install py-spy, or pass --py-spy PATH")
        profiler = Profiler(binary, args.results / f"history-profile-{stamp}")
    started = time.monotonic()
    deadline = Deadline(started + 60 * args.max_minutes)
    report: dict[str, Any] = {
        "benchmark": "history: import, recompute, void",
        "date": now.isoformat(timespec="seconds"),
        "machine": machine_facts(),
        "config": {
            "scale": args.scale,
            "datasets": [vars(d) for d in datasets],
            "void_dataset": vars(void_ds),
            "chunk": args.chunk,
            "databases": targets,
            "seed": args.seed,
            "profile": args.profile,
            "import_path": "in-process bulk.read → bulk.ensure_ladder → bulk.to_items → "
            "bulk.apply_in_chunks (app.cli.import_file without its progress bar)",
            "recompute_path": "in-process app.services.admin.recompute_ladder(db, ladder, None) "
            "(what `ratings recompute LADDER` calls)",
            "void_path": "in-process app.services.events.void_event (what DELETE /games/{id} "
            "calls)",
        },
        "engine_ceiling": {},
        "raw_ceiling": {t: {} for t in targets},
        "prepare_seconds": {},
        "databases": {},
    }
    print(
        f"machine: nproc {report['machine']['nproc']}, load {report['machine']['loadavg_at_start']}"
    )
    print("datasets: " + "; ".join(f"{d.ladder} {d.games:,} games" for d in datasets))
    workdir_context = (
        tempfile.TemporaryDirectory(prefix="ratings-history-") if args.workdir is None else None
    )
    workdir = Path(workdir_context.name) if workdir_context else args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        files: dict[str, Path] = {}
        for ds in [*datasets, void_ds]:
            path = workdir / f"{ds.ladder}-{ds.games}.jsonl"
            began = time.perf_counter()
            size = data.generate(ds, path)
            files[ds.ladder] = path
            print(
                f"generated {path.name}: {size / 1e6:.0f} MB "
                f"in {time.perf_counter() - began:.1f} s",
                flush=True,
            )
        engine_states: dict[str, dict[str, str]] = {}
        for ds in datasets:
            print(f"[ceilings] {ds.ladder}", flush=True)
            prepared = data.prepare(ds)
            report["prepare_seconds"][ds.ladder] = round(prepared.seconds, 1)
            print(f"    prepared rows in {prepared.seconds:.1f} s (untimed)", flush=True)
            engine_states[ds.ladder], stats = engine_ceiling(prepared)
            stats.update(games=ds.games, games_per_s=rate(ds.games, stats))
            report["engine_ceiling"][ds.ladder] = stats
            for target_name in targets:
                raw = with_restarts(
                    target_name, partial(raw_ceiling, Target(target_name, workdir), prepared)
                )
                raw.update(games=ds.games, games_per_s=rate(ds.games, raw))
                report["raw_ceiling"][target_name][ds.ladder] = raw
            del prepared
            gc.collect()
        for target_name in targets:
            report["databases"][target_name] = run_target(
                Target(target_name, workdir),
                datasets,
                void_ds,
                files,
                engine_states,
                args,
                profiler,
                deadline,
            )
    finally:
        if workdir_context is not None:
            workdir_context.cleanup()
    report["total_minutes"] = round((time.monotonic() - started) / 60, 1)
    report["machine"]["loadavg_at_end"] = [round(v, 2) for v in os.getloadavg()]
    report["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if profiler is not None and profiler.folder is not None and profiler.folder.exists():
        summarise_profiles(profiler.folder)
    report["summary"] = summary_rows(report)
    report["goal_met"] = all(r["goal_met"] for r in report["summary"])
    args.results.mkdir(parents=True, exist_ok=True)
    json_path = args.results / f"history-{stamp}.json"
    md_path = args.results / f"history-{stamp}.md"
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    md_path.write_text(text)
    print()
    print(text)
    print(f"wrote {json_path} and {md_path}")
    failed = [
        f"{t}: {name}"
        for t, result in report["databases"].items()
        for name, verdict in result["checks"].items()
        if not verdict["equal"]
    ] + [
        f"{t}: void incremental != full"
        for t, result in report["databases"].items()
        if "incremental_equals_full" in result.get("void", {})
        and not result["void"]["incremental_equals_full"]["equal"]
    ]
    if failed:
        raise SystemExit("correctness check FAILED: " + "; ".join(failed))


if __name__ == "__main__":
    main()
