"""Summarise py-spy "raw" (collapsed stack) profiles written by post_games.py --profile.

    .venv/bin/python bench/profile_summary.py bench/results/post_games-profile-<time>/ [--top 25]
        [--match postgresql-fundox] [--output summary.md]

Prints, per profile group (target-system, all workers merged): CPU samples by layer (where
the leaf frame is: SQLAlchemy, psycopg, pydantic, FastAPI/Starlette, the app's engine, ...),
the functions with the most samples including callees (inclusive), and the leaf functions
(self). Reads ``*.txt`` and gzipped ``*.txt.gz`` files. post_games.py records with
``py-spy --gil``: only the thread holding the GIL is sampled, so this is where the Python CPU
time goes (threads waiting on PostgreSQL, a lock or the GIL are not counted).
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections import Counter, defaultdict
from pathlib import Path

FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")

#: (substring of the frame's file, layer), first match wins.
LAYERS = [
    ("sqlalchemy/", "SQLAlchemy"),
    ("psycopg", "psycopg (driver, incl. waiting for PostgreSQL)"),
    ("pydantic", "pydantic"),
    ("fastapi/", "FastAPI"),
    ("starlette/", "Starlette"),
    ("anyio/", "anyio (thread pool)"),
    ("uvicorn/", "uvicorn"),
    ("app/engine/", "app.engine (rating maths)"),
    ("app/repositories/", "app.repositories"),
    ("app/services/", "app.services"),
    ("app/api/", "app.api"),
    ("app/", "app (other)"),
    ("json/", "json (stdlib)"),
    ("logging/", "logging (stdlib)"),
    ("threading.py", "threading (stdlib)"),
    ("queue.py", "threading (stdlib)"),
    ("asyncio/", "asyncio (stdlib)"),
]


def parse_frame(text: str) -> tuple[str, str]:
    match = FRAME.match(text.strip())
    if not match:
        return text.strip(), ""
    return match["func"], match["file"]


def layer_of(path: str) -> str:
    for needle, layer in LAYERS:
        if needle in path:
            return layer
    return "other (stdlib, builtins)"


def load(paths: list[Path]) -> list[tuple[list[tuple[str, str]], int]]:
    stacks = []
    for path in paths:
        if path.suffix == ".gz":
            text = gzip.decompress(path.read_bytes()).decode()
        else:
            text = path.read_text()
        for line in text.splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = [parse_frame(f) for f in stack.split(";") if f]
            # py-spy may prefix process/thread pseudo-frames; keep only real frames.
            frames = [f for f in frames if f[1]]
            stacks.append((frames, int(count)))
    return stacks


def label(func: str, path: str) -> str:
    short = re.sub(r"^.*?/(site-packages|lib/python3\.\d+)/", "", path)
    return f"{func} ({short})"


def summarise(name: str, stacks: list[tuple[list[tuple[str, str]], int]], top: int) -> str:
    total = sum(count for _, count in stacks)
    if total == 0:
        return f"## {name}\n\nno samples\n"
    layers: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    for frames, count in stacks:
        if not frames:
            continue
        func, path = frames[-1]
        layers[layer_of(path)] += count
        leaves[label(func, path)] += count
        seen = set()
        for func, path in frames:
            key = label(func, path)
            if key not in seen:
                seen.add(key)
                inclusive[key] += count

    def pct(n: int) -> str:
        return f"{100 * n / total:5.1f} %"

    out = [f"## {name}", "", f"{total} samples (all workers)", "", "### Self time by layer", ""]
    out += ["| layer | share |", "|---|---:|"]
    out += [f"| {layer} | {pct(n)} |" for layer, n in layers.most_common()]
    out += ["", "### Inclusive (function and its callees), app and library frames", ""]
    out += ["| function | share |", "|---|---:|"]
    shown = 0
    for key, n in inclusive.most_common():
        if any(skip in key for skip in ("threading.py", "_bootstrap", "WorkerThread.run")):
            continue
        out.append(f"| `{key}` | {pct(n)} |")
        shown += 1
        if shown >= top:
            break
    out += ["", "### Self (leaf functions)", "", "| function | share |", "|---|---:|"]
    out += [f"| `{key}` | {pct(n)} |" for key, n in leaves.most_common(top)]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--match", default="", help="only profile groups containing this")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    groups: dict[str, list[Path]] = defaultdict(list)
    paths = sorted([*args.directory.glob("*.txt"), *args.directory.glob("*.txt.gz")])
    for path in paths:
        group = path.name.split(".")[0].rsplit("-", 1)[0]  # target-system-<pid>.txt[.gz]
        if args.match in group:
            groups[group].append(path)
    text = "\n".join(summarise(g, load(paths), args.top) for g, paths in groups.items())
    print(text)
    if args.output:
        args.output.write_text(text)


if __name__ == "__main__":
    main()
