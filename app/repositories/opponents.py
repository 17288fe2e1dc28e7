"""SQL for matchmaking: the ratings nearest a player's (GET .../players/{player}/opponents)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select, union_all
from sqlalchemy.engine import Row
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import ColumnElement

from app.models import PlayerRating


class OpponentRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def nearest(
        self,
        ladder_id: str,
        rating: float,
        *,
        besides: str,
        active_since: datetime | None,
        per_side: int,
    ) -> list[Row[Any]]:
        """The rated ratings of the ladder nearest ``rating``: the ``per_side`` closest at or
        above it and the ``per_side`` closest below it, players other than ``besides`` only
        (and only those who played since ``active_since``), as plain rows of
        ``player_ratings``. One statement; each half walks the (ladder, rating) index from
        ``rating`` outwards, so the cost does not grow with the ladder."""
        table = cast(Table, PlayerRating.__table__)
        conditions: list[ColumnElement[bool]] = [
            table.c.ladder_id == ladder_id,
            table.c.player != besides,
            # A rating row that no change has set yet is not a rating (a prediction treats
            # such a player as new).
            table.c.last_change_id.is_not(None),
        ]
        if active_since is not None:
            conditions.append(table.c.last_played_at >= active_since)
        above = (
            select(table)
            .where(*conditions, table.c.rating >= rating)
            .order_by(table.c.rating.asc(), table.c.player, table.c.faction)
            .limit(per_side)
            .subquery()
        )
        below = (
            select(table)
            .where(*conditions, table.c.rating < rating)
            .order_by(table.c.rating.desc(), table.c.player, table.c.faction)
            .limit(per_side)
            .subquery()
        )
        statement = union_all(select(above), select(below))
        return list(self.session.execute(statement))
