"""SQLite writers of every process take turns on one file lock (app.core.database)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from app.cli import migrate
from app.core.database import Database


def _lock_is_free(path: str) -> bool:
    """Whether another open file description (as another process has) could take the lock."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


@pytest.fixture
def sqlite_file(tmp_path: Path) -> str:
    path = tmp_path / "ratings.db"
    migrate(f"sqlite:///{path}")
    return str(path)


def test_a_write_transaction_holds_the_writers_lock_and_a_read_does_not(
    sqlite_file: str,
) -> None:
    db = Database(f"sqlite:///{sqlite_file}")
    lock_file = f"{sqlite_file}.writers"
    try:
        with db.session(write=True):
            assert not _lock_is_free(lock_file)
        assert _lock_is_free(lock_file)
        with db.session(write=False):
            assert _lock_is_free(lock_file)
        # A failed write releases it too.
        with pytest.raises(RuntimeError), db.session(write=True):
            raise RuntimeError("rolled back")
        assert _lock_is_free(lock_file)
    finally:
        db.dispose()
