"""Evaluation speed against the engine's in-memory replay (issue 22).

    .venv/bin/python bench/bench_evaluation.py [--games 100000] [--rounds 3] [--seed 22]
        [--results bench/results]

On the histories of ``bench/run_history.py`` (``bench/history_data.py``: seeded, 100,000
two-player Elo games among 1,000 players and 100,000 four-player Glicko-2 games, one rating
period per game, among 2,000 players), each round times, in turn:

- **replay**: ``app.engine.ledger.final_states`` over the engine events, the ceiling
  run_history.py reports as "engine in memory";
- **engine evaluation**: ``app.engine.evaluation.score(predictions(...))``, the same replay
  predicting every pair of every game before it is rated, and scoring them with the baseline;
- **service evaluation**: ``app.services.evaluation.evaluate_one``, what ``POST
  /ladders/{ladder}/evaluate`` computes once the history is read: the service's checks of
  cancellation and progress, over the stored bodies' events (parsed from their JSON text and
  converted once, as the service reads them: the conversion is timed on its own, below).

Rounds alternate the three; the best round of each counts (the least disturbed by the other
processes of a shared machine), in CPU time of this process (``time.process_time``; wall time is
recorded beside it). The issue's goal: an evaluation at no less than half the replay's speed,
i.e. ratio = replay time / evaluation time >= 0.5. The evaluations' games and pairs are checked
against the histories (every game counted; a four-player game is six pairs), and the two
evaluations' numbers against each other. Results: ``bench/results/evaluation-<UTC time>.json``
and ``.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine.evaluation import predictions, score
from app.engine.ledger import final_states
from app.repositories.events import LiveRow
from app.schemas.events import GameIn
from app.services.evaluation import Events, Window, evaluate_one
from app.services.events import new_game_event
from app.services.runtime import plain
from bench import history_data as data

#: The issue's goal: evaluation speed / replay speed.
GOAL = 0.5


def datasets(games: int, seed: int) -> list[data.Dataset]:
    """run_history.py's two histories at ``games`` games (its player counts)."""
    return [
        data.Dataset("elo", "elo", {"k": 32}, games, 2, max(20, min(10_000, games // 100)), seed),
        data.Dataset(
            "glicko2",
            "glicko2",
            {"period": "game"},
            games,
            4,
            max(20, min(2_000, games // 50)),
            seed,
        ),
    ]


def timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    """(CPU seconds, wall seconds, result) of ``work()``, the collector run before."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def run(ds: data.Dataset, rounds: int) -> dict[str, Any]:
    runtime = ds.runtime()
    info, rater = runtime.info, runtime.rater
    started = time.perf_counter()
    stored = [
        new_game_event(GameIn.model_validate({**b, "ladder": ds.ladder})) for b in data.bodies(ds)
    ]
    events = [item.event for item in stored]
    # As the service reads them: each body as its stored JSON text.
    rows = [
        LiveRow(
            seq, item.kind, item.external_id, item.occurred_at, item.rated, json.dumps(item.body)
        )
        for seq, item in enumerate(stored, start=1)
    ]
    history = Events(rows, ds.system, plain(rater.params))
    prepared = time.perf_counter() - started
    convert_cpu, convert_wall, _ = timed(lambda: history.of(info.per_faction))

    kinds: dict[str, Callable[[], Any]] = {
        "replay": lambda: final_states(info, rater, events),
        "engine_evaluation": lambda: score(predictions(info, rater, events)),  # type: ignore[arg-type]
        "service_evaluation": lambda: evaluate_one(history, runtime, Window()),
    }
    best: dict[str, dict[str, float]] = {}
    results: dict[str, Any] = {}
    load = [os.getloadavg()[0]]
    for _ in range(rounds):
        for name, work in kinds.items():
            cpu, wall, result = timed(work)
            results[name] = result
            kept = best.get(name)
            if kept is None or cpu < kept["cpu_s"]:
                best[name] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
        load.append(os.getloadavg()[0])

    pairs_per_game = ds.seats * (ds.seats - 1) // 2
    for name in ("engine_evaluation", "service_evaluation"):
        metrics = results[name].candidate
        if (metrics.games, metrics.pairs) != (ds.games, ds.games * pairs_per_game):
            raise SystemExit(f"{ds.ladder} {name}: {metrics.games} games, {metrics.pairs} pairs")
    if results["engine_evaluation"] != results["service_evaluation"]:
        raise SystemExit(f"{ds.ladder}: the two evaluations differ")
    metrics = results["engine_evaluation"].candidate
    replay_s = best["replay"]["cpu_s"]
    return {
        "dataset": {
            "ladder": ds.ladder, "system": ds.system, "params": ds.params, "games": ds.games,
            "seats": ds.seats, "players": ds.players, "seed": ds.seed,
        },
        "prepare_s": round(prepared, 1),
        "conversion": {"cpu_s": round(convert_cpu, 3), "wall_s": round(convert_wall, 3)},
        "best": best,
        "games_per_s": {name: round(ds.games / b["cpu_s"]) for name, b in best.items()},
        "ratio_to_replay": {
            name: round(replay_s / best[name]["cpu_s"], 3)
            for name in ("engine_evaluation", "service_evaluation")
        },
        "metrics": {
            "log_loss": metrics.log_loss, "brier": metrics.brier, "accuracy": metrics.accuracy,
            "baseline_log_loss": results["engine_evaluation"].baseline.log_loss,
        },
        "loadavg_1min_by_round": [round(v, 2) for v in load],
    }  # fmt: skip


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# Evaluation against the engine's replay ({report['started']})",
        "",
        f"`bench/bench_evaluation.py --games {report['games']} --rounds {report['rounds']}`; "
        f"machine: {report['machine']['nproc']} cores, Python {report['machine']['python']}, "
        "shared with other work (load average per round below). Best round of each, CPU "
        "seconds of the process (wall seconds in the JSON).",
        "",
        "| history | replay (games/s) | engine evaluation (games/s, ÷ replay) | service "
        "evaluation (games/s, ÷ replay) | goal ÷ replay | load |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for run_ in report["runs"]:
        ds, speed, ratio = run_["dataset"], run_["games_per_s"], run_["ratio_to_replay"]
        met = all(r >= GOAL for r in ratio.values())
        lines.append(
            f"| {ds['games']:,} {ds['seats']}-player {ds['system']} | {speed['replay']:,} | "
            f"{speed['engine_evaluation']:,} ({ratio['engine_evaluation']:.2f}) | "
            f"{speed['service_evaluation']:,} ({ratio['service_evaluation']:.2f}) | "
            f"≥ {GOAL} {'met' if met else 'NOT met'} | {run_['loadavg_1min_by_round']} |"
        )
    lines += ["", "Conversion of the stored bodies to engine events (once per evaluation, "
              "before its replays; not in either figure above):", ""]  # fmt: skip
    for run_ in report["runs"]:
        conversion = run_["conversion"]
        lines.append(f"- {run_['dataset']['ladder']}: {conversion['cpu_s']} s CPU")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--results", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args()
    started = dt.datetime.now(dt.UTC)
    report: dict[str, Any] = {
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "games": args.games,
        "rounds": args.rounds,
        "goal_ratio": GOAL,
        "machine": {
            "nproc": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg_at_start": [round(v, 2) for v in os.getloadavg()],
        },
        "runs": [],
    }
    for ds in datasets(args.games, args.seed):
        print(f"{ds.ladder}: {ds.games} games ...", file=sys.stderr, flush=True)
        report["runs"].append(run(ds, args.rounds))
        print(json.dumps(report["runs"][-1]["ratio_to_replay"]), file=sys.stderr, flush=True)
    report["minutes"] = round((dt.datetime.now(dt.UTC) - started).total_seconds() / 60, 1)
    args.results.mkdir(parents=True, exist_ok=True)
    stem = args.results / f"evaluation-{started.strftime('%Y%m%dT%H%M%SZ')}"
    stem.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    stem.with_suffix(".md").write_text(markdown(report))
    print(markdown(report))


if __name__ == "__main__":
    main()
