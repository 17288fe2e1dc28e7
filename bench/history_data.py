"""Data of the benchmarks: seeded JSON Lines histories and the raw-insert ceiling.

- ``generate``: a deterministic (seeded) history of N games of one system, written as a
  ``ratings import`` JSON Lines file (a header line, then POST /games bodies in time order);
- ``prepare``: the same games through the service's own conversion (``events.new_game_event``: the
  stored body, its hash and the engine event), then replayed with the pure engine into the
  exact ``events`` and ``changes`` rows the service would store (the raw-insert ceiling's
  rows, and the engine ceiling's input);
- ``raw_insert_sqlite`` / ``raw_insert_postgres``: those rows inserted with the fastest plain
  method and no service logic (INSERTs of many rows each in one transaction; psycopg ``COPY``).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from app.engine.ledger import event_ranks, outcomes_by_rank, replay
from app.engine.types import Game
from app.repositories.history import CHANGE_COLUMNS
from app.schemas.events import GameIn
from app.services.events import new_game_event
from app.services.runtime import Runtime, configure, db_key, encode_state, plain

#: First game's time; each next game is GAME_SPACING later (strictly increasing: no ties).
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
GAME_SPACING = timedelta(seconds=30)
#: Share of two-player games that are draws (equal ranks), and of 4-player games with a tie.
DRAW_SHARE = 0.1

EVENT_COLUMNS = (
    "seq", "ladder_id", "kind", "external_id", "occurred_at", "body", "body_hash", "rated",
    "tournament", "voided_at", "voided_changes", "ladder_state_after", "created_at",
)  # fmt: skip


@dataclass(frozen=True)
class Dataset:
    """One benchmarked history: ``games`` games of ``seats`` players among ``players``."""

    ladder: str
    system: str
    params: dict[str, Any]
    games: int
    seats: int
    players: int
    seed: int

    @property
    def header(self) -> dict[str, Any]:
        return {"ladder": {"id": self.ladder, "system": self.system, "params": self.params}}

    def runtime(self) -> Runtime:
        return configure(self.system, self.params)


def game_id(index: int) -> str:
    return f"g{index:08d}"


def bodies(ds: Dataset) -> Iterator[dict[str, Any]]:
    """The games, in time order (deterministic for the dataset's seed)."""
    rng = random.Random(f"{ds.seed}-{ds.ladder}")
    names = [f"p{n:06d}" for n in range(ds.players)]
    for index in range(ds.games):
        seated = rng.sample(names, ds.seats)
        if ds.seats == 2:
            ranks = [1, 1] if rng.random() < DRAW_SHARE else [1, 2]
        else:
            ranks = list(range(1, ds.seats + 1))
            if rng.random() < DRAW_SHARE:  # a shared place somewhere
                tie = rng.randrange(ds.seats - 1)
                ranks[tie + 1] = ranks[tie]
        played = EPOCH + index * GAME_SPACING
        yield {
            "id": game_id(index),
            "played_at": played.isoformat().replace("+00:00", "Z"),
            "players": [
                {"player": name, "rank": rank} for name, rank in zip(seated, ranks, strict=True)
            ],
        }


def generate(ds: Dataset, path: Path) -> int:
    """Write the dataset as a ``ratings import`` JSON Lines file; returns its size in bytes."""
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(ds.header) + "\n")
        for body in bodies(ds):
            out.write(json.dumps(body, separators=(",", ":")) + "\n")
    return path.stat().st_size


@dataclass
class Prepared:
    """A dataset's engine events and the rows the service stores for it (seq/ids from 1)."""

    dataset: Dataset
    events: list[Game] = field(default_factory=list)
    #: EVENT_COLUMNS values, JSON columns as JSON text.
    event_rows: list[tuple[Any, ...]] = field(default_factory=list)
    #: CHANGE_COLUMNS values, JSON columns as JSON text.
    change_rows: list[tuple[Any, ...]] = field(default_factory=list)
    seconds: float = 0.0


def prepare(ds: Dataset, first_seq: int = 1, first_change_id: int = 1) -> Prepared:
    """Convert the games as the import does, and replay them into stored rows (untimed)."""
    began = time.perf_counter()
    runtime = ds.runtime()
    out = Prepared(ds)
    stamp = datetime.now(UTC)
    occurred: list[datetime] = []
    for index, raw in enumerate(bodies(ds)):
        item = new_game_event(GameIn.model_validate({**raw, "ladder": ds.ladder}))
        out.events.append(item.event)  # type: ignore[arg-type]
        occurred.append(item.occurred_at)
        out.event_rows.append(
            (
                first_seq + index,
                ds.ladder,
                item.kind,
                item.external_id,
                item.occurred_at,
                json.dumps(item.body),
                item.body_hash,
                item.rated,
                item.tournament,
                None,
                None,
                None,
                stamp,
            )
        )
    last: dict[tuple[str, str], int] = {}
    change_id = first_change_id
    for index, step in enumerate(replay(runtime.info, runtime.rater, out.events)):
        seq = first_seq + index
        ranks = event_ranks(step.event)
        outcomes = outcomes_by_rank(ranks)
        for position, change in enumerate(step.outcome.changes):
            key = db_key(change.key)
            row = {
                "id": change_id, "ladder_id": ds.ladder, "event_seq": seq, "player": key[0],
                "faction": key[1], "position": position, "rank": ranks[position],
                "outcome": outcomes[position], "occurred_at": occurred[index], "seq": seq,
                "rating_before": change.before.rating, "rating_after": change.after.rating,
                "deviation_before": change.before.deviation,
                "deviation_after": change.after.deviation,
                "volatility_before": change.before.volatility,
                "volatility_after": change.after.volatility,
                "state_after": json.dumps(encode_state(change.after)),
                "details": json.dumps(plain(change.details)), "prev_change_id": last.get(key),
            }  # fmt: skip
            # In the table's order; a column added since (a game's team) stays NULL.
            out.change_rows.append(tuple(row.get(column) for column in CHANGE_COLUMNS))
            last[key] = change_id
            change_id += 1
    out.seconds = time.perf_counter() - began
    return out


# -- the raw-insert ceiling -------------------------------------------------------------------


def _sqlite_time(value: datetime | None) -> str | None:
    """SQLAlchemy's SQLite DATETIME text for a UTC time (what app.models.base stores)."""
    if value is None:
        return None
    return value.astimezone(UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")


def sqlite_rows(prepared: Prepared) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The rows as SQLite stores them (time as text, booleans as 0/1); untimed."""
    events = [
        (
            *r[:4],
            _sqlite_time(r[4]),
            r[5],
            r[6],
            int(r[7]),
            r[8],
            None,
            None,
            None,
            _sqlite_time(r[12]),
        )
        for r in prepared.event_rows
    ]
    at = CHANGE_COLUMNS.index("occurred_at")
    changes = [(*r[:at], _sqlite_time(r[at]), *r[at + 1 :]) for r in prepared.change_rows]
    return events, changes


def raw_insert_sqlite(
    path: str, events: list[tuple[Any, ...]], changes: list[tuple[Any, ...]]
) -> dict[str, float]:
    """Both tables in one transaction, with the service's PRAGMAs, by INSERTs of as many
    rows as SQLite binds at once: faster than executemany (50,000 elo games: 2.07 s against
    2.63 s), and what the service itself sends, so the ceiling is not the slower way."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            connection.execute(f"PRAGMA {pragma}")
        variables = connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        began = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        _insert_many_per_statement(connection, "events", EVENT_COLUMNS, events, variables)
        middle = time.perf_counter()
        _insert_many_per_statement(connection, "changes", CHANGE_COLUMNS, changes, variables)
        connection.execute("COMMIT")
        ended = time.perf_counter()
    finally:
        connection.close()
    return {"events_s": middle - began, "changes_s": ended - middle, "total_s": ended - began}


def _insert_many_per_statement(
    connection: sqlite3.Connection,
    table: str,
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
    variables: int,
) -> None:
    per_statement = max(1, min(ROWS_PER_STATEMENT, variables // len(columns)))
    for sql, parameters in _insert_statements(table, columns, rows, per_statement):
        connection.execute(sql, parameters)


def raw_insert_postgres(
    dsn: str, schema: str, prepared: Prepared, application_name: str = ""
) -> dict[str, float]:
    """psycopg COPY (text format, rows written from Python tuples) of both tables, one
    transaction. JSON columns go as JSON text, which PostgreSQL parses into jsonb."""
    import psycopg

    with psycopg.connect(
        dsn, options=f"-csearch_path={schema}", application_name=application_name
    ) as connection:
        pid = connection.info.backend_pid
        with connection.cursor() as cursor:
            cpu0 = _process_cpu(pid)
            began = time.perf_counter()
            with cursor.copy(f"COPY events ({', '.join(EVENT_COLUMNS)}) FROM STDIN") as copy:
                for row in prepared.event_rows:
                    copy.write_row(row)
            middle = time.perf_counter()
            with cursor.copy(f"COPY changes ({', '.join(CHANGE_COLUMNS)}) FROM STDIN") as copy:
                for row in prepared.change_rows:
                    copy.write_row(row)
        connection.commit()
        ended = time.perf_counter()
        backend_cpu = _process_cpu(pid) - cpu0
        # The ids were given explicitly: move the sequences past them (untimed).
        for table, column in (("events", "seq"), ("changes", "id")):
            connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"(SELECT max({column}) FROM {table}))"
            )
        connection.commit()
    return {
        "events_s": middle - began,
        "changes_s": ended - middle,
        "total_s": ended - began,
        "backend_cpu_s": backend_cpu,
    }


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a local process: the PostgreSQL backend of a session."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


#: Rows per multi-row INSERT of the SQLite ceiling (fewer if the bound-variable limit says so).
ROWS_PER_STATEMENT = 2_000


def _insert_statements(
    table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]], per_statement: int
) -> Iterator[tuple[str, list[Any]]]:
    """(statement, parameters) inserting ``rows`` in statements of ``per_statement`` rows."""
    head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    one = f"({', '.join('?' * len(columns))})"
    full = head + ", ".join([one] * per_statement)
    for begin in range(0, len(rows), per_statement):
        part = rows[begin : begin + per_statement]
        statement = full if len(part) == per_statement else head + ", ".join([one] * len(part))
        yield statement, [value for row in part for value in row]
