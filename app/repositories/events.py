"""SQL for a ladder's history: its events (the truth). Their changes are ``changes.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from sqlalchemy import (
    String,
    Text,
    and_,
    any_,
    bindparam,
    cast,
    func,
    or_,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.sql import ColumnElement, Select

from app.models import Change, Event
from app.repositories.base import is_postgres

#: Ids per IN list on SQLite (its bound-parameter limit), and per array parameter on
#: PostgreSQL (one parameter however long, so slices can be long).
IDS_PER_QUERY = 500
IDS_PER_ARRAY = 5_000
#: What a replay reads of each live event; the body as its text, decoded by :func:`_body`.
_LIVE_COLUMNS = (Event.seq, Event.kind, Event.external_id, Event.occurred_at, Event.rated)


class LiveRow(NamedTuple):
    """A live event as a replay or an export reads it: its body as the stored JSON text,
    parsed by :attr:`body` on each read (read it once).

    Text rather than the parsed dicts: a what-if or an evaluation holds a whole history of
    rows while it replays, and a parsed body (four containers for a two-player game) is
    several times its text's size and is walked by every pass of the garbage collector.
    Parsed where it is used, a body dies young: a what-if over 100,000 elo games raised the
    peak memory of its process by 0.76 of what it did (bench/README.md, 2026-12-03)."""

    seq: int
    kind: str
    external_id: str | None
    occurred_at: datetime
    rated: bool
    document: str

    @property
    def body(self) -> dict[str, Any]:
        """The stored body (parsed from :attr:`document` on each read)."""
        parsed: dict[str, Any] = _body(self.document)
        return parsed

    @property
    def name(self) -> str:
        """How an error names the event: its kind and id (its seq where it has none)."""
        return f"{self.kind} {self.external_id or self.seq}"


def _body(document: str) -> Any:
    """A stored body from its JSON text: orjson (a quarter of ``json.loads``'s time on
    100,000 bodies), and ``json`` for what orjson refuses but the column may hold (NaN, a
    number beyond a double). orjson reads an integer beyond 64 bits as a float where ``json``
    keeps it whole; the bodies' schemas bound every integer far below that."""
    try:
        return orjson.loads(document)
    except orjson.JSONDecodeError:
        return json.loads(document)


# Built once (Core text, no ORM): every group commit looks its ids up.
_STORED_IDS = (
    "SELECT external_id FROM events WHERE ladder_id = :ladder_id AND kind = :kind AND external_id "
)
_STORED_IDS_ARRAY = text(_STORED_IDS + "= ANY(:ids)").bindparams(
    bindparam("ids", type_=ARRAY(String))
)
_STORED_IDS_LIST = text(_STORED_IDS + "IN :ids").bindparams(bindparam("ids", expanding=True))


class EventRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def find(
        self, ladder_id: str, kind: str, external_id: str, *, lock: bool = False
    ) -> Event | None:
        """``lock``: locked for update (PostgreSQL), so that two corrections of one event
        take turns, the second reading what the first wrote."""
        statement = select(Event).where(
            Event.ladder_id == ladder_id,
            Event.kind == kind,
            Event.external_id == external_id,
        )
        if lock:
            statement = statement.with_for_update()
        return self.session.scalars(statement).one_or_none()

    def find_many(
        self, ladder_id: str, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], Event]:
        """Stored events by (kind, external id), queried in slices by kind so each query
        walks the unique (ladder, kind, id) index."""
        found: dict[tuple[str, str], Event] = {}
        by_kind: dict[str, list[str]] = {}
        for kind, external_id in keys:
            by_kind.setdefault(kind, []).append(external_id)
        postgres = is_postgres(self.session)
        # PostgreSQL takes a slice as one array parameter (= ANY), so slices can be long; an
        # IN list binds one parameter per id.
        per_query = IDS_PER_ARRAY if postgres else IDS_PER_QUERY
        if len(keys) > per_query and not self.has_events(ladder_id):
            return found  # an import into a new ladder: a query per slice would find nothing
        for kind, ids in by_kind.items():
            unique = sorted(set(ids))
            for begin in range(0, len(unique), per_query):
                part = unique[begin : begin + per_query]
                rows = self.session.scalars(
                    select(Event).where(
                        Event.ladder_id == ladder_id,
                        Event.kind == kind,
                        Event.external_id == any_(bindparam("ids", part, type_=ARRAY(String)))
                        if postgres
                        else Event.external_id.in_(part),
                    )
                )
                for event in rows:
                    if event.external_id is not None:
                        found[(event.kind, event.external_id)] = event
        return found

    def stored_ids(self, ladder_id: str, keys: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which of ``keys`` (kind, external id) are stored: :meth:`find_many`'s keys, read
        without building the events."""
        by_kind: dict[str, list[str]] = {}
        for kind, external_id in keys:
            by_kind.setdefault(kind, []).append(external_id)
        postgres = is_postgres(self.session)
        per_query = IDS_PER_ARRAY if postgres else IDS_PER_QUERY
        statement = _STORED_IDS_ARRAY if postgres else _STORED_IDS_LIST
        found: set[tuple[str, str]] = set()
        for kind, ids in by_kind.items():
            unique = sorted(set(ids))
            for begin in range(0, len(unique), per_query):
                rows = self.session.execute(
                    statement,
                    {
                        "ladder_id": ladder_id,
                        "kind": kind,
                        "ids": unique[begin : begin + per_query],
                    },
                )
                found.update((kind, external_id) for (external_id,) in rows)
        return found

    def count_live(self, ladder_id: str) -> int:
        """How many live (not voided) events the ladder holds: what a replay reads."""
        statement = select(func.count(Event.seq)).where(
            Event.ladder_id == ladder_id, Event.voided_at.is_(None)
        )
        return int(self.session.scalar(statement) or 0)

    def has_events(self, ladder_id: str) -> bool:
        """The ladder holds any event, live or voided."""
        found = self.session.scalar(select(Event.seq).where(Event.ladder_id == ladder_id).limit(1))
        return found is not None

    def latest(self, ladder_id: str) -> tuple[datetime, int] | None:
        """(time, seq) of the ladder's latest live event."""
        row = self.session.execute(
            select(Event.occurred_at, Event.seq)
            .where(Event.ladder_id == ladder_id, Event.voided_at.is_(None))
            .order_by(Event.occurred_at.desc(), Event.seq.desc())
            .limit(1)
        ).one_or_none()
        return None if row is None else (row[0], row[1])

    def _live_select(self) -> Select[Any]:
        # The body as text: the driver's JSON decoding (json.loads per row, through
        # SQLAlchemy's processors) took half of reading a long history.
        document: ColumnElement[str] = (
            cast(Event.body, Text) if is_postgres(self.session) else type_coerce(Event.body, String)
        )
        columns: list[Any] = [*_LIVE_COLUMNS, document.label("body")]
        return select(*columns)

    def _live_page_rows(self, statement: Select[Any]) -> list[LiveRow]:
        # Executed on the connection (Core): the ORM's result layer, which these plain
        # columns do not need, took most of reading a long history. Flushed first, as the
        # ORM's autoflush would, so that a correction or void of this session is read.
        self.session.flush()
        return [LiveRow(*row) for row in self.session.connection().execute(statement)]

    def live_rows(
        self, ladder_id: str, start: datetime | None, page_size: int
    ) -> Iterator[list[LiveRow]]:
        """The live events at or after ``start`` in history order, a keyset page at a time,
        as :class:`LiveRow` values: what a replay or an export reads, without ORM objects."""
        after: tuple[datetime, int] | None = None
        while True:
            statement = _live_page(self._live_select(), ladder_id, start, after, page_size)
            page = self._live_page_rows(statement)
            if not page:
                return
            yield page
            after = (page[-1].occurred_at, page[-1].seq)

    def live_rows_of(
        self, ladder_id: str, seqs: Sequence[int], page_size: int
    ) -> Iterator[list[LiveRow]]:
        """The live events among ``seqs``, in the order given (history order, for a
        replay), ``page_size`` at a time, as the rows of :meth:`live_rows`."""
        for begin in range(0, len(seqs), page_size):
            wanted = seqs[begin : begin + page_size]
            found: dict[int, LiveRow] = {}
            for part in range(0, len(wanted), IDS_PER_QUERY):
                statement = self._live_select().where(
                    Event.ladder_id == ladder_id,
                    Event.voided_at.is_(None),
                    Event.seq.in_(wanted[part : part + IDS_PER_QUERY]),
                )
                found.update((row.seq, row) for row in self._live_page_rows(statement))
            yield [found[seq] for seq in wanted if seq in found]

    def ladder_state_before(self, ladder_id: str, start: datetime) -> dict[str, Any] | None:
        """Ladder-wide state after the last live event before ``start`` (None: initial)."""
        return self._last_ladder_state(ladder_id, Event.occurred_at < start)

    def _last_ladder_state(self, ladder_id: str, condition: Any) -> dict[str, Any] | None:
        return self.session.scalar(
            select(Event.ladder_state_after)
            .where(Event.ladder_id == ladder_id, Event.voided_at.is_(None), condition)
            .order_by(Event.occurred_at.desc(), Event.seq.desc())
            .limit(1)
        )

    def ladder_state_at(self, ladder_id: str, at: datetime) -> dict[str, Any] | None:
        """Ladder-wide state after the last live event at or before ``at``."""
        return self._last_ladder_state(ladder_id, Event.occurred_at <= at)

    def set_ladder_states(self, states: Sequence[tuple[int, dict[str, Any]]]) -> None:
        for seq, state in states:
            self.session.execute(
                update(Event).where(Event.seq == seq).values(ladder_state_after=state)
            )

    def refresh_statistics(self) -> None:
        """Have the query planner's statistics of the history tables catch up with a bulk
        write (PostgreSQL; SQLite plans from its indexes alone).

        A table that grew from empty in one import still has "no rows" statistics, and the
        planner then scans every event of the ladder to look up ids instead of walking the
        (ladder, kind, id) index.
        """
        if is_postgres(self.session):
            self.session.execute(text("ANALYZE events, changes, player_ratings"))

    def refresh_lookup_statistics(self) -> None:
        """``refresh_statistics`` of the tables an import looks up while it writes (events,
        ratings): ``changes``, the largest, is not queried by an import that extends the
        history."""
        if is_postgres(self.session):
            self.session.execute(text("ANALYZE events, player_ratings"))

    def voided(self, ladder_id: str, as_of: datetime | None = None) -> list[Event]:
        condition = and_(Event.ladder_id == ladder_id, Event.voided_at.is_not(None))
        if as_of is not None:
            condition = and_(condition, Event.occurred_at <= as_of)
        return list(self.session.scalars(select(Event).where(condition)))

    def page(
        self,
        ladder_id: str,
        kind: str,
        *,
        player: str | None,
        start: datetime | None,
        end: datetime | None,
        voided: bool | None,
        limit: int,
        offset: int,
    ) -> tuple[int, list[Event]]:
        """A ladder's events of ``kind``, newest first, between ``start`` and ``end``
        (inclusive), live or voided (``voided``; None: both), and the count of all that match.

        ``player``: only the events that changed that player's rating, which the changes
        table knows for live events only (a voided event's changes are kept in the event:
        ``voided_changes``, for the caller to look at)."""
        conditions = [Event.ladder_id == ladder_id, Event.kind == kind]
        if start is not None:
            conditions.append(Event.occurred_at >= start)
        if end is not None:
            conditions.append(Event.occurred_at <= end)
        if voided is not None:
            conditions.append(Event.voided_at.is_not(None) if voided else Event.voided_at.is_(None))
        if player is not None:
            # Walks the changes' (ladder, player, ...) index, not every change of the ladder.
            played = select(Change.event_seq).where(
                Change.ladder_id == ladder_id, Change.player == player
            )
            conditions.append(Event.seq.in_(played))
        where = and_(*conditions)
        total = self.session.scalar(select(func.count(Event.seq)).where(where)) or 0
        rows = self.session.scalars(
            select(Event)
            .where(where)
            .order_by(Event.occurred_at.desc(), Event.seq.desc())
            .limit(limit)
            .offset(offset)
        )
        return int(total), list(rows)

    def changes_of_events(self, seqs: Sequence[int]) -> dict[int, list[Change]]:
        """The changes of each event in ``seqs``, in the event's order (``position``)."""
        found: dict[int, list[Change]] = {seq: [] for seq in seqs}
        for begin in range(0, len(seqs), IDS_PER_QUERY):
            part = list(seqs[begin : begin + IDS_PER_QUERY])
            rows = self.session.scalars(
                select(Change)
                .where(Change.event_seq.in_(part))
                .order_by(Change.event_seq, Change.position)
            )
            for change in rows:
                found[change.event_seq].append(change)
        return found


def _live_page(
    statement: Select[Any],
    ladder_id: str,
    start: datetime | None,
    after: tuple[datetime, int] | None,
    page_size: int,
) -> Select[Any]:
    """One keyset page of a ladder's live events at or after ``start``, in history order,
    after the (time, seq) position ``after``."""
    statement = statement.where(Event.ladder_id == ladder_id, Event.voided_at.is_(None))
    if start is not None:
        statement = statement.where(Event.occurred_at >= start)
    if after is not None:
        statement = statement.where(
            # The first bound alone lets the (ladder, time, seq) index start the scan at the
            # position: with only the OR, SQLite scanned the ladder's index from its start.
            Event.occurred_at >= after[0],
            or_(Event.occurred_at > after[0], Event.seq > after[1]),
        )
    return statement.order_by(Event.occurred_at, Event.seq).limit(page_size)
