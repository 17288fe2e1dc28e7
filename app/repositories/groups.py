"""SQL of a group commit (:mod:`app.services.appends`), in three phases: open, read, write.

On PostgreSQL each phase is one round trip: its statements go out together in psycopg's
pipeline mode and the answers come back together. In a session with an explicit begin
(:meth:`app.core.database.Database.session`) the transaction's BEGIN goes out with the first
phase and its COMMIT with the last, so a group waits for three round trips. It used to wait
for about a dozen (BEGIN, the ladder lock, the ladder, the stored ids, the rating rows, the
ids, two COPYs of two round trips each, the rating update, COMMIT); under load each of them
also waited for a CPU and for the GIL, and the writer thread spent most of its time waiting.
The statements are the repositories' own, compiled once for the driver. The rows go out as
JSON documents (``json_populate_recordset``), since COPY cannot be pipelined.

On SQLite, where the database is a library call away (and on PostgreSQL through a libpq older
than 14, which has no pipeline mode), the phases run the same repository methods one after
another.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC
from typing import Any, cast

from psycopg.rows import namedtuple_row
from sqlalchemy import Table
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import ClauseElement

from app.core.database import pipelines_supported
from app.models import Change, Event, Ladder, PlayerRating
from app.models.base import UTCDateTime
from app.repositories.base import driver_errors, is_postgres
from app.repositories.events import (
    ALLOCATE_SEQS_AND_CHANGE_IDS,
    CHANGE_COLUMNS,
    EVENT_COLUMNS,
    STORED_IDS,
    EventRepository,
    stored_ids_lookups,
)
from app.repositories.ladders import (
    LADDER_LOCK,
    LADDER_LOCK_NAMESPACE,
    LadderRepository,
)
from app.repositories.ratings import (
    RatingKey,
    RatingRepository,
    dumps_bulk,
    json_update_statement,
    lock_rows_statement,
    rating_keys_document,
    update_document,
    update_groups,
)

#: Unpipelined: a group's changes go out below the ORM (COPY on PostgreSQL, INSERTs of
#: many rows each on SQLite) from this many rows; a single row goes through the ORM's insert.
BULK_FROM_ROWS = 2
_DIALECT = postgresql.psycopg.dialect()  # type: ignore[no-untyped-call]
_PLAYER_RATINGS = cast(Table, PlayerRating.__table__)
#: Columns of ``player_ratings`` that hold times (returned in UTC, as ``UTCDateTime`` does).
_TIME_COLUMNS = frozenset(
    column.name for column in _PLAYER_RATINGS.c if isinstance(column.type, UTCDateTime)
)


@dataclass(frozen=True, slots=True)
class GroupRead:
    """What a group needs before rating: which ids are stored, the locked rating rows
    (attribute access, the columns of ``player_ratings``) and ids drawn for the new rows."""

    stored: set[tuple[str, str]]
    rows: dict[RatingKey, Any]
    seqs: list[int]
    change_ids: list[int]


@functools.cache
def _driver_sql(statement: ClauseElement) -> str:
    """A statement as the text psycopg takes (``%(name)s`` parameters), compiled once."""
    return str(statement.compile(dialect=_DIALECT))


def _insert_from_json(table: Table, columns: Sequence[str]) -> str:
    names = ", ".join(columns)
    return (
        f"INSERT INTO {table.name} ({names}) SELECT {names} "
        f"FROM json_populate_recordset(NULL::{table.name}, %(rows)s::json)"
    )


_INSERT_EVENTS = _insert_from_json(cast(Table, Event.__table__), EVENT_COLUMNS)
_INSERT_CHANGES = _insert_from_json(cast(Table, Change.__table__), CHANGE_COLUMNS)
_LADDER_HEAD = "SELECT system, params, state FROM ladders WHERE id = %(ladder_id)s"


def _in_utc(row: Any) -> Any:
    """A rating row with its times in UTC (the driver gives the session's time zone)."""
    changed = {
        name: value.astimezone(UTC)
        for name in _TIME_COLUMNS
        if (value := getattr(row, name)) is not None and value.tzinfo is not UTC
    }
    return row._replace(**changed) if changed else row


class GroupRepository:
    """The statements of one group commit, in the caller's transaction."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pipelined = is_postgres(session) and pipelines_supported()
        #: This repository sent the transaction's BEGIN (so its last write may COMMIT).
        self.began = False

    def open(self, ladder_id: str) -> Ladder | None:
        """Lock the ladder for sharing (as :meth:`LadderRepository.get_locked`) and read it.
        Pipelined, the ladder comes back detached, with its system, params and state.

        In a session with an explicit begin (:meth:`app.core.database.Database.session`),
        whose connection is in autocommit mode (only where pipelines exist), this sends the
        transaction's BEGIN too, with the lock and the read."""
        if not self.pipelined:
            return LadderRepository(self.session).get_locked(ladder_id, exclusive=False)
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        with driver_errors(connection, _LADDER_HEAD), driver.pipeline():
            if driver.autocommit:
                driver.execute("BEGIN")
                self.began = True
            driver.execute(
                _driver_sql(LADDER_LOCK[False]),
                {"namespace": LADDER_LOCK_NAMESPACE, "ladder": ladder_id},
            )
            head = driver.execute(_LADDER_HEAD, {"ladder_id": ladder_id})
        found = head.fetchone()
        if found is None:
            return None
        system, params, state = found
        return Ladder(id=ladder_id, system=system, params=params, state=state)

    def read(
        self,
        ladder_id: str,
        ids: Sequence[tuple[str, str]],
        keys: Sequence[RatingKey],
        *,
        events: int,
        changes: int,
    ) -> GroupRead:
        """Which of ``ids`` (kind, external id) are stored; the rating rows of ``keys``,
        locked in sorted order; ``events`` seqs and ``changes`` change ids."""
        if not self.pipelined:
            history = EventRepository(self.session)
            stored = history.stored_keys(ladder_id, ids)
            rows = RatingRepository(self.session).lock_rows(ladder_id, keys)
            seqs, change_ids = history.allocate_seqs_and_change_ids(events, changes)
            return GroupRead(stored, rows, seqs, change_ids)
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        stored_sql = _driver_sql(STORED_IDS)
        lock_sql = _driver_sql(lock_rows_statement(_PLAYER_RATINGS))
        with driver_errors(connection, lock_sql), driver.pipeline():
            lookups = [
                (kind, driver.execute(stored_sql, parameters))
                for kind, parameters in stored_ids_lookups(ladder_id, ids)
            ]
            locked = driver.cursor(row_factory=namedtuple_row)
            locked.execute(lock_sql, {"ladder_id": ladder_id, "keys": rating_keys_document(keys)})
            drawn = driver.execute(
                _driver_sql(ALLOCATE_SEQS_AND_CHANGE_IDS),
                {"events": events, "changes": changes},
            )
        stored = {(kind, row[0]) for kind, cursor in lookups for row in cursor.fetchall()}
        rows = {(row.player, row.faction): _in_utc(row) for row in locked.fetchall()}
        seq_ids, change_ids = drawn.fetchone() or ([], [])
        return GroupRead(stored, rows, list(seq_ids), list(change_ids))

    def redraw(self, read: GroupRead) -> GroupRead:
        """``read`` with as many seqs and change ids, drawn now (after later locks)."""
        seqs, change_ids = EventRepository(self.session).allocate_seqs_and_change_ids(
            len(read.seqs), len(read.change_ids)
        )
        return replace(read, seqs=seqs, change_ids=change_ids)

    def write(
        self,
        ladder_id: str,
        events: list[dict[str, Any]],
        seqs: Sequence[int],
        changes: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
        *,
        last: bool = False,
    ) -> None:
        """Insert ``events`` with their ``seqs`` and ``changes`` (rows carrying their ids),
        and write the ratings' new current state (as :meth:`RatingRepository.update_many`).

        ``last``: nothing follows in the transaction. If :meth:`open` began it, its COMMIT
        goes out with the writes, saving the commit's own round trip (the caller's commit
        then finds nothing to do); otherwise the caller commits as usual. A failed write
        skips the COMMIT: the pipeline stops at the first error, and the caller rolls back."""
        if not self.pipelined:
            history = EventRepository(self.session)
            history.insert_events_with_seqs(events, seqs)
            history.insert_changes_bulk(changes, copy_from=BULK_FROM_ROWS)
            RatingRepository(self.session).update_many(ladder_id, ratings)
            return
        events = [{**row, "seq": seq} for row, seq in zip(events, seqs, strict=True)]
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        with driver_errors(connection, _INSERT_CHANGES), driver.pipeline():
            if events:
                driver.execute(_INSERT_EVENTS, {"rows": dumps_bulk(events)})
            if changes:
                driver.execute(_INSERT_CHANGES, {"rows": dumps_bulk(changes)})
            for columns, rows in update_groups(ratings).items():
                driver.execute(
                    _driver_sql(json_update_statement(_DIALECT, columns)),
                    {"ladder_id": ladder_id, "rows": update_document(columns, rows)},
                )
            if last and self.began:
                driver.execute("COMMIT")
