"""Late games on a large elo ladder, by two checkouts of the service: latency and events
re-rated (issue 21, "re-rate only the dependency cone").

    git worktree add /tmp/ratings-old <commit>
    .venv/bin/python bench/late_games.py --old /tmp/ratings-old --new . --games 100000

For each database and checkout, in a process of its own with ``PYTHONPATH`` at the checkout
and a freshly migrated database (a SQLite file, or the PostgreSQL schema ``bench_late``,
dropped and recreated): the ladder from ``bench/history_data.py`` (seeded, so both checkouts
import the same bytes) is imported as ``ratings import`` does, then late games are posted
one at a time through ``events.submit_game`` (what ``POST /games`` runs for a late game),
each stamped between two stored games a given number of positions before the end. A late
game's players are the first players of the two games right after its place, so that each
has later games and its cone is not empty by construction. Each lateness is sampled
``--samples`` times at neighbouring places; the answer's ``recomputed_events`` is recorded
beside the time. Results: ``bench/results/late-games-<UTC time>.json`` and a table.

The machine's load is recorded (``os.getloadavg``) before and after each unit: on a shared
machine the latencies move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

import history_data as data

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SCHEMA = "bench_late"
#: This folder, where a unit finds ``units.py``.
BENCH = Path(__file__).resolve().parent
#: History positions per day and per ten days at history_data's spacing of 30 s a game.
GAMES_PER_DAY = 2_880
LATENESS = {"1 day": GAMES_PER_DAY, "10 days": 10 * GAMES_PER_DAY}
#: Places sampled per lateness are this many games apart, so samples do not overlap much.
SAMPLE_STRIDE = 7
#: A late game stands this long before the stored game at its place.
LATE_BEFORE_NEXT = timedelta(seconds=1)
#: What one unit runs, in a process of its own at one checkout.
UNIT = r"""
import json, os, sys, time
from datetime import datetime, timedelta
sys.path.insert(0, sys.argv[6])
from units import fresh_database, import_history
from app.schemas.events import GameIn
from app.services import events as event_service

path, url, ladder, schema = sys.argv[1:5]
places = json.loads(sys.argv[5])
db = fresh_database(url, schema)
import_history(db, path, ladder)
with open(path, encoding="utf-8") as stream:
    games = [json.loads(line) for line in list(stream)[1:]]
out = []
for label, index in places:
    after, following = games[index], games[index + 1]
    at = datetime.fromisoformat(after["played_at"].replace("Z", "+00:00")) - timedelta(seconds=1)
    body = {"ladder": ladder, "id": f"late-{index}", "played_at": at.isoformat(),
            "players": [{"player": after["players"][0]["player"], "rank": 1},
                        {"player": following["players"][0]["player"], "rank": 2}]}
    load = os.getloadavg()[0]
    began = time.perf_counter()
    answer = event_service.submit_game(db, GameIn.model_validate(body)).body
    seconds = time.perf_counter() - began
    out.append({"lateness": label, "index": index, "seconds": seconds,
                "recomputed_events": answer.recomputed_events,
                "recomputed_players": answer.recomputed_players, "load_1min": load})
db.dispose()
print(json.dumps(out))
"""


def expected_cones(ds: data.Dataset, places: list[Any]) -> list[dict[str, Any]]:
    """Each late game's cone, from the generated games alone (an independent check of
    ``recomputed_events``): the stored games after its place that share a player with it
    or with an earlier one of them, in the history its predecessors in ``places`` left."""
    games = list(data.bodies(ds))
    history = [
        (datetime.fromisoformat(g["played_at"]), seq, {p["player"] for p in g["players"]})
        for seq, g in enumerate(games)
    ]
    out = []
    for label, index in places:
        at = datetime.fromisoformat(games[index]["played_at"]) - LATE_BEFORE_NEXT
        players = {games[index]["players"][0]["player"], games[index + 1]["players"][0]["player"]}
        place = (at, len(history))
        dirty, events = set(players), 0
        for when, seq, names in sorted(history):
            if (when, seq) > place and not dirty.isdisjoint(names):
                dirty |= names
                events += 1
        history.append((at, len(history), players))
        out.append({"lateness": label, "index": index, "events": events, "ratings": len(dirty)})
    return out


def _unit(checkout: Path, path: Path, url: str, ladder: str, places: list[Any]) -> list[Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            UNIT,
            str(path),
            url,
            ladder,
            SCHEMA,
            json.dumps(places),
            str(BENCH),
        ],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{checkout}: {done.stderr[-3000:]}")
    result: list[Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--new", type=Path, required=True)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--results", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args()
    ds = data.Dataset("late-elo", "elo", {"k": 32}, args.games, 2, args.players, 1)
    # Places are indices into the generated games (later late games do not move them).
    places = [
        (label, args.games - lateness - SAMPLE_STRIDE * sample)
        for label, lateness in sorted(LATENESS.items(), key=lambda item: -item[1])
        for sample in range(args.samples)
    ]
    expected = expected_cones(ds, places)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "elo.jsonl"
        data.generate(ds, path)
        for database in args.databases.split(","):
            for label, checkout in (("old", args.old), ("new", args.new)):
                url = POSTGRES if database == "postgresql" else f"sqlite:///{work}/{label}.db"
                load_before = os.getloadavg()[0]
                for result in _unit(checkout.resolve(), path, url, ds.ladder, places):
                    row = {"database": database, "checkout": label, **result}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                print(json.dumps({"load_1min_before_unit": load_before}), flush=True)
    summary = []
    for database in args.databases.split(","):
        for label in LATENESS:
            line: dict[str, Any] = {"database": database, "lateness": label}
            for checkout in ("old", "new"):
                mine = [
                    r
                    for r in rows
                    if r["database"] == database
                    and r["lateness"] == label
                    and r["checkout"] == checkout
                ]
                line[checkout] = {
                    "median_s": statistics.median(r["seconds"] for r in mine),
                    "seconds": [r["seconds"] for r in mine],
                    "recomputed_events": [r["recomputed_events"] for r in mine],
                }
            summary.append(line)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    args.results.mkdir(parents=True, exist_ok=True)
    out = args.results / f"late-games-{stamp}.json"
    out.write_text(
        json.dumps(
            {
                "games": args.games,
                "players": args.players,
                "old": str(args.old),
                "new": str(args.new),
                "runs": rows,
                "expected_cones": expected,
                "summary": summary,
                "nproc": os.cpu_count(),
            },
            indent=2,
        )
    )
    print("\n| database | late by | old: median s (events re-rated) | new: median s (events) |")
    print("|---|---|---|---|")
    for line in summary:
        old, new = line["old"], line["new"]
        print(
            f"| {line['database']} | {line['lateness']} | {old['median_s']:.3f} "
            f"({', '.join(map(str, old['recomputed_events']))}) | {new['median_s']:.3f} "
            f"({', '.join(map(str, new['recomputed_events']))}) |"
        )
    print("\nexpected cones (events, ratings):", [(e["events"], e["ratings"]) for e in expected])
    print(f"\n{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
