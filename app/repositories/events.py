"""SQL for the ladder's history: events and their changes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, delete, func, insert, or_, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.models import Change, Event
from app.repositories.base import is_postgres

#: Session key of the next change id a SQLite transaction may hand out.
NEXT_CHANGE_ID = "ratings_next_change_id"
#: Players per IN list: keeps SQLite's and PostgreSQL's bound-parameter counts small.
PLAYERS_PER_QUERY = 500
_NO_STATS: dict[str, Any] = {
    "games": 0,
    "wins": 0,
    "draws": 0,
    "losses": 0,
    "last_played_at": None,
}


class EventRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def find(self, ladder_id: str, kind: str, external_id: str) -> Event | None:
        return self.session.scalars(
            select(Event).where(
                Event.ladder_id == ladder_id,
                Event.kind == kind,
                Event.external_id == external_id,
            )
        ).one_or_none()

    def find_many(
        self, ladder_id: str, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], Event]:
        """Stored events by (kind, external id), queried in slices by kind so each query
        walks the unique (ladder, kind, id) index."""
        found: dict[tuple[str, str], Event] = {}
        by_kind: dict[str, list[str]] = {}
        for kind, external_id in keys:
            by_kind.setdefault(kind, []).append(external_id)
        for kind, ids in by_kind.items():
            unique = sorted(set(ids))
            for begin in range(0, len(unique), PLAYERS_PER_QUERY):
                rows = self.session.scalars(
                    select(Event).where(
                        Event.ladder_id == ladder_id,
                        Event.kind == kind,
                        Event.external_id.in_(unique[begin : begin + PLAYERS_PER_QUERY]),
                    )
                )
                for event in rows:
                    if event.external_id is not None:
                        found[(event.kind, event.external_id)] = event
        return found

    def insert_new(self, values: dict[str, Any]) -> int | None:
        """Insert an event; None when its (ladder, kind, id) is already taken."""
        dialect_insert = postgresql.insert if is_postgres(self.session) else sqlite.insert
        statement = (
            dialect_insert(Event)
            .values(**values)
            .on_conflict_do_nothing(index_elements=["ladder_id", "kind", "external_id"])
            .returning(Event.seq)
        )
        seq = self.session.scalar(statement)
        return None if seq is None else int(seq)

    def insert_changes_returning_ids(self, rows: list[dict[str, Any]]) -> list[int]:
        """Insert rows without ids; the ids the database gave them, in row order."""
        if not rows:
            return []
        result = self.session.scalars(
            insert(Change).returning(Change.id, sort_by_parameter_order=True), rows
        )
        return [int(i) for i in result]

    def insert_many(self, rows: list[dict[str, Any]]) -> list[int]:
        """Insert events (Core, one statement per batch); their seqs in row order."""
        if not rows:
            return []
        result = self.session.scalars(
            insert(Event).returning(Event.seq, sort_by_parameter_order=True), rows
        )
        return [int(seq) for seq in result]

    def add(self, event: Event) -> int:
        self.session.add(event)
        self.session.flush()
        return event.seq

    def latest(self, ladder_id: str) -> tuple[datetime, int] | None:
        """(time, seq) of the ladder's latest live event."""
        row = self.session.execute(
            select(Event.occurred_at, Event.seq)
            .where(Event.ladder_id == ladder_id, Event.voided_at.is_(None))
            .order_by(Event.occurred_at.desc(), Event.seq.desc())
            .limit(1)
        ).one_or_none()
        return None if row is None else (row[0], row[1])

    def live_from(self, ladder_id: str, start: datetime | None) -> list[Event]:
        """The ladder's live (not voided) events at or after ``start``, in history order."""
        statement = select(Event).where(Event.ladder_id == ladder_id, Event.voided_at.is_(None))
        if start is not None:
            statement = statement.where(Event.occurred_at >= start)
        return list(self.session.scalars(statement.order_by(Event.occurred_at, Event.seq)))

    def live_pages(
        self, ladder_id: str, start: datetime | None, page_size: int
    ) -> Iterator[list[Event]]:
        """The live events at or after ``start`` in history order, a page at a time."""
        after: tuple[datetime, int] | None = None
        while True:
            statement = select(Event).where(Event.ladder_id == ladder_id, Event.voided_at.is_(None))
            if start is not None:
                statement = statement.where(Event.occurred_at >= start)
            if after is not None:
                statement = statement.where(
                    or_(
                        Event.occurred_at > after[0],
                        and_(Event.occurred_at == after[0], Event.seq > after[1]),
                    )
                )
            page = list(
                self.session.scalars(
                    statement.order_by(Event.occurred_at, Event.seq).limit(page_size)
                )
            )
            if not page:
                return
            yield page
            # Pages are done with once replayed; keep the identity map from growing.
            for event in page[:-1]:
                self.session.expunge(event)
            after = (page[-1].occurred_at, page[-1].seq)

    def ladder_state_before(self, ladder_id: str, start: datetime) -> dict[str, Any] | None:
        """Ladder-wide state after the last live event before ``start`` (None: initial)."""
        return self.session.scalar(
            select(Event.ladder_state_after)
            .where(
                Event.ladder_id == ladder_id,
                Event.voided_at.is_(None),
                Event.occurred_at < start,
            )
            .order_by(Event.occurred_at.desc(), Event.seq.desc())
            .limit(1)
        )

    def set_ladder_states(self, states: Sequence[tuple[int, dict[str, Any]]]) -> None:
        for seq, state in states:
            self.session.execute(
                update(Event).where(Event.seq == seq).values(ladder_state_after=state)
            )

    def refresh_statistics(self) -> None:
        """Have the query planner's statistics of the history tables catch up with a bulk
        write (PostgreSQL; SQLite plans from its indexes alone).

        A table that grew from empty in one import still has "no rows" statistics, and the
        planner then reads every event of the ladder to look up 500 ids instead of walking
        the (ladder, kind, id) index: each chunk of an import grew slower than the last.
        """
        if is_postgres(self.session):
            self.session.execute(text("ANALYZE events, changes, player_ratings"))

    # -- changes ---------------------------------------------------------------------------

    def allocate_change_ids(self, count: int) -> list[int]:
        """Ids for ``count`` new changes, so a batch can name its own predecessors.

        PostgreSQL draws them from the column's sequence (safe beside concurrent writers);
        SQLite holds the database write lock, so the next ids after the maximum are free.
        """
        if count == 0:
            return []
        if is_postgres(self.session):
            rows = self.session.execute(
                text(
                    "SELECT nextval(pg_get_serial_sequence('changes', 'id')) "
                    "FROM generate_series(1, :n)"
                ),
                {"n": count},
            )
            return [row[0] for row in rows]
        # Ids handed out earlier in this transaction may not be inserted yet: never reuse them.
        stored = (self.session.scalar(select(func.max(Change.id))) or 0) + 1
        start = max(stored, self.session.info.get(NEXT_CHANGE_ID, 0))
        self.session.info[NEXT_CHANGE_ID] = start + count
        return list(range(start, start + count))

    def insert_changes(self, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.session.execute(insert(Change), rows)

    def delete_changes_from(self, ladder_id: str, start: datetime | None) -> list[tuple[str, str]]:
        """Delete the changes at or after ``start``; returns the ratings they touched."""
        condition = Change.ladder_id == ladder_id
        if start is not None:
            condition = and_(condition, Change.occurred_at >= start)
        touched = [
            (row[0], row[1])
            for row in self.session.execute(
                select(Change.player, Change.faction).where(condition).distinct()
            )
        ]
        self.session.execute(delete(Change).where(condition))
        return touched

    def changes_of_event(self, seq: int) -> list[Change]:
        return list(
            self.session.scalars(
                select(Change).where(Change.event_seq == seq).order_by(Change.position)
            )
        )

    def changes_of_events(self, seqs: Sequence[int]) -> dict[int, list[Change]]:
        result: dict[int, list[Change]] = {s: [] for s in seqs}
        if not seqs:
            return result
        rows = self.session.scalars(
            select(Change).where(Change.event_seq.in_(seqs)).order_by(Change.position)
        )
        for change in rows:
            result[change.event_seq].append(change)
        return result

    def last_changes_at(self, ladder_id: str, at: datetime) -> list[Change]:
        """Each rating's last change at or before ``at`` (its state as of then)."""
        return self.last_changes_before(ladder_id, at + timedelta(microseconds=1))

    def ladder_state_at(self, ladder_id: str, at: datetime) -> dict[str, Any] | None:
        return self.ladder_state_before(ladder_id, at + timedelta(microseconds=1))

    def _newest_changes(self, *conditions: Any) -> list[Change]:
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

    def last_changes_before(self, ladder_id: str, start: datetime) -> list[Change]:
        """Each rating's last change before ``start`` (the states a replay starts from)."""
        return self._newest_changes(Change.ladder_id == ladder_id, Change.occurred_at < start)

    def starting_points(
        self, ladder_id: str, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], tuple[Change, dict[str, Any]]]:
        """Each rating's newest change and its statistics over all its changes.

        Queried a slice of players at a time so the bound parameters stay few.
        """
        result: dict[tuple[str, str], tuple[Change, dict[str, Any]]] = {}
        wanted = set(keys)
        players = sorted({k[0] for k in keys})
        for begin in range(0, len(players), PLAYERS_PER_QUERY):
            chunk = players[begin : begin + PLAYERS_PER_QUERY]
            newest = self._newest_changes(Change.ladder_id == ladder_id, Change.player.in_(chunk))
            stats = self._statistics(and_(Change.ladder_id == ladder_id, Change.player.in_(chunk)))
            for change in newest:
                key = (change.player, change.faction)
                if key in wanted:
                    result[key] = (change, stats.get(key, _NO_STATS))
        return result

    def voided(self, ladder_id: str, as_of: datetime | None = None) -> list[Event]:
        condition = and_(Event.ladder_id == ladder_id, Event.voided_at.is_not(None))
        if as_of is not None:
            condition = and_(condition, Event.occurred_at <= as_of)
        return list(self.session.scalars(select(Event).where(condition)))

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
        result: dict[tuple[str, str], dict[str, Any]] = {}
        for player, faction, games, wins, draws, losses, last in rows:
            result[(player, faction)] = {
                "games": games or 0,
                "wins": wins or 0,
                "draws": draws or 0,
                "losses": losses or 0,
                "last_played_at": last,
            }
        return result


def _count_if(condition: Any) -> Any:
    return case((condition, 1), else_=0)
