"""The rating engine against the peers' packages, on the same seeded games, in one process.

    flock /tmp/bench.lock .venv/bin/python bench/engine.py [--games 100000] [--games4 25000]
        [--team-games 2000] [--rounds 5] [--against REV]

Elo and Glicko-2 (``app.engine.ledger.replay``, each game its own rating period) against the
``glicko2`` package (each player's opponents in a game as one rating period), on two-player
games and four-player free-for-alls among 20,000 players; TrueSkill against the
``trueskill`` package and Weng-Lin Plackett-Luce against ``openskill``'s, on 1v1, 4v4, a
free-for-all of four and four sides of two (ratings drawn at random, so each game is rated
on its own). One game in ten is a draw of two neighbouring places. With ``--against REV``,
REV's ``app/engine`` runs in the same rounds (imported under another name). The contenders
alternate within each round; the best round counts (the least disturbed by other work), in
this process's CPU time. Games are built beforehand in each contender's own types. The
packages' numbers are not the engine's (tests/engine/ checks the engine's), except for the
team systems, whose largest difference from the package is reported.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import random
import re
import shutil
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
import glicko2 as glicko2_package
import trueskill as trueskill_package
from openskill.models import PlackettLuce

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
#: One game in DRAW_EVERY has two neighbouring places level.
DRAW_EVERY = 10
#: (label, sides, members per side) of the team systems' games.
TEAM_SCENARIOS = (("1v1", 2, 1), ("4v4", 2, 4), ("ffa4", 4, 1), ("4x2", 4, 2))
#: Each team system and the package it is compared with.
PEERS = (("trueskill", "trueskill package"), ("weng-lin PL", "openskill PL"))
#: A game as the glicko2 package's loop reads it: player names and their ranks.
Table = tuple[tuple[str, ...], tuple[int, ...]]


def ranks_of(rng: random.Random, places: int) -> list[int]:
    ranks = list(range(1, places + 1))
    rng.shuffle(ranks)
    if rng.randrange(DRAW_EVERY) == 0:
        tied = rng.randrange(1, places)  # place `tied` + 1 shares place `tied`
        ranks = [tied if r == tied + 1 else r for r in ranks]
    return ranks


def tables(rng: random.Random, players: int, count: int, seats: int) -> list[Table]:
    names = [f"p{i:05d}" for i in range(players)]
    return [(tuple(rng.sample(names, seats)), tuple(ranks_of(rng, seats))) for _ in range(count)]


def engine_copy(build: common.Build, into: Path, n: int) -> str:
    """``app/engine`` of ``build`` as the package ``engine_<n>.engine`` (the engine imports
    nothing of the app outside it)."""
    package = into / f"engine_{n}"
    shutil.copytree(build.path / "app" / "engine", package / "engine")
    (package / "__init__.py").write_text("")
    for path in package.rglob("*.py"):
        path.write_text(re.sub(r"\bapp\.engine\b", f"engine_{n}.engine", path.read_text()))
    return f"engine_{n}"


def replay_run(package: str, system_id: str, games: list[Table]) -> Callable[[], object]:
    """A replay of ``games`` by ``package``'s engine (``app``, or an ``--against`` copy)."""
    types = importlib.import_module(f"{package}.engine.types")
    replay = importlib.import_module(f"{package}.engine.ledger").replay
    system = importlib.import_module(f"{package}.engine.registry").SYSTEMS[system_id]
    info, rater = system.info, system.configure({"period": "game"} if "glicko" in system_id else {})
    built = [
        types.Game(
            played_at=EPOCH + timedelta(minutes=n),
            participants=tuple(types.Participant(p, r) for p, r in zip(names, ranks, strict=True)),
        )
        for n, (names, ranks) in enumerate(games)
    ]
    return lambda: deque(replay(info, rater, built), maxlen=0)


def glicko2_package_run(games: list[Table]) -> Callable[[], object]:
    def run() -> object:
        players: dict[str, Any] = {}
        for names, ranks in games:
            seated = [players.setdefault(name, glicko2_package.Player()) for name in names]
            ratings, rds = [p.rating for p in seated], [p.rd for p in seated]
            for i, player in enumerate(seated):
                others = [j for j in range(len(seated)) if j != i]
                player.update_player(
                    [ratings[j] for j in others],
                    [rds[j] for j in others],
                    [1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
                     for j in others],
                )  # fmt: skip
        return players

    return run


def team_games(package: str, rng: random.Random, count: int, sides: int, members: int) -> list[Any]:
    """One team scenario's games in ``package``'s types (the same draws for every package
    given the same ``rng`` state)."""
    gaussian = importlib.import_module(f"{package}.engine.gaussian")
    games = []
    for _ in range(count):
        game = [
            tuple(
                gaussian.Member(gaussian.Gaussian(rng.uniform(15, 35), rng.uniform(2, 25 / 3)))
                for _ in range(members)
            )
            for _ in range(sides)
        ]
        ranks = ranks_of(rng, sides)
        # In the engine's order of tied sides, which the packages keep (they take the
        # listing's), so that both rate the same chain.
        order = gaussian.rank_order(game, ranks)
        games.append(([game[i] for i in order], [ranks[i] for i in order]))
    return games


def team_runs(package: str, games: list[Any]) -> dict[str, Callable[[], list[Any]]]:
    ts = importlib.import_module(f"{package}.engine.trueskill")
    wl = importlib.import_module(f"{package}.engine.weng_lin")
    ts_config, wl_config = ts.TrueSkillConfig(), wl.WengLinConfig()
    return {
        "trueskill": lambda: [ts.rate(ts_config, s, r) for s, r in games],
        "weng-lin PL": lambda: [wl.rate(wl_config, s, r) for s, r in games],
    }


def package_team_runs(games: list[Any]) -> dict[str, Callable[[], list[Any]]]:
    env, model = trueskill_package.TrueSkill(), PlackettLuce()
    ts_games = [
        ([[trueskill_package.Rating(m.rating.mu, m.rating.sigma) for m in s] for s in sides], r)
        for sides, r in games
    ]
    pl_games = [
        ([[model.rating(m.rating.mu, m.rating.sigma) for m in s] for s in sides], r)
        for sides, r in games
    ]
    return {
        "trueskill package": lambda: [env.rate(g, ranks=r) for g, r in ts_games],
        "openskill PL": lambda: [model.rate(g, ranks=r) for g, r in pl_games],
    }


def largest_difference(ours: list[Any], theirs: list[Any]) -> float:
    return max(
        (
            max(abs(a.mu - b.mu), abs(a.sigma - b.sigma))
            for our, their in zip(ours, theirs, strict=True)
            for our_side, their_side in zip(our, their, strict=True)
            for a, b in zip(our_side, their_side, strict=True)
        ),
        default=0.0,
    )


def best_cpu(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Each run's least CPU seconds over the rounds, the runs alternating (their order
    reversed every other round) and the collector paused while timed."""
    best = dict.fromkeys(runs, float("inf"))
    for n in range(rounds):
        for label in common.in_turn(n, list(runs)):
            gc.collect()
            gc.disable()
            try:
                cpu = time.process_time()
                runs[label]()
                best[label] = min(best[label], time.process_time() - cpu)
            finally:
                gc.enable()
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=100_000, help="two-player games")
    parser.add_argument("--games4", type=int, default=25_000, help="four-player games")
    parser.add_argument("--team-games", type=int, default=2_000, help="games per team scenario")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    common.add_against(parser)
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
        report = common.new_report("engine", args, built)
        sys.path.insert(0, tmp)
        packages = {"this": "app"}
        for n, build in enumerate(built[1:]):
            packages[build.label] = engine_copy(build, Path(tmp), n)
        rng = random.Random(args.seed)
        for label, count, seats in (("2-player", args.games, 2), ("4-player", args.games4, 4)):
            games = tables(rng, args.players, count, seats)
            runs: dict[str, Callable[[], object]] = {"glicko2 package": glicko2_package_run(games)}
            for build, package in packages.items():
                for system in ("elo", "glicko2"):
                    runs[f"{system} @{build}"] = replay_run(package, system, games)
            add_rows(rows, label, len(games), best_cpu(args.rounds, runs), "glicko2 package")
        for label, sides, members in TEAM_SCENARIOS:
            state = rng.getstate()
            team: dict[str, Callable[[], list[Any]]] = {}
            for build, package in packages.items():
                rng.setstate(state)  # the same games for every build
                games = team_games(package, rng, args.team_games, sides, members)
                team |= {f"{name} @{build}": run for name, run in team_runs(package, games).items()}
                if build == "this":
                    games_of_this = games
            peers = package_team_runs(games_of_this)
            differences = {
                system: largest_difference(team[f"{system} @this"](), peers[peer]())
                for system, peer in PEERS
            }
            best = best_cpu(args.rounds, {**team, **peers})
            for system, peer in PEERS:
                mine = {k: v for k, v in best.items() if k.startswith(system) or k == peer}
                add_rows(rows, label, args.team_games, mine, peer, differences[system])
        sys.path.remove(tmp)
    report["rows"] = rows
    report["packages"] = {
        p: importlib.metadata.version(p) for p in ("glicko2", "trueskill", "openskill")
    }
    common.write_results("engine", report, markdown(report), args.results)
    return 0


def add_rows(
    rows: list[dict[str, Any]],
    scenario: str,
    games: int,
    best: dict[str, float],
    peer: str,
    difference: float | None = None,
) -> None:
    for contender, seconds in best.items():
        system = contender.split(" @")[0]
        rows.append(
            {
                "scenario": scenario,
                "games": games,
                "contender": contender,
                "cpu_s": seconds,
                "games_per_s": games / seconds,
                # Against the peer only where it rates the same system.
                "over_peer": best[peer] / seconds
                if contender != peer and (system != "elo" or peer != "glicko2 package")
                else None,
                "this_over": seconds / best[f"{system} @this"]
                if " @" in contender and not contender.endswith("@this")
                else None,
                "largest_difference": difference if contender.endswith("@this") else None,
            }
        )


def markdown(report: dict[str, Any]) -> str:
    lines = common.header("Engine against the peers' packages", report)
    cfg = report["config"]
    lines += [
        f"Packages: {', '.join(f'{k} {v}' for k, v in report['packages'].items())}. "
        f"{cfg['players']:,} players for Elo and Glicko-2; best of {cfg['rounds']} alternating "
        "rounds, CPU time of this process.",
        "",
        "| scenario | contender | games/s | ÷ the package | this ÷ REV, in speed | "
        "largest difference from the package |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in report["rows"]:
        peer = "" if r["over_peer"] is None else f"{r['over_peer']:.2f}"
        this = "" if r["this_over"] is None else f"{r['this_over']:.2f}"
        difference = "" if r["largest_difference"] is None else f"{r['largest_difference']:.1e}"
        lines.append(
            f"| {r['scenario']} ({r['games']:,}) | {r['contender']} | {r['games_per_s']:,.0f} "
            f"| {peer} | {this} | {difference} |"
        )
    lines += [
        "",
        "÷ the package: the package's CPU time ÷ the contender's (> 1: the engine is faster). "
        "this ÷ REV: REV's CPU time ÷ this checkout's (> 1: this checkout is faster).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
