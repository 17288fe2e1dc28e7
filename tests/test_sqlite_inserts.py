"""SQLite's bulk INSERTs: many rows per statement, stored by a thread of their own while a
replay goes on (``app.repositories.sqlite_inserts``, ``ChangeStream`` on SQLite)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.database import Database
from app.repositories import events as event_repository
from app.repositories.events import CHANGE_COLUMNS, EventRepository
from app.repositories.sqlite_inserts import BackgroundInserts, insert_statements


def test_rows_are_split_into_statements_of_at_most_the_given_size() -> None:
    rows = [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e")]
    statements = list(insert_statements("t", ("n", "s"), rows, 2))
    assert statements == [
        ("INSERT INTO t (n, s) VALUES (?, ?), (?, ?)", [1, "a", 2, "b"]),
        ("INSERT INTO t (n, s) VALUES (?, ?), (?, ?)", [3, "c", 4, "d"]),
        ("INSERT INTO t (n, s) VALUES (?, ?)", [5, "e"]),
    ]


class _Translated(Exception):
    """What the test's error translation turns a driver error into."""


@contextmanager
def _translate(statement: str) -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as error:
        raise _Translated(statement, threading.current_thread().name) from error


@pytest.fixture
def memory() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    connection.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, s TEXT)")
    yield connection
    connection.close()


def test_background_statements_run_in_order_off_the_callers_thread(
    memory: sqlite3.Connection,
) -> None:
    ran_in: list[str] = []
    memory.set_trace_callback(lambda _sql: ran_in.append(threading.current_thread().name))
    background = BackgroundInserts(memory, _translate)
    for statement, parameters in insert_statements("t", ("n", "s"), [(1, "a"), (2, "b")], 1):
        background.submit(statement, parameters)
    # The second statement replaces nothing: it must run after the first.
    background.submit("UPDATE t SET s = s || '!' WHERE n = ?", [1])
    background.wait()
    background.close()
    memory.set_trace_callback(None)
    assert memory.execute("SELECT n, s FROM t ORDER BY n").fetchall() == [(1, "a!"), (2, "b")]
    assert ran_in
    assert threading.current_thread().name not in ran_in


def test_a_failed_statement_is_raised_by_wait_and_skips_the_rest(
    memory: sqlite3.Connection,
) -> None:
    background = BackgroundInserts(memory, _translate)
    background.submit("INSERT INTO t (n, s) VALUES (?, ?)", [1, "a"])
    background.submit("INSERT INTO t (n, s) VALUES (?, ?), (?, ?)", [2, "b", 1, "again"])
    background.submit("INSERT INTO t (n, s) VALUES (?, ?)", [3, "c"])
    with pytest.raises(_Translated) as raised:
        background.wait()
    # Translated in the caller's thread, with the failed statement's shape.
    statement, thread = raised.value.args
    assert statement.startswith("INSERT INTO t (n, s) VALUES")
    assert thread == threading.current_thread().name
    assert isinstance(raised.value.__cause__, sqlite3.IntegrityError)
    background.close()
    assert memory.execute("SELECT n FROM t ORDER BY n").fetchall() == [(1,)]


def _change_row(change_id: int, event_seq: int) -> tuple[Any, ...]:
    values: dict[str, Any] = dict.fromkeys(CHANGE_COLUMNS)
    values.update(
        id=change_id,
        ladder_id="nowhere",
        event_seq=event_seq,
        player=f"p{change_id}",
        faction="",
        position=0,
        occurred_at=datetime(2026, 1, 1, tzinfo=UTC),
        seq=event_seq,
        rating_before=1500.0,
        rating_after=1516.0,
        state_after={"rating": 1516.0},
        details={},
    )
    return tuple(values[column] for column in CHANGE_COLUMNS)


def _stored_changes(db: Database) -> int:
    def count(session: Session) -> int:
        query = text("SELECT count(*) FROM changes WHERE ladder_id = 'nowhere'")
        return int(session.execute(query).scalar_one())

    return db.run(count, write=False)


def test_a_change_stream_batch_failing_in_the_thread_is_an_integrity_error(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Change rows naming no stored event break the foreign key: the thread's error comes
    out of the stream as SQLAlchemy's IntegrityError (a lost race to retry elsewhere in the
    service), nothing is stored, and the pooled connection serves the next transaction."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    submitted: list[str] = []
    submit = BackgroundInserts.submit

    def counted(background: BackgroundInserts, statement: str, parameters: list[Any]) -> None:
        submitted.append(statement)
        submit(background, statement, parameters)

    monkeypatch.setattr(BackgroundInserts, "submit", counted)
    try:

        def work(session: Session) -> None:
            with EventRepository(session).change_stream() as stream:
                stream.batch = 2
                stream.write([_change_row(1, 1), _change_row(2, 1)])
                stream.write([_change_row(3, 2)])

        with pytest.raises(IntegrityError):
            db.run(work)
        assert submitted, "the batch did not go to the thread"
        assert _stored_changes(db) == 0
    finally:
        db.dispose()


def test_an_error_in_the_replay_waits_for_the_thread_and_stores_nothing(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caller fails while the thread still holds a batch (here one that would fail
    too): the transaction rolls back once the thread let go of the connection, the caller's
    error is the one raised, and the connection serves the next transaction."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    monkeypatch.setattr(event_repository, "SQLITE_STREAM_BATCH", 1)
    try:

        def work(session: Session) -> None:
            with EventRepository(session).change_stream() as stream:
                stream.write([_change_row(1, 1)])
                raise ArithmeticError("the engine failed")

        with pytest.raises(ArithmeticError, match="the engine failed"):
            db.run(work)
        assert _stored_changes(db) == 0
    finally:
        db.dispose()
