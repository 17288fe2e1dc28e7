"""Import and full recomputation of one history by two checkouts of the service, alternated.

Two commits compared on the same machine in the same run, so that the machine's speed (which
moves from session to session, and with other work) cancels out of the ratio:

    git worktree add /tmp/ratings-old <commit>
    .venv/bin/python bench/ab_history.py --old /tmp/ratings-old --new . --games 100000

Each unit runs in its own process with ``PYTHONPATH`` at one checkout and a freshly migrated
database (a SQLite file, or the PostgreSQL schema ``bench_ab``, dropped and recreated): the
history is read, validated and imported as ``ratings import`` does (``bulk.read``,
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
#: What one unit runs, in a process of its own at one checkout.
UNIT = r"""
import json, sys, time
sys.path.insert(0, sys.argv[5])
from units import fresh_database, import_history
from app.services.admin import recompute_ladder

path, url, ladder, schema = sys.argv[1:5]
db = fresh_database(url, schema)
began = time.perf_counter()
created = import_history(db, path, ladder)
imported = time.perf_counter() - began
began = time.perf_counter()
recompute_ladder(db, ladder, None)
recomputed = time.perf_counter() - began
db.dispose()
print(json.dumps({"created": created, "import_s": imported, "recompute_s": recomputed}))
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
    return result


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
    datasets = {
        "elo": data.Dataset(
            "ab-elo", "elo", {"k": 32}, args.games, 2, min(10_000, args.games // 100), 1
        ),
        "glicko2": data.Dataset(
            "ab-glicko2",
            "glicko2",
            {"period": "game"},
            args.games,
            4,
            min(2_000, args.games // 50),
            2,
        ),
    }
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as work:
        for system in args.systems.split(","):
            ds = datasets[system]
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
                               "checkout": label, **result}  # fmt: skip
                        rows.append(row)
                        print(json.dumps(row), flush=True)
    summary = []
    for system in args.systems.split(","):
        for database in args.databases.split(","):
            mine = [r for r in rows if r["system"] == system and r["database"] == database]
            line: dict[str, Any] = {"system": system, "database": database}
            for measure in ("import_s", "recompute_s"):
                old = statistics.median(r[measure] for r in mine if r["checkout"] == "old")
                new = statistics.median(r[measure] for r in mine if r["checkout"] == "new")
                line[measure] = {"old": old, "new": new, "new_over_old": new / old}
            summary.append(line)
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
    print(f"\n{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
