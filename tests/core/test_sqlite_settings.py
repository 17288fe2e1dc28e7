"""What a SQLite connection of the service is set to (app.core.database): the page size of a
file it creates, its page cache, and durability as it was (WAL, synchronous NORMAL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.cli import migrate
from app.core.database import Database


def _pragmas(db: Database) -> dict[str, object]:
    with db.engine.connect() as connection:
        return {
            name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("page_size", "cache_size", "journal_mode", "synchronous", "foreign_keys")
        }


def test_a_migrated_file_has_8_kib_pages_and_connections_keep_durability(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ratings.db'}"
    migrate(url)
    db = Database(url)
    try:
        # synchronous: 1 is NORMAL (sqlite.org/pragma.html#pragma_synchronous); a negative
        # cache_size is in KiB.
        assert _pragmas(db) == {
            "page_size": 8192,
            "cache_size": -16384,
            "journal_mode": "wal",
            "synchronous": 1,
            "foreign_keys": 1,
        }
    finally:
        db.dispose()


def test_an_existing_file_keeps_its_page_size(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as created:
        created.execute("PRAGMA page_size=4096")
        created.execute("CREATE TABLE t (x INTEGER)")
        created.execute("INSERT INTO t VALUES (1)")
    db = Database(f"sqlite:///{path}")
    try:
        assert _pragmas(db)["page_size"] == 4096
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT x FROM t").scalar() == 1
    finally:
        db.dispose()
