"""SQL for the changes an event made to ratings (derived from the events, rewritten by
recomputation)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import and_, case, delete, func, or_, select, true
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql import Select, Subquery

from app.models import Change, Event
from app.repositories.base import is_postgres

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
    ) -> Iterator[tuple[int, datetime, int, str, str]]:
        """(``event_seq``, ``occurred_at``, ``id``, ``player``, ``faction``) of each change at
        or after ``start`` and before the place ``end`` (time, seq), in history order (an
        event's changes together), streamed."""
        columns = (Change.event_seq, Change.occurred_at, Change.id, Change.player, Change.faction)
        before_end = or_(
            Change.occurred_at < end[0], and_(Change.occurred_at == end[0], Change.seq < end[1])
        )
        yield from self._stream(columns, ladder_id, start, before_end)

    def positions_after(
        self, ladder_id: str, start: datetime, after: tuple[datetime, int] | None
    ) -> Iterator[tuple[int, int, str, str]]:
        """(``event_seq``, ``id``, ``player``, ``faction``) of each change at or after ``start`` and
        at or after the place ``after`` (time, seq), in history order, streamed: with
        :meth:`positions_before` up to the same place, every change once. No times: a cone
        reads these for every change of the tail, and turning each time into a datetime
        cost more than all the rest of the walk."""
        columns = (Change.event_seq, Change.id, Change.player, Change.faction)
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

    def board_as_of(
        self,
        ladder_id: str,
        at: datetime,
        board: AsOfBoard,
        *,
        limit: int,
        offset: int,
    ) -> tuple[int, list[tuple[int, Change]]]:
        """A page of the board as of ``at`` ranked by the stored rating (``rating_after`` of
        each rating's last change at or before ``at``), with competition positions and the
        number of entries, all in SQL; each entry is that last change."""
        ranked = self._ranked_as_of(ladder_id, at, board)
        page = self.session.execute(
            select(ranked.c.id, ranked.c.position, ranked.c.total)
            .order_by(*_as_of_order(ranked, board))
            .limit(limit)
            .offset(offset)
        ).all()
        if page:
            total = int(page[0][2])
        else:  # past the end (or an empty board): no row carries the count
            total = self.session.scalar(select(func.count()).select_from(ranked)) or 0
        # The page's rows only, so the ranking reads no state (a JSON column) but theirs.
        found = {
            c.id: c
            for c in self.session.scalars(select(Change).where(Change.id.in_([r[0] for r in page])))
        }
        return total, [(int(position), found[change_id]) for change_id, position, _ in page]

    def index_in_board_as_of(
        self, ladder_id: str, at: datetime, board: AsOfBoard, player: str
    ) -> int | None:
        """Where the player's first entry stands in :meth:`board_as_of`'s order (0 = first),
        or None when the board has no entry of the player."""
        ranked = self._ranked_as_of(ladder_id, at, board)
        numbered = select(
            ranked.c.player,
            func.row_number().over(order_by=_as_of_order(ranked, board)).label("n"),
        ).subquery()
        first = self.session.scalar(
            select(func.min(numbered.c.n)).where(numbered.c.player == player)
        )
        return None if first is None else int(first) - 1

    def _ranked_as_of(self, ladder_id: str, at: datetime, board: AsOfBoard) -> Subquery:
        """The board's entries (each rating's last change at or before ``at``, the filters
        applied): the change's ``id``, ``player``, ``faction``, ``games`` where the board
        reads them, ``position`` (RANK by ``rating_after``) and ``total`` (their number).
        Window functions run after WHERE, so both count the filtered entries only."""
        of_ladder: list[Any] = [Change.ladder_id == ladder_id]
        if board.faction is not None:
            of_ladder.append(Change.faction == board.faction)
        if board.players is not None:
            of_ladder.append(Change.player.in_(board.players))
        # Games and the last rated game only where a filter or the sort reads them: counting
        # every change up to ``at`` costs more than finding the last ones does.
        counted = board.active_since is not None or board.min_games > 0 or board.sort == "games"
        newest = self._last_changes(ladder_id, at, of_ladder, counted=counted)
        conditions: list[Any] = []
        if board.active_since is not None:
            conditions.append(newest.c.last_played_at >= board.active_since)
        if board.min_games > 0:
            conditions.append(newest.c.games >= board.min_games)
        return (
            select(
                newest.c.id,
                newest.c.player,
                newest.c.faction,
                *([newest.c.games] if counted else []),
                func.rank().over(order_by=Change.rating_after.desc()).label("position"),
                func.count().over().label("total"),
            )
            .join(Change, Change.id == newest.c.id)
            .where(*conditions)
            .subquery("ranked")
        )

    def _last_changes(
        self, ladder_id: str, at: datetime, of_ladder: list[Any], *, counted: bool
    ) -> Subquery:
        """Each rating's last change at or before ``at`` among the changes ``of_ladder``
        holds: ``id``, ``player``, ``faction`` and, ``counted``, ``games`` and
        ``last_played_at`` up to ``at``. The two databases are fastest by different plans
        (measured by bench/bench_asof.py, 20,000 ratings): PostgreSQL by one window over the
        changes up to ``at``, sorted as ix_changes_rating_order (0.15 s; its planner hashed
        the whole table for the other plan, 0.3 s); SQLite by one backward step in that
        index per rating (0.06 s; it sorted the window's 100,000 rows, 0.4 s)."""
        up_to = [*of_ladder, Change.occurred_at <= at]
        if is_postgres(self.session):
            rating: Any = (Change.player, Change.faction)
            newest_first: Any = (Change.occurred_at.desc(), Change.seq.desc())
            columns: list[Any] = [
                Change.id,
                Change.player,
                Change.faction,
                func.row_number().over(partition_by=rating, order_by=newest_first).label("newest"),
            ]
            if counted:  # over the rating's whole partition, in the same sort
                columns += [
                    func.count(Change.outcome)
                    .over(partition_by=rating, order_by=newest_first, rows=(None, None))
                    .label("games"),
                    func.max(Change.occurred_at)
                    .filter(Change.outcome.is_not(None))
                    .over(partition_by=rating, order_by=newest_first, rows=(None, None))
                    .label("last_played_at"),
                ]
            windowed = select(*columns).where(*up_to).subquery("windowed")
            kept = [c for c in windowed.c if c.key != "newest"]
            return select(*kept).where(windowed.c.newest == 1).subquery("newest")
        if counted:
            ratings = (
                select(
                    Change.player,
                    Change.faction,
                    func.count(Change.outcome).label("games"),
                    func.max(Change.occurred_at)
                    .filter(Change.outcome.is_not(None))
                    .label("last_played_at"),
                )
                .where(*up_to)
                .group_by(Change.player, Change.faction)
                .subquery("ratings")
            )
        else:  # every rating of the ladder, from the index; those not yet rated drop below
            ratings = (
                select(Change.player, Change.faction)
                .where(*of_ladder)
                .distinct()
                .subquery("ratings")
            )
        last = aliased(Change, name="last_change")
        last_id = (
            select(last.id)
            .where(
                last.ladder_id == ladder_id,
                last.player == ratings.c.player,
                last.faction == ratings.c.faction,
                last.occurred_at <= at,
            )
            .order_by(last.occurred_at.desc(), last.seq.desc())
            .limit(1)
            .scalar_subquery()
        )
        return select(ratings, last_id.label("id")).subquery("newest")

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
        self,
        ladder_id: str,
        until: datetime | None = None,
        players: Sequence[str] | None = None,
        since: datetime | None = None,
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """Games, wins, draws, losses and last rated game of every rating (from ``since``, up
        to ``until``; of ``players`` only: a page's, at most a page long, in one IN list)."""
        condition = Change.ladder_id == ladder_id
        if since is not None:
            condition = and_(condition, Change.occurred_at >= since)
        if until is not None:
            condition = and_(condition, Change.occurred_at <= until)
        if players is not None:
            condition = and_(condition, Change.player.in_(players))
        return self._statistics(condition)

    def details_between(
        self, ladder_id: str, since: datetime, until: datetime
    ) -> list[tuple[str, str, dict[str, Any]]]:
        """(player, faction, details) of every change from ``since`` up to ``until``, of
        rated results only (a circuit reads each event's points from them)."""
        rows = self.session.execute(
            select(Change.player, Change.faction, Change.details).where(
                Change.ladder_id == ladder_id,
                Change.occurred_at >= since,
                Change.occurred_at <= until,
                Change.outcome.is_not(None),
            )
        )
        return [(player, faction, details) for player, faction, details in rows]

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

    def placings(
        self, ladder_id: str, players: Sequence[str], until: datetime | None = None
    ) -> list[tuple[str, str, int, int]]:
        """Each rated tournament placing of ``players`` (up to ``until``): player, faction,
        rank and the number of players the event ranked, for the event statistics."""
        mine = [
            Change.ladder_id == ladder_id,
            Change.player.in_(players),
            Change.outcome == "placed",
        ]
        if until is not None:
            mine.append(Change.occurred_at <= until)
        events = select(Change.event_seq).where(*mine)
        sizes = (
            select(Change.event_seq, func.count().label("size"))
            .where(Change.ladder_id == ladder_id, Change.event_seq.in_(events))
            .group_by(Change.event_seq)
            .subquery("sizes")
        )
        rows = self.session.execute(
            select(Change.player, Change.faction, Change.rank, sizes.c.size)
            .join(sizes, sizes.c.event_seq == Change.event_seq)
            .where(*mine)
        )
        return [(player, faction, rank, size) for player, faction, rank, size in rows]


@dataclass(frozen=True, slots=True)
class AsOfBoard:
    """Which ratings an as-of board counts and its order (see ``BoardFilter`` in
    app/services/leaderboards.py); ``players``: only theirs (a national ranking)."""

    sort: Literal["rating", "name", "games"]
    order: Literal["asc", "desc"]
    active_since: datetime | None
    faction: str | None
    min_games: int
    players: Select[Any] | None


def _as_of_order(ranked: Subquery, board: AsOfBoard) -> list[Any]:
    """The present board's order (``RatingRepository.leaderboard``): the sort, then player
    and faction ascending, so pages never overlap."""
    ascending = board.order == "asc"
    if board.sort == "rating":  # the best first is the lowest position
        first = ranked.c.position.desc() if ascending else ranked.c.position.asc()
    else:
        column = ranked.c.player if board.sort == "name" else ranked.c.games
        first = column.asc() if ascending else column.desc()
    return [first, ranked.c.player, ranked.c.faction]


def _count_if(condition: Any) -> Any:
    return case((condition, 1), else_=0)
