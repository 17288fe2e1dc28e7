"""History at scale: ``ratings import`` of a large history and ``ratings recompute`` of it,
against the raw insert of the very rows the service stores (the ceiling).

    flock /tmp/bench.lock .venv/bin/python bench/history.py [--games 100000]
        [--systems elo,glicko2] [--databases sqlite,postgresql] [--rounds 2] [--against REV]

The histories (``history_data.py``, seeded): ``elo``, two-player games among games/100
players (at most 10,000); ``glicko2``, four-player games (one rating period a game) among
games/50 (at most 2,000). Each round, per system and database: the raw-insert ceiling (the
events and changes rows computed beforehand with this checkout's engine, then SQLite INSERTs
of 2,000 rows or psycopg COPY, one transaction, into a freshly migrated database), then each
build in turn (the order reversed every other round), in a process of its own at the build:
a fresh database, ``ratings import`` then ``ratings recompute`` (timed: wall, the process's
CPU, PostgreSQL's CPU). Checked: the ratings after the recomputation are those after the
import, bit for bit, and every build's are the same.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
import history_data as data

#: In the build's process: migrate, then import and recompute through the CLI, each timed,
#: with a hash of the ladder's ratings after each (argv: file, ladder).
UNIT = r"""
import hashlib, json, os, sys, time
from pathlib import Path
import app
from app import cli
from sqlalchemy import create_engine, text

def postgres_ticks():
    ticks = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == "postgres":
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                # With the children reaped (cutime, cstime): the postmaster keeps the CPU of
                # backends that exited meanwhile.
                ticks[pid] = sum(int(f) for f in fields[11:15])
        except OSError:
            pass
    return ticks

def postgres_cpu(before):
    after = postgres_ticks()
    return sum(v - before.get(p, 0) for p, v in after.items()) / os.sysconf("SC_CLK_TCK")

def timed(*argv):
    wall, cpu, pg = time.perf_counter(), time.process_time(), postgres_ticks()
    try:
        cli.main(list(argv))
    except SystemExit as exc:
        if exc.code:
            raise
    return {"s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu,
            "postgres_cpu_s": postgres_cpu(pg)}

def ratings(ladder):
    # Exact: floats by their hex, states as sorted JSON; whatever the build's models are.
    engine = create_engine(os.environ["RATINGS_DATABASE_URL"])
    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT player, faction, rating, deviation, volatility, state FROM player_ratings "
            "WHERE ladder_id = :ladder ORDER BY player, faction"), {"ladder": ladder}).all()
    engine.dispose()
    digest = hashlib.sha256()
    for row in rows:
        state = json.loads(row[5]) if isinstance(row[5], str) else row[5]
        values = [v.hex() if isinstance(v, float) else v for v in row[:5]]
        digest.update(json.dumps([values, state], sort_keys=True).encode())
    return {"ratings": len(rows), "sha256": digest.hexdigest()[:16]}

path, ladder = sys.argv[1:3]
try:
    cli.main(["migrate"])  # exits 0 when done
except SystemExit as exc:
    if exc.code:
        raise
out = {"app": app.__file__, "import": timed("import", path, "--ladder", ladder)}
out["after_import"] = ratings(ladder)
out["recompute"] = timed("recompute", ladder)
out["after_recompute"] = ratings(ladder)
print(json.dumps(out))
"""


def datasets(games: int, systems: list[str]) -> list[data.Dataset]:
    every = {
        "elo": data.Dataset("h-elo", "elo", {"k": 32}, games, 2, min(10_000, games // 100), 1),
        "glicko2": data.Dataset(
            "h-glicko2", "glicko2", {"period": "game"}, games, 4, min(2_000, games // 50), 2
        ),
    }
    return [every[s] for s in systems]


def raw_insert(database: str, prepared: data.Prepared, work: Path) -> float:
    """Seconds to store the history's rows with no service logic, in a migrated database."""
    from app.cli import migrate
    from app.core.database import Database
    from app.services import bulk

    ds = prepared.dataset
    schema = "bench_history_raw"
    url = common.database_url(database, schema, work)
    migrate(url)
    db = Database(url)
    bulk.ensure_ladder(db, ds.ladder, ds.header["ladder"])
    db.dispose()
    if database == "sqlite":
        events, changes = data.sqlite_rows(prepared)
        seconds = data.raw_insert_sqlite(str(work / f"{schema}.db"), events, changes)["total_s"]
    else:
        seconds = data.raw_insert_postgres(common.PG_DSN, schema, prepared)["total_s"]
    common.drop_database(database, schema, work)
    return seconds


def same_ratings(rows: list[dict[str, Any]]) -> bool:
    """Whether every build stored the same ratings for each history on each database."""
    hashes = {(r["system"], r["database"], r["after_recompute"]["sha256"]) for r in rows}
    return len(hashes) == len({(r["system"], r["database"]) for r in rows})


def markdown(report: dict[str, Any]) -> str:
    rows = report["runs"]
    builds = [b["label"] for b in report["builds"]]
    lines = common.header("History: import and recompute against the raw insert", report)
    lines += [
        "Seconds: median (range) over the rounds. ÷ raw: the raw insert's seconds ÷ the "
        "step's, round by round (1 = as fast as storing the rows with no service logic).",
        "",
        "| system | database | build | games | import s | import ÷ raw | recompute s | "
        "recompute ÷ raw | CPU s import / recompute (PostgreSQL) | raw insert s | check |",
        "|---|---|---|---:|---|---|---|---|---|---|---|",
    ]
    groups = dict.fromkeys((r["system"], r["database"], r["build"]) for r in rows)
    for system, database, build in groups:
        key = (system, database, build)
        mine = [r for r in rows if (r["system"], r["database"], r["build"]) == key]
        imp = [r["import"]["s"] for r in mine]
        rec = [r["recompute"]["s"] for r in mine]
        raw = [r["raw_s"] for r in mine]
        cpu = " / ".join(
            common.spread([r[step]["cpu_s"] for r in mine])
            + (
                f" ({common.spread([r[step]['postgres_cpu_s'] for r in mine])})"
                if database == "postgresql"
                else ""
            )
            for step in ("import", "recompute")
        )
        lines.append(
            f"| {system} | {database} | {build} | {mine[0]['games']:,} | {common.spread(imp)} | "
            f"{common.spread([r['raw_s'] / r['import']['s'] for r in mine])} | "
            f"{common.spread(rec)} | "
            f"{common.spread([r['raw_s'] / r['recompute']['s'] for r in mine])} | {cpu} | "
            f"{common.spread(raw)} | {'ok' if all(r['ok'] for r in mine) else 'FAILED'} |"
        )
    if len(builds) > 1:
        lines += [
            "",
            f"**{builds[0]}** ÷ each other build, seconds in the same round (median, and each):",
            "",
        ]
        for system, database, build in groups:
            if build == builds[0]:
                continue
            cells = []
            for step in ("import", "recompute"):
                values = [
                    twin[step]["s"] / r[step]["s"]
                    for r in rows
                    if (r["system"], r["database"], r["build"]) == (system, database, build)
                    for twin in rows
                    if (twin["system"], twin["database"], twin["build"], twin["round"])
                    == (system, database, builds[0], r["round"])
                ]
                cells.append(
                    f"{step} {statistics.median(values):.2f} "
                    f"({', '.join(f'{v:.2f}' for v in values)})"
                )
            lines.append(f"- {system}, {database}, {build}: " + "; ".join(cells))
        lines += ["", f"Every build stored the same ratings: **{same_ratings(rows)}**."]
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games of each history")
    parser.add_argument("--systems", default="elo,glicko2")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--results", type=Path, default=common.RESULTS)
    common.add_against(parser)
    args = parser.parse_args()
    with common.builds(args.against) as built, tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        report = common.new_report("history", args, built)
        report["runs"] = rows = []
        for ds in datasets(args.games, args.systems.split(",")):
            path = work / f"{ds.ladder}.jsonl"
            data.generate(ds, path)
            prepared = data.prepare(ds)
            for round_ in range(args.rounds):
                for database in args.databases.split(","):
                    raw = raw_insert(database, prepared, work)
                    print(f"{ds.system} {database} round {round_}: raw insert {raw:.2f} s")
                    for build in common.in_turn(round_, built):
                        schema = "bench_history"
                        url = common.database_url(database, schema, work)
                        env = {"RATINGS_DATABASE_URL": url}
                        unit = common.run_unit(build, UNIT, str(path), ds.ladder, env=env)
                        common.drop_database(database, schema, work)
                        ok = unit["after_import"] == unit["after_recompute"]
                        rows.append({"system": ds.system, "database": database, "round": round_,
                                     "build": build.label, "games": ds.games, "raw_s": raw,
                                     "ok": ok, **unit})  # fmt: skip
                        print(
                            f"  {build.label}: import {unit['import']['s']:.2f} s, recompute "
                            f"{unit['recompute']['s']:.2f} s, recompute == import: {ok}",
                            flush=True,
                        )
            del prepared
    common.write_results("history", report, markdown(report), args.results)
    return 0 if all(r["ok"] for r in rows) and same_ratings(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
