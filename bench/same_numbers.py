"""Same numbers: every change of random histories, compared as JSON with another commit's engine.

    .venv/bin/python bench/same_numbers.py [--baseline main] [--games 20000] [--seed 21]

The engine of ``--baseline`` (``git archive`` of its ``app/engine``, imported under another
package name) and the working tree's replay the same seeded random histories, and every change
is compared as its full JSON text: key, the state before and after (rating, deviation,
volatility, extra) and the details, floats in ``repr`` (the shortest text that reads back as
the same float, so equal text is equal bits), keys in their order. Histories: elo, glicko and
glicko2 with period "game" and "day", each over ``--games`` games among 2,000 players: 60 %
two-player, 30 % free-for-alls of 3-6 with tied places, 10 % team games of 2-3 sides of 1-3
players (elo with some weights below 1), and one adjustment every 500 games. Exits 1 on the
first difference, naming it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib
import json
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: (system, parameters) of the compared histories.
LADDERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("elo", {}),
    ("glicko", {"period": "game"}),
    ("glicko", {"period": "day"}),
    ("glicko2", {"period": "game"}),
    ("glicko2", {"period": "day"}),
)
PLAYERS = 2_000
ADJUST_EVERY = 500
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
#: About 70 games a day: a "day" period holds a few games of most active players.
SPACING = dt.timedelta(minutes=20)


def baseline_engine(commit: str, into: Path) -> str:
    """``app/engine`` of ``commit`` as the package ``baseline_engine`` under ``into``."""
    archive = subprocess.run(
        ["git", "archive", commit, "app/engine"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    package = into / "baseline_engine"
    (into / "app").rename(package)
    (package / "__init__.py").write_text("")
    for path in package.rglob("*.py"):
        text = path.read_text()
        path.write_text(re.sub(r"\bapp\.engine\b", "baseline_engine.engine", text))
    sys.path.insert(0, str(into))
    return "baseline_engine"


def history(types: ModuleType, rng: random.Random, games: int, weights: bool) -> list[Any]:
    """A seeded random history in ``types``' classes (the same draws for every engine)."""
    names = [f"p{i:04d}" for i in range(PLAYERS)]
    events: list[Any] = []
    for n in range(games):
        at = EPOCH + n * SPACING
        kind = rng.random()
        if kind < 0.6 or kind < 0.9:
            seats = 2 if kind < 0.6 else rng.randint(3, 6)
            seated = rng.sample(names, seats)
            ranks = [rng.randint(1, seats) for _ in seated]
            participants = tuple(
                types.Participant(p, r) for p, r in zip(seated, ranks, strict=True)
            )
        else:
            sides = rng.randint(2, 3)
            sizes = [rng.randint(1, 3) for _ in range(sides)]
            seated = rng.sample(names, sum(sizes))
            side_ranks = [rng.randint(1, sides) for _ in range(sides)]
            participants_list = []
            for side, size in enumerate(sizes):
                for _ in range(size):
                    weight = rng.choice((1.0, 1.0, 0.5, 0.25)) if weights else 1.0
                    participants_list.append(
                        types.Participant(
                            seated.pop(), side_ranks[side], team=f"t{side}", weight=weight
                        )
                    )
            participants = tuple(participants_list)
        events.append(types.Game(played_at=at, participants=participants))
        if n % ADJUST_EVERY == ADJUST_EVERY - 1:
            events.append(
                types.Adjustment(
                    key=types.PlayerKey(rng.choice(names)),
                    at=at,
                    rating=rng.uniform(1200.0, 1800.0),
                    reason="same_numbers",
                )
            )
    return events


def change_json(change: Any) -> str:
    def state(s: Any) -> dict[str, Any]:
        return {
            "rating": s.rating,
            "deviation": s.deviation,
            "volatility": s.volatility,
            "extra": dict(s.extra),
        }

    return json.dumps(
        {
            "key": list(change.key),
            "before": state(change.before),
            "after": state(change.after),
            "details": dict(change.details),
        },
        allow_nan=False,
    )


def changes(
    package: str, system: str, params: dict[str, Any], games: int, seed: int
) -> Iterator[str]:
    registry = importlib.import_module(f"{package}.engine.registry")
    ledger = importlib.import_module(f"{package}.engine.ledger")
    types = importlib.import_module(f"{package}.engine.types")
    rating_system = registry.SYSTEMS[system]
    rater = rating_system.configure(params)
    events = history(types, random.Random(seed), games, weights=system == "elo")
    for step in ledger.replay(rating_system.info, rater, events):
        for change in step.outcome.changes:
            yield change_json(change)


def compare(old: Iterable[str], new: Iterable[str]) -> tuple[int, str, str | None]:
    """(changes compared, sha256 of the new ones, the first difference or None). zip(strict=True):
    a history with more or fewer changes than the baseline's fails too."""
    digest = hashlib.sha256()
    compared = 0
    for index, (a, b) in enumerate(zip(old, new, strict=True)):
        if a != b:
            return index, digest.hexdigest(), f"change {index} differs\n  {a}\n  {b}"
        digest.update(b.encode())
        compared = index + 1
    return compared, digest.hexdigest(), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        baseline = baseline_engine(args.baseline, Path(tmp))
        failed = False
        for system, params in LADDERS:
            count, digest, difference = compare(
                changes(baseline, system, params, args.games, args.seed),
                changes("app", system, params, args.games, args.seed),
            )
            label = f"{system:8} {json.dumps(params):18}"
            if difference is not None:
                print(f"{label} {difference}")
                failed = True
            else:
                print(f"{label} {count:7,} changes identical (sha256 {digest[:16]})")
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
