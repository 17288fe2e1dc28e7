"""POST /ladders/{ladder}/whatif over a large ladder, timed through the app (issue 21).

    git archive <commit> | tar -x -C /tmp/whatif-old     # a checkout to compare with
    .venv/bin/python bench/bench_whatif.py --checkout old=/tmp/whatif-old --checkout new=.

A seeded ladder of ``--games`` two-player elo games among ``--players`` players
(``history_data.bodies``: 10 % draws) is imported once per database as ``ratings import``
does (``units.import_history``) into a SQLite file and into the PostgreSQL database
``bench_whatif`` (created here and dropped at the end unless ``--keep``). Then each round runs,
for every checkout in turn (the order swapped every round, so the machine's speed cancels out
of the ratio), a process with ``PYTHONPATH`` at that checkout that sends the what-if requests
through the app in-process (``httpx.ASGITransport``, the admin token, so no rate limit): to
glicko2 with its defaults, and to elo with K = 24. Each records the wall time, the process's
CPU time and a hash of the response body (the checkouts must answer byte for byte the same);
each unit, how far its requests raised the process's peak RSS (memory, which unlike time
does not vary with what else the machine runs).
A last unit per checkout and database runs each request once under cProfile (the event loop's
thread and the worker thread that runs the service, merged) and keeps the functions with the
most cumulative and own time. Results: ``bench/results/whatif-<UTC>.json``
and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

import history_data as data

ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
DATABASE = "bench_whatif"
SCHEMA = "bench_whatif"
LADDER = "whatif-elo"
BENCH = Path(__file__).resolve().parent
#: The requests timed: another system, and the ladder's own with another K.
REQUESTS = {"glicko2": {"system": "glicko2"}, "elo-k24": {"params": {"k": 24}}}
#: Functions kept from each cProfile (by cumulative time, and by own time).
PROFILE_TOP = 25

#: One unit: the requests through the app of the checkout on PYTHONPATH, in its own process.
UNIT = r"""
import asyncio, cProfile, hashlib, io, json, pstats, sys, time
import httpx
import app
from app.core.database import Database
from app.core.settings import Settings
from app.main import create_app
from app.services import whatif

# The replay runs in a worker thread, which a profiler enabled here does not see: the service
# call gets a profiler of its own there, added to the main thread's (FastAPI's validation and
# serialisation of the response).
worker_profiles = []
service = whatif.what_if

def profiled_what_if(*args, **kwargs):
    profiler = cProfile.Profile()
    worker_profiles.append(profiler)
    profiler.enable()
    try:
        return service(*args, **kwargs)
    finally:
        profiler.disable()

def peak_rss_kib():
    # The process's own high-water mark (VmHWM, Linux): getrusage's ru_maxrss starts a child
    # at its parent's peak, which here holds the generated history.
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

url, ladder, requests, repeats, profile, top = sys.argv[1:7]
requests, repeats, profile, top = json.loads(requests), int(repeats), profile == "1", int(top)
token = "bench-whatif-admin-token-0123456789"
db = Database(url)
application = create_app(Settings(database_url=url, admin_token=token), database=db)

async def main():
    out = {"app_imported_from": app.__file__, "requests": {}}
    rss_before = peak_rss_kib()
    headers = {"Authorization": f"Bearer {token}"}
    transport = httpx.ASGITransport(app=application)
    async with application.router.lifespan_context(application), httpx.AsyncClient(
        transport=transport, base_url="http://bench", timeout=None
    ) as client:
        for name, body in requests.items():
            runs = []
            for _ in range(repeats):
                profiler = cProfile.Profile() if profile else None
                worker_profiles.clear()
                whatif.what_if = profiled_what_if if profile else service
                began, cpu = time.perf_counter(), time.process_time()
                if profiler:
                    profiler.enable()
                path = f"/ladders/{ladder}/whatif"
                response = await client.post(path, json=body, headers=headers)
                if profiler:
                    profiler.disable()
                wall, cpu = time.perf_counter() - began, time.process_time() - cpu
                assert response.status_code == 200, response.text[:500]
                answer = response.json()
                run = {"wall_s": wall, "cpu_s": cpu, "events": answer["events"],
                       "entries": len(answer["entries"]),
                       "sha256": hashlib.sha256(response.content).hexdigest()}
                if profiler:
                    texts = {}
                    for order in ("cumulative", "tottime"):
                        text = io.StringIO()
                        stats = pstats.Stats(profiler, *worker_profiles, stream=text)
                        stats.sort_stats(order).print_stats(top)
                        texts[order] = text.getvalue().split("\n", 6)[-1]  # past the header
                    run["profile"] = texts
                runs.append(run)
            out["requests"][name] = runs
    out["peak_rss_growth_mb"] = (peak_rss_kib() - rss_before) / 1024
    return out

print(json.dumps(asyncio.run(main())))
db.dispose()
"""


def _pg_url(database: str) -> str:
    return ADMIN.rsplit("/", 1)[0] + f"/{database}"


def _run_admin(sql: str) -> None:
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-q", "-c", sql], check=True
    )


def prepare(work: Path, ds: data.Dataset, databases: list[str]) -> dict[str, dict[str, Any]]:
    """Per database its URL and the import's seconds (the ladder is imported once)."""
    import time

    from units import fresh_database, import_history

    history = work / "whatif.jsonl"
    data.generate(ds, history)
    out: dict[str, dict[str, Any]] = {}
    for database in databases:
        if database == "sqlite":
            url = f"sqlite:///{work}/whatif.db"
            db = fresh_database(url, SCHEMA)
        else:
            _run_admin(f"DROP DATABASE IF EXISTS {DATABASE}")
            _run_admin(f"CREATE DATABASE {DATABASE}")
            db = fresh_database(_pg_url(DATABASE), SCHEMA)
            url = f"{_pg_url(DATABASE)}?options=-csearch_path%3D{SCHEMA}"
        began = time.perf_counter()
        created = import_history(db, str(history), ds.ladder)
        seconds = time.perf_counter() - began
        db.dispose()
        assert created == ds.games, created
        out[database] = {"url": url, "import_s": seconds}
        print(f"{database}: imported {created} games in {seconds:.1f} s", flush=True)
    return out


def unit(checkout: Path, url: str, repeats: int, profile: bool) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", UNIT, url, LADDER, json.dumps(REQUESTS), str(repeats),
         "1" if profile else "0", str(PROFILE_TOP)],
        env=env, cwd=checkout, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode:
        raise SystemExit(f"unit at {checkout} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(result["app_imported_from"]).is_relative_to(checkout), result
    return result


def summarise(rows: list[dict[str, Any]], labels: list[str]) -> list[dict[str, Any]]:
    """Per database and request: each checkout's median and best wall/CPU seconds, and the
    ratio of each checkout to the first one within each round (they ran next to each other)."""
    summary = []
    for database in sorted({r["database"] for r in rows}):
        for name in REQUESTS:
            line: dict[str, Any] = {"database": database, "request": name}
            for label in labels:
                runs = [
                    run
                    for r in rows
                    if r["database"] == database and r["checkout"] == label
                    for run in r["requests"][name]
                ]
                line[label] = {
                    measure: {
                        "median": statistics.median(run[measure] for run in runs),
                        "best": min(run[measure] for run in runs),
                    }
                    for measure in ("wall_s", "cpu_s")
                }
                line[label]["sha256"] = sorted({run["sha256"] for run in runs})
            base = labels[0]
            for label in labels[1:]:
                line[f"{label}_over_{base}_wall_by_round"] = [
                    _best(rows, database, label, name, n) / _best(rows, database, base, name, n)
                    for n in sorted({r["round"] for r in rows})
                ]
            summary.append(line)
    return summary


def _best(rows: list[dict[str, Any]], database: str, label: str, name: str, round_: int) -> float:
    return min(
        run["wall_s"]
        for r in rows
        if r["database"] == database and r["checkout"] == label and r["round"] == round_
        for run in r["requests"][name]
    )


def markdown(report: dict[str, Any]) -> str:
    labels = [label for label, _ in report["checkouts"]]
    lines = [
        f"# What-if over {report['games']:,} elo games among {report['players']:,} players",
        "",
        f"{report['stamp']}; checkouts: "
        + ", ".join(f"{label} = `{path}`" for label, path in report["checkouts"])
        + f"; {report['rounds']} rounds of {report['repeats']} request(s) each, the order "
        "of the checkouts swapped every round; load average before/after: "
        f"{report['loadavg_before']} / {report['loadavg_after']}.",
        "",
        "Imports (once per database): "
        + ", ".join(f"{db} {v['import_s']:.1f} s" for db, v in report["databases"].items()),
        "",
        "| database | request | "
        + " | ".join(f"{label} wall median (best) s | {label} CPU median s" for label in labels)
        + (" | ratio to " + labels[0] + " by round |" if len(labels) > 1 else ""),
        "|---|---|" + "---:|---:|" * len(labels) + ("---|" if len(labels) > 1 else ""),
    ]
    for line in report["summary"]:
        cells = [
            f"{line[label]['wall_s']['median']:.2f} ({line[label]['wall_s']['best']:.2f}) | "
            f"{line[label]['cpu_s']['median']:.2f}"
            for label in labels
        ]
        ratios = "; ".join(
            f"{label}: "
            + ", ".join(f"{x:.2f}" for x in line[f"{label}_over_{labels[0]}_wall_by_round"])
            for label in labels[1:]
        )
        lines.append(
            f"| {line['database']} | {line['request']} | " + " | ".join(cells)
            + (f" | {ratios} |" if len(labels) > 1 else " |")
        )  # fmt: skip
    same = all(
        len({h for label in labels for h in line[label]["sha256"]}) == 1
        for line in report["summary"]
    )
    lines += ["", f"Response bodies identical across checkouts and runs: **{same}**.", ""]
    lines += [
        "Peak memory: how far each unit's requests raised the process's peak RSS above what the "
        "app had at their start (median over the rounds, MB):",
        "",
        "| database | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for database in sorted({r["database"] for r in report["runs"]}):
        growth = [
            statistics.median(
                r["peak_rss_growth_mb"]
                for r in report["runs"]
                if r["database"] == database and r["checkout"] == label
            )
            for label in labels
        ]
        lines.append(f"| {database} | " + " | ".join(f"{g:.0f}" for g in growth) + " |")
    lines.append("")
    for profile in report["profiles"]:
        for name, run in profile["requests"].items():
            only = run[0]
            lines += [
                f"## cProfile: {profile['checkout']}, {profile['database']}, {name} "
                f"(wall {only['wall_s']:.2f} s under the profiler)",
                "",
                "```",
                only["profile"]["cumulative"].rstrip(),
                "```",
                "",
                "By own time:",
                "",
                "```",
                only["profile"]["tottime"].rstrip(),
                "```",
                "",
            ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--checkout", action="append", default=[], metavar="LABEL=PATH",
        help="a checkout to time (repeat to compare; the first is the base of the ratios)",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1, help="requests of each kind per unit")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database")
    parser.add_argument(
        "--pg-database", default=DATABASE, help="the PostgreSQL database to create (and drop)"
    )
    parser.add_argument("--results", type=Path, default=BENCH / "results")
    args = parser.parse_args()
    globals()["DATABASE"] = args.pg_database  # prepare() and _run_admin's SQL read it
    checkouts = [
        (label, Path(path).resolve())
        for label, path in (c.split("=", 1) for c in args.checkout or ["this=."])
    ]
    ds = data.Dataset(LADDER, "elo", {}, args.games, 2, args.players, 21)
    databases = args.databases.split(",")
    loadavg_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    profiles: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory() as work:
            prepared = prepare(Path(work), ds, databases)
            for round_ in range(args.rounds):
                for database in databases:
                    order = checkouts if round_ % 2 == 0 else checkouts[::-1]
                    for label, checkout in order:
                        result = unit(checkout, prepared[database]["url"], args.repeats, False)
                        row = {"database": database, "round": round_, "checkout": label,
                               "loadavg_after": os.getloadavg(), **result}  # fmt: skip
                        rows.append(row)
                        print(json.dumps(row), flush=True)
            if not args.no_profile:
                for database in databases:
                    for label, checkout in checkouts:
                        result = unit(checkout, prepared[database]["url"], 1, True)
                        profiles.append({"database": database, "checkout": label, **result})
    finally:
        if "postgresql" in databases and not args.keep:
            _run_admin(f"DROP DATABASE IF EXISTS {DATABASE}")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    report = {
        "stamp": stamp,
        "games": args.games,
        "players": args.players,
        "checkouts": [(label, str(path)) for label, path in checkouts],
        "rounds": args.rounds,
        "repeats": args.repeats,
        "databases": {db: {"import_s": v["import_s"]} for db, v in prepared.items()},
        "loadavg_before": [round(x, 2) for x in loadavg_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "nproc": os.cpu_count(),
        "summary": summarise(rows, [label for label, _ in checkouts]),
        "runs": rows,
        "profiles": profiles,
    }
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / f"whatif-{stamp}.json").write_text(json.dumps(report, indent=2))
    text = markdown(report)
    (args.results / f"whatif-{stamp}.md").write_text(text)
    print(text.split("## cProfile")[0])
    print(args.results / f"whatif-{stamp}.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
