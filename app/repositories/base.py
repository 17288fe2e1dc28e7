"""Helpers shared by the repositories."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select


def sqlite_time(value: datetime | None) -> str | None:
    """SQLAlchemy's SQLite DATETIME text of a UTC time (app/models/base.py's ``UTCDateTime``
    stores UTC, naive), for the writes that go to the driver themselves."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def is_postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def insert_ignoring_conflicts(session: Session, table: Any, rows: list[dict[str, Any]]) -> None:
    """INSERT ... ON CONFLICT DO NOTHING on either database."""
    if not rows:
        return
    dialect_insert = postgresql.insert if is_postgres(session) else sqlite.insert
    session.execute(dialect_insert(table).on_conflict_do_nothing(), rows)


def lock(session: Session, statement: Select[Any], *, exclusive: bool = True) -> Select[Any]:
    """Row locks on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises writers."""
    if not is_postgres(session):
        return statement
    return statement.with_for_update(read=not exclusive)


@contextmanager
def driver_errors(connection: Connection, statement: str) -> Iterator[None]:
    """Raise what the driver raises under SQLAlchemy (a COPY, a raw executemany) as
    SQLAlchemy would: an IntegrityError is a lost race to retry, a deadlock or a dropped
    connection a transient failure, whichever way the statement was sent."""
    dialect = connection.dialect
    driver_error: Any = dialect.loaded_dbapi.Error
    try:
        yield
    except driver_error as exc:
        disconnected = dialect.is_disconnect(exc, connection.connection.dbapi_connection, None)
        if disconnected:
            connection.invalidate(exc)
        raise DBAPIError.instance(
            statement, None, exc, driver_error, connection_invalidated=disconnected
        ) from exc
