"""Late games on a large elo ladder, and the writes of other players meanwhile (issue 21).

    .venv/bin/python bench/late_writers.py --games 1000000 --schema bench_late1m

The current checkout only (no A/B; ``late_games.py`` compares two checkouts). On PostgreSQL
in a schema of its own (``--schema``, dropped and recreated, and dropped again at the end),
the ladder from ``bench/history_data.py`` (seeded; games 30 s apart) is imported as
``ratings import`` does (timed). Then late games are posted one at a time through
``events.submit_game`` (what ``POST /games`` runs for a late game), placed as
``late_games.py`` places them (one position further back): 1 s before the stored game
``lateness`` positions before the last one (so late by the lateness and 1 s), between the
first players of that game and the next, so that each player has later games.
Latenesses are converted to positions at the dataset's spacing (1 minute = 2 positions,
1 hour = 120, 1 day = 2,880, 10 days = 28,800); each is sampled ``--samples`` times at
neighbouring places (a stride of 7 positions, less for 1 minute so the samples stay about a
minute late). ``recomputed_events`` is recorded beside the time and checked against the cone
computed from the generated games alone (``late_games.expected_cones``).

Other writers: from the import's end to the last late game, a second *process* (its own
interpreter, so it does not share the late game's GIL; its own connection pool, as another
server worker would have) posts ordinary two-player games through ``events.submit_game``
between fresh players (``w<n>a``/``w<n>b``: outside every late game's cone), stamped after
the history's end, one at a time with a short pause. Each write's latency is recorded with
``time.monotonic`` (system-wide on Linux, so comparable with the main process's), and is
classed "during a late game" if its interval overlaps one, "quiet" otherwise (a baseline
window before the first late game and a gap after each one have no late game running).

Results: ``bench/results/late-1m-<UTC time>.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

import history_data as data
from late_games import LATE_BEFORE_NEXT, SAMPLE_STRIDE, expected_cones

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
#: Positions per unit of lateness at history_data's spacing of 30 s a game.
_PER_MINUTE = timedelta(minutes=1) // data.GAME_SPACING
LATENESS = {
    "1 minute": _PER_MINUTE,
    "1 hour": 60 * _PER_MINUTE,
    "1 day": 24 * 60 * _PER_MINUTE,
    "10 days": 10 * 24 * 60 * _PER_MINUTE,
}
#: Seconds of writes with no late game before the first one: the writers' quiet baseline.
BASELINE_SECONDS = 5.0
#: Seconds after each late game before the next: more quiet samples, and the writer catches up.
GAP_SECONDS = 2.0
#: The writer's pause between two games: a steady trickle of ordinary writes, not a saturating
#: load that would mostly measure the two processes fighting for the machine's 2 cores.
WRITER_PAUSE_SECONDS = 0.02


def scoped(url: str, schema: str) -> str:
    """The URL that puts every connection in ``schema`` (as ``units.fresh_database`` does)."""
    return f"{url}?options=-csearch_path%3D{schema}"


def writer(url: str, ladder: str, after: str, stop: str, out: str) -> int:
    """The other writers' process: ordinary games between fresh players until ``stop`` exists;
    ``[began, ended]`` monotonic times of each write, to ``out``."""
    from app.core.database import Database
    from app.schemas.events import GameIn
    from app.services import events as event_service

    db = Database(url)
    start = datetime.fromisoformat(after)
    times: list[list[float]] = []
    print("ready", flush=True)
    n = 0
    while not os.path.exists(stop):
        n += 1
        body = {
            "ladder": ladder,
            "id": f"w{n:07d}",
            "played_at": (start + timedelta(seconds=n)).isoformat(),
            "players": [{"player": f"w{n}a", "rank": 1}, {"player": f"w{n}b", "rank": 2}],
        }
        began = time.monotonic()
        answer = event_service.submit_game(db, GameIn.model_validate(body)).body
        ended = time.monotonic()
        assert answer.recomputed_events == 0, answer
        times.append([began, ended])
        time.sleep(WRITER_PAUSE_SECONDS)
    db.dispose()
    Path(out).write_text(json.dumps(times))
    return 0


def places_for(games: int, samples: int) -> list[tuple[str, int]]:
    """(lateness, index of the stored game the late game goes 1 s before), most late first."""
    out = []
    for label, lateness in sorted(LATENESS.items(), key=lambda item: -item[1]):
        stride = min(SAMPLE_STRIDE, max(1, lateness // 2))
        # The last stored game is ``games - 1``; 1 s before the one ``lateness`` before it.
        out += [(label, games - 1 - lateness - stride * sample) for sample in range(samples)]
    return out


def summarise(seconds: list[float]) -> dict[str, Any]:
    if not seconds:
        return {"n": 0}
    ordered = sorted(seconds)
    return {
        "n": len(ordered),
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "max_ms": 1000 * ordered[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--url", default=POSTGRES)
    parser.add_argument("--schema", default="bench_late1m")
    parser.add_argument("--results", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--no-check", action="store_true", help="skip expected_cones")
    parser.add_argument("--writer", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        return writer(*args.writer)

    from units import fresh_database, import_history

    ds = data.Dataset("late-elo", "elo", {"k": 32}, args.games, 2, args.players, 1)
    places = places_for(args.games, args.samples)
    url = scoped(args.url, args.schema)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "elo.jsonl"
        data.generate(ds, path)
        db = fresh_database(args.url, args.schema)
        try:
            load_before_import = os.getloadavg()[0]
            began = time.perf_counter()
            created = import_history(db, str(path), ds.ladder)
            import_seconds = time.perf_counter() - began
            print(json.dumps({"imported": created, "seconds": import_seconds}), flush=True)
            with path.open(encoding="utf-8") as stream:
                stream.readline()
                games = [json.loads(line) for line in stream]
            end = datetime.fromisoformat(games[-1]["played_at"].replace("Z", "+00:00"))
            stop, out = Path(work) / "stop", Path(work) / "writes.json"
            from app.schemas.events import GameIn
            from app.services import events as event_service

            writer_args = [url, ds.ladder, end.isoformat(), str(stop), str(out)]
            other = subprocess.Popen(
                [sys.executable, __file__, "--writer", *writer_args],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert other.stdout is not None
            assert other.stdout.readline().strip() == "ready"
            first_write = time.monotonic()
            time.sleep(BASELINE_SECONDS)
            for label, index in places:
                after, following = games[index], games[index + 1]
                at = (
                    datetime.fromisoformat(after["played_at"].replace("Z", "+00:00"))
                    - LATE_BEFORE_NEXT
                )
                body = {
                    "ladder": ds.ladder,
                    "id": f"late-{index}",
                    "played_at": at.isoformat(),
                    "players": [
                        {"player": after["players"][0]["player"], "rank": 1},
                        {"player": following["players"][0]["player"], "rank": 2},
                    ],
                }
                load = os.getloadavg()[0]
                t0 = time.monotonic()
                answer = event_service.submit_game(db, GameIn.model_validate(body)).body
                t1 = time.monotonic()
                row = {
                    "lateness": label,
                    "index": index,
                    "late_by_s": (end - at).total_seconds(),
                    "seconds": t1 - t0,
                    "recomputed_events": answer.recomputed_events,
                    "recomputed_players": answer.recomputed_players,
                    "load_1min": load,
                    "began": t0,
                    "ended": t1,
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
                time.sleep(GAP_SECONDS)
            stop.touch()
            other.wait(timeout=600)
            writes = json.loads(out.read_text())
        finally:
            db.dispose()
            from sqlalchemy import create_engine, text

            admin = create_engine(args.url, isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.execute(text(f'DROP SCHEMA IF EXISTS "{args.schema}" CASCADE'))
            admin.dispose()
    expected = [] if args.no_check else expected_cones(ds, places)
    for row, cone in zip(rows, expected, strict=False):
        row["expected_events"] = cone["events"]
    writes = [w for w in writes if w[0] >= first_write]

    def overlapping(write: list[float], lateness: str | None) -> bool:
        return any(
            write[0] < r["ended"] and write[1] > r["began"]
            for r in rows
            if lateness is None or r["lateness"] == lateness
        )

    quiet = [w[1] - w[0] for w in writes if not overlapping(w, None)]
    during = [w[1] - w[0] for w in writes if overlapping(w, None)]
    summary = []
    for label in LATENESS:
        mine = [r for r in rows if r["lateness"] == label]
        summary.append(
            {
                "lateness": label,
                "median_s": statistics.median(r["seconds"] for r in mine),
                "seconds": [r["seconds"] for r in mine],
                "recomputed_events": [r["recomputed_events"] for r in mine],
                "expected_events": [r.get("expected_events") for r in mine],
                "writes_during": summarise([w[1] - w[0] for w in writes if overlapping(w, label)]),
            }
        )
    report = {
        "games": args.games,
        "players": args.players,
        "database": args.url,
        "schema": args.schema,
        "import_seconds": import_seconds,
        "load_1min_before_import": load_before_import,
        "runs": rows,
        "writes": {"quiet": summarise(quiet), "during_late_games": summarise(during)},
        "summary": summary,
        "expected_cones": expected,
        "nproc": os.cpu_count(),
    }
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    args.results.mkdir(parents=True, exist_ok=True)
    base = args.results / f"late-1m-{stamp}"
    base.with_suffix(".json").write_text(json.dumps(report, indent=2))
    lines = [
        f"# Late games on a {args.games:,}-game elo ladder ({args.players:,} players), PostgreSQL",
        "",
        f"`{' '.join(sys.argv)}`; import {import_seconds:.1f} s. Late games one at a time;",
        "other writers: fresh players, one process, one game at a time.",
        "",
        "| late by | median s (each) | events re-rated (expected) | other writes during: "
        "n, p50 ms, max ms |",
        "|---|---|---|---|",
    ]
    for line in summary:
        w = line["writes_during"]
        lines.append(
            f"| {line['lateness']} | {line['median_s']:.3f} "
            f"({', '.join(f'{s:.3f}' for s in line['seconds'])}) | "
            f"{', '.join(map(str, line['recomputed_events']))} "
            f"({', '.join(map(str, line['expected_events']))}) | "
            + (f"{w['n']}, {w['p50_ms']:.1f}, {w['max_ms']:.1f} |" if w["n"] else "0 |")
        )
    q, d = report["writes"]["quiet"], report["writes"]["during_late_games"]
    for name, s in (("no late game running", q), ("during any late game", d)):
        if s["n"]:
            lines.append(
                f"\nOther writes, {name}: n {s['n']}, p50 {s['p50_ms']:.1f} ms, "
                f"p99 {s['p99_ms']:.1f} ms, max {s['max_ms']:.1f} ms."
            )
    base.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(base.with_suffix(".json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
