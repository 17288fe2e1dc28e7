"""What a benchmark unit does first, in its own process at one checkout of the service: a
freshly migrated database, and a history imported as ``ratings import`` does. Shared by
``ab_history.py`` and ``late_games.py``; it uses only functions that both the old and the new
code being compared have (``migrate``, ``Database``, ``bulk.read`` / ``ensure_ladder`` /
``to_items`` / ``apply_in_chunks``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, text


def fresh_database(url: str, schema: str) -> Any:
    """A migrated database at ``url``; on PostgreSQL in ``schema``, dropped and recreated."""
    from app.cli import migrate
    from app.core.database import Database

    if url.startswith("postgresql"):
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        admin.dispose()
        url = f"{url}?options=-csearch_path%3D{schema}"
    migrate(url)
    return Database(url)


def import_history(db: Any, path: str, ladder: str) -> int:
    """Read, validate and apply a JSON Lines history; the events created."""
    from app.services import bulk

    try:
        from app.services.import_files import read
    except ImportError:  # a checkout from before reading moved out of bulk.py (2dd211d)
        read = bulk.read  # type: ignore[attr-defined]

    with open(path, encoding="utf-8") as stream:
        parsed = read(stream, "jsonl")
    bulk.ensure_ladder(db, ladder, parsed.header)
    items, errors = bulk.to_items(db, ladder, parsed)
    assert not errors, errors[:3]
    created, _existing = bulk.apply_in_chunks(db, [item for _, item in items])
    return int(created)
