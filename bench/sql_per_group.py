"""What one group commit of POST /games sends to PostgreSQL, and its CPU per game, for a
checkout of the service (run it once per checkout to compare two commits).

    .venv/bin/python bench/sql_per_group.py --checkout /path/to/checkout [--games 2000]
        [--concurrency 64] [--system fundox] [--cprofile 25] [--show]

Runs the checkout's app (``create_app``, imported from ``--checkout``, which this script
checks) in this process through ``httpx.ASGITransport``, on a fresh PostgreSQL schema
(``--schema``, dropped and recreated), and posts ``--games`` games among 1000 players with
``--concurrency`` requests in flight, so the group-commit writer thread takes them in groups
as the server does. It counts, for the writer thread's transactions only: statements as
SQLAlchemy sends them and as the driver gets them outside SQLAlchemy (COPY), libpq round
trips (``Query`` and ``Sync`` messages), games per group, and the writer thread's CPU time
per game (``time.thread_time``) — the work the issue compares, without HTTP.
``--cprofile N`` profiles the writer's groups on the thread's CPU clock and prints the top N
functions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"
TOKEN = "bench-sql-per-group-token-0123456789"
#: Distinct players the games draw from (as in the load tests).
PLAYERS = 1000
SEATS = {"fundox": 4, "naf": 2}


def reset_schema(schema: str) -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"


def drop_schema(schema: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def game_body(system: str, ladder: str, number: int, players: list[int]) -> dict[str, Any]:
    import datetime as dt

    factions = ["Orc", "Human", "Dwarf", "Skaven"]
    seats = []
    for rank, index in enumerate(players, start=1):
        seat: dict[str, Any] = {"player": f"p{index:04d}", "rank": rank}
        if system == "naf":
            seat["faction"] = factions[index % len(factions)]
        seats.append(seat)
    # A minute apart in posting order; a group is rated in arrival order, so none is late
    # unless two requests overtake each other by more than their group (counted below).
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC) + dt.timedelta(minutes=number)
    return {
        "ladder": ladder,
        "id": f"g{number}",
        "played_at": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "players": seats,
        "event": {"coaches": 48, "major": False},
    }


class Trace:
    """libpq protocol messages the client sends, per connection (round trips)."""

    def __init__(self) -> None:
        self.file = tempfile.NamedTemporaryFile("w+", suffix=".pqtrace", delete=False)  # noqa: SIM115
        self.path = Path(self.file.name)

    def attach(self, dbapi_connection: Any) -> None:
        from psycopg import pq

        pgconn = dbapi_connection.pgconn
        pgconn.trace(self.file.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)

    def mark(self) -> int:
        self.file.flush()
        return self.path.stat().st_size

    def count(self, start: int, end: int) -> Counter[str]:
        counts: Counter[str] = Counter()
        with self.path.open("rb") as f:
            f.seek(start)
            for raw in f.read(end - start).decode(errors="replace").splitlines():
                parts = raw.split("\t")
                if len(parts) >= 3 and parts[0] == "F":
                    counts[parts[2].split(" ")[0]] += 1
        return counts


def least_squares(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Intercept and slope of the least-squares line through ``points``."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    slope = sxy / sxx
    return mean_y - slope * mean_x, slope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", required=True, type=Path)
    parser.add_argument("--system", choices=sorted(SEATS), default="fundox")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--schema", default="bench_sql_group")
    parser.add_argument("--cprofile", type=int, default=0, metavar="N")
    parser.add_argument("--show", action="store_true", help="print one group's statements")
    args = parser.parse_args()

    checkout = args.checkout.resolve()
    sys.path.insert(0, str(checkout))
    os.chdir(checkout)  # alembic's script location, and its '.' on sys.path
    import app as app_package

    imported = Path(app_package.__file__).resolve()
    assert imported.is_relative_to(checkout), f"imported {imported}, not {checkout}"

    url = reset_schema(args.schema)
    os.environ["RATINGS_ADMIN_TOKEN"] = TOKEN

    import httpx
    from sqlalchemy import event

    from app.cli import migrate
    from app.core.database import Database
    from app.core.settings import Settings
    from app.main import create_app
    from app.services import group_commit

    migrate(url)
    settings = Settings(database_url=url, admin_token=TOKEN)
    db = Database(url, pool_size=args.concurrency, max_overflow=0)
    trace = Trace()
    measuring = threading.Event()
    writer_ident: list[int] = []
    statements: list[str] = []
    group_statements: list[list[str]] = []
    counters: Counter[str] = Counter()
    cpu = [0.0]
    #: (games, writer CPU seconds) of each measured group: their fit splits the writer's
    #: cost into a part per group (statements, round trips) and a part per game.
    per_group: list[tuple[int, float]] = []
    profiler = None
    if args.cprofile:
        import cProfile

        # The thread's CPU clock: what the writer costs, not what it waits for.
        profiler = cProfile.Profile(time.thread_time)

    @event.listens_for(db.engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        trace.attach(dbapi_connection)

    def in_writer() -> bool:
        return measuring.is_set() and threading.get_ident() in writer_ident

    @event.listens_for(db.engine, "before_cursor_execute")
    def before(
        conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool
    ) -> None:
        if in_writer():
            first = " ".join(statement.split())[:120]
            statements.append(("executemany: " if many else "") + first)

    @event.listens_for(db.engine, "begin")
    def on_begin(_conn: Any) -> None:
        if in_writer():
            counters["transactions"] += 1

    # The writer's groups: each call of _write is one group (one transaction per ladder).
    original_write = group_commit.GroupCommitter._write

    def write(self: Any, group: Any) -> None:
        if threading.get_ident() not in writer_ident:
            writer_ident.append(threading.get_ident())
        if not measuring.is_set():
            original_write(self, group)
            return
        before_statements = len(statements)
        started = time.thread_time()
        if profiler is not None:
            profiler.enable()
        try:
            original_write(self, group)
        finally:
            if profiler is not None:
                profiler.disable()
            spent = time.thread_time() - started
            cpu[0] += spent
            per_group.append((len(group), spent))
            counters["groups"] += 1
            counters["games in groups"] += len(group)
            group_statements.append(statements[before_statements:])

    group_commit.GroupCommitter._write = write  # type: ignore[method-assign]

    app = create_app(settings, database=db)
    rng = random.Random(1)
    ladder = f"group-{args.system}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    pool = list(range(1, PLAYERS + 1))
    numbers = iter(range(10**9))
    statuses: Counter[int] = Counter()

    async def run() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://bench") as client,
        ):
            created = await client.post(
                "/ladders", json={"id": ladder, "system": args.system}, headers=headers
            )
            assert created.status_code == 201, created.text

            async def poster(count: int) -> None:
                for _ in range(count):
                    body = game_body(
                        args.system, ladder, next(numbers), rng.sample(pool, SEATS[args.system])
                    )
                    response = await client.post("/games", json=body, headers=headers)
                    statuses[response.status_code] += 1

            async def burst(total: int) -> None:
                share, extra = divmod(total, args.concurrency)
                await asyncio.gather(
                    *(poster(share + (i < extra)) for i in range(args.concurrency))
                )

            await burst(args.warmup)
            statuses.clear()
            mark = trace.mark()
            measuring.set()
            started = time.perf_counter()
            process_started = time.process_time()
            await burst(args.games)
            wall = time.perf_counter() - started
            process_cpu = time.process_time() - process_started
            measuring.clear()
            return {
                "messages": trace.count(mark, trace.mark()),
                "wall": wall,
                "process_cpu": process_cpu,
            }

    try:
        result = asyncio.run(run())
    finally:
        db.dispose()
        drop_schema(args.schema)

    n = args.games
    groups = counters["groups"] or 1
    messages: Counter[str] = result["messages"]
    kinds = Counter(s.split(" ")[0] for s in statements)
    print(f"checkout {checkout} (app from {imported.parent})")
    print(
        f"postgresql / {args.system}: {n} games, {args.concurrency} in flight, in-process ASGI; "
        f"statuses {dict(statuses)}"
    )
    print(
        f"  groups: {counters['groups']}, "
        f"games per group {counters['games in groups'] / groups:.1f},"
        f" transactions per group {counters['transactions'] / groups:.2f}"
    )
    print(
        f"  statements per group (SQLAlchemy): {len(statements) / groups:.2f}  "
        + ", ".join(f"{k} {v / groups:.2f}" for k, v in kinds.most_common())
    )
    print(
        "  libpq messages per group (all connections, writer's and any other): "
        + ", ".join(f"{k} {v / groups:.2f}" for k, v in sorted(messages.items()))
    )
    print(
        f"  round trips per group (Query + Sync): "
        f"{(messages.get('Query', 0) + messages.get('Sync', 0)) / groups:.2f}"
    )
    print(f"  writer thread CPU per game: {1000 * cpu[0] / n:.3f} ms")
    if len({games for games, _ in per_group}) > 1:
        fixed, slope = least_squares(per_group)
        print(
            f"  writer CPU per group fitted as a + b * games: a {1000 * fixed:.2f} ms per group, "
            f"b {1000 * slope:.3f} ms per game"
        )
    process_ms = 1000 * result["process_cpu"] / n
    print(f"  process CPU per game (all threads, ASGI included): {process_ms:.3f} ms")
    print(f"  wall: {result['wall']:.2f} s ({n / result['wall']:.0f} games/s)")
    if args.show and group_statements:
        biggest = max(group_statements, key=len)
        print("  statements of the group with the most:")
        for statement in biggest:
            print(f"    {statement}")
    if profiler is not None:
        import io
        import pstats

        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(order)
            stats.print_stats(args.cprofile)
            body = out.getvalue()
            print(f"  cProfile of the writer's groups, by {order}:")
            print(body[body.index("   ncalls") :] if "   ncalls" in body else body)
    trace.path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
