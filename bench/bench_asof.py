"""The as-of leaderboard of a large elo ladder beside the plain one, by one or two checkouts
of the service (issue 21, "reads in proportion too").

    git worktree add /tmp/ratings-old <commit>
    .venv/bin/python bench/bench_asof.py --checkouts old=/tmp/ratings-old,new=. --keep
    .venv/bin/python bench/bench_asof.py --checkouts new=. --drop   # reuses, then drops

The ladder (``bench/history_data.py``, seeded: 100,000 two-player elo games among 20,000
players by default) is imported once per database as ``ratings import`` does: a SQLite file
under ``--work`` and the PostgreSQL database ``bench_asof`` (created by the caller:
``psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE bench_asof"``; its schema ``bench`` is
recreated, and dropped with ``--drop``). With ``--keep`` both stay for the next
run, which then skips the import. Each checkout is then timed in a process of its own with
``PYTHONPATH`` at it: ``players.get_leaderboard`` (what the route runs) for the plain board
and for the board as of the middle of the history, limit 50, ``--repeats`` times each after
one untimed warm-up. Each checkout's as-of page is recorded too, and the run fails if two
checkouts' pages differ. Results: ``bench/results/asof-<UTC time>.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

import history_data as data

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/bench_asof"
SCHEMA = "bench"
BENCH = Path(__file__).resolve().parent
#: The board's page size in the issue.
LIMIT = 50

#: Imports the ladder into a fresh database (argv: jsonl path, url, ladder, schema, bench dir).
IMPORT = r"""
import sys
sys.path.insert(0, sys.argv[5])
from units import fresh_database, import_history
db = fresh_database(sys.argv[2], sys.argv[4])
import_history(db, sys.argv[1], sys.argv[3])
db.dispose()
"""

#: Times the boards (argv: url, ladder, as_of ISO time, repeats, limit).
TIMING = r"""
import json, os, sys, time
from datetime import datetime
from app.core.database import Database
from app.services import players

url, ladder, at, repeats, limit = sys.argv[1:6]
as_of = datetime.fromisoformat(at)
db = Database(url)

def board(when):
    return players.get_leaderboard(db, ladder, limit=int(limit), offset=0, sort="rating",
        order=None, active_within_days=None, faction=None, min_games=0, as_of=when)

out = {}
for label, when in (("plain", None), ("as_of", as_of)):
    page = board(when)  # warm-up: caches, the connection pool
    seconds = []
    for _ in range(int(repeats)):
        load = os.getloadavg()[0]
        began = time.perf_counter()
        board(when)
        seconds.append(time.perf_counter() - began)
    out[label] = {"seconds": seconds, "load_1min": load, "total": page.total,
                  "page": page.model_dump(mode="json")["entries"]}
db.dispose()
print(json.dumps(out))
"""


def _run(script: str, args: list[str], checkout: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{checkout}: {done.stderr[-3000:]}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkouts", default="new=.", help="label=path,... (timed in order)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-asof"))
    parser.add_argument("--keep", action="store_true", help="keep the imported databases")
    parser.add_argument("--drop", action="store_true", help="drop PostgreSQL's schema at the end")
    parser.add_argument("--results", type=Path, default=BENCH / "results")
    args = parser.parse_args()
    checkouts = [
        (label, Path(path).resolve())
        for label, path in (item.split("=", 1) for item in args.checkouts.split(","))
    ]
    ds = data.Dataset("asof-elo", "elo", {"k": 32}, args.games, 2, args.players, 1)
    as_of = data.EPOCH + (args.games // 2) * data.GAME_SPACING
    args.work.mkdir(parents=True, exist_ok=True)
    path = args.work / f"elo-{args.games}-{args.players}.jsonl"
    if not path.exists():
        data.generate(ds, path)
    runs: list[dict[str, Any]] = []
    for database in args.databases.split(","):
        url = POSTGRES if database == "postgresql" else f"sqlite:///{args.work}/asof.db"
        marker = args.work / f"imported-{database}-{args.games}-{args.players}"
        if not marker.exists():
            began = datetime.now(UTC)
            _run(IMPORT, [str(path), url, ds.ladder, SCHEMA, str(BENCH)], checkouts[-1][1])
            print(f"{database}: imported in {datetime.now(UTC) - began}", flush=True)
            marker.touch()
        if database == "postgresql":
            url = f"{url}?options=-csearch_path%3D{SCHEMA}"
        for label, checkout in checkouts:
            out = json.loads(
                _run(
                    TIMING,
                    [url, ds.ladder, as_of.isoformat(), str(args.repeats), str(LIMIT)],
                    checkout,
                ).splitlines()[-1]
            )
            run = {"database": database, "checkout": label, "path": str(checkout), **out}
            runs.append(run)
            print(
                json.dumps(
                    {
                        "database": database,
                        "checkout": label,
                        **{k: out[k]["seconds"] for k in ("plain", "as_of")},
                    }
                ),
                flush=True,
            )
        pages = {json.dumps(r["as_of"]["page"]) for r in runs if r["database"] == database}
        totals = {r["as_of"]["total"] for r in runs if r["database"] == database}
        if len(pages) != 1 or len(totals) != 1:
            raise SystemExit(f"{database}: the checkouts' as-of boards differ")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    args.results.mkdir(parents=True, exist_ok=True)
    meta = {
        "games": args.games,
        "players": args.players,
        "as_of": as_of.isoformat(),
        "limit": LIMIT,
        "repeats": args.repeats,
        "nproc": os.cpu_count(),
    }
    (args.results / f"asof-{stamp}.json").write_text(
        json.dumps({**meta, "runs": runs}, indent=2) + "\n"
    )
    lines = [
        f"# As-of leaderboard, {stamp}",
        "",
        f"{args.games:,} two-player elo games among {args.players:,} players; as_of "
        f"{as_of.isoformat()} (the middle); limit {LIMIT}; median (min-max) of "
        f"{args.repeats} after a warm-up, seconds.",
        "",
        "| database | checkout | plain board | as-of board | as-of total | load |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in runs:
        cells = [
            f"{statistics.median(r[k]['seconds']):.3f} "
            f"({min(r[k]['seconds']):.3f}-{max(r[k]['seconds']):.3f})"
            for k in ("plain", "as_of")
        ]
        lines.append(
            f"| {r['database']} | {r['checkout']} | {cells[0]} | {cells[1]} | "
            f"{r['as_of']['total']} | {r['as_of']['load_1min']:.1f} |"
        )
    (args.results / f"asof-{stamp}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    if args.drop and "postgresql" in args.databases:
        from sqlalchemy import create_engine, text

        admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
        admin.dispose()
        (args.work / f"imported-postgresql-{args.games}-{args.players}").unlink()
    if not args.keep:
        for marker in args.work.glob("imported-*"):
            marker.unlink()
        (args.work / "asof.db").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
