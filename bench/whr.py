"""Whole-History Rating's engine against its C++ reference (the ``whr`` package) on ATP matches.

    flock /tmp/bench.lock .venv/bin/python bench/whr.py [--new-games 20]

Two histories: the first 6,000 ATP matches of 2015-2019 (``../shared/data/atp``, in date and
match order, every match of an event on its Monday) and 100,000 games: the 14,498 matches
played again pass after pass, each pass five years after the last with its players renamed (a
new cohort, so each pass is a history of the real one's shape), cut at 100,000.

On each, the same work: a fit until no rating moves by more than 1e-9 Elo in a sweep. The
engine: ``fit`` from nothing. The package: its games created, then ``iterate(K)`` with K the
number of its sweeps (Gauss-Seidel) that reach the same tolerance, counted beforehand one sweep
at a time and untimed; for the 100,000 games the count is the 14,498-match history's, of which
every pass is a copy (the package sweeps players in name order; a pass's names keep their
order). CPU time of this process; then the largest difference of ratings and deviations.

Then one new game on the 100,000-game fit: the two players with the most games, the day after
the last game; ``add_game``'s wall time, the median of ``--new-games`` calls on the same fit.
Issue 38's goals: within 5x of the package; a new game under 50 ms.
"""

from __future__ import annotations

import argparse
import csv
import gc
import importlib.metadata
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

# This file is bench/whr.py: the reference package of the same name is imported before the
# bench directory (where Python put this script) can shadow it.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import whr  # noqa: E402

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402

from app.engine import whr as engine  # noqa: E402
from app.engine.protocols import Fit  # noqa: E402
from app.engine.types import Game, Participant, PlayerKey  # noqa: E402

DATA = common.ROOT / ".." / "shared" / "data" / "atp"
#: A pass of the 100,000-game history starts five years after the last.
PASS_DAYS = 5 * 365 + 1
Match = tuple[date, str, str]


def matches() -> list[Match]:
    rows = []
    for path in sorted(DATA.glob("atp_matches_*.csv")):
        with path.open(newline="") as f:
            for row in csv.DictReader(f):
                rows.append(
                    (
                        row["tourney_date"],
                        row["tourney_id"],
                        int(row["match_num"]),
                        row["winner_id"],
                        row["loser_id"],
                    )
                )
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return [(datetime.strptime(d, "%Y%m%d").date(), w, lo) for d, _, _, w, lo in rows]


def passes(real: list[Match], count: int) -> list[Match]:
    out: list[Match] = []
    n = 0
    while len(out) < count:
        shift = timedelta(days=n * PASS_DAYS)
        # A prefix keeps a pass's names in the same order (the package sweeps by name).
        out += [(d + shift, f"{n}:{w}", f"{n}:{lo}") for d, w, lo in real]
        n += 1
    return out[:count]


def as_games(history: list[Match]) -> list[Game]:
    return [
        Game(
            played_at=datetime(d.year, d.month, d.day, tzinfo=UTC),
            participants=(Participant(w, 1), Participant(lo, 2)),
        )
        for d, w, lo in history
    ]


def package_games(history: list[Match]) -> list[list[Any]]:
    first = history[0][0]
    return [[w, lo, "B", (d - first).days] for d, w, lo in history]


def package_sweeps(history: list[Match]) -> int:
    """The package's sweeps until no rating moves by more than 1e-9 Elo (untimed)."""
    base = whr.Base()
    base.create_games(package_games(history))
    names = sorted({w for _, w, _ in history} | {lo for _, _, lo in history})
    previous: list[float] = []
    for sweep in range(1, 100_000):
        base.iterate(1)
        current = [row[1] for name in names for row in base.ratings_for_player(name)]
        if previous and max(abs(x - y) for x, y in zip(current, previous, strict=True)) <= 1e-9:
            return sweep
        previous = current
    raise RuntimeError("the package did not converge")


def cpu(run: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        out = run()
        return time.process_time() - start, out
    finally:
        gc.enable()


def compare(history: list[Match], sweeps: int) -> dict[str, Any]:
    games = as_games(history)
    rater = engine.SYSTEM.configure()
    ours_s, fit = cpu(lambda: rater.fit(games))

    def package() -> Any:
        base = whr.Base()
        base.create_games(package_games(history))
        base.iterate(sweeps)
        return base

    theirs_s, base = cpu(package)
    difference = 0.0
    for key, points in fit.curves.items():
        for p, (_, rating, deviation) in zip(
            points, base.ratings_for_player(key.player), strict=True
        ):
            difference = max(difference, abs(p.rating - rating), abs(p.deviation - deviation))
    return {
        "games": len(games),
        "players": len(fit.curves),
        "player_days": sum(len(c) for c in fit.curves.values()),
        "engine_cpu_s": ours_s,
        "engine_sweeps": fit.sweeps,
        "engine_converged": fit.converged,
        "package_cpu_s": theirs_s,
        "package_sweeps": sweeps,
        "engine_over_package": ours_s / theirs_s,
        "largest_difference": difference,
        "fit": fit,
        "games_list": games,
    }


def new_game(fit: Fit, games: list[Game], count: int) -> dict[str, Any]:
    rater = engine.SYSTEM.configure()
    played: dict[str, list[Any]] = fit.state["players"]
    a, b = sorted(played, key=lambda p: -len(played[p]))[:2]
    at = games[-1].played_at + timedelta(days=1)
    new = Game(at, (Participant(a, 1), Participant(b, 2)))
    walls = []
    for _ in range(count):
        start = time.perf_counter()
        added = rater.add_game(fit, new)
        walls.append(time.perf_counter() - start)
    return {
        "players_games": [len(played[a]), len(played[b])],
        "players_days": [len(fit.curves[PlayerKey(a)]), len(fit.curves[PlayerKey(b)])],
        "ms": [w * 1000 for w in walls],
        "moved": sum(added.curves[k] != fit.curves.get(k) for k in added.curves),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slice", type=int, default=6000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--new-games", type=int, default=20)
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    args = parser.parse_args()
    with common.builds([]) as built:
        report = common.new_report("whr", args, built)
    real = matches()
    small = real[: args.slice]
    large = passes(real, args.large)
    results: dict[str, Any] = {"whr": importlib.metadata.version("whr")}
    results["slice"] = compare(small, package_sweeps(small))
    results["package_sweeps_full_history"] = package_sweeps(real)
    results["large"] = compare(large, results["package_sweeps_full_history"])
    results["new_game"] = new_game(
        results["large"]["fit"], results["large"]["games_list"], args.new_games
    )
    for part in ("slice", "large"):
        del results[part]["fit"], results[part]["games_list"]
    report["results"] = results
    common.write_results("whr", report, markdown(report), args.results)
    return 0


def markdown(report: dict[str, Any]) -> str:
    r = report["results"]
    lines = common.header("Whole-History Rating against the whr package", report)
    lines += [
        f"whr {r['whr']} (C++); both to no move above 1e-9 Elo in a sweep; CPU time, one run.",
        "",
        "| history | players / days | engine s (sweeps) | package s (sweeps) | ÷ package | "
        "largest difference |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label in ("slice", "large"):
        x = r[label]
        lines.append(
            f"| {x['games']:,} games | {x['players']:,} / {x['player_days']:,} | "
            f"{x['engine_cpu_s']:.2f} ({x['engine_sweeps']}) | "
            f"{x['package_cpu_s']:.2f} ({x['package_sweeps']}) | "
            f"{x['engine_over_package']:.2f} | {x['largest_difference']:.1e} |"
        )
    n = r["new_game"]
    lines += [
        "",
        f"One new game on the {r['large']['games']:,}-game fit between the two players with the "
        f"most games ({n['players_games'][0]} and {n['players_games'][1]} games, "
        f"{n['players_days'][0]} and {n['players_days'][1]} days): add_game "
        f"{statistics.median(n['ms']):.2f} ms median ({min(n['ms']):.2f}-{max(n['ms']):.2f}), "
        f"wall time; {n['moved']} curves moved.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
