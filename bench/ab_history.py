"""Import and full recomputation of one history by two checkouts of the service, alternated.

Two commits compared on the same machine in the same run, so that the machine's speed (which
moves from session to session, and with other work) cancels out of the ratio:

    git worktree add /tmp/ratings-old <commit>
    .venv/bin/python bench/ab_history.py --old /tmp/ratings-old --new . --games 100000

Each unit runs in its own process with ``PYTHONPATH`` at one checkout and a freshly migrated
database (a SQLite file, or the PostgreSQL schema ``bench_ab``, dropped and recreated): the
history is read, validated and imported as ``ratings import`` does (``import_files.read``,
``bulk.ensure_ladder``, ``bulk.to_items``, ``bulk.apply_in_chunks``), then recomputed from
scratch (``admin.recompute_ladder``). Rounds alternate which checkout goes first. The files
come from ``bench/history_data.py`` (seeded), so both checkouts import the same bytes.
Results: ``bench/results/ab-history-<UTC time>.json`` and a table on standard output.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

import history_data as data

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
#: This folder, where a unit finds ``units.py``.
BENCH = Path(__file__).resolve().parent
SCHEMA = "bench_ab"
#: Wall seconds, and this process's CPU seconds (all threads; on SQLite that is all the work,
#: and it moves less than wall time when other work shares the machine).
#: recompute_unqueued_s: the recomputation's wall time less the time its main thread waited
#: for a core (Linux schedstat): about what it takes when nothing else runs. The old code's
#: writer thread may also wait; that is not subtracted.
MEASURES = ("import_s", "recompute_s", "import_cpu_s", "recompute_cpu_s", "recompute_unqueued_s")
#: What one unit runs, in a process of its own at one checkout.
UNIT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[5])
from units import fresh_database, import_history
import app
from app.services.admin import recompute_ladder

path, url, ladder, schema = sys.argv[1:5]

def sched():
    # This thread's time on a CPU and waiting for one (ns, Linux schedstat).
    return [int(v) for v in open("/proc/thread-self/schedstat").read().split()[:2]]

db = fresh_database(url, schema)
began, cpu = time.perf_counter(), time.process_time()
created = import_history(db, path, ladder)
imported, import_cpu = time.perf_counter() - began, time.process_time() - cpu
began, cpu, before = time.perf_counter(), time.process_time(), sched()
recompute_ladder(db, ladder, None)
recomputed, recompute_cpu = time.perf_counter() - began, time.process_time() - cpu
on_cpu, waiting = ((a - b) / 1e9 for a, b in zip(sched(), before))
db.dispose()
print(json.dumps({"created": created, "import_s": imported, "recompute_s": recomputed,
                  "import_cpu_s": import_cpu, "recompute_cpu_s": recompute_cpu,
                  "recompute_main_thread": {"on_cpu_s": on_cpu, "runqueue_wait_s": waiting},
                  "recompute_unqueued_s": recomputed - waiting,
                  "app_imported_from": app.__file__}))
"""


def _unit(checkout: Path, path: Path, url: str, ladder: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", UNIT, str(path), url, ladder, SCHEMA, str(BENCH)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    # The shared venv's editable install maps app to /work/main: make sure it lost.
    if Path(result["app_imported_from"]).resolve() != (checkout / "app" / "__init__.py"):
        raise RuntimeError(f"{checkout}: the unit ran {result['app_imported_from']}")
    return result


def datasets(games: int) -> dict[str, data.Dataset]:
    """The two histories compared, by system (also profiled by ``profile_recompute.py``)."""
    return {
        "elo": data.Dataset("ab-elo", "elo", {"k": 32}, games, 2, min(10_000, games // 100), 1),
        "glicko2": data.Dataset(
            "ab-glicko2", "glicko2", {"period": "game"}, games, 4, min(2_000, games // 50), 2
        ),
    }


def summarise(
    rows: list[dict[str, Any]], systems: list[str], databases: list[str], rounds: int
) -> list[dict[str, Any]]:
    """Per system and database, each measure's median per checkout and new ÷ old by round."""
    summary = []
    for system in systems:
        for database in databases:
            mine = [r for r in rows if r["system"] == system and r["database"] == database]
            line: dict[str, Any] = {"system": system, "database": database}
            for measure in MEASURES:
                if not all(measure in r for r in mine):  # a file from before it was measured
                    continue
                old = statistics.median(r[measure] for r in mine if r["checkout"] == "old")
                new = statistics.median(r[measure] for r in mine if r["checkout"] == "new")
                # new / old within each round: the two ran next to each other.
                per_round = [
                    next(r[measure] for r in mine if r["round"] == n and r["checkout"] == "new")
                    / next(r[measure] for r in mine if r["round"] == n and r["checkout"] == "old")
                    for n in range(rounds)
                ]
                line[measure] = {"old": old, "new": new, "new_over_old": new / old,
                                 "new_over_old_per_round": per_round}  # fmt: skip
            summary.append(line)
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--new", type=Path, required=True)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--systems", default="elo,glicko2")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--results", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args()
    ladders = datasets(args.games)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as work:
        for system in args.systems.split(","):
            ds = ladders[system]
            path = Path(work) / f"{system}.jsonl"
            data.generate(ds, path)
            for database in args.databases.split(","):
                for round_ in range(args.rounds):
                    order = [("old", args.old), ("new", args.new)]
                    if round_ % 2:
                        order.reverse()
                    for label, checkout in order:
                        url = (
                            POSTGRES if database == "postgresql" else f"sqlite:///{work}/{label}.db"
                        )
                        if database == "sqlite":
                            for suffix in ("", "-wal", "-shm", ".writers"):
                                Path(f"{work}/{label}.db{suffix}").unlink(missing_ok=True)
                        result = _unit(checkout.resolve(), path, url, ds.ladder)
                        assert result["created"] == ds.games, result
                        row = {"system": system, "database": database, "round": round_,
                               "checkout": label, "loadavg_after": os.getloadavg(),
                               **result}  # fmt: skip
                        rows.append(row)
                        print(json.dumps(row), flush=True)
    summary = summarise(rows, args.systems.split(","), args.databases.split(","), args.rounds)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    args.results.mkdir(parents=True, exist_ok=True)
    out = args.results / f"ab-history-{stamp}.json"
    out.write_text(
        json.dumps(
            {
                "games": args.games,
                "old": str(args.old),
                "new": str(args.new),
                "runs": rows,
                "summary": summary,
                "nproc": os.cpu_count(),
            },
            indent=2,
        )
    )
    print(
        "\n| system | database | import old / new s (new÷old) | recompute old / new s (new÷old) |"
    )
    print("|---|---|---|---|")
    for line in summary:
        i, r = line["import_s"], line["recompute_s"]
        print(
            f"| {line['system']} | {line['database']} | {i['old']:.1f} / {i['new']:.1f} "
            f"({i['new_over_old']:.2f}) | {r['old']:.1f} / {r['new']:.1f} "
            f"({r['new_over_old']:.2f}) |"
        )
    for line in summary:
        for measure in MEASURES:
            ratios = ", ".join(f"{x:.2f}" for x in line[measure]["new_over_old_per_round"])
            print(f"{line['system']} {line['database']} {measure} new÷old by round: {ratios}")
    print(f"\n{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
