"""SQL for the changes an event made to ratings (derived from the events, rewritten by
recomputation)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, delete, func, or_, select, true
from sqlalchemy.orm import Session

from app.models import Change, Event

#: Players per IN list: keeps the bound-parameter counts small on both databases.
PLAYERS_PER_QUERY = 500
#: Event seqs per IN list, for the same reason.
SEQS_PER_QUERY = 500
#: Rows fetched at a time from a stream of change positions: memory follows this, not the
#: length of the history read.
POSITIONS_PER_FETCH = 5_000

NO_STATISTICS: dict[str, Any] = {
    "games": 0,
    "wins": 0,
    "draws": 0,
    "losses": 0,
    "last_played_at": None,
}


class ChangeRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def delete_from(self, ladder_id: str, start: datetime | None) -> set[tuple[str, str]]:
        """Delete the changes at or after ``start`` (all of them for None); returns the
        ratings they belonged to."""
        condition = Change.ladder_id == ladder_id
        if start is not None:
            condition = and_(condition, Change.occurred_at >= start)
        touched = {
            (row[0], row[1])
            for row in self.session.execute(
                select(Change.player, Change.faction).where(condition).distinct()
            )
        }
        self.session.execute(delete(Change).where(condition))
        return touched

    def delete_of_events(self, ladder_id: str, seqs: Sequence[int]) -> None:
        """Delete every change of the events ``seqs``, given in history order: a slice at a
        time from the newest, since a change's predecessor (``prev_change_id``) must outlive
        it. The events must hold the newest changes of their ratings."""
        for end in range(len(seqs), 0, -SEQS_PER_QUERY):
            part = seqs[max(0, end - SEQS_PER_QUERY) : end]
            self.session.execute(
                delete(Change).where(Change.ladder_id == ladder_id, Change.event_seq.in_(part))
            )

    def positions_before(
        self, ladder_id: str, start: datetime, end: tuple[datetime, int]
    ) -> Iterator[tuple[int, datetime, str, str]]:
        """(``event_seq``, ``occurred_at``, ``player``, ``faction``) of each change at or after
        ``start`` and before the place ``end`` (time, seq), in history order (an event's
        changes together), streamed."""
        columns = (Change.event_seq, Change.occurred_at, Change.player, Change.faction)
        before_end = or_(
            Change.occurred_at < end[0], and_(Change.occurred_at == end[0], Change.seq < end[1])
        )
        yield from self._stream(columns, ladder_id, start, before_end)

    def positions_after(
        self, ladder_id: str, start: datetime, after: tuple[datetime, int] | None
    ) -> Iterator[tuple[int, str, str]]:
        """(``event_seq``, ``player``, ``faction``) of each change at or after ``start`` and
        at or after the place ``after`` (time, seq), in history order, streamed: with
        :meth:`positions_before` up to the same place, every change once. No times: a cone
        reads these for every change of the tail, and turning each time into a datetime
        cost more than all the rest of the walk."""
        columns = (Change.event_seq, Change.player, Change.faction)
        condition = (
            true()
            if after is None
            else or_(
                Change.occurred_at > after[0],
                and_(Change.occurred_at == after[0], Change.seq >= after[1]),
            )
        )
        yield from self._stream(columns, ladder_id, start, condition)

    def _stream(
        self, columns: Sequence[Any], ladder_id: str, start: datetime, condition: Any
    ) -> Iterator[Any]:
        """The ``columns`` of the ladder's changes at or after ``start`` meeting
        ``condition``, in history order (the (ladder, time, seq) index), as plain tuples
        fetched a slice at a time (Core rows, which are tuples: no ORM objects)."""
        statement = (
            select(*columns)
            .where(Change.ladder_id == ladder_id, Change.occurred_at >= start, condition)
            .order_by(Change.occurred_at, Change.seq)
            .execution_options(yield_per=POSITIONS_PER_FETCH)
        )
        yield from self.session.connection().execute(statement)

    def of_event(self, seq: int) -> list[Change]:
        return list(
            self.session.scalars(
                select(Change).where(Change.event_seq == seq).order_by(Change.position)
            )
        )

    def last_at(self, ladder_id: str, at: datetime) -> list[Change]:
        """Each rating's last change at or before ``at`` (its state as of then). Not "before
        ``at`` + 1 µs": after the last representable time there is none."""
        return self._newest(Change.ladder_id == ladder_id, Change.occurred_at <= at)

    def _newest(self, *conditions: Any) -> list[Change]:
        """Each rating's newest change among those matching ``conditions``."""
        ranked = (
            select(
                Change.id,
                func.row_number()
                .over(
                    partition_by=(Change.player, Change.faction),
                    order_by=(Change.occurred_at.desc(), Change.seq.desc()),
                )
                .label("newest"),
            )
            .where(*conditions)
            .subquery()
        )
        return list(
            self.session.scalars(
                select(Change).join(ranked, ranked.c.id == Change.id).where(ranked.c.newest == 1)
            )
        )

    def starting_points(
        self, ladder_id: str, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], tuple[Change, dict[str, Any]]]:
        """Each rating's newest change and its statistics over all its changes (ratings
        without any change are left out). Queried a slice of players at a time."""
        result: dict[tuple[str, str], tuple[Change, dict[str, Any]]] = {}
        wanted = set(keys)
        players = sorted({k[0] for k in keys})
        for begin in range(0, len(players), PLAYERS_PER_QUERY):
            chunk = players[begin : begin + PLAYERS_PER_QUERY]
            of_chunk = and_(Change.ladder_id == ladder_id, Change.player.in_(chunk))
            stats = self._statistics(of_chunk)
            for change in self._newest(of_chunk):
                key = (change.player, change.faction)
                if key in wanted:
                    result[key] = (change, stats.get(key, NO_STATISTICS))
        return result

    def history(
        self,
        ladder_id: str,
        player: str,
        faction: str | None,
        limit: int | None,
        offset: int,
        as_of: datetime | None = None,
    ) -> tuple[int, list[tuple[Change, Event]]]:
        condition = and_(Change.ladder_id == ladder_id, Change.player == player)
        if faction is not None:
            condition = and_(condition, Change.faction == faction)
        if as_of is not None:
            condition = and_(condition, Change.occurred_at <= as_of)
        total = self.session.scalar(select(func.count()).select_from(Change).where(condition)) or 0
        rows = self.session.execute(
            select(Change, Event)
            .join(Event, Event.seq == Change.event_seq)
            .where(condition)
            .order_by(Change.occurred_at, Change.seq, Change.faction)
            .limit(limit)
            .offset(offset)
        )
        return total, [(row[0], row[1]) for row in rows]

    def statistics(
        self, ladder_id: str, until: datetime | None = None
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """Games, wins, draws, losses and last rated game of every rating (up to ``until``)."""
        condition = Change.ladder_id == ladder_id
        if until is not None:
            condition = and_(condition, Change.occurred_at <= until)
        return self._statistics(condition)

    def _statistics(self, condition: Any) -> dict[tuple[str, str], dict[str, Any]]:
        rows = self.session.execute(
            select(
                Change.player,
                Change.faction,
                func.count(Change.outcome),
                func.sum(_count_if(Change.outcome == "win")),
                func.sum(_count_if(Change.outcome == "draw")),
                func.sum(_count_if(Change.outcome == "loss")),
                func.max(Change.occurred_at).filter(Change.outcome.is_not(None)),
            )
            .where(condition)
            .group_by(Change.player, Change.faction)
        )
        return {
            (player, faction): {
                "games": games or 0,
                "wins": wins or 0,
                "draws": draws or 0,
                "losses": losses or 0,
                "last_played_at": last,
            }
            for player, faction, games, wins, draws, losses, last in rows
        }


def _count_if(condition: Any) -> Any:
    return case((condition, 1), else_=0)
