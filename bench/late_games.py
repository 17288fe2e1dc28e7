"""A late game on a large ladder: how long ``POST /games`` takes to place it and re-rate what
depends on it, and how other players' games fare meanwhile.

    flock /tmp/bench.lock .venv/bin/python bench/late_games.py [--games 100000]
        [--players 20000] [--databases sqlite,postgresql] [--samples 3] [--against REV]
        [--burst K]

Per database and build: a fresh database, the seeded elo ladder of ``history_data.py`` (two
players a game, 30 s apart) imported with the build's ``ratings import``, and two servers of
the build on it, one worker each (two replicas). Then, for each lateness (1 minute, 1 hour, 1
day, 10 days before the last game) and sample (places 7 games apart), each build in turn (the
order reversed every other time) gets the same late game: between the first players of two
neighbouring stored games, 1 s before the later one, so both have later games. The late game
goes to one server while a writer sends ordinary games between fresh players to the other,
one at a time, from 1 s before to 1 s after. Checked: ``recomputed_events`` equals the cone
computed from the generated games alone.

``--burst K`` (issue 39's far-back writes on a hot ladder; use few players, e.g. 40): instead,
per sample and build, K late games at once, each 1 day back at its own place, half to each
server; each one's seconds and the time until the last is answered.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
import history_data as data
from common import Build, Server

LADDER = "late-elo"
_PER_MINUTE = timedelta(minutes=1) // data.GAME_SPACING
#: Positions before the last stored game, at history_data's 30 s a game.
LATENESS = {
    "10 days": 10 * 24 * 60 * _PER_MINUTE,
    "1 day": 24 * 60 * _PER_MINUTE,
    "1 hour": 60 * _PER_MINUTE,
    "1 minute": _PER_MINUTE,
}
#: Samples of a lateness are this many games apart (at most half the lateness).
STRIDE = 7
#: A late game stands this long before the stored game at its place.
BEFORE_NEXT = timedelta(seconds=1)
#: Seconds of ordinary writes before and after each late game.
QUIET_SECONDS = 1.0
#: The writer's pause between two games: a trickle, not a load fighting for the 2 cores.
WRITER_PAUSE = 0.02


def places(games: int, samples: int) -> list[tuple[str, int]]:
    """(lateness, index of the stored game the late game goes 1 s before), most late first;
    latenesses the ladder is too short for are left out."""
    out = []
    for label, positions in LATENESS.items():
        stride = min(STRIDE, max(1, positions // 2))
        chosen = [games - 1 - positions - stride * n for n in range(samples)]
        if min(chosen) > 0:
            out += [(label, index) for index in chosen]
    return out


def late_body(games: list[dict[str, Any]], index: int) -> dict[str, Any]:
    at = datetime.fromisoformat(games[index]["played_at"]) - BEFORE_NEXT
    first = games[index]["players"][0]["player"]
    # The next game's first player who is not the first: on a few hot players the next
    # game often starts with the same one, and a game against oneself is a 422.
    second = next(
        p["player"] for g in games[index + 1 :] for p in g["players"] if p["player"] != first
    )
    return {
        "ladder": LADDER,
        "id": f"late-{index}",
        "played_at": at.isoformat(),
        "players": [{"player": first, "rank": 1}, {"player": second, "rank": 2}],
    }


def expected_cones(games: list[dict[str, Any]], chosen: list[tuple[str, int]]) -> list[int]:
    """Each late game's cone from the generated games alone: the stored games after its place
    that share a player with it or with an earlier one of them, in the history its
    predecessors left (an independent check of ``recomputed_events``)."""
    history = [
        (datetime.fromisoformat(g["played_at"]), seq, {p["player"] for p in g["players"]})
        for seq, g in enumerate(games)
    ]
    out = []
    for _label, index in chosen:
        body = late_body(games, index)
        at = datetime.fromisoformat(body["played_at"])
        dirty = {p["player"] for p in body["players"]}
        players = set(dirty)
        place, events = (at, len(history)), 0
        for when, seq, names in sorted(history):
            if (when, seq) > place and not dirty.isdisjoint(names):
                dirty |= names
                events += 1
        history.append((at, len(history), players))
        out.append(events)
    return out


class Writer(threading.Thread):
    """Ordinary games between fresh players, one at a time; each one's (began, ended)."""

    def __init__(self, base: str, after: datetime, first: int) -> None:
        super().__init__(daemon=True)
        self.base, self.after, self.n = base, after, first
        self.halt = threading.Event()
        self.times: list[tuple[float, float]] = []

    def run(self) -> None:
        with common.admin_client(self.base, 60.0) as client:
            while not self.halt.is_set():
                self.n += 1
                body = {
                    "ladder": LADDER,
                    "id": f"w{self.n:07d}",
                    "played_at": (self.after + timedelta(seconds=self.n)).isoformat(),
                    "players": [
                        {"player": f"w{self.n}a", "rank": 1},
                        {"player": f"w{self.n}b", "rank": 2},
                    ],
                }
                began = time.monotonic()
                response = client.post("/games", json=body)
                self.times.append((began, time.monotonic()))
                response.raise_for_status()
                time.sleep(WRITER_PAUSE)


def late_game(
    servers: tuple[Server, Server], body: dict[str, Any], after: datetime, first: int
) -> dict[str, Any]:
    """The late game to the first server, ordinary writes to the second meanwhile."""
    writer = Writer(servers[1].base, after, first)
    writer.start()
    time.sleep(QUIET_SECONDS)
    with common.admin_client(servers[0].base) as client:
        began = time.monotonic()
        response = client.post("/games", json=body)
        ended = time.monotonic()
    time.sleep(QUIET_SECONDS)
    writer.halt.set()
    writer.join(timeout=120)
    response.raise_for_status()
    during = [b - a for a, b in writer.times if a < ended and b > began]
    quiet = [b - a for a, b in writer.times if not (a < ended and b > began)]
    return {
        "seconds": ended - began,
        "recomputed_events": response.json()["recomputed_events"],
        "writes_during_ms": [round(1000 * s, 2) for s in during],
        "writes_quiet_ms": [round(1000 * s, 2) for s in quiet],
        "writer_next": writer.n,
    }


def markdown(report: dict[str, Any]) -> str:
    cfg, rows = report["config"], report["runs"]
    lines = common.header("Late games", report)
    lines += [
        f"An elo ladder of {cfg['games']:,} two-player games among {cfg['players']:,} players, "
        "imported per database and build; two servers of one worker each. Imports: "
        + ", ".join(f"{k} {v:.1f} s" for k, v in report["imports"].items())
        + ".",
        "",
        "| database | late by | build | seconds, median (each) | events re-rated (expected) "
        "| other writes during: n, p50 / max ms | quiet: p50 ms |",
        "|---|---|---|---|---|---|---|",
    ]
    builds = [b["label"] for b in report["builds"]]
    order = [*cfg["databases"].split(","), *LATENESS, *builds]
    keys = sorted({keys_of(r) for r in rows}, key=lambda k: [order.index(x) for x in k])
    for database, lateness, build in keys:
        mine = [r for r in rows if keys_of(r) == (database, lateness, build)]
        during = [ms for r in mine for ms in r["writes_during_ms"]]
        quiet = [ms for r in mine for ms in r["writes_quiet_ms"]]
        seconds = [r["seconds"] for r in mine]
        lines.append(
            f"| {database} | {lateness} | {build} | {statistics.median(seconds):.3f} "
            f"({', '.join(f'{s:.3f}' for s in seconds)}) | "
            f"{', '.join(str(r['recomputed_events']) for r in mine)} "
            f"({', '.join(str(r['expected_events']) for r in mine)}) | "
            f"{len(during)}, {statistics.median(during) if during else 0:.1f} / "
            f"{max(during, default=0):.1f} | {statistics.median(quiet) if quiet else 0:.1f} |"
        )
    if len(builds) > 1:
        lines += [
            "",
            f"**{builds[0]}**'s seconds ÷ each other build's, for the same late game:",
            "",
        ]
        for database, lateness, build in keys:
            if build == builds[0]:
                continue
            pairs = [
                twin["seconds"] / r["seconds"]
                for r in rows
                if keys_of(r) == (database, lateness, build)
                for twin in rows
                if keys_of(twin) == (database, lateness, builds[0]) and twin["index"] == r["index"]
            ]
            lines.append(
                f"- {database}, {lateness}, {build}: "
                f"{statistics.median(pairs):.2f} ({', '.join(f'{p:.2f}' for p in pairs)})"
            )
    lines.append("")
    return "\n".join(lines)


def keys_of(r: dict[str, Any]) -> tuple[str, str, str]:
    return r["database"], r["lateness"], r["build"]


def run_database(
    database: str,
    built: list[Build],
    games: list[dict[str, Any]],
    path: Path,
    chosen: list[tuple[str, int]],
    expected: list[int],
    report: dict[str, Any],
    work: Path,
) -> None:
    after = datetime.fromisoformat(games[-1]["played_at"])
    servers: dict[str, tuple[Server, Server]] = {}
    try:
        for n, build in enumerate(built):
            schema = f"bench_late_{n}"
            url = common.database_url(database, schema, work)
            seconds = common.import_history(build, url, path, LADDER)
            report["imports"][f"{database}/{build.label}"] = seconds
            print(f"{database}/{build.label}: imported in {seconds:.1f} s", flush=True)
            env = {"RATINGS_DATABASE_URL": url, "RATINGS_LOG_LEVEL": "WARNING"}
            pair = tuple(Server(f"late-{database}-{n}-{i}", build, env, work) for i in (0, 1))
            servers[build.label] = pair  # type: ignore[assignment]
            for server in pair:
                server.start()
        writes = 0
        for k, ((lateness, index), cone) in enumerate(zip(chosen, expected, strict=True)):
            for build in common.in_turn(k, built):
                result = late_game(servers[build.label], late_body(games, index), after, writes)
                writes = result.pop("writer_next")
                row = {"database": database, "lateness": lateness, "index": index,
                       "build": build.label, "expected_events": cone, **result}  # fmt: skip
                report["runs"].append(row)
                print(
                    f"{database} {build.label} late by {lateness}: {row['seconds']:.3f} s, "
                    f"{row['recomputed_events']} events (expected {cone})",
                    flush=True,
                )
    finally:
        for pair in servers.values():
            for server in pair:
                server.stop()
        for n in range(len(built)):
            common.drop_database(database, f"bench_late_{n}", work)


def burst(servers: tuple[Server, Server], bodies: list[dict[str, Any]]) -> dict[str, Any]:
    """The late games at once, alternately to each server; each one's seconds, the last's."""
    seconds: list[float] = [0.0] * len(bodies)
    events: list[int] = [0] * len(bodies)

    def send(n: int) -> None:
        with common.admin_client(servers[n % 2].base) as client:
            began = time.monotonic()
            response = client.post("/games", json=bodies[n])
            seconds[n] = time.monotonic() - began
            response.raise_for_status()
            events[n] = response.json()["recomputed_events"]

    threads = [threading.Thread(target=send, args=(n,)) for n in range(len(bodies))]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"seconds": seconds, "all_seconds": time.monotonic() - began, "events": events}


def run_bursts(
    database: str,
    built: list[Build],
    games: list[dict[str, Any]],
    path: Path,
    size: int,
    samples: int,
    report: dict[str, Any],
    work: Path,
) -> None:
    servers: dict[str, tuple[Server, Server]] = {}
    back = LATENESS["1 day"]
    try:
        for n, build in enumerate(built):
            schema = f"bench_late_{n}"
            url = common.database_url(database, schema, work)
            report["imports"][f"{database}/{build.label}"] = common.import_history(
                build, url, path, LADDER
            )
            env = {"RATINGS_DATABASE_URL": url, "RATINGS_LOG_LEVEL": "WARNING"}
            pair = tuple(Server(f"late-{database}-{n}-{i}", build, env, work) for i in (0, 1))
            servers[build.label] = pair  # type: ignore[assignment]
            for server in pair:
                server.start()
        for k in range(samples):
            places_ = [len(games) - 1 - back - STRIDE * (k * size + m) for m in range(size)]
            bodies = [late_body(games, index) for index in places_]
            for build in common.in_turn(k, built):
                result = burst(servers[build.label], bodies)
                row = {"database": database, "sample": k, "build": build.label, **result}
                report["runs"].append(row)
                print(
                    f"{database} {build.label} burst of {size}: p50 "
                    f"{statistics.median(result['seconds']):.2f} s, all "
                    f"{result['all_seconds']:.2f} s",
                    flush=True,
                )
    finally:
        for pair in servers.values():
            for server in pair:
                server.stop()
        for n in range(len(built)):
            common.drop_database(database, f"bench_late_{n}", work)


def burst_markdown(report: dict[str, Any]) -> str:
    cfg, rows = report["config"], report["runs"]
    lines = common.header("Late games at once", report)
    lines += [
        f"An elo ladder of {cfg['games']:,} two-player games among {cfg['players']:,} players; "
        f"two servers of one worker each; {cfg['burst']} late games (1 day back) sent at once, "
        "half to each server.",
        "",
        "| database | build | each game's seconds, p50 / max | until the last, seconds |",
        "|---|---|---|---|",
    ]
    for database in cfg["databases"].split(","):
        for build in [b["label"] for b in report["builds"]]:
            mine = [r for r in rows if r["database"] == database and r["build"] == build]
            each = [s for r in mine for s in r["seconds"]]
            if not each:
                continue
            last = ", ".join(f"{r['all_seconds']:.2f}" for r in mine)
            lines.append(
                f"| {database} | {build} | {statistics.median(each):.2f} / {max(each):.2f} | "
                f"{last} |"
            )
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--samples", type=int, default=3, help="late games per lateness")
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    parser.add_argument("--burst", type=int, default=0, help="late games sent at once")
    common.add_against(parser)
    args = parser.parse_args()
    ds = data.Dataset(LADDER, "elo", {"k": 32}, args.games, 2, args.players, 1)
    games = list(data.bodies(ds))
    if args.burst:
        with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
            report = common.new_report("late games at once", args, built)
            report["imports"], report["runs"] = {}, []
            path = Path(tmp) / "ladder.jsonl"
            data.generate(ds, path)
            for database in args.databases.split(","):
                run_bursts(
                    database, built, games, path, args.burst, args.samples, report, Path(tmp)
                )
        common.write_results("late_burst", report, burst_markdown(report), args.results)
        return 0
    chosen = places(args.games, args.samples)
    expected = expected_cones(games, chosen)
    with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
        report = common.new_report("late games", args, built)
        report["imports"], report["runs"] = {}, []
        path = Path(tmp) / "ladder.jsonl"
        data.generate(ds, path)
        for database in args.databases.split(","):
            run_database(database, built, games, path, chosen, expected, report, Path(tmp))
    common.write_results("late_games", report, markdown(report), args.results)
    wrong = [r for r in report["runs"] if r["recomputed_events"] != r["expected_events"]]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
