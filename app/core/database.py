"""Database engine and transactions, for SQLite (embedded) and PostgreSQL (production).

Writers on SQLite take the write lock up front (``BEGIN IMMEDIATE``) so that two writers never
both read and then fail to upgrade; PostgreSQL writers lock rows in a fixed order instead.
Transient failures (deadlocks, serialization failures, lost connections, SQLite's busy lock,
a unique-key race lost to a concurrent writer) are retried by :meth:`Database.run`, the one
transaction runner; what still fails becomes a 503 with Retry-After.
"""

from __future__ import annotations

import fcntl
import logging
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import URL, Connection, Engine, ExceptionContext, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from app.core import metrics
from app.core.errors import StorageFull, Unavailable
from app.core.shutdown import COMMITS, written

log = logging.getLogger(__name__)

T = TypeVar("T")

#: PostgreSQL SQLSTATEs worth retrying: serialization failure, deadlock, lock timeout.
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
#: First back-off between attempts (seconds); doubles each attempt, with jitter.
RETRY_BASE_DELAY = 0.005
RETRY_MAX_DELAY = 0.5
#: How long a transaction waits for a free pooled connection (SQLAlchemy's default); then
#: it is a 503.
POOL_TIMEOUT_SECONDS = 30.0
#: SQLite's connection pool: writes serialize on the file lock anyway.
SQLITE_POOL_SIZE = 8
#: Page size of a SQLite file this service creates (an existing file keeps its own): a
#: change row with its details runs to 1-1.5 KB (Glicko-2), of which a 4 KiB page holds only
#: two, so every rewrite of a history moved a third more bytes through the WAL.
SQLITE_PAGE_SIZE = 8192
#: Each SQLite connection's page cache, in KiB (SQLite's default is 2,000): a recomputation
#: deletes and rewrites a ladder's changes in one transaction, and with the default the
#: indexes' pages were spilled to the WAL and read back many times over. Bounds the memory
#: of a process at about SQLITE_POOL_SIZE times this.
SQLITE_CACHE_KIB = 16_384
#: How often a write that lost a unique-key race (the same id stored by another replica, two
#: writers extending the same rating) runs again: the next run sees the winner's row.
INTEGRITY_RETRIES = 5


class RaceLost(Exception):
    """Raised by a transaction's work that found a concurrent transaction got there first (a
    rate-limit window counted past its limit meanwhile): :meth:`Database.run` rolls it back and
    runs it again, as it does a write that lost a unique-key race."""


class SqliteWriterQueue:
    """Writers of every process take turns on one file lock before ``BEGIN IMMEDIATE``.

    SQLite's own busy handler polls with sleeps of up to 100 ms, so a process that writes
    back to back (a group-commit writer under load) starves the others for seconds; the
    blocked ``flock`` wakes its waiter as soon as the lock is released.
    """

    def __init__(self, database_path: str) -> None:
        self.path = f"{database_path}.writers"
        self._in_process = threading.Lock()
        self._fd: int | None = None

    @contextmanager
    def turn(self) -> Iterator[None]:
        with self._in_process:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


#: How long a heavy read waits for the replica to replay what the primary had committed when
#: the read began, before it runs on the primary instead (seconds), and how often it looks.
REPLICA_CATCH_UP_SECONDS = 1.0
REPLICA_POLL_SECONDS = 0.01
#: Whether the replica is a standby, and whether it has replayed up to the fence.
CAUGHT_UP = text(
    "SELECT pg_is_in_recovery(), "
    "coalesce(pg_last_wal_replay_lsn() >= CAST(:fence AS pg_lsn), false)"
)

#: PostgreSQL's disk_full (class 53, insufficient resources): a table or index could not be
#: extended. SQLite's is its result code SQLITE_FULL, "database or disk is full".
DISK_FULL_SQLSTATE = "53100"
STORAGE_FULL = "the database's storage is full; nothing was written; retry later"


def is_disk_full(exc: DBAPIError) -> bool:
    """The database could not write for want of space (never worth an immediate retry)."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == DISK_FULL_SQLSTATE:
        return True
    code = getattr(orig, "sqlite_errorcode", None)
    return isinstance(orig, sqlite3.Error) and code == sqlite3.SQLITE_FULL


def _is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return True
        orig = exc.orig
        sqlstate = getattr(orig, "sqlstate", None)
        if sqlstate in RETRYABLE_SQLSTATES:
            return True
        if isinstance(orig, sqlite3.OperationalError) and "locked" in str(orig):
            return True
    return False


#: Seconds a PostgreSQL connection attempt may take (libpq's connect_timeout) unless the URL
#: sets its own: without it, a host that drops packets holds a request, /readyz or
#: ``ratings migrate`` for the system's TCP timeout (minutes).
CONNECT_TIMEOUT_SECONDS = 10


def postgres_connect_args(url: URL) -> dict[str, Any]:
    """What a PostgreSQL engine connects with: a bounded connection attempt."""
    if "connect_timeout" in url.query:
        return {}
    return {"connect_timeout": CONNECT_TIMEOUT_SECONDS}


#: The port a URL without one connects to, by backend.
DEFAULT_PORTS: dict[str, int | str] = {"postgresql": 5432}


def where(url: str | URL) -> str:
    """Where a URL points, as an operator reads it: host and port, or the SQLite file; never
    the password."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return f"the SQLite database {parsed.database or ':memory:'}"
    port = parsed.port or DEFAULT_PORTS.get(backend, "?")
    hosts = parsed.query.get("host")
    if parsed.host is None and hosts:
        # Several hosts (a primary and its standbys, ?host=a:5432&host=b:5432): libpq tries
        # each in turn.
        listed = [hosts] if isinstance(hosts, str) else list(hosts)
        named = ", ".join(h if ":" in h else f"{h}:{port}" for h in listed)
        return f"{backend} at {named} (database {parsed.database!r})"
    return f"{backend} at {parsed.host or 'localhost'}:{port} (database {parsed.database!r})"


def unreachable(url: str | URL, exc: BaseException) -> str | None:
    """One line saying that the database at ``url`` cannot be reached and why, when ``exc``
    means that (a failed connection, not a failed statement); None otherwise."""
    if not _is_unavailable(exc):
        return None
    if isinstance(getattr(exc, "orig", None), sqlite3.OperationalError) and (
        "unable to open" not in str(exc)
    ):
        return None  # a statement refused by a file that opened ("table ... exists")
    reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
    return f"cannot reach {where(url)}: {reason}"


#: PostgreSQL's undefined_table.
UNDEFINED_TABLE = "42P01"


def is_schema_missing(exc: DBAPIError) -> bool:
    """A table of the service is missing: the database was never migrated, or is behind."""
    orig = exc.orig
    if isinstance(orig, sqlite3.OperationalError):
        return str(orig).startswith("no such table")
    return getattr(orig, "sqlstate", None) == UNDEFINED_TABLE


def _is_unavailable(exc: BaseException) -> bool:
    """The database cannot be reached (as opposed to a statement failing)."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, OperationalError):
        sqlstate = getattr(exc.orig, "sqlstate", None)
        return sqlstate is None or str(sqlstate).startswith(("08", "57P"))
    return False


class Database:
    """Owns the SQLAlchemy engine for the process (created in the app's lifespan)."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 10,
        max_overflow: int = 10,
        busy_timeout: float = 30.0,
        retries: int = 8,
        pool_timeout: float = POOL_TIMEOUT_SECONDS,
        read_url: str | None = None,
    ) -> None:
        self.url = make_url(url)
        self.retries = retries
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self._writers: SqliteWriterQueue | None = None
        if self.is_sqlite:
            database = self.url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
                self._writers = SqliteWriterQueue(database)
            self.engine: Engine = create_engine(
                self.url,
                pool_size=SQLITE_POOL_SIZE,
                max_overflow=0,
                pool_timeout=pool_timeout,
                connect_args={"timeout": busy_timeout, "check_same_thread": False},
            )
            _configure_sqlite(self.engine, busy_timeout)
        else:
            self.engine = create_engine(
                self.url,
                pool_size=pool_size,
                max_overflow=max_overflow,
                pool_timeout=pool_timeout,
                # No pre-ping: a connection that died (a PostgreSQL restart) fails its first
                # statement, is invalidated, and run() retries on a fresh one; pinging every
                # checkout would cost a round trip per transaction.
                pool_pre_ping=False,
                pool_recycle=1800,
                connect_args=postgres_connect_args(self.url),
            )
            _configure_postgres(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: A hot standby for heavy reads (RATINGS_READ_DATABASE_URL), if any.
        self.replica: Engine | None = None
        if read_url:
            if self.is_sqlite:
                raise ValueError("a read replica (RATINGS_READ_DATABASE_URL) needs PostgreSQL")
            replica_url = make_url(read_url)
            self.replica = create_engine(
                replica_url,
                pool_size=pool_size,
                max_overflow=max_overflow,
                pool_timeout=pool_timeout,
                pool_pre_ping=False,
                pool_recycle=1800,
                connect_args=postgres_connect_args(replica_url),
            )
            _configure_postgres(self.replica)
            self._replica_sessions = sessionmaker(self.replica, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self, *, write: bool, heavy: bool = False) -> Iterator[Session]:
        """One transaction: committed on success, rolled back on any exception. ``heavy``: a
        heavy read, served by the replica when it has caught up (:meth:`_on_replica`)."""
        if write and self._writers is not None:
            with self._writers.turn():
                yield from self._transaction(write=True)
            return
        if heavy and not write:
            replica = self._on_replica()
            metrics.HEAVY_READS.labels("primary" if replica is None else "replica").inc()
            if replica is not None:
                with replica as session:
                    try:
                        yield session
                        session.commit()
                    except BaseException:
                        session.rollback()
                        raise
                return
        yield from self._transaction(write=write)

    def _on_replica(self) -> Session | None:
        """A transaction on the replica that sees every write the primary had committed when
        it was asked for, or None (then the read runs on the primary).

        The primary's current WAL position is the fence: the replica serves the read once it
        has replayed that far, waited for up to :data:`REPLICA_CATCH_UP_SECONDS`. A replica
        further behind, one that is no longer a standby (promoted: it may have parted from
        this primary) or one that does not answer is passed over."""
        if self.replica is None:
            return None
        with self.engine.connect() as primary:
            fence = primary.exec_driver_sql("SELECT pg_current_wal_lsn()::text").scalar_one()
        session = self._replica_sessions()
        deadline = time.monotonic() + REPLICA_CATCH_UP_SECONDS
        try:
            while True:
                standby, caught_up = session.execute(CAUGHT_UP, {"fence": fence}).one()
                if not standby:
                    break
                if caught_up:
                    return session
                if time.monotonic() >= deadline:
                    break
                session.rollback()  # a new snapshot for the next look
                time.sleep(REPLICA_POLL_SECONDS)
        except DBAPIError as exc:
            log.warning("the read replica does not answer", extra={"error": str(exc.orig)})
        session.close()
        return None

    def _transaction(self, *, write: bool) -> Iterator[Session]:
        options: dict[str, Any] = {"ratings_write": True} if write else {}
        with self._sessions() as session:
            session.connection(execution_options=options)
            try:
                yield session
                if write:
                    # Closed at shutdown (app/core/shutdown.py): a write whose request is
                    # answered 503 then is rolled back, never committed after the answer.
                    with COMMITS.commit():
                        session.commit()
                        written()
                else:
                    session.commit()
            except BaseException:
                session.rollback()
                raise

    def run(self, work: Callable[[Session], T], *, write: bool = True, heavy: bool = False) -> T:
        """Run ``work`` in a transaction: the one place that retries. Transient failures run
        it again with back-off, and so does a write that lost a race (a unique key taken by a
        concurrent writer, :class:`RaceLost`): the next run sees the winner's rows."""
        delay = RETRY_BASE_DELAY
        transient = races = 0
        while True:
            try:
                with self.session(write=write, heavy=heavy) as session:
                    return work(session)
            except (IntegrityError, RaceLost):
                if not write:
                    raise
                races += 1
            except PoolTimeout as exc:
                metrics.DB_ERRORS.labels("PoolTimeout").inc()
                raise Unavailable("no database connection is free; retry") from exc
            except DBAPIError as exc:
                metrics.DB_ERRORS.labels(type(exc.orig).__name__).inc()
                if is_disk_full(exc):
                    # Rolled back whole (the session's rollback above); an operator must act.
                    log.warning(STORAGE_FULL, extra={"error": " ".join(str(exc.orig).split())})
                    raise StorageFull(STORAGE_FULL) from exc
                if is_schema_missing(exc):
                    # Not transient: retrying only delayed a misleading "busy or unreachable".
                    raise Unavailable(
                        "the database has no tables of this service (or an older schema): "
                        "run `ratings migrate`"
                    ) from exc
                if not _is_retryable(exc) and not _is_unavailable(exc):
                    raise
                metrics.DB_RETRIES.inc()
                transient += 1
                if transient >= self.retries:
                    log.warning("transaction failed after retries", extra={"error": str(exc)})
                    raise Unavailable("the database is busy or unreachable; retry") from exc
                time.sleep(delay * (1 + random.random()))
                delay = min(delay * 2, RETRY_MAX_DELAY)
                continue
            if races >= INTEGRITY_RETRIES:
                raise Unavailable("the write kept conflicting with concurrent writes; retry")

    def observe_pool(self) -> None:
        """Publish this process's pool usage to the metrics."""
        pool = self.engine.pool
        checked_out = getattr(pool, "checkedout", None)
        size = getattr(pool, "size", None)
        if callable(checked_out):
            metrics.POOL_IN_USE.set(checked_out())
        if callable(size):
            metrics.POOL_SIZE.set(size())

    def ping(self) -> bool:
        # Twice: the first attempt may draw a pooled connection that died with a restart.
        for _attempt in range(2):
            try:
                with self.engine.connect() as connection:
                    connection.exec_driver_sql("SELECT 1")
                return True
            except DBAPIError:
                continue
            except PoolTimeout:  # every connection is busy: not ready for more requests
                return False
        return False

    def dispose(self) -> None:
        self.engine.dispose()
        if self.replica is not None:
            self.replica.dispose()
        if self._writers is not None:
            self._writers.close()


def sqlite_page_size(dbapi_connection: Any) -> None:
    """Give a SQLite file not created yet :data:`SQLITE_PAGE_SIZE` (ignored by an existing
    one). Must run before anything writes the file, WAL mode included; the migrations'
    engine runs it too, since it usually creates the file."""
    dbapi_connection.execute(f"PRAGMA page_size={SQLITE_PAGE_SIZE}")


#: PostgreSQL's read_only_sql_transaction: a write on a server that no longer takes writes.
READ_ONLY_SQLSTATE = "25006"


def _configure_postgres(engine: Engine) -> None:
    @event.listens_for(engine, "handle_error")
    def on_error(context: ExceptionContext) -> None:
        # A pooled connection to a server that is now a standby (a switchover demoted it; the
        # URL's target_session_attrs=read-write is only checked when connecting) refuses
        # every write: treated as a lost connection, the pool drops it (and the connections
        # opened before it) and run() retries on a fresh one, which libpq opens to the
        # primary, wherever it now is.
        if getattr(context.original_exception, "sqlstate", None) == READ_ONLY_SQLSTATE:
            context.is_disconnect = True


def _configure_sqlite(engine: Engine, busy_timeout: float) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # We issue BEGIN ourselves (below), so pysqlite must not.
        dbapi_connection.isolation_level = None
        sqlite_page_size(dbapi_connection)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        cursor.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("ratings_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
