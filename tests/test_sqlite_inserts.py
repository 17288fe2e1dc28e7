"""SQLite's bulk INSERTs: many rows per statement, stored by a thread of their own while a
replay goes on (``app.repositories.sqlite_inserts``, ``ChangeStream`` on SQLite)."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import Ladder
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
    connection.execute("BEGIN")  # the thread runs statements only inside a transaction
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
    # The UPDATE finds its row only if it runs after the INSERTs.
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


def test_no_statement_runs_outside_a_transaction(memory: sqlite3.Connection) -> None:
    """Run after the caller's rollback, an INSERT would commit on its own: it is skipped."""
    memory.execute("ROLLBACK")
    background = BackgroundInserts(memory, _translate)
    background.submit("INSERT INTO t (n, s) VALUES (?, ?)", [1, "a"])
    background.wait()
    background.close()
    assert memory.execute("SELECT count(*) FROM t").fetchone() == (0,)


def test_a_query_reads_after_the_statements_queued_before_it(
    memory: sqlite3.Connection,
) -> None:
    background = BackgroundInserts(memory, _translate)
    background.submit("INSERT INTO t (n, s) VALUES (?, ?), (?, ?)", [1, "a", 2, "b"])
    rows = background.query("SELECT n, s FROM t WHERE n >= ? ORDER BY n", [2])
    background.submit("INSERT INTO t (n, s) VALUES (?, ?)", [3, "c"])
    assert rows() == [(2, "b")]
    background.wait()
    background.close()


def test_a_query_after_a_failed_statement_raises_that_failure(
    memory: sqlite3.Connection,
) -> None:
    """The query is skipped, and asking for its rows raises the statement's error."""
    background = BackgroundInserts(memory, _translate)
    background.submit("INSERT INTO t (n, s) VALUES (?, ?), (?, ?)", [1, "a", 1, "again"])
    rows = background.query("SELECT n FROM t", [])
    with pytest.raises(_Translated) as raised:
        rows()
    assert raised.value.args[0].startswith("INSERT INTO t (n, s) VALUES")
    assert isinstance(raised.value.__cause__, sqlite3.IntegrityError)
    background.close()


def test_a_failed_query_raises_its_own_error(memory: sqlite3.Connection) -> None:
    background = BackgroundInserts(memory, _translate)
    rows = background.query("SELECT missing FROM t", [])
    with pytest.raises(_Translated) as raised:
        rows()
    assert raised.value.args[0] == "SELECT missing FROM t"
    assert isinstance(raised.value.__cause__, sqlite3.OperationalError)
    background.close()


STAMP = datetime(2026, 1, 1, tzinfo=UTC)


def _change_row(change_id: int, ladder: str, event_seq: int) -> tuple[Any, ...]:
    values: dict[str, Any] = dict.fromkeys(CHANGE_COLUMNS)
    values.update(
        id=change_id,
        ladder_id=ladder,
        event_seq=event_seq,
        player=f"p{change_id}",
        faction="",
        position=0,
        occurred_at=STAMP,
        seq=event_seq,
        rating_before=1500.0,
        rating_after=1516.0,
        state_after={"rating": 1516.0},
        details={},
    )
    return tuple(values[column] for column in CHANGE_COLUMNS)


def _count(db: Database, sql: str) -> int:
    def count(session: Session) -> int:
        return int(session.execute(text(sql)).scalar_one())

    return db.run(count, write=False)


def test_a_change_stream_batch_failing_in_the_thread_is_an_integrity_error(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Change rows naming no stored event break the foreign key. Written as one batch, they
    fail in the thread only, and its error comes out of the stream as SQLAlchemy's
    IntegrityError (what the synchronous path raises), with nothing stored; the pooled
    connection then serves the next transaction."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    submitted: list[str] = []
    submit = BackgroundInserts.submit

    def counted(background: BackgroundInserts, statement: str, parameters: list[Any]) -> None:
        submitted.append(statement)
        submit(background, statement, parameters)

    monkeypatch.setattr(BackgroundInserts, "submit", counted)
    monkeypatch.setattr(event_repository, "SQLITE_STREAM_BATCH", 2)
    try:

        def work(session: Session) -> None:
            with EventRepository(session).change_stream() as stream:
                stream.write([_change_row(1, "nowhere", 1), _change_row(2, "nowhere", 1)])
                assert not stream.pending  # the whole batch went to the thread

        with pytest.raises(IntegrityError) as raised:
            db.run(work)
        assert (
            raised.value.statement == f"INSERT INTO changes ({', '.join(CHANGE_COLUMNS)}) VALUES …"
        )
        assert len(submitted) == 1
        assert _count(db, "SELECT count(*) FROM changes WHERE ladder_id = 'nowhere'") == 0
    finally:
        db.dispose()


def test_a_synchronous_bulk_insert_names_its_statement_by_shape(sqlite_url: str) -> None:
    """Rows below a batch are inserted at the pause, in the caller's thread; a failure there
    names the statement by table and columns, as the thread's does, not by its thousands
    of placeholders."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    try:

        def work(session: Session) -> None:
            with EventRepository(session).change_stream() as stream:
                stream.write([_change_row(1, "nowhere", 1), _change_row(2, "nowhere", 1)])
                assert stream.pending  # below a batch: nothing went to the thread

        with pytest.raises(IntegrityError) as raised:
            db.run(work)
        assert (
            raised.value.statement == f"INSERT INTO changes ({', '.join(CHANGE_COLUMNS)}) VALUES …"
        )
    finally:
        db.dispose()


def test_an_error_in_the_replay_waits_for_the_thread_and_stores_nothing(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caller fails while the thread is still storing events of a stored ladder (rows
    that would be accepted on their own): the caller's error is the one raised, and none of
    them is stored, neither in the rolled-back transaction nor after it."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    ladder = f"slow-{uuid.uuid4().hex}"

    def create(session: Session) -> None:
        session.add(
            Ladder(id=ladder, system="elo", params={}, state={}, created_at=STAMP, updated_at=STAMP)
        )

    slow_start = threading.Event()
    run = BackgroundInserts._run

    def slow(
        background: BackgroundInserts, statement: str, parameters: list[Any], fetch: bool
    ) -> list[Any] | None:
        slow_start.set()
        time.sleep(SLOW_STATEMENT_S)  # the caller fails meanwhile
        return run(background, statement, parameters, fetch)

    monkeypatch.setattr(BackgroundInserts, "_run", slow)
    event = {
        "seq": _UNUSED_ID, "ladder_id": ladder, "kind": "game", "external_id": "g",
        "occurred_at": STAMP, "body": {}, "body_hash": "0" * 64, "rated": True,
        "tournament": None, "created_at": STAMP,
    }  # fmt: skip
    try:
        db.run(create)

        def work(session: Session) -> None:
            with EventRepository(session).change_stream() as stream:
                stream.lead_events([event])
                assert slow_start.wait(SLOW_STATEMENT_S)
                raise ArithmeticError("the engine failed")

        with pytest.raises(ArithmeticError, match="the engine failed"):
            db.run(work)
        time.sleep(SLOW_STATEMENT_S)  # a statement let loose would have run by now
        assert _count(db, f"SELECT count(*) FROM events WHERE ladder_id = '{ladder}'") == 0
    finally:
        db.dispose()


#: An event seq no other test's rows reach (the test database is shared by the session).
_UNUSED_ID = 2**40
#: Long enough for the caller to fail while the thread holds a statement.
SLOW_STATEMENT_S = 0.3


def test_pages_read_beside_a_stream_equal_pages_read_directly(database: Database) -> None:
    """The live events at or after a time, in (time, seq) order, voided ones left out: read
    by the stream's thread on SQLite (ahead of the caller), after a pause on PostgreSQL, and
    directly, in pages of three that split runs of equal times."""
    ladder = f"pages-{uuid.uuid4().hex}"

    def create(session: Session) -> None:
        session.add(
            Ladder(id=ladder, system="elo", params={}, state={}, created_at=STAMP, updated_at=STAMP)
        )
        session.flush()
        minutes = [5, 1, 3, 3, 3, 0, 7, 3, 9, 2]  # arrival order differs from time order
        rows = [
            {
                "ladder_id": ladder,
                "kind": "game",
                "external_id": f"g{index}",
                "occurred_at": STAMP.replace(minute=minute),
                "body": {"n": index},
                "body_hash": "0" * 64,
                "rated": index % 3 != 0,
                "tournament": None,
                "created_at": STAMP,
            }
            for index, minute in enumerate(minutes)
        ]
        seqs = EventRepository(session).insert_many(rows)
        session.execute(
            text("UPDATE events SET voided_at = :at WHERE seq = :seq"),
            {"at": STAMP.replace(tzinfo=None), "seq": seqs[4]},
        )

    def read(session: Session) -> tuple[list[list[Any]], list[list[Any]]]:
        events = EventRepository(session)
        start = STAMP.replace(minute=2)
        direct = [[tuple(row) for row in page] for page in events.live_rows(ladder, start, 3)]
        with events.change_stream() as stream:
            beside = [
                [tuple(row) for row in page]
                for page in events.live_rows(ladder, start, 3, beside=stream)
            ]
        return direct, beside

    database.run(create)
    direct, beside = database.run(read)
    assert beside == direct
    # By hand: minutes >= 2 are g0 (5), g2 g3 g4 g7 (3), g6 (7), g8 (9), g9 (2); g4 voided.
    assert [row[4]["n"] for page in direct for row in page] == [9, 2, 3, 7, 0, 6, 8]
    assert [len(page) for page in direct] == [3, 3, 1]
    assert all(isinstance(row[2], datetime) and row[2].tzinfo is not None for row in direct[0])
    assert [row[3] for row in direct[0]] == [False, True, False]  # rated unless n % 3 == 0


def test_a_replay_draws_following_ids_without_a_query_only_on_sqlite(
    database: Database,
) -> None:
    def draw(session: Session) -> tuple[list[int] | None, list[int], list[int] | None]:
        events = EventRepository(session)
        before = events.following_change_ids(2)  # nothing allocated yet: unknown
        first = events.allocate_change_ids(3)
        return before, first, events.following_change_ids(2)

    before, first, following = database.run(draw)
    assert before is None
    if database.is_sqlite:
        assert following == [first[-1] + 1, first[-1] + 2]
    else:
        assert following is None
