"""SQL for the change feed: each ladder's items, in cursor order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from app.models import FeedItem, Ladder
from app.repositories.base import driver_errors, is_postgres, sqlite_time

#: PostgreSQL: the ladder's next cursors taken and its items written in one statement.
_APPEND = text(
    "WITH taken AS (UPDATE ladders SET feed_cursor = feed_cursor + :n WHERE id = :ladder "
    "RETURNING feed_cursor) "
    "INSERT INTO feed_items (id, ladder_id, cursor, type, at, event_kind, event_id, ratings) "
    "SELECT i.id, :ladder, taken.feed_cursor - :n + i.ordinal, i.type, i.at, i.event_kind, "
    "i.event_id, i.ratings FROM taken, json_to_recordset(CAST(:items AS json)) AS i(id text, "
    "ordinal int, type text, at timestamptz, event_kind text, event_id text, ratings json)"
)


class FeedRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def take_cursors(self, ladder_id: str, count: int) -> int:
        """Advance the ladder's cursor by ``count`` and return the last of the new cursors.
        The ladder's row stays locked until the transaction ends, so transactions take their
        cursors in the order they commit (call it just before the commit)."""
        taken = self.session.execute(
            update(Ladder)
            .where(Ladder.id == ladder_id)
            .values(feed_cursor=Ladder.feed_cursor + count)
            .returning(Ladder.feed_cursor)
        ).scalar_one()
        return int(taken)

    def append(self, ladder_id: str, items: Sequence[dict[str, Any]]) -> None:
        """Write ``items`` (without cursors) as the ladder's next ones, taking the cursors
        (:meth:`take_cursors`): on PostgreSQL both in one statement."""
        if not items:
            return
        count = len(items)
        if is_postgres(self.session):
            document = orjson.dumps(
                [{**item, "ordinal": n} for n, item in enumerate(items, start=1)],
                default=_plain,
            ).decode()
            self.session.execute(_APPEND, {"n": count, "ladder": ladder_id, "items": document})
            return
        last = self.take_cursors(ladder_id, count)
        # The driver's executemany with the JSON as orjson text: SQLAlchemy's JSON type ran
        # json.dumps for each row, a tenth of a group commit's time.
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        rows = [
            (
                item["id"],
                ladder_id,
                cursor,
                item["type"],
                sqlite_time(item["at"]),
                item["event_kind"],
                item["event_id"],
                orjson.dumps(item["ratings"], default=_plain).decode(),
            )
            for cursor, item in enumerate(items, start=last - count + 1)
        ]
        with driver_errors(connection, _SQLITE_INSERT):
            driver.executemany(_SQLITE_INSERT, rows)

    def page(self, ladder_id: str, after: int, limit: int) -> list[FeedItem]:
        """The items after cursor ``after``, in cursor order."""
        return list(
            self.session.scalars(
                select(FeedItem)
                .where(FeedItem.ladder_id == ladder_id, FeedItem.cursor > after)
                .order_by(FeedItem.cursor)
                .limit(limit)
            )
        )


_SQLITE_INSERT = (
    "INSERT INTO feed_items (id, ladder_id, cursor, type, at, event_kind, event_id, ratings) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _plain(value: Any) -> Any:
    """What orjson does not write itself: the read-only mappings of the engine."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
