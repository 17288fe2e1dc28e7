"""SQL for the change feed: each ladder's items, in cursor order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from app.models import FeedItem, Ladder


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

    def add(self, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            self.session.execute(insert(FeedItem), list(rows))

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
