"""SQLite's own part of a full recomputation, alone: a ladder's changes deleted and the same
rows inserted again, in one transaction, on copies of one database file, by settings.

    .venv/bin/python bench/sqlite_rewrite.py SNAPSHOT.db LADDER ROUNDS VARIANT...

A variant is ``+``-joined parts: ``s:FILE`` (another snapshot, e.g. the same one VACUUMed to
another page size), ``p:PRAGMA`` (run on the connection, e.g. ``p:cache_size=-16384``) and
``executemany`` (one prepared INSERT instead of INSERTs of many rows each). The first variant
is the baseline. Each unit copies its snapshot, opens it as the service does (WAL,
synchronous NORMAL, foreign keys on), deletes with the service's statements and inserts
the rows read beforehand; it prints CPU and wall seconds of the delete, the insert and the
commit, and the WAL's size after each (MB). Rounds alternate the variants' order. A snapshot
is a file a ``ratings import`` left (``bench/units.py``'s ``import_history``).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import statistics
import sys
import time
from typing import Any

WORK = "/tmp/sqlite-rewrite.db"


def unit(
    snapshot: str, ladder: str, variant: str, rows: list[Any], columns: list[str]
) -> dict[str, float]:
    source, pragmas, per, many = snapshot, [], 32_766 // len(columns), False
    for part in variant.split("+"):
        if part.startswith("s:"):
            source = part[2:]
        elif part.startswith("p:"):
            pragmas.append(part[2:])
        elif part == "executemany":
            many = True
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(WORK + suffix):
            os.unlink(WORK + suffix)
    shutil.copy(source, WORK)
    db = sqlite3.connect(WORK, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", *pragmas):
        db.execute(f"PRAGMA {pragma}")
    out: dict[str, float] = {}

    def step(name: str, began: tuple[float, float]) -> None:
        out[f"{name}_cpu"] = time.process_time() - began[1]
        out[f"{name}_wall"] = time.perf_counter() - began[0]
        out[f"wal_after_{name}_mb"] = os.path.getsize(WORK + "-wal") / 1e6

    db.execute("BEGIN IMMEDIATE")
    began = time.perf_counter(), time.process_time()
    list(db.execute("SELECT DISTINCT player, faction FROM changes WHERE ladder_id = ?", (ladder,)))
    db.execute("DELETE FROM changes WHERE ladder_id = ?", (ladder,))
    step("delete", began)
    began = time.perf_counter(), time.process_time()
    head = f"INSERT INTO changes ({', '.join(columns)}) VALUES "
    one = f"({', '.join('?' * len(columns))})"
    if many:
        db.executemany(head + one, rows)
    else:
        for start in range(0, len(rows), per):
            chunk = rows[start : start + per]
            db.execute(head + ", ".join([one] * len(chunk)), [v for row in chunk for v in row])
    step("insert", began)
    began = time.perf_counter(), time.process_time()
    db.execute("COMMIT")
    step("commit", began)
    db.close()
    out["total_cpu"] = out["delete_cpu"] + out["insert_cpu"] + out["commit_cpu"]
    return out


def main() -> int:
    snapshot, ladder, rounds, variants = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    with sqlite3.connect(snapshot) as source:
        columns = [row[1] for row in source.execute("PRAGMA table_info(changes)")]
        rows = source.execute(f"SELECT {', '.join(columns)} FROM changes ORDER BY id").fetchall()
    print(f"{len(rows)} changes; load average {os.getloadavg()}")
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    for round_ in range(rounds):
        for variant in variants if round_ % 2 == 0 else variants[::-1]:
            results[variant].append(unit(snapshot, ladder, variant, rows, columns))
    print(f"load average after {os.getloadavg()}")
    base = results[variants[0]]
    for variant, units in results.items():
        medians = " ".join(f"{k}={statistics.median(u[k] for u in units):.3f}" for k in units[0])
        ratio = statistics.median(
            u["total_cpu"] / b["total_cpu"] for u, b in zip(units, base, strict=True)
        )
        print(f"{variant}: {medians} | total CPU ÷ first variant's, median by round {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
