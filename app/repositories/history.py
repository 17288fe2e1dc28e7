"""Bulk writes of a ladder's history: events, their changes and the rating rows they leave.

One boundary, one implementation per database, one contract (``tests/repositories/
test_history_writer.py`` runs it against both):

- ids are drawn before rows are written, so a batch of changes can name its own
  predecessors (``prev_change_id``) and a change its event;
- rows carry every column of :data:`EVENT_COLUMNS` or :data:`CHANGE_COLUMNS`, JSON columns as
  plain dicts and lists;
- rating updates set the same columns on every row of one call;
- writes may be held back until :meth:`HistoryWriter.flush`, which the unit of work calls
  before its commit and before it reads what it wrote (app/services/unit_of_work.py); their
  errors (a taken id) surface there, so rows handed to the writer must not change afterwards.
  One writer serves one transaction.

PostgreSQL holds back a few rows (a group commit's: :data:`HELD_ROWS`) and sends the events,
changes and rating update waiting as one statement (data-modifying CTEs over JSON documents),
where a COPY each and an UPDATE cost a round trip and a statement's CPU apiece; more rows go
by COPY as they come, and so does every later row of a transaction that has once gone past
them (an import's or a recomputation's pages, which would otherwise each begin with a JSON
statement of their own). SQLite writes at once, with plain INSERTs of many rows each and an
UPDATE run for many rows (``executemany``): its ``flush`` has nothing to send.
"""

from __future__ import annotations

import functools
import itertools
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import orjson
from sqlalchemy import Table, func, select, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import TextClause

from app.models import Change, Event, PlayerRating
from app.models.base import UTCDateTime
from app.repositories.base import driver_errors, is_postgres, sqlite_time

EVENT_COLUMNS = (
    "seq", "ladder_id", "kind", "external_id", "occurred_at", "body", "body_hash", "rated",
    "tournament", "created_at",
)  # fmt: skip
CHANGE_COLUMNS = (
    "id", "ladder_id", "event_seq", "player", "faction", "position", "rank", "team", "outcome",
    "occurred_at", "seq", "rating_before", "rating_after", "deviation_before",
    "deviation_after", "volatility_before", "volatility_after", "state_after", "details",
    "prev_change_id",
)  # fmt: skip
#: Columns holding JSON, which COPY takes as JSON text; and those of rating rows.
JSON_COLUMNS = frozenset({"body", "state_after", "details"})
RATING_JSON_COLUMNS = frozenset({"state"})
#: Rows per SQLite INSERT (fewer where the bound-variable limit says so).
ROWS_PER_INSERT = 2_000
SQLITE_VARIABLES = sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER
#: Distinct column sets of rating updates whose statements are kept (there are a few).
UPDATE_STATEMENTS_CACHED = 32
#: PostgreSQL: rows (events and changes) held back to go out as one statement; past them the
#: rest go by COPY, which streams.
HELD_ROWS = 2_000
#: Session key of the next id a SQLite transaction may hand out, per table: ids drawn and not
#: yet written must not be drawn twice.
_NEXT_ID = "ratings_next_id"

_EVENTS = cast(Table, Event.__table__)
_CHANGES = cast(Table, Change.__table__)
_RATINGS = cast(Table, PlayerRating.__table__)


class HistoryWriter(Protocol):
    """Writes a transaction's new history; the caller owns the transaction."""

    def draw_seqs(self, count: int) -> list[int]:
        """Seqs for ``count`` new events, increasing."""
        ...

    def draw_change_ids(self, count: int) -> list[int]:
        """Ids for ``count`` new changes, increasing."""
        ...

    def draw(self, seqs: int, change_ids: int) -> tuple[list[int], list[int]]:
        """:meth:`draw_seqs` and :meth:`draw_change_ids` at once."""
        ...

    def write_events(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert events carrying their drawn ``seq``."""
        ...

    def write_changes(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Insert changes carrying their drawn ``id`` (their events written first), taking
        them from ``rows`` as it makes them."""
        ...

    def update_ratings(self, ladder_id: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Set the columns of existing rating rows, named by ``player`` and ``faction``;
        every row sets the same columns."""
        ...

    def flush(self) -> None:
        """Send whatever is held back."""
        ...


def history_writer(session: Session) -> HistoryWriter:
    """The writer for the session's database."""
    return PostgresWriter(session) if is_postgres(session) else SqliteWriter(session)


@dataclass(slots=True)
class _Held:
    """PostgreSQL writes of one transaction not sent yet."""

    events: list[Mapping[str, Any]] = field(default_factory=list)
    changes: list[Mapping[str, Any]] = field(default_factory=list)
    #: (ladder id, columns set, rows) of one rating update.
    update: tuple[str, tuple[str, ...], Sequence[Mapping[str, Any]]] | None = None

    @property
    def rows(self) -> int:
        return len(self.events) + len(self.changes)


class PostgresWriter:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._held = _Held()
        #: Past :data:`HELD_ROWS` once: every later row goes by COPY.
        self._streaming = False

    def draw_seqs(self, count: int) -> list[int]:
        return self._draw("events", "seq", count)

    def draw_change_ids(self, count: int) -> list[int]:
        return self._draw("changes", "id", count)

    def _draw(self, table: str, column: str, count: int) -> list[int]:
        if count == 0:
            return []
        drawn = self.session.scalars(_draw_statement(table, column), {"n": count})
        return sorted(int(value) for value in drawn)

    def draw(self, seqs: int, change_ids: int) -> tuple[list[int], list[int]]:
        if not seqs or not change_ids:
            return self.draw_seqs(seqs), self.draw_change_ids(change_ids)
        row = self.session.execute(_DRAW_BOTH, {"seqs": seqs, "change_ids": change_ids}).one()
        return sorted(row[0]), sorted(row[1])

    def write_events(self, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        if not self._streaming and self._held.rows + len(rows) <= HELD_ROWS:
            self._held.events.extend(rows)
            return
        self._stream()
        self._copy(_EVENTS.name, EVENT_COLUMNS, rows)

    def write_changes(self, rows: Iterable[Mapping[str, Any]]) -> None:
        made = iter(rows)
        if not self._streaming:
            self._held.changes.extend(itertools.islice(made, max(0, HELD_ROWS - self._held.rows)))
        more = next(made, None)
        if more is not None:
            self._stream()
            self._copy(_CHANGES.name, CHANGE_COLUMNS, itertools.chain([more], made))

    def _copy(self, table: str, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
        """COPY ``rows`` as they come: the server stores what has been sent while the caller
        makes the next ones."""
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
        json_at = [i for i, name in enumerate(columns) if name in JSON_COLUMNS]
        with (
            driver_errors(connection, statement),
            driver.cursor() as cursor,
            cursor.copy(statement) as copy,
        ):
            for row in rows:
                values = [row[name] for name in columns]
                for index in json_at:
                    values[index] = _json_text(values[index])
                copy.write_row(values)

    def update_ratings(self, ladder_id: str, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        if self._held.update is not None:  # one UPDATE per statement may set a row only once
            self.flush()
        self._held.update = (ladder_id, _set_columns(rows), rows)

    def _stream(self) -> None:
        """Send what is held; the transaction's rows go by COPY from now on."""
        self.flush()
        self._streaming = True

    def flush(self) -> None:
        """Send the held writes, as one statement."""
        held, self._held = self._held, _Held()
        if not held.rows and held.update is None:
            return
        parameters: dict[str, Any] = {}
        if held.events:
            parameters["events"] = _json_document(held.events)
        if held.changes:
            parameters["changes"] = _json_document(held.changes)
        columns: tuple[str, ...] | None = None
        if held.update is not None:
            parameters["ladder_id"], columns, rows = held.update
            names = ("player", "faction", *columns)
            parameters["ratings"] = _json_document([{n: row[n] for n in names} for row in rows])
        statement = _held_statement(bool(held.events), bool(held.changes), columns)
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        with driver_errors(connection, statement):
            driver.execute(statement, parameters)


class SqliteWriter:
    def __init__(self, session: Session) -> None:
        self.session = session

    def draw_seqs(self, count: int) -> list[int]:
        return self._draw(_EVENTS, "seq", count)

    def draw_change_ids(self, count: int) -> list[int]:
        return self._draw(_CHANGES, "id", count)

    def draw(self, seqs: int, change_ids: int) -> tuple[list[int], list[int]]:
        return self.draw_seqs(seqs), self.draw_change_ids(change_ids)

    def _draw(self, table: Table, column: str, count: int) -> list[int]:
        """The ids after the largest stored one: the transaction holds the database's write
        lock (``BEGIN IMMEDIATE``), so nobody else draws meanwhile."""
        if count == 0:
            return []
        drawn: dict[str, int] = self.session.info.setdefault(_NEXT_ID, {})
        stored = (self.session.scalar(select(func.max(table.c[column]))) or 0) + 1
        start = max(stored, drawn.get(table.name, 0))
        drawn[table.name] = start + count
        return list(range(start, start + count))

    def write_events(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self._insert(_EVENTS, EVENT_COLUMNS, rows)

    def write_changes(self, rows: Iterable[Mapping[str, Any]]) -> None:
        self._insert(_CHANGES, CHANGE_COLUMNS, rows)

    def _insert(
        self, table: Table, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
    ) -> None:
        """INSERTs of many rows each, values stored as SQLAlchemy's column types store them
        (:func:`_sqlite_value`) but converted here: the types' own per-row bind processing
        (``json.dumps`` and all) cost more than the rating itself."""
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        width = len(columns)
        per_statement = max(1, min(ROWS_PER_INSERT, driver.getlimit(SQLITE_VARIABLES) // width))
        head = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES "
        one = f"({', '.join('?' * width)})"
        converted = [
            (index, to)
            for index, name in enumerate(columns)
            if (to := _sqlite_converter(table.c[name])) is not None
        ]
        batch: list[Any] = []
        count = 0
        cursor = driver.cursor()
        try:
            for row in rows:
                values = [row[name] for name in columns]
                for index, to in converted:
                    values[index] = to(values[index])
                batch.extend(values)
                count += 1
                if count == per_statement:
                    self._execute(cursor, connection, head + ", ".join([one] * count), batch)
                    batch, count = [], 0
            if count:
                self._execute(cursor, connection, head + ", ".join([one] * count), batch)
        finally:
            cursor.close()

    @staticmethod
    def _execute(cursor: Any, connection: Any, statement: str, values: list[Any]) -> None:
        shape = statement.partition(" VALUES ")[0] + " VALUES …"
        with driver_errors(connection, shape):
            cursor.execute(statement, values)

    def flush(self) -> None:
        """SQLite writes at once: nothing is held."""

    def update_ratings(self, ladder_id: str, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        columns = _set_columns(rows)
        convert = [_sqlite_converter(_RATINGS.c[name]) for name in columns]
        statement = (
            f"UPDATE {_RATINGS.name} SET {', '.join(f'{c} = ?' for c in columns)} "
            "WHERE ladder_id = ? AND player = ? AND faction = ?"
        )
        values = [
            [
                *(
                    value if to is None else to(value)
                    for to, value in zip(convert, (row[c] for c in columns), strict=True)
                ),
                ladder_id,
                row["player"],
                row["faction"],
            ]
            for row in rows
        ]
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        with driver_errors(connection, statement):
            driver.executemany(statement, values)


def _sqlite_converter(column: Any) -> Callable[[Any], Any] | None:
    """How a value of ``column`` is stored on SQLite, as SQLAlchemy's type would store it:
    JSON as its text, times in UTC as naive text (``UTCDateTime``); None: as it is."""
    if isinstance(column.type, UTCDateTime):
        return sqlite_time
    if column.name in JSON_COLUMNS or column.name in RATING_JSON_COLUMNS:
        return _json_text
    return None


def _json_document(rows: Sequence[Mapping[str, Any]]) -> str:
    return orjson.dumps(rows, default=_plain_mapping).decode()


def _json_text(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value, default=_plain_mapping).decode()


def _plain_mapping(value: Any) -> dict[str, Any]:
    """What orjson cannot write itself: a read-only mapping of the engine, as its dict."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _set_columns(rows: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    return tuple(sorted(name for name in rows[0] if name not in ("player", "faction")))


@functools.cache
def _draw_statement(table: str, column: str) -> TextClause:
    """``:n`` values of ``table.column``'s sequence. The sequence is looked up once (a
    materialized CTE): written inside ``nextval`` the lookup ran for every value."""
    return text(
        f"WITH s AS MATERIALIZED "
        f"(SELECT pg_get_serial_sequence('{table}', '{column}')::regclass AS sequence) "
        f"SELECT nextval(s.sequence) FROM s, generate_series(1, :n)"
    )


#: Both draws in one statement, as two arrays (the sequences looked up once, as above).
_DRAW_BOTH = text(
    "WITH s AS MATERIALIZED (SELECT "
    "pg_get_serial_sequence('events', 'seq')::regclass AS seqs, "
    "pg_get_serial_sequence('changes', 'id')::regclass AS change_ids) "
    "SELECT ARRAY(SELECT nextval(s.seqs) FROM generate_series(1, :seqs)), "
    "ARRAY(SELECT nextval(s.change_ids) FROM generate_series(1, :change_ids)) FROM s"
)


@functools.lru_cache(maxsize=UPDATE_STATEMENTS_CACHED)
def _held_statement(events: bool, changes: bool, columns: tuple[str, ...] | None) -> str:
    """Events, changes and one rating update from JSON documents (``%(events)s``,
    ``%(changes)s``, ``%(ratings)s``) in one statement of data-modifying CTEs. Its foreign
    keys are checked at the end of the statement, when every part has written."""
    parts = []
    for wanted, table, names, parameter in (
        (events, _EVENTS, EVENT_COLUMNS, "events"),
        (changes, _CHANGES, CHANGE_COLUMNS, "changes"),
    ):
        if wanted:
            listed = ", ".join(names)
            parts.append(
                f"new_{table.name} AS (INSERT INTO {table.name} ({listed}) SELECT {listed} "
                f"FROM json_populate_recordset(NULL::{table.name}, %({parameter})s::json))"
            )
    if columns is not None:
        given = ("player", "faction", *columns)
        dialect = postgresql.psycopg.dialect()  # type: ignore[no-untyped-call]
        shape = ", ".join(f"{n} {_RATINGS.c[n].type.compile(dialect=dialect)}" for n in given)
        assignments = ", ".join(f"{name} = given.{name}" for name in columns)
        parts.append(
            f"rated AS (UPDATE {_RATINGS.name} SET {assignments} "
            f"FROM json_to_recordset(%(ratings)s::json) AS given({shape}) "
            f"WHERE {_RATINGS.name}.ladder_id = %(ladder_id)s "
            f"AND {_RATINGS.name}.player = given.player "
            f"AND {_RATINGS.name}.faction = given.faction)"
        )
    return f"WITH {', '.join(parts)} SELECT 1"
