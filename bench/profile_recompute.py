"""Where one full recomputation's time goes: cProfile of ``recompute_ladder`` at each checkout.

    .venv/bin/python bench/profile_recompute.py --checkout old=/tmp/ratings-old \\
        --checkout new=/tmp/ratings-new [--system glicko2] [--games 20000] [--database sqlite]

The history is the one ``ab_history.py`` measures (same seed and sizes), imported into a fresh
database as ``ratings import`` does. Then it is recomputed twice, with ``recompute_ladder``
(what ``ratings recompute`` runs): once unprofiled, for the wall and CPU time without the
profiler's overhead, and once under cProfile. Each checkout runs in a process of its own, with
cwd and PYTHONPATH at the checkout. cProfile sees only the thread that calls it: work the code
hands to threads of its own (the old code's SQLite writer) does not appear, and the unit
reports the whole process's CPU time beside it.

It writes ``bench/results/profile-recompute-<UTC time>/<label>.prof`` (pstats files) and a
``SUMMARY.md`` there: per checkout the times, the profiled time by module (self time, summed
over a module's functions) and the top functions by self and by cumulative time.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ab_history
import history_data as data

BENCH = Path(__file__).resolve().parent
#: Rows of the by-module and by-function tables.
TOP = 25
#: What one checkout runs, in a process of its own.
UNIT = r"""
import cProfile, json, sys, time
sys.path.insert(0, sys.argv[5])
from units import fresh_database, import_history
import app
from app.services.admin import recompute_ladder

path, url, ladder, out, timer = sys.argv[1:5] + sys.argv[6:7]
db = fresh_database(url, "bench_profile")
import_history(db, path, ladder)
began, cpu = time.perf_counter(), time.process_time()
recompute_ladder(db, ladder, None)
plain = {"wall_s": time.perf_counter() - began, "cpu_s": time.process_time() - cpu}
# wall: cProfile's default clock (waits count); thread: this thread's CPU time only.
profiler = cProfile.Profile(time.thread_time) if timer == "thread" else cProfile.Profile()
began, cpu = time.perf_counter(), time.process_time()
profiler.enable()
recompute_ladder(db, ladder, None)
profiler.disable()
profiled = {"wall_s": time.perf_counter() - began, "cpu_s": time.process_time() - cpu}
profiler.dump_stats(out)
db.dispose()
print(json.dumps({"plain": plain, "profiled": profiled, "app_imported_from": app.__file__}))
"""


def module_of(filename: str, checkout: Path) -> str:
    """A function's module for the by-module table: app/... in the checkout, a package in
    site-packages, the standard library, or the built-in (C) function itself."""
    if filename == "~":
        return ""  # built-ins: named by the function (see by_module)
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(checkout))
    except ValueError:
        pass
    parts = path.parts
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1]
    return f"stdlib {path.name}"


def by_module(stats: pstats.Stats, checkout: Path) -> list[tuple[str, float, int]]:
    totals: dict[str, list[float]] = {}
    for (filename, _line, name), (_cc, calls, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        key = module_of(filename, checkout) or name
        entry = totals.setdefault(key, [0.0, 0])
        entry[0] += tottime
        entry[1] += calls
    ranked = sorted(totals.items(), key=lambda item: -item[1][0])
    return [(key, value[0], int(value[1])) for key, value in ranked]


def top_functions(
    stats: pstats.Stats, checkout: Path, index: int
) -> list[tuple[str, float, float, int]]:
    rows = []
    for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        where = module_of(filename, checkout)
        label = f"{where}:{line} {name}" if where else name
        rows.append((label, tottime, cumtime, calls))
    return sorted(rows, key=lambda row: -row[index])[:TOP]


def section(label: str, checkout: Path, result: dict[str, object], prof: Path) -> list[str]:
    stats = pstats.Stats(str(prof))
    total = stats.total_tt  # type: ignore[attr-defined]
    plain, profiled = result["plain"], result["profiled"]
    lines = [
        f"## {label}: {checkout} ({git_commit(checkout)})",
        "",
        f"Recompute without the profiler: {plain['wall_s']:.2f} s wall, {plain['cpu_s']:.2f} s "  # type: ignore[index]
        f"process CPU. Under cProfile: {profiled['wall_s']:.2f} s wall, "  # type: ignore[index]
        f"{profiled['cpu_s']:.2f} s CPU, {total:.2f} s seen by the profiler (its thread, "
        "by its clock).",  # type: ignore[index]
        "",
        "| module (self time of its functions) | s | % of profiled | calls |",
        "|---|---:|---:|---:|",
    ]
    for key, seconds, calls in by_module(stats, checkout)[:TOP]:
        lines.append(f"| `{key}` | {seconds:.2f} | {100 * seconds / total:.1f} | {calls:,} |")
    for title, index in (("self", 1), ("cumulative", 2)):
        lines += [
            "",
            f"Top functions by {title} time:",
            "",
            "| function | self s | cumulative s | calls |",
            "|---|---:|---:|---:|",
        ]
        for name, tottime, cumtime, calls in top_functions(stats, checkout, index):
            lines.append(f"| `{name}` | {tottime:.2f} | {cumtime:.2f} | {calls:,} |")
    return [*lines, ""]


def git_commit(checkout: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", action="append", required=True, metavar="LABEL=PATH")
    parser.add_argument("--system", default="glicko2", choices=("elo", "glicko2"))
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--database", default="sqlite", choices=("sqlite", "postgresql"))
    parser.add_argument("--results", type=Path, default=BENCH / "results")
    parser.add_argument(
        "--timer",
        default="wall",
        choices=("wall", "thread"),
        help="cProfile's clock: wall time (time waiting for a core or a disk counts), or the "
        "profiled thread's CPU time (slower to read, so more overhead per call)",
    )
    args = parser.parse_args()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.results / f"profile-recompute-{stamp}"
    out_dir.mkdir(parents=True)
    ds = ab_history.datasets(args.games)[args.system]
    lines = [
        f"# Full recomputation profiled: {args.games:,} {args.system} games on "
        f"{args.database}, {stamp}",
        "",
        f"`bench/profile_recompute.py --system {args.system} --games {args.games} "
        f"--database {args.database} --timer {args.timer}`; nproc {os.cpu_count()}, "
        "load average at the start "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}. cProfile adds a fixed cost per "
        "call, so many small calls look bigger than they are; read the shares, not the "
        "seconds.",
        "",
    ]
    with tempfile.TemporaryDirectory() as work:
        history = Path(work) / "history.jsonl"
        data.generate(ds, history)
        for item in args.checkout:
            label, _, path = item.partition("=")
            checkout = Path(path).resolve()
            url = (
                ab_history.POSTGRES
                if args.database == "postgresql"
                else f"sqlite:///{work}/{label}.db"
            )
            prof = out_dir / f"{label}.prof"
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    UNIT,
                    str(history),
                    url,
                    ds.ladder,
                    str(prof),
                    str(BENCH),
                    args.timer,
                ],
                cwd=checkout,
                env={**os.environ, "PYTHONPATH": str(checkout)},
                capture_output=True,
                text=True,
                check=True,
                timeout=3600,
            )
            result = json.loads(done.stdout.strip().splitlines()[-1])
            if Path(result["app_imported_from"]).resolve() != checkout / "app" / "__init__.py":
                raise RuntimeError(f"{checkout}: the unit ran {result['app_imported_from']}")
            print(f"{label}: {json.dumps(result)}", flush=True)
            lines += section(label, checkout, result, prof)
    (out_dir / "SUMMARY.md").write_text("\n".join(lines))
    print("\n".join(lines))
    print(f"wrote {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
