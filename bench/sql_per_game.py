"""What one POST /games costs, in-process and one request at a time: SQL and time.

    .venv/bin/python bench/sql_per_game.py [--database postgresql|sqlite] [--system fundox]
        [--games 300] [--show]

Runs the real app (``create_app``) in this process through Starlette's TestClient, on a fresh
database (PostgreSQL: the dedicated schema ``bench_sql``, dropped and recreated; SQLite: a
temporary file), posts ``--games`` games among 1000 players after a warm-up, and reports:

- statements per game as SQLAlchemy sends them (and transactions, pool checkouts — each
  checkout is also a ``SELECT 1`` pre-ping that no SQLAlchemy event shows);
- round trips per game to PostgreSQL, counted from libpq's protocol trace (each ``Query``
  message, and each ``Sync`` that ends an extended-protocol exchange or a pipeline);
- the mean time of one request with no concurrency (no HTTP server, no GIL contention), and
  the share of it spent inside the database driver's calls.

``--show`` prints the statements of the last game.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"
PG_SCHEMA = "bench_sql"
TOKEN = "bench-sql-per-game-token-0123456789"


def reset_schema() -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {PG_SCHEMA}")
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{PG_SCHEMA}"


def game_body(system: str, ladder: str, number: int, players: list[int]) -> dict[str, Any]:
    factions = ["Orc", "Human", "Dwarf", "Skaven"]
    seats = []
    for rank, index in enumerate(players, start=1):
        seat: dict[str, Any] = {"player": f"p{index:04d}", "rank": rank}
        if system == "naf":
            seat["faction"] = factions[index % len(factions)]
        seats.append(seat)
    return {
        "ladder": ladder,
        "id": f"g{number}",
        "played_at": _stamp(number),
        "players": seats,
        "event": {"coaches": 48, "major": False},
    }


def _stamp(minutes: int) -> str:
    import datetime as dt

    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC) + dt.timedelta(minutes=minutes)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


class Trace:
    """Counts libpq protocol messages sent by the client (round trips)."""

    def __init__(self) -> None:
        self.file = tempfile.NamedTemporaryFile("w+", suffix=".pqtrace", delete=False)  # noqa: SIM115
        self.path = Path(self.file.name)

    def attach(self, dbapi_connection: Any) -> None:
        pgconn = dbapi_connection.pgconn
        pgconn.trace(self.file.fileno())
        try:
            from psycopg import pq

            pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        except Exception:  # the flags are cosmetic
            pass

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--system", choices=["fundox", "naf"], default="fundox")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--show", action="store_true", help="print the last game's statements")
    parser.add_argument(
        "--cprofile",
        type=int,
        default=0,
        metavar="N",
        help="profile the measured games with cProfile and print the top N functions",
    )
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="ratings-sql-")
    url = reset_schema() if args.database == "postgresql" else f"sqlite:///{tmp.name}/ratings.db"
    os.environ["RATINGS_ADMIN_TOKEN"] = TOKEN

    from fastapi.testclient import TestClient
    from sqlalchemy import event

    from app.cli import migrate
    from app.core.database import Database
    from app.core.settings import Settings
    from app.main import create_app

    migrate(url)
    settings = Settings(database_url=url, admin_token=TOKEN)
    db = Database(url)
    statements: list[str] = []
    counters: Counter[str] = Counter()
    trace = Trace() if args.database == "postgresql" else None
    driver_time = [0.0]

    @event.listens_for(db.engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        if trace is not None:
            trace.attach(dbapi_connection)

    @event.listens_for(db.engine, "before_cursor_execute")
    def before(
        conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool
    ) -> None:
        first = " ".join(statement.split())[:110]
        statements.append(("executemany: " if many else "") + first)
        conn.info["t0"] = time.perf_counter()

    @event.listens_for(db.engine, "after_cursor_execute")
    def after(
        conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool
    ) -> None:
        driver_time[0] += time.perf_counter() - conn.info.pop("t0", time.perf_counter())

    @event.listens_for(db.engine, "begin")
    def on_begin(_conn: Any) -> None:
        counters["transactions"] += 1

    @event.listens_for(db.engine.pool, "checkout")
    def on_checkout(*_args: Any) -> None:
        counters["pool checkouts (each with a pre-ping SELECT 1 on PostgreSQL)"] += 1

    app = create_app(settings, database=db)
    rng = random.Random(1)
    size = 4 if args.system == "fundox" else 2
    ladder = f"sql-{args.system}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    pool = list(range(1, 1001))
    numbers = iter(range(10**9))

    def next_body() -> dict[str, Any]:
        return game_body(args.system, ladder, next(numbers), rng.sample(pool, size))

    def reset() -> None:
        statements.clear()
        counters.clear()
        driver_time[0] = 0.0

    with TestClient(app) as client:
        client.post("/ladders", json={"id": ladder, "system": args.system}, headers=headers)

        def post() -> None:
            response = client.post("/games", json=next_body(), headers=headers)
            assert response.status_code == 201, response.text

        for _ in range(args.warmup):
            post()
        # 1. The whole ASGI app (routing, auth, validation, service, response), no HTTP server.
        started = time.perf_counter()
        for _ in range(args.games):
            post()
        asgi_ms = 1000 * (time.perf_counter() - started) / args.games

        # 2. The service alone, as the endpoint calls it: validate, submit, serialise.
        from app.schemas.events import GameIn
        from app.services.events import submit_game

        def direct() -> None:
            result = submit_game(db, GameIn.model_validate(next_body()))
            assert result.status == 201
            result.body.model_dump_json()

        reset()
        mark = trace.mark() if trace else 0
        started = time.perf_counter()
        last: list[str] = []
        for _ in range(args.games):
            before_count = len(statements)
            direct()
            last = statements[before_count:]
        service_ms = 1000 * (time.perf_counter() - started) / args.games
        messages = trace.count(mark, trace.mark()) if trace else Counter()
        driver_ms = 1000 * driver_time[0] / args.games
        n_statements, n_counters = list(statements), Counter(counters)

        # 3. The same under cProfile (slower: the profiler's own cost), for the call tree.
        profiler = None
        if args.cprofile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(args.games):
                direct()
            profiler.disable()
    db.dispose()

    n = args.games
    kinds = Counter(
        s.split(" ")[0] if not s.startswith("executemany") else "executemany" for s in n_statements
    )
    print(f"{args.database} / {args.system}: {n} games, one at a time, in this process")
    print(f"  POST /games through the ASGI app (TestClient, no HTTP server): {asgi_ms:.2f} ms")
    print(f"  the service alone (GameIn, submit_game, GameOut JSON):          {service_ms:.2f} ms")
    print(
        f"    of which inside SQLAlchemy's cursor calls (driver + PostgreSQL): {driver_ms:.2f} ms"
    )
    print(
        f"  statements per game (SQLAlchemy): {len(n_statements) / n:.1f}  "
        + ", ".join(f"{k} {v / n:.1f}" for k, v in kinds.most_common())
    )
    for key, value in n_counters.items():
        print(f"  {key} per game: {value / n:.1f}")
    if trace is not None:
        round_trips = messages.get("Query", 0) + messages.get("Sync", 0)
        print(
            f"  round trips per game (libpq trace: Query + Sync): {round_trips / n:.1f}  "
            + ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(messages.items()))
        )
        trace.path.unlink(missing_ok=True)
    if profiler is not None:
        import io
        import pstats

        for order in ("cumulative", "tottime"):
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(order)
            stats.print_stats(args.cprofile)
            print(f"  cProfile of the service alone, by {order} (inflated by the profiler):")
            body = out.getvalue()
            print(body[body.index("   ncalls") :] if "   ncalls" in body else body)
    if args.show:
        print("  statements of the last game:")
        for statement in last:
            print(f"    {statement}")


if __name__ == "__main__":
    main()
