"""Recording events in a ladder's history, and recomputing what follows them.

Order of history is (time, arrival): ``occurred_at`` then ``seq``. An ordinary event locks the
ladder row shared and its players' rating rows exclusively (sorted, so never a deadlock), then
extends each rating's chain of changes. An event that is late (earlier than something already
applied to one of its ratings), and every event of a ladder-scoped system, takes the ladder
exclusively and recomputes everything from its time onward. Recomputation replays with the
same engine code as the incremental path, so both give the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy.orm import Session

from app.core.database import RetryableConflict
from app.core.errors import Conflict, Invalid
from app.engine.errors import InvalidEvent
from app.engine.ledger import event_keys, event_ranks, outcomes_by_rank
from app.engine.protocols import GameRater, SystemInfo, TournamentRater
from app.engine.types import Game, LadderEvent, Outcome, PlayerKey, PlayerState, Tournament
from app.models import Change, Ladder
from app.repositories.events import ChangeStream, EventRepository, RetiredChanges
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import CurrentRow, RatingKey, RatingRepository
from app.services.conversion import stored_to_engine
from app.services.runtime import (
    Runtime,
    db_key,
    decode_state,
    encode_state,
    engine_key,
    plain,
    rate,
    require_ladder,
    runtime_for,
)


class NeedsExclusiveLock(Exception):
    """The event must be recorded under the ladder's exclusive lock; start over with it."""


@dataclass(frozen=True, slots=True)
class NewEvent:
    kind: str
    external_id: str | None
    occurred_at: datetime
    body: dict[str, Any]
    body_hash: str
    event: LadderEvent
    rated: bool = True
    tournament: str | None = None


@dataclass(frozen=True, slots=True)
class Recorded:
    seq: int
    existing: bool = False
    recomputed_events: int = 0
    recomputed_players: int = 0
    #: The written ``changes`` rows (ordinary path), to answer without reading them back.
    changes: list[dict[str, Any]] | None = None
    runtime: Runtime | None = None


@dataclass(slots=True)
class Chain:
    """Per-rating bookkeeping while writing changes."""

    last_change_id: dict[RatingKey, int | None] = field(default_factory=dict)


def now() -> datetime:
    return datetime.now(UTC)


def validate(runtime: Runtime, event: LadderEvent) -> None:
    """The system's own rules for the event (422 naming the field)."""
    try:
        if isinstance(event, Game):
            if runtime.info.kind != "game":
                raise Invalid.at(
                    ("ladder",),
                    f"ladder uses the tournament system {runtime.info.id!r}: "
                    "post its results to /tournaments",
                )
            cast(GameRater, runtime.rater).validate_game(event)
        elif isinstance(event, Tournament):
            if runtime.info.kind != "tournament":
                raise Invalid.at(
                    ("ladder",),
                    f"ladder uses the game system {runtime.info.id!r}: post its results to /games",
                )
            cast(TournamentRater, runtime.rater).validate_tournament(event)
        else:
            # An adjustment's values must be acceptable to the system (a deviation on Elo...).
            runtime.rater.adjusted_state(
                None, event.rating, event.deviation, event.volatility, event.at
            )
    except InvalidEvent as exc:
        raise Invalid.at(exc.loc, exc.message) from exc


def record(session: Session, ladder_id: str, new: NewEvent, *, exclusive: bool) -> Recorded:
    """Record ``new`` in the ladder's history (idempotent on (ladder, kind, id)).

    The ordinary path is six statements: lock the ladder (shared), lock the players' rows
    (sorted), insert the event (its id conflicting means a repeat), insert the changes,
    update the rows, commit. The response is built from what was written.
    """
    ladders = LadderRepository(session)
    events = EventRepository(session)
    ratings = RatingRepository(session)
    ladder = require_ladder(ladders.get_locked(ladder_id, exclusive=exclusive), ladder_id)
    runtime = runtime_for(ladder)
    validate(runtime, new.event)
    if runtime.info.ladder_scoped and not exclusive:
        raise NeedsExclusiveLock
    keys = event_keys(runtime.info, new.event)
    rating_keys = [db_key(k) for k in keys]
    rows = ratings.lock_many(ladder_id, rating_keys)
    missing = [key for key in rating_keys if key not in rows]
    if missing:
        ratings.ensure(ladder_id, [fresh_row(runtime, ladder, key) for key in missing])
        rows.update(ratings.lock_many(ladder_id, missing))
    if runtime.info.ladder_scoped:
        latest = events.latest(ladder_id)
        late = latest is not None and latest[0] > new.occurred_at
    else:
        late = any(
            row.last_event_at is not None and row.last_event_at > new.occurred_at
            for row in rows.values()
        )
    if late and not exclusive:
        raise NeedsExclusiveLock
    stamp = now()
    seq = events.insert_new(
        {
            "ladder_id": ladder_id,
            "kind": new.kind,
            "external_id": new.external_id,
            "occurred_at": new.occurred_at,
            "body": new.body,
            "body_hash": new.body_hash,
            "rated": new.rated,
            "tournament": new.tournament,
            "created_at": stamp,
        }
    )
    if seq is None:
        return replace(_repeat(events, ladder_id, new), runtime=runtime)
    if late:
        count, players = recompute(session, ladder, new.occurred_at)
        return Recorded(seq, recomputed_events=count, recomputed_players=players, runtime=runtime)

    states = {
        engine_key(*key): decode_state(row.state)
        for key, row in rows.items()
        if row.last_change_id is not None
    }
    outcome = rate(runtime.info, runtime.rater, new.event, states, ladder.state)
    chain = Chain({key: rows[key].last_change_id for key in rating_keys})
    placed = Placed(seq, new.occurred_at, new.rated)
    change_rows, updates = event_change_rows(ladder_id, placed, new.event, outcome, chain, runtime)
    ids = events.insert_changes_returning_ids(change_rows)
    for change_row, change_id in zip(change_rows, ids, strict=True):
        change_row["id"] = change_id
    for (key, update), change_id in zip(updates.items(), ids, strict=True):
        row = rows[key]
        update["last_change_id"] = change_id
        outcome_name = update.pop("outcome")
        if outcome_name is not None:
            update.update(
                games=row.games + 1,
                wins=row.wins + (outcome_name == "win"),
                draws=row.draws + (outcome_name == "draw"),
                losses=row.losses + (outcome_name == "loss"),
                last_played_at=new.occurred_at,
            )
    ratings.update_many(
        ladder_id, [{"player": k[0], "faction": k[1], **u} for k, u in updates.items()]
    )
    if runtime.info.ladder_scoped:
        state = plain(outcome.ladder_state)
        events.set_ladder_states([(seq, state)])
        ladders.set_state(ladder_id, state, stamp)
        _apply_floor(ratings, runtime, ladder_id, state)
    return Recorded(seq, changes=change_rows, runtime=runtime)


def _repeat(events: EventRepository, ladder_id: str, new: NewEvent) -> Recorded:
    """The id is taken: the same body is a repeat (200), another body a conflict (409)."""
    existing = events.find(ladder_id, new.kind, new.external_id or "")
    if existing is None:  # deleted between the insert and this read: try again
        raise RetryableConflict
    if existing.body_hash != new.body_hash:
        raise Conflict(
            f"{new.kind} {new.external_id!r} already exists in ladder {ladder_id!r} "
            "with a different body; use PUT to correct it"
        )
    return Recorded(existing.seq, existing=True)


def _apply_floor(
    ratings: RatingRepository, runtime: Runtime, ladder_id: str, ladder_state: dict[str, Any]
) -> None:
    """Raise every shown rating below the ladder's floor (NADF's base) to it.

    Only the displayed column moves: the stored state keeps the computed value, and the
    engine floors it itself when the player next plays, so replays agree.
    """
    floor = runtime.rater.rating_floor(ladder_state)
    if floor is not None:
        ratings.raise_to_floor(ladder_id, floor)


def fresh_row(runtime: Runtime, ladder: Ladder, key: RatingKey) -> dict[str, Any]:
    state = runtime.rater.initial_state(ladder.state)
    return {"player": key[0], "faction": key[1], **_state_columns(runtime, state)}


def _state_columns(runtime: Runtime, state: PlayerState) -> dict[str, Any]:
    standing = runtime.standing(state)
    return {
        "rating": standing.rating,
        "deviation": standing.deviation,
        "volatility": standing.volatility,
        "ranking_value": standing.ranking_value,
        "tiebreak": standing.tiebreak,
        "state": encode_state(state),
    }


@dataclass(frozen=True, slots=True)
class Placed:
    """Where an event stands in history."""

    seq: int
    occurred_at: datetime
    rated: bool


def event_change_rows(
    ladder_id: str,
    placed: Placed,
    event: LadderEvent,
    outcome: Outcome,
    chain: Chain,
    runtime: Runtime,
    ids: Sequence[int] | None = None,
) -> tuple[list[dict[str, Any]], dict[RatingKey, dict[str, Any]]]:
    """The ``changes`` rows of one event, chained to each rating's previous change.

    With ``ids`` the rows carry them and the chain advances; without, the database assigns
    ids on insert and the caller records them.
    """
    ranks = event_ranks(event)
    outcomes = outcomes_by_rank(ranks) if placed.rated else [None] * len(ranks)
    rows: list[dict[str, Any]] = []
    updates: dict[RatingKey, dict[str, Any]] = {}
    for position, change in enumerate(outcome.changes):
        key = db_key(change.key)
        change_id = ids[position] if ids is not None else None
        row = {
            "ladder_id": ladder_id,
            "event_seq": placed.seq,
            "player": key[0],
            "faction": key[1],
            "position": position,
            "rank": ranks[position] if position < len(ranks) else None,
            "outcome": outcomes[position] if position < len(outcomes) else None,
            "occurred_at": placed.occurred_at,
            "seq": placed.seq,
            "rating_before": change.before.rating,
            "rating_after": change.after.rating,
            "deviation_before": change.before.deviation,
            "deviation_after": change.after.deviation,
            "volatility_before": change.before.volatility,
            "volatility_after": change.after.volatility,
            "state_after": encode_state(change.after),
            "details": plain(change.details),
            "prev_change_id": chain.last_change_id.get(key),
        }
        if change_id is not None:
            row["id"] = change_id
            chain.last_change_id[key] = change_id
        rows.append(row)
        updates[key] = {
            **_state_columns(runtime, change.after),
            "last_change_id": change_id,
            "last_event_at": placed.occurred_at,
            "last_event_seq": placed.seq,
            "outcome": row["outcome"],
        }
    return rows, updates


def _replay_rows(
    ladder_id: str,
    placed: Placed,
    event: LadderEvent,
    outcome: Outcome,
    chain: Chain,
    ids: Sequence[int],
) -> tuple[list[tuple[Any, ...]], dict[RatingKey, tuple[PlayerState, int, str | None]]]:
    """A replayed event's ``changes`` rows (values in the order of ``CHANGE_COLUMNS``), the
    same values as ``change_rows`` with ``ids``; and per rating its new state, change id and
    statistic outcome. The rating rows' columns are derived once, from the final states, at
    the end of the replay (``change_rows`` derives them at every change, for ``record``).
    """
    ranks = event_ranks(event)
    outcomes = outcomes_by_rank(ranks) if placed.rated else [None] * len(ranks)
    rows: list[tuple[Any, ...]] = []
    touched: dict[RatingKey, tuple[PlayerState, int, str | None]] = {}
    last = chain.last_change_id
    for position, change in enumerate(outcome.changes):
        key = db_key(change.key)
        change_id = ids[position]
        before, after = change.before, change.after
        result = outcomes[position] if position < len(outcomes) else None
        rows.append(
            (
                change_id,
                ladder_id,
                placed.seq,
                key[0],
                key[1],
                position,
                ranks[position] if position < len(ranks) else None,
                result,
                placed.occurred_at,
                placed.seq,
                before.rating,
                after.rating,
                before.deviation,
                after.deviation,
                before.volatility,
                after.volatility,
                # The engine's read-only mappings copied one level into dicts, which orjson
                # writes itself (the same text as ``encode_state``/``plain``): for a view it
                # calls back into Python, 1.2 against 0.24 µs for an elo change's terms.
                # Nested views, if any, still go through that call.
                {
                    "rating": after.rating,
                    "deviation": after.deviation,
                    "volatility": after.volatility,
                    "extra": dict(after.extra),
                },
                dict(change.details),
                last.get(key),
            )
        )
        last[key] = change_id
        touched[key] = (after, change_id, result)
    return rows, touched


#: Events replayed together: their starting states are loaded at once.
Page = list[tuple[Placed, LadderEvent]]
#: Events loaded per query during recomputation (keyset pages keep memory flat).
EVENT_PAGE = 5_000
#: Change rows written per INSERT batch, and change ids drawn per allocation.
CHANGE_BATCH = 5_000


class _IdPool:
    """Change ids drawn from the database in blocks, handed out in order."""

    def __init__(self, events: EventRepository) -> None:
        self.events = events
        self.free: list[int] = []
        self.has_drawn = False
        #: Index of the next free id in ``free`` (slicing the rest off each time was O(n)).
        self.next = 0
        #: Called before drawing ids from the database (a replay pauses its COPY).
        self.before_query: Callable[[], None] | None = None

    def reserve(self, count: int) -> None:
        """Have at least ``count`` ids at hand (so the next takes need no query)."""
        if len(self.free) - self.next < count:
            wanted = max(CHANGE_BATCH, count)
            # After the first draw, only this pool's ids are stored: the ids that follow
            # are free, and on SQLite known without a query (which would pause the stream).
            drawn = self.events.following_change_ids(wanted) if self.has_drawn else None
            if drawn is None:
                if self.before_query is not None:
                    self.before_query()
                drawn = self.events.allocate_change_ids(wanted)
            self.has_drawn = True
            self.free = self.free[self.next :]
            self.next = 0
            self.free.extend(drawn)

    def take(self, count: int) -> list[int]:
        self.reserve(count)
        taken = self.free[self.next : self.next + count]
        self.next += count
        return taken


@dataclass(slots=True)
class Counters:
    """A rating's statistics, carried through a replay."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_played_at: datetime | None = None

    def add(self, outcome: str | None, at: datetime) -> None:
        if outcome is None:
            return
        self.games += 1
        self.wins += outcome == "win"
        self.draws += outcome == "draw"
        self.losses += outcome == "loss"
        self.last_played_at = at

    def columns(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "last_played_at": self.last_played_at,
        }


@dataclass(slots=True)
class _Replay:
    """Per-rating bookkeeping of a recomputation, loaded lazily page by page."""

    states: dict[PlayerKey, PlayerState] = field(default_factory=dict)
    chain: Chain = field(default_factory=Chain)
    counters: dict[RatingKey, Counters] = field(default_factory=dict)
    #: Chain columns of ratings whose newest surviving change precedes the replay.
    start_meta: dict[RatingKey, dict[str, Any]] = field(default_factory=dict)

    #: Ratings that lost changes to this replay; None: all of them (a replay from scratch).
    touched: set[RatingKey] | None = None
    #: Ratings whose row was read (it exists: no need to create it at the end).
    existing: set[RatingKey] = field(default_factory=set)
    #: Current rows of the next page's ratings, being read by the stream's thread.
    ahead: list[Callable[[], dict[RatingKey, CurrentRow]]] = field(default_factory=list)

    def read_ahead(
        self,
        ratings: RatingRepository,
        ladder_id: str,
        keys: Iterable[RatingKey],
        stream: ChangeStream,
    ) -> None:
        """Have the stream's thread read the current rows of the ratings among ``keys`` (the
        next page's) that are not loaded yet and lost no changes, while this page is rated;
        :meth:`load` takes them in. On SQLite only (elsewhere :meth:`load` reads them)."""
        if self.touched is None:
            return
        wanted = sorted({k for k in keys if k not in self.counters and k not in self.touched})
        rows = ratings.current_rows_beside(stream, ladder_id, wanted) if wanted else None
        if rows is None:
            return
        for key in wanted:  # claimed: no later load asks for them again
            self.counters[key] = Counters()
        self.ahead.append(rows)

    def _start_at(
        self,
        key: RatingKey,
        state: Any,
        change_id: int,
        event_at: datetime,
        event_seq: int,
        counters: Counters,
    ) -> None:
        """``key`` starts from a stored change: the state after it (as stored), the chain,
        the rating row's columns that point at it, and the statistics up to it."""
        self.states[engine_key(*key)] = decode_state(state)
        self.chain.last_change_id[key] = change_id
        self.start_meta[key] = {
            "last_change_id": change_id,
            "last_event_at": event_at,
            "last_event_seq": event_seq,
        }
        self.counters[key] = counters

    def _start_from_rows(self, rows: Mapping[RatingKey, Any]) -> None:
        """Ratings that lost no changes start from their current rows."""
        for key, row in rows.items():
            self.existing.add(key)
            if row.last_change_id is None:
                continue
            self._start_at(
                key,
                row.state,
                row.last_change_id,
                row.last_event_at,
                row.last_event_seq,
                Counters(row.games, row.wins, row.draws, row.losses, row.last_played_at),
            )

    def load(
        self,
        events: EventRepository,
        ratings: RatingRepository,
        ladder_id: str,
        keys: Iterable[RatingKey],
        before_query: Callable[[], None] | None = None,
    ) -> None:
        """Bring in the starting point of ratings not seen yet (``before_query`` is called
        first when that takes a query).

        A rating that lost no changes starts from its current row (state, chain, counters),
        so a replay that only extends history never rescans earlier changes. One that lost
        changes starts from its newest surviving change and the statistics of the rest.
        """
        pending, self.ahead = self.ahead, []
        for rows in pending:
            self._start_from_rows(rows())
        wanted = [k for k in keys if k not in self.counters]
        if not wanted:
            return
        for key in wanted:
            self.counters[key] = Counters()
        if self.touched is None:
            return  # from scratch: nothing survives, everyone starts fresh
        if before_query is not None:
            before_query()
        intact = [k for k in wanted if k not in self.touched]
        self._start_from_rows(ratings.current_rows(ladder_id, intact))
        lost = [k for k in wanted if k in self.touched]
        for key, (last, stats) in events.starting_points(ladder_id, lost).items():
            self._start_at(
                key, last.state_after, last.id, last.occurred_at, last.seq, Counters(**stats)
            )


def recompute(session: Session, ladder: Ladder, start: datetime | None) -> tuple[int, int]:
    """Rewrite every change at or after ``start`` by replaying the live history from there.

    With ``start=None`` this is a full replay from scratch. The caller holds the ladder's
    exclusive lock. Events stream in pages, starting states are loaded for each page's
    players only, and changes are written in batches, so time and memory follow the
    replayed events rather than the ladder's size. Returns (events replayed, ratings touched).
    """
    events = EventRepository(session)
    runtime = runtime_for(ladder)
    per_faction = runtime.info.per_faction
    ladder_state = _ladder_state_at(events, runtime, ladder, start)
    touched: set[RatingKey] | None = None
    retired: RetiredChanges | None = None
    if start is not None:
        touched = set(events.delete_changes_from(ladder.id, start))
    else:  # on SQLite most old changes are deleted while the new ones are rated
        retired = events.retire_changes(ladder.id)

    def pages(stream: ChangeStream) -> Iterator[Page]:
        for page in events.live_rows(ladder.id, start, EVENT_PAGE, beside=stream):
            yield [
                (Placed(seq, occurred_at, rated), stored_to_engine(kind, body, per_faction))
                for seq, kind, occurred_at, rated, body in page
            ]

    return _replay(session, ladder, runtime, ladder_state, touched, pages, retired=retired)


def append(
    session: Session,
    ladder: Ladder,
    new: Sequence[tuple[Placed, LadderEvent]],
    rows: list[dict[str, Any]] | None = None,
) -> tuple[int, int]:
    """Extend the history with events (in history order) that stand at or after every live
    event of the ladder: what ``recompute`` from the first of them does, without deleting
    and re-reading what it would rewrite identically. The caller holds the ladder's
    exclusive lock and checked the order. Returns (events rated, ratings touched).

    The events are inserted already, or are ``rows`` (carrying their seqs): then they are
    written here, while the first of them are rated (``ChangeStream.lead_events``).
    """
    if not new:
        return 0, 0
    events = EventRepository(session)
    runtime = runtime_for(ladder)
    ladder_state = _ladder_state_at(events, runtime, ladder, new[0][0].occurred_at)
    pages = [list(new[begin : begin + EVENT_PAGE]) for begin in range(0, len(new), EVENT_PAGE)]
    return _replay(session, ladder, runtime, ladder_state, set(), pages, rows)


def _rating_keys(info: SystemInfo, page: Page) -> list[RatingKey]:
    """The ratings a page's events touch, in order (repeats kept)."""
    return [db_key(k) for _, event in page for k in event_keys(info, event)]


def _ladder_state_at(
    events: EventRepository, runtime: Runtime, ladder: Ladder, start: datetime | None
) -> Any:
    ladder_state: Any = None if start is None else events.ladder_state_before(ladder.id, start)
    if ladder_state is None:
        ladder_state = plain(runtime.rater.initial_ladder_state())
    return ladder_state


def _replay(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    ladder_state: Any,
    touched: set[RatingKey] | None,
    pages: list[Page] | Callable[[ChangeStream], Iterable[Page]],
    event_rows: list[dict[str, Any]] | None = None,
    *,
    retired: RetiredChanges | None = None,
) -> tuple[int, int]:
    """Rate ``pages`` of events in history order, write their changes and the ratings.

    ``pages``: held in memory (an append's), or read as the replay goes (a recompute's,
    given the change stream, whose thread reads them on SQLite).

    ``touched``: the ratings that lost changes (each starts from its newest surviving change);
    the others start from their current row; None: a replay from scratch. ``event_rows``:
    the events themselves, not stored yet; they go out once the first page's starting
    states and ids are read, ahead of its changes. ``retired``: old changes the change
    stream deletes as it goes (a replay from scratch on SQLite).
    """
    events = EventRepository(session)
    ratings = RatingRepository(session)
    ladders = LadderRepository(session)
    info, rater = runtime.info, runtime.rater
    work = _Replay(touched=touched)
    ids = _IdPool(events)
    #: Each rating's newest (state, change id, event) in the replay: its row is written once,
    #: at the end.
    finals: dict[RatingKey, tuple[PlayerState, int, Placed]] = {}
    ladder_states: list[tuple[int, dict[str, Any]]] = []
    current_ladder_state: Any = ladder_state
    replayed = 0
    # Changes stream out while the next events are rated (COPY on PostgreSQL, a thread on
    # SQLite); the stream pauses for every other statement: starting states, ids, and on
    # PostgreSQL the next page (SQLite's thread reads it).
    with events.change_stream() as stream:
        if retired is not None:
            stream.retire(retired)
        ids.before_query = stream.pause
        listed = pages if isinstance(pages, list) else None
        source = pages if isinstance(pages, list) else pages(stream)
        if listed and stream.postgres:
            # Pages held in memory (an append's): every page's starting states and change
            # ids are read before the first change is copied, so no page boundary has to
            # end the COPY and wait for PostgreSQL to catch up before its query.
            every = [key for page in listed for key in _rating_keys(info, page)]
            work.load(events, ratings, ladder.id, set(every), before_query=stream.pause)
            ids.reserve(len(every))
        elif listed:
            # On SQLite the thread reads the rows of each page's ratings while the page
            # before it is rated (reading them all first, as above, made the apply phase
            # of 200,000 elo games slower: 19.4-19.7 s against 18.0-18.3 s).
            work.read_ahead(ratings, ladder.id, _rating_keys(info, listed[0]), stream)
        for index, page in enumerate(source):
            keys = _rating_keys(info, page)
            work.load(events, ratings, ladder.id, set(keys), before_query=stream.pause)
            if listed is not None and not stream.postgres and index + 1 < len(listed):
                work.read_ahead(ratings, ladder.id, _rating_keys(info, listed[index + 1]), stream)
            ids.reserve(len(keys))
            if event_rows is not None:
                stream.lead_events(event_rows)
                event_rows = None
            for placed, engine_event in page:
                outcome = rate(info, rater, engine_event, work.states, current_ladder_state)
                for change in outcome.changes:
                    work.states[change.key] = change.after
                rows, touched_now = _replay_rows(
                    ladder.id,
                    placed,
                    engine_event,
                    outcome,
                    work.chain,
                    ids.take(len(outcome.changes)),
                )
                stream.write(rows)
                for key, (state, change_id, result) in touched_now.items():
                    work.counters[key].add(result, placed.occurred_at)
                    finals[key] = (state, change_id, placed)
                if info.ladder_scoped:
                    current_ladder_state = plain(outcome.ladder_state)
                    ladder_states.append((placed.seq, current_ladder_state))
                replayed += 1
        ids.before_query = None
    if info.ladder_scoped:
        events.set_ladder_states(ladder_states)
        ladders.set_state(ladder.id, current_ladder_state, now())

    # Ratings that lost changes but had none replayed (a voided game's players).
    touched = touched or set()
    work.load(events, ratings, ladder.id, touched)
    affected = touched | set(finals)
    ratings.ensure(
        ladder.id,
        [fresh_row(runtime, ladder, key) for key in sorted(affected - work.existing)],
    )
    updates_out: list[dict[str, Any]] = []
    orphaned: list[RatingKey] = []
    for key in sorted(affected):
        if key in finals:
            state, change_id, placed = finals[key]
            values = {
                **_state_columns(runtime, state),
                "last_change_id": change_id,
                "last_event_at": placed.occurred_at,
                "last_event_seq": placed.seq,
            }
        elif key in work.start_meta:
            state = work.states[engine_key(*key)]
            values = {**_state_columns(runtime, state), **work.start_meta[key]}
        else:
            orphaned.append(key)
            continue
        values.update(work.counters[key].columns())
        updates_out.append({"player": key[0], "faction": key[1], **values})
    ratings.update_many(ladder.id, updates_out)
    ratings.delete_many(ladder.id, orphaned)
    if info.ladder_scoped:
        # The floor may have fallen (a voided game): re-derive every shown rating first.
        untouched = [
            {
                "player": row.player,
                "faction": row.faction,
                **_state_columns(runtime, decode_state(row.state)),
            }
            for row in ratings.all_of_ladder(ladder.id)
            if (row.player, row.faction) not in affected
        ]
        ratings.update_many(ladder.id, untouched)
        _apply_floor(ratings, runtime, ladder.id, current_ladder_state)
    return replayed, len(affected)


def states_as_of(
    session: Session, ladder: Ladder, runtime: Runtime, keys: Sequence[PlayerKey], at: datetime
) -> tuple[dict[PlayerKey, PlayerState], Any]:
    """States (and the ladder state) just after everything at or before ``at``.

    Used by dry runs and previews: a late result is rated as it would be in history.
    """
    events = EventRepository(session)
    ratings = RatingRepository(session)
    rows = ratings.get_many(ladder.id, [db_key(k) for k in keys])
    states: dict[PlayerKey, PlayerState] = {}
    for key in keys:
        row = rows.get(db_key(key))
        if row is None or row.last_change_id is None:
            continue
        if row.last_event_at is not None and row.last_event_at <= at:
            states[key] = decode_state(row.state)
    missing = [k for k in keys if k not in states and db_key(k) in rows]
    if missing:
        wanted = {db_key(k) for k in missing}
        for change in events.last_changes_at(ladder.id, at):
            if (change.player, change.faction) in wanted:
                states[engine_key(change.player, change.faction)] = decode_state(change.state_after)
    ladder_state: Any = ladder.state
    if runtime.info.ladder_scoped:
        latest = events.latest(ladder.id)
        if latest is not None and latest[0] > at:
            ladder_state = events.ladder_state_at(ladder.id, at)
            if ladder_state is None:
                ladder_state = plain(runtime.rater.initial_ladder_state())
    return states, ladder_state


def stored_changes(session: Session, seq: int) -> list[Change]:
    return EventRepository(session).changes_of_event(seq)
