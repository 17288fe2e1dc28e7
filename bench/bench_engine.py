"""Engine speed of ``elo`` and ``glicko2`` on the same random games as the ``glicko2`` package
(issue 21, "A faster engine, same numbers").

    .venv/bin/python bench/bench_engine.py [--players 20000] [--games 100000]
        [--games4 25000] [--rounds 3] [--seed 21] [--baseline COMMIT] [--results bench/results]

The same seeded games (``--players`` players drawn at random: ``--games`` two-player games,
one in ten a draw, and ``--games4`` four-player free-for-alls, ranks a random order with one
game in ten a tie of two neighbouring places) are rated, in one run, by:

* the engine's replay (``app.engine.ledger.replay``) with the ``elo`` and ``glicko2`` systems of
  the registry at their defaults (``period`` "game": each game its own rating period), every
  change built as the service receives it; the ``+details`` rows also read each change's
  ``details`` into a dict, as the service's writes store them (``dict(change.details)``);
* the ``glicko2`` package (PyPI, Ryan Kirkman's ``Player``), each player's opponents in one game
  as one rating period (``update_player`` with their ratings and RDs from before the game),
  as the engine rates a free-for-all by pairwise results;
* with ``--baseline COMMIT``, that commit's engine too (``git archive`` of its ``app/engine``,
  imported under another name as ``bench/same_numbers.py`` does), in the same rounds: the
  ``÷ baseline`` column is this checkout's speed-up over it.

Each contender rates all games of a scenario once per round from fresh ratings; the rounds
alternate the contenders, the collector is paused while timing, and the best round counts (the
least disturbed). The machine has 2 cores shared with other work (each run records the load),
so games/s are counted in this process's CPU time (``time.process_time``: the time it ran,
not the time it waited for a core); wall-clock games/s are recorded beside them. Games are
built beforehand in each contender's own form. Ratio = engine games/s ÷ package games/s
(>= 1: the engine is at least as fast). The package's numbers are not the engine's (its step 5
reads mu where Glickman's f has phi, and it does not cap RD at the initial RD), so they are not
compared; the engine's own are checked by tests/engine/.

Goals of issue 21: Glicko-2 at least as fast as the package (2 and 4 players), Elo at least
100,000 two-player games/s. Results go to ``bench/results/engine-<UTC time>.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import importlib.metadata
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import importlib
import tempfile

try:
    import glicko2 as glicko2_package
except ImportError:  # pragma: no cover - a message rather than a traceback
    sys.exit("bench_engine.py needs the glicko2 package from PyPI: pip install 'glicko2>=2.1'")
from same_numbers import baseline_engine

#: The first game's time; each next one is a minute later (period "game" does not read it).
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
SPACING = dt.timedelta(minutes=1)
#: One game in DRAW_EVERY is a draw (two players) or has two neighbouring places tied.
DRAW_EVERY = 10
ELO_GOAL = 100_000.0
GLICKO2_GOAL = 1.0

#: A game as the package's loop reads it: player names and their ranks.
Table = tuple[tuple[str, ...], tuple[int, ...]]


def make_tables(rng: random.Random, players: int, count: int, seats: int) -> list[Table]:
    names = [f"p{i:05d}" for i in range(players)]
    tables = []
    for _ in range(count):
        seated = tuple(rng.sample(names, seats))
        ranks = list(range(1, seats + 1))
        rng.shuffle(ranks)
        if rng.randrange(DRAW_EVERY) == 0:
            tied = rng.randrange(1, seats)  # place `tied` + 1 shares place `tied`
            ranks = [tied if r == tied + 1 else r for r in ranks]
        tables.append((seated, tuple(ranks)))
    return tables


def engine_games(package: str, tables: list[Table]) -> list[Any]:
    """The tables as games of ``package``'s engine (``app``, or a baseline's)."""
    types = importlib.import_module(f"{package}.engine.types")
    return [
        types.Game(
            played_at=EPOCH + n * SPACING,
            participants=tuple(types.Participant(p, r) for p, r in zip(names, ranks, strict=True)),
        )
        for n, (names, ranks) in enumerate(tables)
    ]


def engine_run(
    package: str, system_id: str, games: list[Any], read_details: bool
) -> Callable[[], object]:
    """A replay of ``games`` by ``package``'s engine; with ``read_details`` each change's
    details are read into a dict, as the service stores them."""
    replay = importlib.import_module(f"{package}.engine.ledger").replay
    system = importlib.import_module(f"{package}.engine.registry").SYSTEMS[system_id]
    info, rater = system.info, system.configure({"period": "game"} if "glicko" in system_id else {})

    def run() -> object:
        steps = replay(info, rater, games)
        if not read_details:
            return deque(steps, maxlen=0)
        for step in steps:
            for change in step.outcome.changes:
                dict(change.details)
        return None

    return run


def package_run(tables: list[Table]) -> Callable[[], object]:
    player_class = glicko2_package.Player

    def run() -> object:
        players: dict[str, Any] = {}
        for names, ranks in tables:
            seated = []
            for name in names:
                player = players.get(name)
                if player is None:
                    player = players[name] = player_class()
                seated.append(player)
            ratings = [p.rating for p in seated]
            rds = [p.rd for p in seated]
            for i, player in enumerate(seated):
                others = [j for j in range(len(seated)) if j != i]
                player.update_player(
                    [ratings[j] for j in others],
                    [rds[j] for j in others],
                    [
                        1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
                        for j in others
                    ],
                )
        return players

    return run


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one call of ``run``, the collector paused."""
    gc.collect()
    gc.disable()
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        run()
        return time.process_time() - cpu, time.perf_counter() - wall
    finally:
        gc.enable()


def alternate(
    rounds: int, runs: dict[str, Callable[[], object]]
) -> dict[str, list[tuple[float, float]]]:
    """(CPU, wall) seconds of each run in each round, the runs alternating (their order
    reversed in every other round, so neither always runs first)."""
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
    order = list(runs)
    for n in range(rounds):
        for label in order if n % 2 == 0 else reversed(order):
            times[label].append(timed(runs[label]))
    return times


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "app"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--games4", type=int, default=25_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--results", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--label", default="", help="a note stored with the results")
    parser.add_argument(
        "--baseline",
        help="also time this commit's engine (git archive of app/engine), in the same rounds",
    )
    args = parser.parse_args(None if argv is None else list(argv))
    packages = [("app", "")]
    scratch = tempfile.TemporaryDirectory()
    if args.baseline:
        packages.append((baseline_engine(args.baseline, Path(scratch.name)), f" @{args.baseline}"))

    rng = random.Random(args.seed)
    scenarios = [("2-player", make_tables(rng, args.players, args.games, 2))]
    scenarios.append(("4-player", make_tables(rng, args.players, args.games4, 4)))

    load_before = os.getloadavg()
    started = dt.datetime.now(dt.UTC)
    rows: list[dict[str, Any]] = []
    for label, tables in scenarios:
        runs: dict[str, Callable[[], object]] = {}
        for package, suffix in packages:
            games = engine_games(package, tables)
            for system_id in ("elo", "glicko2"):
                runs[system_id + suffix] = engine_run(package, system_id, games, False)
                runs[f"{system_id}+details{suffix}"] = engine_run(package, system_id, games, True)
        runs["glicko2 package"] = package_run(tables)
        times = alternate(args.rounds, runs)
        package_rate = len(tables) / min(cpu for cpu, _ in times["glicko2 package"])
        for contender, seconds in times.items():
            rate = len(tables) / min(cpu for cpu, _ in seconds)
            wall_rate = len(tables) / min(wall for _, wall in seconds)
            ratio = rate / package_rate if contender.startswith("glicko2") else None
            baseline = f"{contender} @{args.baseline}"
            speedup = (
                rate / (len(tables) / min(cpu for cpu, _ in times[baseline]))
                if baseline in times
                else None
            )
            goal: float | None = None
            met: bool | None = None
            if contender == "elo" and label == "2-player":
                goal = ELO_GOAL
                met = rate >= goal
            elif contender == "glicko2" and ratio is not None:
                goal = GLICKO2_GOAL
                met = ratio >= goal
            rows.append(
                {
                    "scenario": label,
                    "games": len(tables),
                    "contender": contender,
                    "cpu_seconds": [cpu for cpu, _ in seconds],
                    "wall_seconds": [wall for _, wall in seconds],
                    "games_per_s": rate,
                    "games_per_wall_s": wall_rate,
                    "ratio_to_package": ratio,
                    "ratio_to_baseline": speedup,
                    "goal": goal,
                    "met": met,
                }
            )
    load_after = os.getloadavg()

    meta = {
        "started": started.isoformat(timespec="seconds"),
        "commit": git_commit(),
        "label": args.label,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores shared with other work",
        "glicko2_package": importlib.metadata.version("glicko2"),
        "players": args.players,
        "rounds": args.rounds,
        "seed": args.seed,
        "baseline": args.baseline,
        "load_before": load_before,
        "load_after": load_after,
    }
    lines = [
        f"# Engine benchmark {meta['started']} (commit {meta['commit']}) {args.label}".rstrip(),
        "",
        f"Python {meta['python']}, {meta['machine']}; load {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after. glicko2 package {meta['glicko2_package']}. "
        f"{args.players:,} players, seed {args.seed}; best of {args.rounds} alternating rounds.",
        "",
        "| scenario | contender | games/s (CPU) | ÷ package | ÷ baseline | goal | "
        "games/s (wall) | CPU s per round |",
        "|---|---|---:|---:|---:|---|---:|---|",
    ]
    for row in rows:
        ratio = "" if row["ratio_to_package"] is None else f"{row['ratio_to_package']:.2f}"
        speedup = "" if row["ratio_to_baseline"] is None else f"{row['ratio_to_baseline']:.2f}"
        goal = (
            ""
            if row["goal"] is None
            else f"{'met' if row['met'] else 'NOT met'} (≥ {row['goal']:,.0f}"
            + (" games/s)" if row["contender"] == "elo" else "x)")
        )
        rounds = ", ".join(f"{s:.2f}" for s in row["cpu_seconds"])
        lines.append(
            f"| {row['scenario']} ({row['games']:,}) | {row['contender']} | "
            f"{row['games_per_s']:,.0f} | {ratio} | {speedup} | {goal} | "
            f"{row['games_per_wall_s']:,.0f} | "
            f"{rounds} |"
        )
    report = "\n".join(lines) + "\n"
    print(report, end="")
    args.results.mkdir(parents=True, exist_ok=True)
    stamp = started.strftime("%Y%m%dT%H%M%SZ")
    (args.results / f"engine-{stamp}.md").write_text(report)
    (args.results / f"engine-{stamp}.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n"
    )
    print(f"written to {args.results}/engine-{stamp}.md and .json")


if __name__ == "__main__":
    main()
