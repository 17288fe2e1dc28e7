"""One new game on a 100,000-game whole-history ladder (``ttt``, ``whr``), through the service:
how long ``POST /games`` takes to answer it (issue 38's goal: under 50 ms).

    flock /tmp/bench.lock .venv/bin/python bench/whole_history_writes.py [--games 100000]
        [--systems ttt,whr] [--samples 10] [--against main]

Per system and build: a fresh SQLite database, ``--games`` synthetic two-player games (bench/
ttt.py's generator: 5,000 players whose skills drift over 1,000 days, results drawn from the
model, seeded) imported with the build's ``ratings import`` (which leaves the fit converged),
then one server of the build (one worker). Then ``--samples`` rounds, each build in turn (the
order reversed every other round): one new game between the two players with the longest
histories, a day after the last, its wall time from request to response. The background
convergence is held off while the games are posted (``RATINGS_CONVERGENCE_POLL_SECONDS``
3600), so each answer is the write alone; afterwards, the servers stopped, one convergence pass
(``convergence.converge``) of this build is timed in a process of its own: the background
work that brings the ladder back to the converged fit.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import Server

#: Times one convergence pass of a ladder (argv: database URL, ladder) at a build.
CONVERGE_UNIT = r"""
import json, sys, time
import app
from app.core.database import Database
from app.services.convergence import converge
db = Database(sys.argv[1])
began = time.perf_counter()
done = converge(db, sys.argv[2])
print(json.dumps({"app": app.__file__, "converge_s": time.perf_counter() - began, "done": done}))
"""


def history(games: int) -> tuple[list[dict[str, Any]], tuple[str, str], datetime]:
    """The import's bodies (a game's time: its day plus its place in the day, in seconds),
    the two players with the most games, and the last game's time."""
    from ttt import synthetic  # bench/ttt.py's generator (it imports the reference package)

    matches = synthetic(games)
    bodies = []
    counts: Counter[str] = Counter()
    at = datetime.min.replace(tzinfo=UTC)
    for i, (winner, loser, day) in enumerate(matches):
        at = datetime.fromordinal(day).replace(tzinfo=UTC) + timedelta(seconds=i % 86_000)
        bodies.append(
            {
                "id": f"g{i}",
                "played_at": at.isoformat(),
                "players": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
            }
        )
        counts.update((winner, loser))
    (a, _), (b, _) = counts.most_common(2)
    return bodies, (a, b), at


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--systems", default="ttt,whr")
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    common.add_against(parser)
    args = parser.parse_args()
    bodies, (a, b), last = history(args.games)
    results: dict[str, Any] = {"players": [a, b]}
    with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
        report = common.new_report("whole_history_writes", args, built)
        workdir = Path(tmp)
        for system in args.systems.split(","):
            ladder = f"bench-{system}"
            path = workdir / f"{system}.jsonl"
            with path.open("w") as out:
                out.write(json.dumps({"ladder": {"id": ladder, "system": system}}) + "\n")
                for body in bodies:
                    out.write(json.dumps(body) + "\n")
            per_build: dict[str, dict[str, Any]] = {}
            servers: dict[str, Server] = {}
            urls: dict[str, str] = {}
            try:
                for build in built:
                    urls[build.label] = common.fresh_sqlite(workdir / f"{system}-{build.label}.db")
                    seconds = common.import_history(build, urls[build.label], path, ladder)
                    per_build[build.label] = {"import_s": seconds, "ms": []}
                    server = Server(
                        f"{system}-{build.label}",
                        build,
                        {
                            "RATINGS_DATABASE_URL": urls[build.label],
                            "RATINGS_CONVERGENCE_POLL_SECONDS": "3600",
                        },
                        workdir,
                    )
                    server.start()
                    servers[build.label] = server
                for round_ in range(args.samples):
                    at = last + timedelta(days=1 + round_)
                    body = {
                        "ladder": ladder,
                        "id": f"new-{round_}",
                        "played_at": at.isoformat(),
                        "players": [
                            {"player": a if round_ % 2 else b, "rank": 1},
                            {"player": b if round_ % 2 else a, "rank": 2},
                        ],
                    }
                    for build in common.in_turn(round_, built):
                        with common.admin_client(servers[build.label].base) as client:
                            began = time.perf_counter()
                            response = client.post("/games", json=body)
                            wall = time.perf_counter() - began
                            response.raise_for_status()
                            fit = client.get(f"/ladders/{ladder}").raise_for_status().json()
                        per_build[build.label]["ms"].append(wall * 1000)
                        per_build[build.label]["converged_after"] = fit["fit"]["converged"]
            finally:
                for server in servers.values():
                    server.stop()
            this = built[0]
            done = common.run_unit(this, CONVERGE_UNIT, urls[this.label], ladder)
            per_build[this.label]["converge_s"] = done["converge_s"]
            per_build[this.label]["converge_done"] = done["done"]
            results[system] = per_build
    report["results"] = results
    common.write_results("whole_history_writes", report, markdown(report), args.results)
    return 0


def markdown(report: dict[str, Any]) -> str:
    r = report["results"]
    games = report["config"]["games"]
    lines = common.header("One new game on a whole-history ladder, through the service", report)
    lines += [
        f"{games:,} synthetic games imported into a SQLite ladder; then one new game at a time "
        f"between the two players with the most games ({r['players'][0]}, {r['players'][1]}), "
        "wall time of POST /games; background convergence held off while posting.",
        "",
        "| system | build | import s | POST /games ms, median (min-max) | fit converged after | "
        "one convergence pass s |",
        "|---|---|---:|---:|---|---:|",
    ]
    for system in report["config"]["systems"].split(","):
        for label, got in r[system].items():
            converge = f"{got['converge_s']:.1f}" if "converge_s" in got else "-"
            lines.append(
                f"| {system} | {label} | {got['import_s']:.1f} | {common.spread(got['ms'])} | "
                f"{got['converged_after']} | {converge} |"
            )
    lines.append("")
    lines.append(
        "Medians: "
        + "; ".join(
            f"{system} {label} {statistics.median(got['ms']):.1f} ms"
            for system in report["config"]["systems"].split(",")
            for label, got in r[system].items()
        )
    )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
