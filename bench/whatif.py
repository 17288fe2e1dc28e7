"""Reads over a whole large ladder: what-if, evaluation, the as-of leaderboard and the
leaderboard with ranked play's policies, timed through ``ratings serve``.

    flock /tmp/bench.lock .venv/bin/python bench/whatif.py [--games 100000] [--players 20000]
        [--databases sqlite,postgresql] [--rounds 2] [--repeats 3] [--against REV]

The seeded elo ladder of ``history_data.py`` (two players a game, 10 % draws) is imported
once per database and build with the build's ``ratings import``. Each round then starts, per
database, a server of each build in turn (one worker; the order reversed every other round)
and sends, ``--repeats`` times each, with the admin token: ``POST /ladders/L/whatif`` to
glicko2 and to elo with K = 24, ``POST /ladders/L/evaluate`` (the ladder's own system),
``GET /ladders/L/leaderboard?limit=50`` as of the middle of the history and now, and the
board of now of a history of the same shape imported into a second ladder with ranked
play's policies (Zero-K decay, which every player's idle time triggers, three divisions and
10 placement games; API.md "Ranked play"), so the two boards compare in one run; then, once
each, the writes of :func:`writes`: a season reset against the PATCH recompute it resembles
(the second table). Recorded:
each request's wall time at the client, a hash of its answer (every build should answer
byte for byte the same), and how far the requests raised the server's peak RSS (VmHWM),
which unlike time does not move with what else the machine runs.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
import history_data as data
from common import Build, Server

LADDER = "whatif-elo"
RANKED = "whatif-elo-ranked"
#: Ranked play's policies, all at work on every player of the (years old) history.
RANKED_PARAMS = {
    "decay": {"after_days": 7, "points_per_week": 50, "max_points": 250},
    "divisions": [
        {"name": "Bronze"},
        {"name": "Silver", "min": 1400},
        {"name": "Gold", "min": 1600},
    ],
    "placement_games": 10,
}


def requests(as_of: str) -> dict[str, tuple[str, str, dict[str, Any] | None]]:
    """name -> (method, path, JSON body)."""
    board = f"/ladders/{LADDER}/leaderboard?limit=50"
    return {
        "what-if glicko2": ("POST", f"/ladders/{LADDER}/whatif", {"system": "glicko2"}),
        "what-if elo K 24": ("POST", f"/ladders/{LADDER}/whatif", {"params": {"k": 24}}),
        "evaluate": ("POST", f"/ladders/{LADDER}/evaluate", {}),
        "as-of board": ("GET", f"{board}&as_of={as_of}", None),
        "board": ("GET", board, None),
        "ranked board": ("GET", f"/ladders/{RANKED}/leaderboard?limit=50", None),
    }


def writes(as_of: str) -> list[tuple[str, str, str, dict[str, Any] | None]]:
    """(name, method, path, JSON body), in order, each once after the reads: a season with a
    soft reset from the middle of the history, created and deleted (the ladder has no decay,
    so its first reset re-rates every event: its states start carrying their last event's
    time), against the PATCH of a parameter, changed and changed back, which recomputes the
    whole ladder (issue 35: "a season reset on a 100,000-game ladder no slower than the
    PATCH recompute it resembles"). The ladder ends as it began, for the next round's reads."""
    season = {"id": "bench", "starts_at": as_of, "reset": {"kind": "soft", "fraction": 0.5}}
    return [
        ("season reset", "POST", f"/ladders/{LADDER}/seasons", season),
        ("season deleted", "DELETE", f"/ladders/{LADDER}/seasons/bench", None),
        ("PATCH recompute", "PATCH", f"/ladders/{LADDER}", {"params": {"k": 24}}),
        ("PATCH back", "PATCH", f"/ladders/{LADDER}", {"params": {"k": ELO_K}}),
    ]


#: The elo ladder's K as imported (the system's default), which the last write restores.
ELO_K = 32


def unit(
    build: Build, url: str, work: Path, as_of: str, repeats: int, name: str
) -> list[dict[str, Any]]:
    env = {
        "RATINGS_DATABASE_URL": url,
        "RATINGS_LOG_LEVEL": "WARNING",
        # The ladder may be larger than a request's caps at their defaults.
        "RATINGS_MAX_WHATIF_EVENTS": str(10**9),
        "RATINGS_MAX_EVALUATE_EVENTS": str(10**9),
    }
    rows = []
    with Server(name, build, env, work) as server, common.admin_client(server.base) as client:
        peak = server.peak_rss_mb()
        for request, (method, path, body) in requests(as_of).items():
            if method == "GET":  # warm: the first read of a page fills caches and plans
                client.get(path).raise_for_status()
            for _ in range(repeats):
                began = time.perf_counter()
                response = client.request(method, path, json=body)
                seconds = time.perf_counter() - began
                response.raise_for_status()
                rows.append(
                    {
                        "request": request,
                        "seconds": seconds,
                        "sha256": hashlib.sha256(response.content).hexdigest()[:16],
                    }
                )
        growth = server.peak_rss_mb() - peak
        for request, method, path, body in writes(as_of):
            began = time.perf_counter()
            response = client.request(method, path, json=body)
            seconds = time.perf_counter() - began
            response.raise_for_status()
            # The answer's times differ at each run: what was re-rated is compared.
            done = {k: response.json().get(k) for k in ("recomputed_events", "recomputed_players")}
            digest = hashlib.sha256(repr(sorted(done.items())).encode()).hexdigest()[:16]
            rows.append({"request": request, "seconds": seconds, "sha256": digest})
    for row in rows:
        row["unit_peak_rss_growth_mb"] = round(growth, 1)
    return rows


def markdown(report: dict[str, Any]) -> str:
    rows, cfg = report["runs"], report["config"]
    builds = [b["label"] for b in report["builds"]]
    lines = common.header("What-if, evaluation and the as-of board", report)
    lines += [
        f"An elo ladder of {cfg['games']:,} two-player games among {cfg['players']:,} players; "
        f"{cfg['rounds']} round(s) of {cfg['repeats']} request(s) of each kind. Imports: "
        + ", ".join(f"{k} {v:.1f} s" for k, v in report["imports"].items())
        + ". Seconds at the client, median (range); peak RSS growth of the server over each "
        "round's requests, median MB.",
        "",
        f"| database | request | build | seconds | {builds[0]} ÷ build, by round | same answer |",
        "|---|---|---|---|---|---|",
    ]
    names = list(requests("").keys()) + [w[0] for w in writes("")]
    for database in cfg["databases"].split(","):
        for request in names:
            for build in builds:
                mine = [r for r in rows if key(r) == (database, request, build)]
                if not mine:
                    continue
                ratio = ""
                if build != builds[0]:
                    per_round = [
                        best(rows, database, request, builds[0], n)
                        / best(rows, database, request, build, n)
                        for n in sorted({r["round"] for r in mine})
                    ]
                    ratio = ", ".join(f"{v:.2f}" for v in per_round)
                answers = {r["sha256"] for r in rows if key(r)[:2] == (database, request)}
                lines.append(
                    f"| {database} | {request} | {build} | "
                    f"{common.spread([r['seconds'] for r in mine])} | {ratio} | "
                    f"{'yes' if len(answers) == 1 else 'no'} |"
                )
    lines += ["", "| database | build | ranked board ÷ board, by round |", "|---|---|---|"]
    for database in cfg["databases"].split(","):
        for build in builds:
            rounds = sorted({r["round"] for r in rows if key(r)[::2] == (database, build)})
            ratios = [
                best(rows, database, "ranked board", build, n)
                / best(rows, database, "board", build, n)
                for n in rounds
            ]
            lines.append(f"| {database} | {build} | {', '.join(f'{v:.2f}' for v in ratios)} |")
    lines += [
        "",
        "| database | build | season reset ÷ PATCH recompute, by round |",
        "|---|---|---|",
    ]
    for database in cfg["databases"].split(","):
        for build in builds:
            rounds = sorted({r["round"] for r in rows if key(r)[::2] == (database, build)})
            ratios = [
                best(rows, database, "season reset", build, n)
                / best(rows, database, "PATCH recompute", build, n)
                for n in rounds
            ]
            lines.append(f"| {database} | {build} | {', '.join(f'{v:.2f}' for v in ratios)} |")
    lines += ["", "| database | build | peak RSS growth MB |", "|---|---|---:|"]
    for database in cfg["databases"].split(","):
        for build in builds:
            growth = {
                (r["round"], r["unit_peak_rss_growth_mb"])
                for r in rows
                if (r["database"], r["build"]) == (database, build)
            }
            if growth:
                lines.append(
                    f"| {database} | {build} | {statistics.median(g for _, g in growth):.0f} |"
                )
    lines.append("")
    return "\n".join(lines)


def best(rows: list[dict[str, Any]], database: str, request: str, build: str, round_: int) -> float:
    return min(
        r["seconds"] for r in rows if (*key(r), r["round"]) == (database, request, build, round_)
    )


def key(r: dict[str, Any]) -> tuple[str, str, str]:
    return r["database"], r["request"], r["build"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3, help="requests of each kind a round")
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    common.add_against(parser)
    args = parser.parse_args()
    ds = data.Dataset(LADDER, "elo", {}, args.games, 2, args.players, 21)
    ranked = data.Dataset(RANKED, "elo", RANKED_PARAMS, args.games, 2, args.players, 21)
    as_of = (data.EPOCH + (args.games // 2) * data.GAME_SPACING).isoformat().replace("+00:00", "Z")
    databases = args.databases.split(",")
    with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        report = common.new_report("reads", args, built)
        report["imports"], report["runs"] = {}, []
        path, ranked_path = work / "ladder.jsonl", work / "ranked.jsonl"
        data.generate(ds, path)
        data.generate(ranked, ranked_path)
        urls: dict[tuple[str, str], str] = {}
        try:
            for database in databases:
                for n, build in enumerate(built):
                    url = common.database_url(database, f"bench_reads_{n}", work)
                    urls[database, build.label] = url
                    seconds = common.import_history(build, url, path, LADDER)
                    report["imports"][f"{database}/{build.label}"] = seconds
                    common.import_history(build, url, ranked_path, RANKED)
                    print(f"{database}/{build.label}: imported in {seconds:.1f} s", flush=True)
            for round_ in range(args.rounds):
                for database in databases:
                    for build in common.in_turn(round_, built):
                        name = f"reads-{database}-{round_}-{built.index(build)}"
                        url = urls[database, build.label]
                        for row in unit(build, url, work, as_of, args.repeats, name):
                            row.update(database=database, build=build.label, round=round_)
                            report["runs"].append(row)
                        print(f"round {round_} {database} {build.label}: done", flush=True)
        finally:
            for database in databases:
                for n in range(len(built)):
                    common.drop_database(database, f"bench_reads_{n}", work)
    common.write_results("whatif", report, markdown(report), args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
