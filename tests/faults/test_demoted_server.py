"""A pooled connection left on a server that no longer takes writes (a switchover demoted the
old primary to a standby; the URL's ``target_session_attrs=read-write`` is checked only when
connecting): its write is refused with SQLSTATE 25006. The pool drops that connection and
the transaction runs again on a fresh one; a server that stays read-only is a 503 with
Retry-After, never a 500 (issue 39, failover).

A session made read-only (``SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY``) stands for
the demoted server: it refuses writes with the same SQLSTATE.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from app.core.database import READ_ONLY_SQLSTATE, Database
from app.core.errors import Unavailable
from tests.load.helpers import postgres_base_url

pytestmark = pytest.mark.postgres


@pytest.fixture
def url() -> Iterator[str]:
    """A schema of its own holding one table ``t``; dropped at the end."""
    base = postgres_base_url()
    schema = f"ratings_demoted_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        connection.execute(text(f'CREATE TABLE "{schema}".t (n integer)'))
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def _insert(session: Session) -> int:
    session.execute(text("INSERT INTO t VALUES (1)"))
    return int(session.execute(text("SELECT count(*) FROM t")).scalar_one())


def test_a_connection_on_a_demoted_server_is_dropped_and_the_write_retried(url: str) -> None:
    database = Database(url, pool_size=1, max_overflow=0)
    try:
        first = database.run(lambda s: s.connection().connection.dbapi_connection, write=False)
        # The one pooled connection now refuses writes, as on a demoted primary.
        database.run(
            lambda s: s.execute(text("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")),
            write=False,
        )
        assert database.run(_insert) == 1  # on a fresh connection, not a 500
        second = database.run(lambda s: s.connection().connection.dbapi_connection, write=False)
        assert second is not first
    finally:
        database.dispose()


def test_a_server_that_stays_read_only_is_a_503(url: str) -> None:
    read_only = f"{url}%20-cdefault_transaction_read_only%3Don"
    database = Database(read_only, retries=3)
    try:
        with pytest.raises(Unavailable) as refused:
            database.run(_insert)
        assert refused.value.status == 503
        assert refused.value.headers["Retry-After"] == "2"
        cause = refused.value.__cause__
        assert getattr(getattr(cause, "orig", None), "sqlstate", None) == READ_ONLY_SQLSTATE
    finally:
        database.dispose()
