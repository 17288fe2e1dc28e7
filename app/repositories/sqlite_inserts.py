"""Bulk INSERTs on SQLite: many rows per statement, optionally run by a thread of their own.

sqlite3's ``executemany`` binds and stores one row at a time. An INSERT of many rows
(``VALUES (…), (…), …``) binds them all in one call and then stores them in one
``sqlite3_step``, during which the driver releases the GIL. So a replay can rate its next
events in Python while SQLite stores the rows of the last ones in C, as a COPY lets
PostgreSQL do (measured on 50,000 elo games, 150,000 rows: ``executemany`` 2.63 s,
multi-row statements 2.07 s; the same statements in a thread beside a busy main thread left
the main thread 0.88 of a core, while ``executemany`` in a thread crawled, because every row
had to win the GIL back).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import AbstractContextManager
from typing import Any, cast

#: One statement's rows at most, whatever SQLite's variable limit allows: bigger statements
#: save nothing more and hold more parameters in memory at once.
MAX_ROWS_PER_STATEMENT = 2_000


def variable_limit(driver: sqlite3.Connection) -> int:
    """How many values one statement can bind on this connection."""
    return driver.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)


def rows_per_statement(variables: int, width: int) -> int:
    """How many rows of ``width`` values one statement binds, ``variables`` at most."""
    return max(1, min(MAX_ROWS_PER_STATEMENT, variables // width))


def statement_shape(statement: str) -> str:
    """A statement as errors and logs name it: a multi-row INSERT by its table and columns,
    not its thousands of placeholders; any other statement as it is."""
    head, values, _rows = statement.partition(" VALUES ")
    return head + " VALUES …" if values else statement


def insert_statements(
    table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], per_statement: int
) -> Iterator[tuple[str, list[Any]]]:
    """(statement, parameters) inserting ``rows`` (values in the order of ``columns``) in
    statements of ``per_statement`` rows (the last may hold fewer). Statements of as many
    rows have the same text, which the driver's statement cache prepares once."""
    head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    one = f"({', '.join('?' * len(columns))})"
    full = head + ", ".join([one] * per_statement)
    for begin in range(0, len(rows), per_statement):
        part = rows[begin : begin + per_statement]
        statement = full if len(part) == per_statement else head + ", ".join([one] * len(part))
        yield statement, [value for row in part for value in row]


class BackgroundInserts:
    """Statements run in order on ``driver`` by one thread while the caller goes on; a
    :meth:`query` among them is read there too, and its rows handed back.

    The caller must not use the connection between :meth:`submit` and :meth:`wait`, which
    returns once every statement submitted ran and raises the first failure's driver error
    inside ``errors(statement)`` (the caller's translation of driver errors, run in the
    caller's thread). After a failure the statements still queued are skipped: the
    caller's transaction is going to roll back. So is any statement that would run outside
    a transaction (after the caller rolled back without waiting, say, interrupted): on a
    connection that issues its own BEGIN it would be committed on its own. :meth:`close`
    ends the thread. ``variables``: the connection's bound-variable limit, read before the
    thread starts.
    """

    def __init__(
        self,
        driver: sqlite3.Connection,
        errors: Callable[[str], AbstractContextManager[None]],
    ) -> None:
        self._driver = driver
        self._errors = errors
        self.variables = variable_limit(driver)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-inserts")
        self._pending: list[Future[list[Any] | None]] = []
        self._failed = threading.Event()

    def submit(self, statement: str, parameters: Sequence[Any]) -> None:
        self._pending.append(self._executor.submit(self._run, statement, parameters, False))

    def query(self, statement: str, parameters: Sequence[Any]) -> Callable[[], list[Any]]:
        """Run ``statement`` after what is queued; returns a function that waits for its
        rows (raising as :meth:`wait` does). The caller goes on meanwhile."""
        future: Future[list[Any] | None] = self._executor.submit(
            self._run, statement, parameters, True
        )
        self._pending.append(future)

        def rows() -> list[Any]:
            wait([future])
            failure = future.exception()
            if failure is None:
                return cast(list[Any], future.result())
            self.wait()  # the first failure, translated: this one or what made it be skipped
            raise failure

        return rows

    def _run(self, statement: str, parameters: Sequence[Any], fetch: bool) -> list[Any] | None:
        if self._failed.is_set() or not self._driver.in_transaction:
            if fetch:  # a reader needs an answer; a skipped write needs none
                raise _Skipped(statement_shape(statement))
            return None
        try:
            cursor = self._driver.cursor()
            try:
                cursor.execute(statement, parameters)
                return cursor.fetchall() if fetch else None
            finally:
                cursor.close()
        except BaseException as error:
            self._failed.set()
            raise _Failed(statement) from error

    def wait(self) -> None:
        """Return once every submitted statement ran (or was skipped after a failure)."""
        wait(self._pending)  # interrupted, they stay pending: close() waits for them again
        pending, self._pending = self._pending, []
        for future in pending:
            failure = future.exception()
            if isinstance(failure, _Failed):
                with self._errors(failure.statement):
                    raise failure.__cause__ or failure
            if failure is not None:
                raise failure

    def close(self, *, discard: bool = False) -> None:
        """End the thread once it is idle; ``discard``: skip what is still queued."""
        if discard:
            self._failed.set()
        try:
            wait(self._pending)
        finally:
            self._pending = []
            self._executor.shutdown(wait=True)


class _Skipped(Exception):
    """A query the thread did not run: an earlier statement failed, or the caller's
    transaction ended."""


class _Failed(Exception):
    """A background statement failed; the driver's error is the cause."""

    def __init__(self, statement: str) -> None:
        self.statement = statement_shape(statement)
        super().__init__(self.statement)
