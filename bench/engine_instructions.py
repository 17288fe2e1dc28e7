"""Instructions per game of the engine's replay, counted by callgrind: a comparison with another
commit's engine that the machine's speed does not move (issue 21).

    .venv/bin/python bench/engine_instructions.py --baseline HEAD [--games 5000]
        [--results bench/results]

``bench_engine.py`` times the same replays in CPU seconds, which on this shared 2-core machine
vary by 10-15 % between rounds of unchanged code. ``valgrind --tool=callgrind`` counts the
instructions executed instead: the same count for the same binary and input, whatever else runs.
For each scenario (``bench_engine``'s seeded games: elo and glicko2 two-player, elo four-player)
and each engine (this checkout's ``app``, and ``--baseline``'s as ``same_numbers.py`` imports it)
a child process builds the games, replays the first 200 (a warm-up) and then all of them under
callgrind, and a second child does the same without the full replay; the difference is the
replay's instructions. Per game = difference / games.
Results go to ``bench/results/engine-instructions-<UTC time>.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import subprocess
import sys
import tempfile
from collections import deque
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

#: (label, system, seats) of the scenarios counted.
SCENARIOS = (
    ("elo 2-player", "elo", 2),
    ("glicko2 2-player", "glicko2", 2),
    ("elo 4-player", "elo", 4),
)
PLAYERS = 20_000
SEED = 21
WARM_UP = 200


def child(package: str, system: str, seats: int, games: int, replay: bool) -> None:
    """Build the scenario's games in ``package``'s engine; replay them if ``replay``."""
    import importlib

    from bench_engine import engine_games, engine_run, make_tables

    importlib.import_module(f"{package}.engine.ledger")
    tables = make_tables(random.Random(SEED), PLAYERS, games, seats)
    built = engine_games(package, tables)
    # Both children replay a few games first, so that what runs once (imports, caches, the
    # first call of everything) is not in the difference.
    engine_run(package, system, built[:WARM_UP], read_details=False)()
    if replay:
        engine_run(package, system, built, read_details=False)()
    deque(built, maxlen=0)


def count(extra: Path | None, args: list[str]) -> int:
    """Instructions of one child under callgrind (``extra`` on its path for a baseline)."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        env_path = f"{extra}:" if extra else ""
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--child", *args],
            # A fixed hash seed: the same dict and set layouts, so the same count every run.
            env={
                "PYTHONPATH": env_path + str(BENCH.parent),
                "PATH": "/usr/bin:/bin",
                "PYTHONHASHSEED": "0",
            },
            capture_output=True, check=True,
        )  # fmt: skip
        for line in out.read_text().splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError("no total in callgrind's output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="HEAD")
    parser.add_argument("--games", type=int, default=5_000)
    parser.add_argument("--results", type=Path, default=BENCH / "results")
    parser.add_argument(
        "--child", nargs=5, metavar=("PACKAGE", "SYSTEM", "SEATS", "GAMES", "REPLAY")
    )
    args = parser.parse_args()
    if args.child:
        package, system, seats, games, replay = args.child
        child(package, system, int(seats), int(games), replay == "1")
        return
    from same_numbers import baseline_engine

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = [
        f"# Engine instructions per game, {stamp}",
        "",
        f"callgrind, {args.games:,} games per scenario; baseline `{args.baseline}`, this "
        "checkout `app` (bench/engine_instructions.py).",
        "",
        "| scenario | baseline instructions/game | this checkout | this ÷ baseline |",
        "|---|---:|---:|---:|",
    ]
    resolved = subprocess.run(
        ["git", "rev-parse", "--short", args.baseline],
        cwd=BENCH, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    lines[2] = lines[2].replace(f"`{args.baseline}`", f"`{args.baseline}` ({resolved})")
    with tempfile.TemporaryDirectory() as into:
        baseline = baseline_engine(args.baseline, Path(into))
        for label, system, seats in SCENARIOS:
            per_game = {}
            for package, extra in ((baseline, Path(into)), ("app", None)):
                base = [package, system, str(seats), str(args.games)]
                count(extra, [*base, "0"])  # writes every bytecode cache: not counted
                total = count(extra, [*base, "1"]) - count(extra, [*base, "0"])
                per_game[package] = total / args.games
            ratio = per_game["app"] / per_game[baseline]
            lines.append(
                f"| {label} | {per_game[baseline]:,.0f} | {per_game['app']:,.0f} | {ratio:.3f} |"
            )
            print(lines[-1], flush=True)
    args.results.mkdir(parents=True, exist_ok=True)
    path = args.results / f"engine-instructions-{stamp}.md"
    path.write_text("\n".join(lines) + "\n")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
