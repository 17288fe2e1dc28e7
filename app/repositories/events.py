"""SQL for the ladder's history: events and their changes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, cast

import orjson
from sqlalchemy import (
    String,
    Table,
    and_,
    any_,
    bindparam,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from app.models import Change, Event
from app.models.base import UTCDateTime
from app.repositories.base import driver_errors, is_postgres
from app.repositories.sqlite_inserts import (
    BackgroundInserts,
    insert_statements,
    rows_per_statement,
    statement_shape,
    variable_limit,
)

#: Session key of the next change id a SQLite transaction may hand out.
NEXT_CHANGE_ID = "ratings_next_change_id"
#: The same for events' seqs drawn by bulk inserts.
NEXT_EVENT_SEQ = "ratings_next_event_seq"
#: Players per IN list: keeps SQLite's and PostgreSQL's bound-parameter counts small.
PLAYERS_PER_QUERY = 500
#: Ids per array parameter of a PostgreSQL lookup.
IDS_PER_ARRAY = 5_000
#: Rows from which a bulk write goes out as COPY on PostgreSQL (below it, one INSERT).
COPY_MIN_ROWS = 200
#: Change rows a :class:`ChangeStream` holds back on PostgreSQL while the events they refer to
#: are still being sent.
CHANGE_STREAM_BATCH = 5_000
#: Change rows per batch a :class:`ChangeStream` hands to its SQLite thread. Small, because
#: the replay waits for the thread's last batch before its next read: 200,000 elo games
#: recomputed in 36.2 and 36.4 s with 1,000 against 40.8 and 44.1 s with 5,000.
SQLITE_STREAM_BATCH = 1_000
#: New change rows a :class:`ChangeStream` stores before it deletes as many old ones.
RETIRE_ROWS = 8_000
#: The columns of ``changes`` and ``events`` that bulk writes fill, in order.
CHANGE_COLUMNS = (
    "id", "ladder_id", "event_seq", "player", "faction", "position", "rank", "outcome",
    "occurred_at", "seq", "rating_before", "rating_after", "deviation_before",
    "deviation_after", "volatility_before", "volatility_after", "state_after", "details",
    "prev_change_id",
)  # fmt: skip
EVENT_COLUMNS = (
    "seq", "ladder_id", "kind", "external_id", "occurred_at", "body", "body_hash", "rated",
    "tournament", "created_at",
)  # fmt: skip
#: What a replay reads of each live event.
_LIVE_COLUMNS = (Event.seq, Event.kind, Event.occurred_at, Event.rated, Event.body)
#: The columns of each that hold JSON.
_JSON_COLUMNS = frozenset({"state_after", "details", "body"})
_STATE_AT = CHANGE_COLUMNS.index("state_after")
_DETAILS_AT = CHANGE_COLUMNS.index("details")


def as_dict(value: Any) -> dict[str, Any]:
    """The engine's read-only mappings (``MappingProxyType``, string keys) as the dicts they
    wrap, one level at a time as the encoder meets them: the same text as
    ``json.dumps(plain(value))`` without first copying every nested value."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


#: orjson encodes dataclasses and times itself, which ``json.dumps`` refuses: hand them to
#: ``default`` instead, so a value the ORM's writes would refuse is refused here too.
_JSON_DUMPS_TYPES_ONLY = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def json_encoder(default: Callable[[Any], Any] = as_dict) -> Callable[[Any], str]:
    """JSON text of what bulk writes store, by orjson: a glicko2 change's state and terms
    (~40 floats) took 28 µs with ``json.dumps``, 3.5 µs with orjson, whose shortest
    round-trip floats read back as the same doubles. ``default`` turns the engine's
    read-only mappings (and what else ``default`` knows) into JSON types.

    What orjson refuses (integers beyond 64 bits, non-string keys) goes through
    ``json.dumps`` instead, which takes them; both refuse what is not JSON at all. orjson
    writes NaN and infinities as ``null`` where ``json.dumps`` here would refuse them.
    Inputs are refused when not finite (``app.schemas.common``), and
    ``app.engine.ledger.rate_event`` refuses a non-finite new rating, deviation or
    volatility (and so anything derived from them: ranking values, tie-breaks). A NaN
    confined to a system's terms (``details``) or extra state would be stored as ``null``:
    the systems' tests check their terms are finite JSON, and walking every term of every
    change to be sure would cost more than encoding it.
    """
    fallback = partial(json.dumps, default=default, allow_nan=False)
    encode = orjson.dumps

    def dumps(value: Any) -> str:
        try:
            return encode(value, default=default, option=_JSON_DUMPS_TYPES_ONLY).decode()
        except TypeError:
            return fallback(value)

    return dumps


#: JSON text of the dicts bulk writes store.
_dumps = json_encoder()


def _sqlite_utc_text(value: datetime | None) -> str | None:
    """What ``UTCDateTime`` binds on SQLite (UTC, naive, SQLAlchemy's DATETIME text with
    microseconds), through ``datetime.isoformat`` rather than two Python-level steps."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def _remembering_last(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert`` that reuses its last answer for the same object: an event's players'
    change rows share its time, and an import's events share their creation stamp."""
    last: list[Any] = [object(), None]

    def process(value: Any) -> Any:
        if value is not last[0]:
            last[0], last[1] = value, convert(value)
        return last[1]

    return process


def _dicts_then(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def process(value: Any) -> Any:
        return processor(value) if value is None else _dumps(value)

    return process


def _drawn(table: str, column: str, count: str) -> str:
    """SQL for an array of ``:count`` values of ``table.column``'s sequence, in the order
    drawn. The sequence is looked up once (a materialized CTE): written inside ``nextval``
    the lookup ran for every value, and drawing 10,000 ids took 28 ms instead of 7."""
    return (
        f"(WITH s AS MATERIALIZED "
        f"(SELECT pg_get_serial_sequence('{table}', '{column}')::regclass AS sequence) "
        f"SELECT ARRAY(SELECT nextval(s.sequence) FROM s, generate_series(1, :{count})))"
    )


#: Both sequences of a group commit in one statement (PostgreSQL).
ALLOCATE_SEQS_AND_CHANGE_IDS = text(
    f"SELECT {_drawn('events', 'seq', 'events')}, {_drawn('changes', 'id', 'changes')}"
)


#: Which of a group's ids a ladder already stores (PostgreSQL), on the table rather than the
#: ORM entity and built once: no ORM objects, no statement construction per group.
_EVENTS_TABLE = cast(Table, Event.__table__)
STORED_IDS = select(_EVENTS_TABLE.c.external_id).where(
    _EVENTS_TABLE.c.ladder_id == bindparam("ladder_id"),
    _EVENTS_TABLE.c.kind == bindparam("kind"),
    _EVENTS_TABLE.c.external_id == any_(bindparam("ids", type_=ARRAY(String))),
)

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
        postgres = is_postgres(self.session)
        # PostgreSQL takes a slice as one array parameter (= ANY), so slices can be long; an
        # IN list binds one parameter per id.
        per_query = IDS_PER_ARRAY if postgres else PLAYERS_PER_QUERY
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

    def has_events(self, ladder_id: str) -> bool:
        """The ladder holds any event, live or voided."""
        found = self.session.scalar(select(Event.seq).where(Event.ladder_id == ladder_id).limit(1))
        return found is not None

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

    def draw_seqs(self, count: int) -> list[int]:
        """Seqs for ``count`` new events, in order, drawn before they are written (so that
        they can go out by COPY, ahead of their changes: :meth:`ChangeStream.lead_events`)."""
        return self._allocate_ids(Event, "events", "seq", count, NEXT_EVENT_SEQ)

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

    def live_rows(
        self,
        ladder_id: str,
        start: datetime | None,
        page_size: int,
        beside: ChangeStream | None = None,
    ) -> Iterator[list[Any]]:
        """Like ``live_pages``, as plain rows of (seq, kind, occurred_at, rated, body): what a
        replay reads, without building ORM objects.

        ``beside``: the replay's change stream. On PostgreSQL it pauses before each page is
        read. On SQLite its thread reads each page after the rows it is storing, the next
        page as soon as this one is handed out: a replay that stopped for the thread to
        catch up at every page spent a fifth of a recompute waiting.
        """
        if beside is not None and not beside.postgres:
            yield from self._live_rows_beside(beside, ladder_id, start, page_size)
            return
        after: tuple[datetime, int] | None = None
        while True:
            if beside is not None:
                beside.pause()
            statement = _live_page(select(*_LIVE_COLUMNS), ladder_id, start, after, page_size)
            page = list(self.session.execute(statement))
            if not page:
                return
            yield page
            after = (page[-1][2], page[-1][0])

    def _live_rows_beside(
        self, stream: ChangeStream, ladder_id: str, start: datetime | None, page_size: int
    ) -> Iterator[list[Any]]:
        dialect = self.session.get_bind().dialect
        occurred, rated, body = (
            column.type._cached_result_processor(dialect, None) or as_stored
            for column in _LIVE_COLUMNS[2:]
        )

        def read(after: tuple[datetime, int] | None) -> Callable[[], list[list[Any]]]:
            statement = _live_page(select(*_LIVE_COLUMNS), ladder_id, start, after, page_size)
            compiled = statement.compile(dialect=dialect)
            values = compiled.construct_params()
            parameters = []
            for name in compiled.positiontup or ():
                bind = compiled.binds[name].type._cached_bind_processor(dialect)
                parameters.append(values[name] if bind is None else bind(values[name]))
            names = [column.key for column in _LIVE_COLUMNS]
            return stream.read_rows(names, f"({compiled}) AS page", parameters)

        pending = read(None)
        while True:
            # Rows as stored: times as text in their sortable form, bodies as JSON text.
            stored = sorted(pending(), key=_stored_order)
            page = [(q, k, occurred(at), rated(r), body(b)) for q, k, at, r, b in stored]
            if not page:
                return
            pending = read((page[-1][2], page[-1][0]))
            yield page

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
            statement = _live_page(select(Event), ladder_id, start, after, page_size)
            page = list(self.session.scalars(statement))
            if not page:
                return
            yield page
            # Pages are done with once replayed; keep the identity map from growing.
            for event in page[:-1]:
                self.session.expunge(event)
            after = (page[-1].occurred_at, page[-1].seq)

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

    def refresh_lookup_statistics(self) -> None:
        """``refresh_statistics`` of the tables an import looks up while it writes (events,
        ratings), not of ``changes``: at a million games its ANALYZE took twice as long as
        the two others together, and an import that extends the history never queries it
        (one that reaches back recomputes, and deletes changes, with older statistics)."""
        if is_postgres(self.session):
            self.session.execute(text("ANALYZE events, player_ratings"))

    # -- changes ---------------------------------------------------------------------------

    def allocate_change_ids(self, count: int) -> list[int]:
        """Ids for ``count`` new changes, so a batch can name its own predecessors.

        PostgreSQL draws them from the column's sequence (safe beside concurrent writers);
        SQLite holds the database write lock, so the next ids after the maximum are free.
        """
        return self._allocate_ids(Change, "changes", "id", count, NEXT_CHANGE_ID)

    def following_change_ids(self, count: int) -> list[int] | None:
        """SQLite: ``count`` ids right after the last ones this transaction allocated, with
        no query, for a caller that has stored changes only with allocated ids since (a
        replay). None where that is not known: before any allocation, and on PostgreSQL,
        whose ids come from a sequence."""
        start = self.session.info.get(NEXT_CHANGE_ID)
        if start is None or is_postgres(self.session):
            return None
        self.session.info[NEXT_CHANGE_ID] = start + count
        return list(range(start, start + count))

    def _allocate_ids(
        self, model: Any, table: str, column: str, count: int, info_key: str
    ) -> list[int]:
        if count == 0:
            return []
        if is_postgres(self.session):
            drawn = self.session.scalar(text(f"SELECT {_drawn(table, column, 'n')}"), {"n": count})
            return [int(value) for value in drawn]
        # Ids handed out earlier in this transaction may not be inserted yet: never reuse them.
        stored = (self.session.scalar(select(func.max(getattr(model, column)))) or 0) + 1
        start = max(stored, self.session.info.get(info_key, 0))
        self.session.info[info_key] = start + count
        return list(range(start, start + count))

    def insert_changes(self, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.session.execute(insert(Change), rows)

    def insert_changes_bulk(
        self, rows: list[dict[str, Any]], *, copy_from: int = COPY_MIN_ROWS
    ) -> None:
        """Insert change rows that carry their ids (a replay's): the same rows as
        ``insert_changes``, written with COPY on PostgreSQL and multi-row INSERTs on
        SQLite, with no per-row ORM or statement work. ``copy_from``: the fewest rows worth
        a COPY (a group commit's few dozen already are)."""
        if len(rows) < copy_from:
            self.insert_changes(rows)
        else:
            self._write_rows(cast(Table, Change.__table__), CHANGE_COLUMNS, rows)

    def change_stream(self) -> ChangeStream:
        """A writer of a replay's change rows (with their ids) as they are made; see
        :class:`ChangeStream`. Use it as a context manager."""
        postgres = is_postgres(self.session)
        return ChangeStream(self, CHANGE_STREAM_BATCH if postgres else SQLITE_STREAM_BATCH)

    def _write_rows(self, table: Table, columns: Sequence[str], rows: list[dict[str, Any]]) -> None:
        """Rows (dicts holding every one of ``columns``) into ``table``, below the ORM."""
        self._write_values(table, columns, _values(columns, rows))

    def _write_values(
        self, table: Table, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Rows (values in the order of ``columns``) into ``table``, below the ORM.

        Values are converted exactly as SQLAlchemy's column types would bind them: JSON as
        JSON text; on SQLite, through the columns' own bind processors (times as text).
        """
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        names = ", ".join(columns)
        if is_postgres(self.session):
            statement = f"COPY {table.name} ({names}) FROM STDIN"
            with (
                driver_errors(connection, statement),
                driver.cursor() as cursor,
                cursor.copy(statement) as copy,
            ):
                for values in _json_encoded(columns, rows):
                    copy.write_row(values)
            return
        statements = self.sqlite_inserts(table, columns, rows)
        cursor = driver.cursor()
        try:
            for statement, parameters in statements:
                with driver_errors(connection, statement_shape(statement)):
                    cursor.execute(statement, parameters)
        finally:
            cursor.close()

    def sqlite_inserts(
        self,
        table: Table,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        variables: int | None = None,
    ) -> Iterator[tuple[str, list[Any]]]:
        """SQLite INSERTs of many rows each (``sqlite_inserts.insert_statements``), values
        converted as the columns' own bind processors would (JSON as text, times as text).
        ``variables``: the connection's bound-variable limit, if known (asking the
        connection is a call into it)."""
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        dialect = connection.dialect
        processors: list[tuple[int, Callable[[Any], Any]]] = []
        for index, name in enumerate(columns):
            column_type = table.c[name].type
            bind = column_type._cached_bind_processor(dialect)
            if bind is None:
                continue
            processor: Callable[[Any], Any] = bind
            if name in _JSON_COLUMNS:
                # The JSON type's processor is json.dumps (of dicts), set up at every call.
                processor = _dicts_then(bind)
            elif isinstance(column_type, UTCDateTime):
                processor = _remembering_last(_sqlite_utc_text)
            processors.append((index, processor))
        values_list = []
        for row in rows:
            values = list(row)
            for index, processor in processors:
                values[index] = processor(values[index])
            values_list.append(values)
        if variables is None:
            variables = variable_limit(driver)
        per_statement = rows_per_statement(variables, len(columns))
        return insert_statements(table.name, columns, values_list, per_statement)

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

    def retire_changes(self, ladder_id: str) -> RetiredChanges | None:
        """Delete all of the ladder's changes for a replay from scratch. On PostgreSQL that
        is done here (None: nothing left). On SQLite only the start of each chain goes now;
        the rest is returned for the replay's :class:`ChangeStream` (``retire``), which
        deletes it in its thread while the new ones are rated.

        Deleting the 400,000 changes of 100,000 four-player glicko2 games took 9.8 s
        here, in one statement holding the connection: the replay could not rate meanwhile.
        Only the chains' first changes must go before the new ones arrive (the new first
        changes would break ``uq_changes_first_per_rating``); every other old row names an
        old predecessor, and new rows only new ones (drawn above today's largest id). The
        rows left pointing at deleted predecessors are foreign-key violations until they
        are deleted too, so the check waits for the commit (``defer_foreign_keys``, which
        SQLite switches off again at the transaction's end), when every old row is gone.
        """
        session = self.session
        if is_postgres(session):
            session.execute(delete(Change).where(Change.ladder_id == ladder_id))
            return None
        session.execute(text("PRAGMA defer_foreign_keys = ON"))
        first, last = session.execute(
            select(func.min(Change.id), func.max(Change.id)).where(Change.ladder_id == ladder_id)
        ).one()
        session.execute(
            delete(Change).where(Change.ladder_id == ladder_id, Change.prev_change_id.is_(None))
        )
        if first is None or last is None:
            return RetiredChanges(ladder_id, 1, 0)
        # New ids from above the old ones, even once the largest is deleted (the allocation
        # also stays above every other ladder's).
        session.info[NEXT_CHANGE_ID] = max(session.info.get(NEXT_CHANGE_ID, 0), last + 1)
        return RetiredChanges(ladder_id, int(first), int(last))

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
        """Each rating's last change at or before ``at`` (its state as of then). Not "before
        ``at`` + 1 µs": after the last representable time there is none."""
        return self._newest_changes(Change.ladder_id == ladder_id, Change.occurred_at <= at)

    def ladder_state_at(self, ladder_id: str, at: datetime) -> dict[str, Any] | None:
        """Ladder-wide state after the last live event at or before ``at``."""
        return self._last_ladder_state(ladder_id, Event.occurred_at <= at)

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

    # -- group commit ----------------------------------------------------------------------

    def allocate_seqs_and_change_ids(
        self, events: int, changes: int
    ) -> tuple[list[int], list[int]]:
        """Seqs for ``events`` new events and ids for ``changes`` new changes, drawn
        together: on PostgreSQL in one statement rather than a round trip per sequence."""
        if not is_postgres(self.session):
            return (
                self._allocate_ids(Event, "events", "seq", events, NEXT_EVENT_SEQ),
                self.allocate_change_ids(changes),
            )
        row = self.session.execute(
            ALLOCATE_SEQS_AND_CHANGE_IDS, {"events": events, "changes": changes}
        ).one()
        return [int(seq) for seq in row[0]], [int(i) for i in row[1]]

    def insert_events_with_seqs(self, rows: list[dict[str, Any]], seqs: Sequence[int]) -> None:
        """Insert events whose seqs were drawn beforehand, below the ORM (COPY on
        PostgreSQL, multi-row INSERTs on SQLite)."""
        if rows:
            self._write_rows(
                cast(Table, Event.__table__),
                EVENT_COLUMNS,
                [{**row, "seq": seq} for row, seq in zip(rows, seqs, strict=True)],
            )

    def stored_keys(self, ladder_id: str, keys: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which (kind, external id) of ``keys`` the ladder already stores: ``find_many``
        without loading the events."""
        if not is_postgres(self.session):
            return set(self.find_many(ladder_id, keys))
        found: set[tuple[str, str]] = set()
        for kind, parameters in stored_ids_lookups(ladder_id, keys):
            rows = self.session.execute(STORED_IDS, parameters)
            found.update((kind, row[0]) for row in rows)
        return found


def stored_ids_lookups(
    ladder_id: str, keys: Sequence[tuple[str, str]]
) -> list[tuple[str, dict[str, Any]]]:
    """The ``STORED_IDS`` queries that check ``keys`` (kind, external id): one per kind and
    slice of ``IDS_PER_ARRAY`` ids, as (kind, parameters)."""
    by_kind: dict[str, set[str]] = {}
    for kind, external_id in keys:
        by_kind.setdefault(kind, set()).add(external_id)
    lookups: list[tuple[str, dict[str, Any]]] = []
    for kind, ids in by_kind.items():
        unique = sorted(ids)
        for begin in range(0, len(unique), IDS_PER_ARRAY):
            part = unique[begin : begin + IDS_PER_ARRAY]
            lookups.append((kind, {"ladder_id": ladder_id, "kind": kind, "ids": part}))
    return lookups


def as_stored(value: Any) -> Any:
    """A column's value as the driver read it (for columns without a result processor)."""
    return value


def _stored_order(row: list[Any]) -> tuple[str, int]:
    """(time as stored, seq): SQLite's time text sorts as the times do."""
    return row[2], row[0]


def _count_if(condition: Any) -> Any:
    return case((condition, 1), else_=0)


@dataclass(slots=True)
class RetiredChanges:
    """A ladder's changes that a replay from scratch deletes as it goes: every one with an
    id up to ``last`` (the ladder's newest change); ``next`` is the lowest id not yet covered
    (the ladder's first change, then where the deletes have reached)."""

    ladder_id: str
    next: int
    last: int

    def take(self, width: int) -> tuple[int, int] | None:
        """The next range of at most ``width`` ids to delete, or None when all are covered."""
        if self.next > self.last:
            return None
        begin, self.next = self.next, min(self.next + width, self.last + 1)
        return begin, self.next - 1


#: Old changes deleted in one range of ids (SQLite, :meth:`ChangeStream.retire`), other
#: ladders' rows in it left alone. The unary ``+`` keeps SQLite from looking the rows up by
#: ``ladder_id``: through that index every range scanned the ladder's whole history
#: (400 ranges of 100,000 glicko2 games: 11.5 s, against 7.4 s by the primary key).
_RETIRE_RANGE = "DELETE FROM changes WHERE id BETWEEN ? AND ? AND +ladder_id = ?"


class ChangeStream:
    """Change rows written while a replay goes on.

    Rows are tuples in the order of ``CHANGE_COLUMNS`` (``state_after`` and ``details`` as
    dicts). On PostgreSQL one COPY stays open while the caller rates the next events, so the
    server stores rows at the same time as Python computes them (a COPY written at the end
    of a batch made Python wait for the server, and the server for Python). No other
    statement may run on the session while it is open: :meth:`pause` ends it (waiting for
    the server to store what was sent) before the caller's next query; the next
    :meth:`write` opens a new one. On SQLite rows are collected, and each batch goes to a
    thread of its own as INSERTs of many rows (``sqlite_inserts.BackgroundInserts``), which
    SQLite stores without holding the GIL; :meth:`pause` waits for them. Leaving the
    ``with`` block flushes; an exception aborts the COPY, or waits for the thread and
    skips what it still holds, so that the transaction can roll back.

    :meth:`lead_events` sends the events the changes refer to ahead of them, in a COPY of
    their own that stays open while the caller rates the first of those events.
    """

    STATEMENT = f"COPY changes ({', '.join(CHANGE_COLUMNS)}) FROM STDIN"
    EVENTS_STATEMENT = f"COPY events ({', '.join(EVENT_COLUMNS)}) FROM STDIN"

    def __init__(self, events: EventRepository, batch: int = CHANGE_STREAM_BATCH) -> None:
        self.events = events
        self.batch = batch
        self.postgres = is_postgres(events.session)
        self.pending: list[tuple[Any, ...]] = []
        self._copy: Any = None
        self._copy_context: Any = None
        self._cursor: Any = None
        self._statement = self.STATEMENT
        #: The open COPY is the events' (change rows wait in ``pending`` until it ends).
        self._leading = False
        #: SQLite: the thread storing batches while the caller rates the next events.
        self._background: BackgroundInserts | None = None
        #: SQLite: old changes the thread deletes, a range after every RETIRE_ROWS new rows.
        self._retiring: RetiredChanges | None = None
        #: New rows stored since the last range of old ones was deleted.
        self._owed = 0

    def __enter__(self) -> ChangeStream:
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if error is None:
            try:
                self.pause()
                self._retire_rest()
            except BaseException:
                self._end_background(discard=True)
                raise
            self._end_background()
            return
        self._end_background(discard=True)
        if self._copy_context is not None:
            context, cursor = self._copy_context, self._cursor
            self._copy = self._copy_context = self._cursor = None
            try:
                context.__exit__(kind, error, trace)  # sends CopyFail
            except Exception:  # the original error is the one to raise
                pass
            finally:
                cursor.close()

    def lead_events(self, rows: list[dict[str, Any]]) -> None:
        """Store ``rows`` (events carrying their seqs, which the changes will refer to).

        On PostgreSQL they go out now in a COPY that stays open: the server stores them
        while the caller rates the first of them, and their change rows wait in memory
        until ``batch`` of them are ready or the stream pauses, when the events' COPY ends
        (an import chunk's events made Python wait ~0.3 s per chunk for the server, and
        then the server wait for Python's ratings). On SQLite they go to the thread that
        stores the change rows' batches, ahead of them.
        """
        table = cast(Table, Event.__table__)
        if not self.postgres:
            self._store_in_background(table, EVENT_COLUMNS, _values(EVENT_COLUMNS, rows))
            return
        self.pause()
        self._open(self.EVENTS_STATEMENT)
        self._leading = True
        write = self._copy.write_row
        values = ([row[column] for column in EVENT_COLUMNS] for row in rows)
        with driver_errors(self.events.session.connection(), self.EVENTS_STATEMENT):
            for row in _json_encoded(EVENT_COLUMNS, values):
                write(row)

    def retire(self, old: RetiredChanges) -> None:
        """Delete ``old`` (``EventRepository.retire_changes``) as the replay goes: each time
        ``RETIRE_ROWS`` new rows went to the thread, it also deletes a range of as many old
        ids; leaving the ``with`` block deletes what is left. SQLite only.

        A full recompute of 100,000 four-player glicko2 games (wide rows, which took 9.8 s
        to delete in one statement) went from 30.8 and 30.8 s to 24.4 and 24.1 s. One range
        per batch of 1,000 rows slowed 200,000 elo games from about 16 s to 17-19 s: every
        statement the thread runs first waits for the GIL, which the replay holds for up
        to the switch interval (5 ms); with ranges of 8,000 it came out even (15.6 and
        16.5 s against 16.8).
        """
        assert not self.postgres
        self._retiring = old

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        if not self.postgres or self._leading:
            self.pending.extend(rows)
            if len(self.pending) >= self.batch:
                waiting, self.pending = self.pending, []
                if self._leading:
                    self._end_copy()
                    self._send(waiting)
                else:
                    self._store_in_background(
                        cast(Table, Change.__table__), CHANGE_COLUMNS, waiting
                    )
                    self._retire_beside(len(waiting))
            return
        self._send(rows)

    def _retire_beside(self, count: int) -> None:
        """Once ``RETIRE_ROWS`` new rows went to the thread, a range of as many old ids."""
        old = self._retiring
        if old is None or self._background is None:
            return
        self._owed += count
        if self._owed < RETIRE_ROWS:
            return
        span, self._owed = old.take(self._owed), 0
        if span is not None:
            self._background.submit(_RETIRE_RANGE, [span[0], span[1], old.ladder_id])

    def _retire_rest(self) -> None:
        """The old changes no range has covered yet, deleted now."""
        old, self._retiring = self._retiring, None
        span = None if old is None else old.take(old.last + 1 - old.next)
        if old is not None and span is not None:
            # Once, through the ladder's index: by the primary key, a ladder whose ids lie
            # scattered in a large table would read every other ladder's rows in between.
            self.events.session.execute(
                delete(Change).where(
                    Change.ladder_id == old.ladder_id, Change.id.between(span[0], span[1])
                )
            )

    def pause(self) -> None:
        """Store everything written so far; the session is free for other statements."""
        self._end_copy()
        if self._background is not None:
            self._background.wait()
        if self.pending:
            rows, self.pending = self.pending, []
            if self.postgres:
                self._send(rows)
                self._end_copy()
            else:
                self.events._write_values(cast(Table, Change.__table__), CHANGE_COLUMNS, rows)

    def _store_in_background(
        self, table: Table, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """SQLite: ``rows`` to the thread that stores them while the caller goes on."""
        background = self._thread()
        statements = self.events.sqlite_inserts(table, columns, rows, background.variables)
        for statement, parameters in statements:
            background.submit(statement, parameters)

    def read_rows(
        self, columns: Sequence[str], source: str, parameters: Sequence[Any]
    ) -> Callable[[], list[list[Any]]]:
        """SQLite: the rows of ``SELECT columns FROM source``, read by the thread after the
        statements it already holds (not the rows still collecting for its next batch:
        read no changes this way). Returns a function that waits for them, as lists of
        values as stored; the caller goes on meanwhile, and needs no :meth:`pause` first.

        The thread reads them as one value, a JSON array of arrays: row by row, every
        ``sqlite3_step`` hands the GIL back and waits to take it again from the busy
        replay (21 pages of a glicko2 recompute took the thread 5.1 s that way, 0.33 s as
        single values). JSON carries integers and text exactly, JSON text as strings, but
        REALs with 15 significant digits: read no float columns this way. The order of
        the rows is not promised."""
        assert not self.postgres
        statement = f"SELECT json_group_array(json_array({', '.join(columns)})) FROM {source}"
        result = self._thread().query(statement, parameters)

        def rows() -> list[list[Any]]:
            ((document,),) = result()
            return cast(list[list[Any]], orjson.loads(document or "[]"))

        return rows

    def _thread(self) -> BackgroundInserts:
        if self._background is None:
            connection = self.events.session.connection()
            driver = connection.connection.driver_connection
            assert isinstance(driver, sqlite3.Connection)
            self._background = BackgroundInserts(driver, partial(driver_errors, connection))
        return self._background

    def _end_background(self, *, discard: bool = False) -> None:
        if self._background is not None:
            background, self._background = self._background, None
            background.close(discard=discard)

    def _send(self, rows: list[tuple[Any, ...]]) -> None:
        """Change rows into the open changes COPY (opened if none is)."""
        if self._copy is None:
            self._open(self.STATEMENT)
        copy, encode = self._copy, _dumps
        with driver_errors(self.events.session.connection(), self.STATEMENT):
            for row in rows:
                values = list(row)
                values[_STATE_AT] = encode(values[_STATE_AT])
                values[_DETAILS_AT] = encode(values[_DETAILS_AT])
                copy.write_row(values)

    def _open(self, statement: str) -> None:
        connection = self.events.session.connection()
        with driver_errors(connection, statement):
            driver = connection.connection.driver_connection
            assert driver is not None
            self._cursor = driver.cursor()
            self._copy_context = self._cursor.copy(statement)
            self._copy = self._copy_context.__enter__()
            self._statement = statement

    def _end_copy(self) -> None:
        """End the open COPY, if any, once the server has stored all it was sent."""
        self._leading = False
        if self._copy_context is None:
            return
        context, cursor = self._copy_context, self._cursor
        self._copy = self._copy_context = self._cursor = None
        try:
            with driver_errors(self.events.session.connection(), self._statement):
                context.__exit__(None, None, None)
        finally:
            cursor.close()


def _values(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    """Rows given as dicts, as lists of their values in the order of ``columns``."""
    return [[row[column] for column in columns] for row in rows]


def _json_encoded(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[list[Any]]:
    """``rows`` with the values of JSON columns as JSON text, for COPY."""
    json_at = [i for i, column in enumerate(columns) if column in _JSON_COLUMNS]
    encode = _dumps
    for row in rows:
        values = list(row)
        for i in json_at:
            if values[i] is not None:
                values[i] = encode(values[i])
        yield values


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
