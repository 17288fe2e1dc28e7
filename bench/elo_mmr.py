"""Elo-MMR's engine against its Rust reference (``elo-mmr-py``) on Codeforces rounds.

    flock /tmp/bench.lock .venv/bin/python bench/elo_mmr.py [--passes 5] [--rounds 1]
        [--new-games 50]

The 40 real rounds of ``../shared/data/codeforces`` (rounds 1-43 of 2010, 66-690 players,
and Round #634 of 2020, 16,783 players), in time order, played ``--passes`` times over (each
pass a year after the last, so returning players carry their histories): 200 contests by
default, 5 of them of 16,783 players. ``app.engine.ledger.replay`` with the ``elo-mmr``
system against ``elo_mmr_py.rate_latest`` (the Rust ``mmr`` system, which rates on all cores;
both in this process's CPU time, which counts every thread), the best of ``--rounds``; then
the largest difference of their final mu and sigma. Issue 38's goal: the engine within 10x.

Then one new game on the ladder this leaves (20,929 players, histories of up to 200 rounds):
an 8-player game of the players with the longest histories, rated ``--new-games`` times
(wall time, median; the goal: under 50 ms), and a new 16,783-player round.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import statistics
import sys
import time
from collections import deque
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common
import elo_mmr_py

from app.engine.ledger import replay
from app.engine.registry import SYSTEMS
from app.engine.types import Game, Participant, PlayerKey, PlayerState

DATA = common.ROOT / ".." / "shared" / "data" / "codeforces"
YEAR = 365 * 86_400


def contests(passes: int) -> list[dict[str, Any]]:
    rounds = [json.loads(path.read_text()) for path in DATA.glob("*.json")]
    rounds.sort(key=lambda r: r["time_seconds"])
    span = rounds[-1]["time_seconds"] - rounds[0]["time_seconds"] + YEAR
    return [
        {**r, "time_seconds": r["time_seconds"] + n * span} for n in range(passes) for r in rounds
    ]


def as_game(contest: dict[str, Any]) -> Game:
    return Game(
        played_at=datetime.fromtimestamp(contest["time_seconds"], UTC),
        participants=tuple(Participant(h, lo + 1) for h, lo, _ in contest["standings"]),
    )


def cpu(run: Any) -> tuple[float, Any]:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        out = run()
        return time.process_time() - start, out
    finally:
        gc.enable()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--new-games", type=int, default=50)
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    args = parser.parse_args()
    with common.builds([]) as built:
        report = common.new_report("elo_mmr", args, built)
    played = contests(args.passes)
    games = [as_game(c) for c in played]
    theirs_in = [
        elo_mmr_py.Contest([tuple(s) for s in c["standings"]], c["name"], c["time_seconds"])
        for c in played
    ]
    system = SYSTEMS["elo-mmr"]
    rater = system.configure({})

    def ours() -> dict[str, PlayerState]:
        states: dict[str, PlayerState] = {}
        for outcome in replay(system.info, rater, games):
            for change in outcome.outcome.changes:
                states[change.key.player] = change.after
        return states

    timings: dict[str, list[float]] = {"engine": [], "elo-mmr-py": []}
    for n in range(args.rounds):
        for label in common.in_turn(n, list(timings)):
            if label == "engine":
                seconds, states = cpu(ours)
            else:
                seconds, rated = cpu(lambda: elo_mmr_py.rate_latest(theirs_in))
            timings[label].append(seconds)
    difference = max(
        max(abs(states[name].rating - r.mu), abs((states[name].deviation or 0.0) - r.sig))
        for name, r in rated.items()
    )
    engine_s, reference_s = min(timings["engine"]), min(timings["elo-mmr-py"])

    # One new game on the ladder the contests leave.
    longest = sorted(states, key=lambda p: -len(states[p].extra.get("centres", ())))[:8]
    at = games[-1].played_at + timedelta(days=1)
    small = Game(at, tuple(Participant(p, i + 1) for i, p in enumerate(longest)))
    before = {PlayerKey(p): states[p] for p in longest}
    walls = []
    for _ in range(args.new_games):
        start = time.perf_counter()
        rater.rate_game(small, before, {})
        walls.append(time.perf_counter() - start)
    big = as_game({**played[-1], "time_seconds": played[-1]["time_seconds"] + 86_400})
    big_before = {
        PlayerKey(p.player): states.get(p.player) or rater.initial_state({})
        for p in big.participants
    }
    start = time.perf_counter()
    deque([rater.rate_game(big, big_before, {})], maxlen=0)
    big_wall = time.perf_counter() - start

    report["results"] = {
        "contests": len(played),
        "players": len(states),
        "largest_field": max(len(g.participants) for g in games),
        "engine_cpu_s": timings["engine"],
        "reference_cpu_s": timings["elo-mmr-py"],
        "engine_over_reference": engine_s / reference_s,
        "largest_difference": difference,
        "new_game_players": len(longest),
        "new_game_factors": [len(states[p].extra["centres"]) for p in longest],
        "new_game_ms": [w * 1000 for w in walls],
        "new_contest_players": len(big.participants),
        "new_contest_s": big_wall,
        "elo_mmr_py": importlib.metadata.version("elo-mmr-py"),
    }
    common.write_results("elo_mmr", report, markdown(report), args.results)
    return 0


def markdown(report: dict[str, Any]) -> str:
    r = report["results"]
    lines = common.header("Elo-MMR against elo-mmr-py", report)
    lines += [
        f"{r['contests']} Codeforces contests ({r['players']:,} players, the largest "
        f"{r['largest_field']:,}); elo-mmr-py {r['elo_mmr_py']}; CPU time of this process "
        "(every thread), best round.",
        "",
        "| contender | CPU s | ÷ elo-mmr-py |",
        "|---|---:|---:|",
        f"| engine | {min(r['engine_cpu_s']):.2f} | {r['engine_over_reference']:.2f} |",
        f"| elo-mmr-py | {min(r['reference_cpu_s']):.2f} | 1 |",
        "",
        f"Largest difference of the final mu and sigma: {r['largest_difference']:.1e}.",
        "",
        f"One new {r['new_game_players']}-player game (histories of "
        f"{min(r['new_game_factors'])}-{max(r['new_game_factors'])} rounds): "
        f"{statistics.median(r['new_game_ms']):.2f} ms median "
        f"({min(r['new_game_ms']):.2f}-{max(r['new_game_ms']):.2f}), wall time; one new "
        f"{r['new_contest_players']:,}-player contest: {r['new_contest_s']:.2f} s.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
