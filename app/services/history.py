"""Recording events in a ladder's history, and recomputing what follows them.

Order of history is (time, arrival): ``occurred_at`` then ``seq``. An ordinary event locks the
ladder shared and its players' rating rows exclusively (sorted, so never a deadlock), then
extends each rating's chain of changes. An event that is late (earlier than something already
applied to one of its ratings), and every event of a ladder-scoped system, needs the ladder's
exclusive lock and recomputes what follows it: the events that depend on it (its dependency
cone, :func:`recompute`), or for a ladder-scoped system everything from its time onward.

Every path rates through one loop, :class:`_Replay` over the engine's
:func:`app.engine.ledger.replay`: recording one event, a group of them, a batch or an import
chunk, and recomputation, so they cannot disagree. Writes go through the database's
:class:`~app.repositories.history.HistoryWriter`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import groupby
from operator import itemgetter
from typing import Any, cast

from sqlalchemy.orm import Session

from app.core.database import Retry
from app.core.errors import Conflict, DomainError, Invalid, NotFound
from app.engine.ledger import event_keys, event_ranks, outcomes_by_rank, replay, shown
from app.engine.protocols import GameRater, TournamentRater
from app.engine.types import Game, LadderEvent, PlayerKey, PlayerState, Tournament
from app.models import Event, Ladder
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.history import history_writer
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingKey, RatingRepository
from app.services.conversion import stored_to_engine
from app.services.runtime import (
    Runtime,
    body_hash,
    db_key,
    decode_state,
    encode_state,
    engine_key,
    engine_refusals,
    plain,
    require_ladder,
    runtime_for,
)

#: Events read and rated per page during recomputation: memory follows the page, not the
#: ladder's history.
EVENT_PAGE = 5_000


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event about to be stored: its body as validated, and the engine's view of it."""

    ladder_id: str
    kind: str
    #: None for adjustments made through the API, which have no client id.
    external_id: str | None
    occurred_at: datetime
    body: dict[str, Any]
    event: LadderEvent
    rated: bool = True
    tournament: str | None = None
    #: SHA-256 of the canonical body (idempotency), computed once.
    body_hash: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "body_hash", body_hash(self.body))

    @property
    def id_key(self) -> tuple[str, str] | None:
        return None if self.external_id is None else (self.kind, self.external_id)


@dataclass(frozen=True, slots=True)
class Created:
    """Stored now at the end of its ratings' histories: its changes as written."""

    seq: int
    changes: list[dict[str, Any]]
    runtime: Runtime


@dataclass(frozen=True, slots=True)
class Existing:
    """Its id was stored already, with the same body: nothing changed."""

    seq: int


@dataclass(frozen=True, slots=True)
class Recomputed:
    """Stored before something already in history: what depends on it was re-rated
    (``events`` stored events, ``players`` ratings; see :func:`recompute`)."""

    seq: int
    events: int
    players: int


@dataclass(frozen=True, slots=True)
class Deferred:
    """Not recorded by a group: it goes on its own (late, repeated, or ladder-wide)."""


DEFERRED = Deferred()

#: What each game of a group became.
Appended = Created | Deferred | DomainError


def validate(runtime: Runtime, event: LadderEvent) -> None:
    """The system's own rules for the event (422 naming the field)."""
    if isinstance(event, Game) and runtime.info.kind != "game":
        raise Invalid.at(
            ("ladder",),
            f"ladder uses the tournament system {runtime.info.id!r}: "
            "post its results to /tournaments",
        )
    if isinstance(event, Tournament) and runtime.info.kind != "tournament":
        raise Invalid.at(
            ("ladder",),
            f"ladder uses the game system {runtime.info.id!r}: post its results to /games",
        )
    with engine_refusals():
        if isinstance(event, Game):
            cast(GameRater, runtime.rater).validate_game(event)
        elif isinstance(event, Tournament):
            cast(TournamentRater, runtime.rater).validate_tournament(event)
        else:
            # An adjustment's values must be acceptable to the system (a deviation on Elo...).
            runtime.rater.adjusted_state(
                None, event.rating, event.deviation, event.volatility, event.at
            )


def record(
    session: Session, ladder_id: str, new: NewEvent, *, exclusive: bool
) -> Created | Existing | Recomputed | Retry:
    """Record ``new`` (idempotent on its ladder, kind and id), or ask for the ladder's
    exclusive lock (:attr:`Retry.EXCLUSIVE`) when it is late or the system ladder-wide."""
    ladders = LadderRepository(session)
    events = EventRepository(session)
    ladder = require_ladder(ladders.get_locked(ladder_id, exclusive=exclusive), ladder_id)
    runtime = runtime_for(ladder)
    validate(runtime, new.event)
    if runtime.info.ladder_scoped and not exclusive:
        return Retry.EXCLUSIVE
    if new.external_id is not None:
        stored = events.find(ladder_id, new.kind, new.external_id)
        if stored is not None:
            return _repeat(stored, new)
    rows = _locked_rows(session, ladder, runtime, _keys(runtime, new))
    if _late(session, runtime, ladder_id, new, rows):
        if not exclusive:
            return Retry.EXCLUSIVE
        [seq] = _write_events(session, [new])
        count, players = recompute(session, ladder, new.occurred_at, changed=[seq])
        return Recomputed(seq, count, players)
    [created] = _extend(session, ladder, runtime, [new], rows)
    return created


def _repeat(stored: Event, new: NewEvent) -> Existing:
    """The id is taken: the same body is a repeat (200), another body a conflict (409)."""
    if stored.body_hash != new.body_hash:
        raise Conflict(
            f"{new.kind} {new.external_id!r} already exists in ladder {new.ladder_id!r} "
            "with a different body; use PUT to correct it"
        )
    return Existing(stored.seq)


def append_group(session: Session, ladder_id: str, items: Sequence[NewEvent]) -> list[Appended]:
    """Record games that arrived together (group commit) in one transaction, in arrival
    order, exactly as :func:`record` would one by one. What only extends history is
    recorded here; the rest is handed back (:data:`DEFERRED`) for :func:`record`: late
    games, ids already stored or repeated in the group, ladder-wide systems, and every game
    of a ladder whose exclusive lock is held (its recomputation must not stall the writer
    that serves every ladder)."""
    ladders = LadderRepository(session)
    if not ladders.try_lock_shared(ladder_id):
        return [DEFERRED for _ in items]
    ladder = ladders.get(ladder_id)
    if ladder is None:
        return [NotFound(f"ladder {ladder_id!r} does not exist") for _ in items]
    runtime = runtime_for(ladder)
    if runtime.info.ladder_scoped:
        return [DEFERRED for _ in items]
    results: list[Appended | None] = [_refusal(runtime, new) for new in items]
    candidates = _first_of_each_id(items, results)
    stored = EventRepository(session).find_many(
        ladder_id, [key for i in candidates if (key := items[i].id_key) is not None]
    )
    keys_of = {i: _keys(runtime, items[i]) for i in candidates if items[i].id_key not in stored}
    rows = _locked_rows(session, ladder, runtime, [k for keys in keys_of.values() for k in keys])
    last_at = {key: row.last_event_at for key, row in rows.items()}
    appended: list[int] = []
    for index, keys in keys_of.items():  # in arrival order
        at = items[index].occurred_at
        if any((last := last_at[k]) is not None and last > at for k in keys):
            continue  # late: handed back
        appended.append(index)
        last_at.update(dict.fromkeys(keys, at))
    created = _extend(session, ladder, runtime, [items[i] for i in appended], rows)
    for index, done in zip(appended, created, strict=True):
        results[index] = done
    return [result if result is not None else DEFERRED for result in results]


def _refusal(runtime: Runtime, new: NewEvent) -> Invalid | None:
    try:
        validate(runtime, new.event)
    except Invalid as exc:
        return exc
    return None


def _first_of_each_id(items: Sequence[NewEvent], results: Sequence[Appended | None]) -> list[int]:
    """The valid items whose id has not come earlier in the group (repeats go one by one)."""
    seen: set[tuple[str, str] | None] = set()
    first: list[int] = []
    for index, new in enumerate(items):
        if results[index] is None and new.id_key not in seen:
            seen.add(new.id_key)
            first.append(index)
    return first


def store(
    session: Session, ladder: Ladder, items: Sequence[NewEvent]
) -> tuple[list[int], int, bool]:
    """Store new events (not stored yet; the caller holds the ladder's exclusive lock and
    checked their ids), in time order, then input order. Returns their seqs, the stored
    events re-rated (the new ones not included: see :func:`recompute`), and whether history
    before the end was recomputed (some came before a stored event)."""
    if not items:
        return [], 0, False
    ordered = sorted(range(len(items)), key=lambda i: (items[i].occurred_at, i))
    runtime = runtime_for(ladder)
    latest = EventRepository(session).latest(ladder.id)
    first = items[ordered[0]].occurred_at
    seqs = [0] * len(items)
    if latest is None or latest[0] <= first:
        keys = [k for i in ordered for k in _keys(runtime, items[i])]
        rows = _locked_rows(session, ladder, runtime, keys)
        created = _extend(session, ladder, runtime, [items[i] for i in ordered], rows)
        for index, done in zip(ordered, created, strict=True):
            seqs[index] = done.seq
        return seqs, 0, False
    written = _write_events(session, [items[i] for i in ordered])
    for index, seq in zip(ordered, written, strict=True):
        seqs[index] = seq
    count, _players = recompute(session, ladder, first, changed=written)
    return seqs, count, True


def recompute(
    session: Session, ladder: Ladder, start: datetime | None, *, changed: Collection[int] = ()
) -> tuple[int, int]:
    """Re-rate what follows ``start`` (``None``: everything, from scratch); the caller holds
    the ladder's exclusive lock.

    ``changed`` names the events stored, corrected or voided since they were last rated (all
    at or after ``start``). With them, a system whose events depend only on their own
    ratings re-rates just their dependency cone (:func:`_cone`): the replay is the same as
    the whole tail's for every event it rates, and the others could not move. Without them,
    for a ladder-scoped system, or from scratch, every live event from ``start`` is
    re-rated.

    Returns (stored events re-rated, ``changed`` not included; ratings rewritten).
    """
    runtime = runtime_for(ladder)
    changed = set(changed)
    if start is None or not changed or runtime.info.ladder_scoped:
        return _recompute_tail(session, ladder, runtime, start, changed)
    events = EventRepository(session)
    cone = _cone(session, ladder, runtime, start, changed)
    ChangeRepository(session).delete_of_events(ladder.id, cone.deleted)
    ladder_state = plain(runtime.rater.initial_ladder_state())  # not ladder-scoped: constant
    work = _Replay(session, ladder, runtime, ladder_state, cone.lost)
    pages = events.live_rows_of(ladder.id, cone.replayed, EVENT_PAGE)
    return _replay_pages(work, runtime, pages, changed)


def _recompute_tail(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    start: datetime | None,
    changed: Collection[int],
) -> tuple[int, int]:
    """Rewrite every change at or after ``start`` by replaying the live history from there."""
    events = EventRepository(session)
    ladder_state: Any = None if start is None else events.ladder_state_before(ladder.id, start)
    if ladder_state is None:
        ladder_state = plain(runtime.rater.initial_ladder_state())
    lost = ChangeRepository(session).delete_from(ladder.id, start)
    work = _Replay(session, ladder, runtime, ladder_state, lost, from_scratch=start is None)
    return _replay_pages(work, runtime, events.live_rows(ladder.id, start, EVENT_PAGE), changed)


def _replay_pages(
    work: _Replay, runtime: Runtime, pages: Iterable[Sequence[Any]], changed: Collection[int]
) -> tuple[int, int]:
    """Rate the pages of stored rows in order; (stored events re-rated but ``changed``,
    ratings rewritten)."""
    per_faction = runtime.info.per_faction
    own = 0
    for page in pages:
        placed = [
            (
                _Placed(row.seq, row.occurred_at, row.rated),
                stored_to_engine(row.kind, row.body, per_faction),
            )
            for row in page
        ]
        own += sum(1 for row in page if row.seq in changed)
        work.load([k for _, event in placed for k in _db_keys(runtime, event)])
        work.rate(placed)
    replayed, players = work.finish()
    return replayed - own, players


@dataclass(frozen=True, slots=True)
class _Fresh:
    """A changed event as it stands now (live): its place in history and its ratings."""

    occurred_at: datetime
    seq: int
    keys: frozenset[RatingKey]


@dataclass(slots=True)
class _Cone:
    """What a change re-rates, each list in history order."""

    #: The events to replay: the cone, and the live changed events at their new places.
    replayed: list[int] = field(default_factory=list)
    #: The stored events whose changes go: the cone's, and the changed events' (old places).
    deleted: list[int] = field(default_factory=list)
    #: The ratings whose changes go.
    lost: set[RatingKey] = field(default_factory=set)


def _cone(
    session: Session, ladder: Ladder, runtime: Runtime, start: datetime, changed: Collection[int]
) -> _Cone:
    """The dependency cone of the ``changed`` events.

    A rating is *dirty* from the first place where its history differs: where a changed
    event stood before (its stored changes) or stands now (its current body), or where an
    event of the cone rates it. A stored event at or after ``start`` is in the cone when
    one of its ratings is dirty by then; it makes all of its ratings dirty. Walking the
    stored changes' positions in history order, merged with the changed events' new
    places, finds exactly that. An event's outcome depends only on its own ratings' states
    (every system but a ladder-scoped one), so an event outside the cone met the same
    states it was rated from, and its changes stand; and every change of a dirty rating
    after it became dirty belongs to the cone, so once they are deleted its newest
    surviving change is where its replay starts.
    """
    per_faction = runtime.info.per_faction
    waiting = deque(
        sorted(
            (
                _Fresh(
                    row.occurred_at,
                    row.seq,
                    frozenset(_db_keys(runtime, stored_to_engine(row.kind, row.body, per_faction))),
                )
                for page in EventRepository(session).live_rows_of(
                    ladder.id, sorted(changed), EVENT_PAGE
                )
                for row in page
            ),
            key=lambda fresh: (fresh.occurred_at, fresh.seq),
        )
    )
    dirty: set[RatingKey] = set()
    cone = _Cone()

    def meet(seq: int, keys: set[RatingKey]) -> None:
        """A stored event (or a changed one where it stood) at its place in the walk."""
        if seq in changed or not dirty.isdisjoint(keys):
            dirty.update(keys)
            cone.lost.update(keys)
            cone.deleted.append(seq)
            if seq not in changed:  # a changed event is replayed at its new place
                cone.replayed.append(seq)

    def admit(fresh: _Fresh) -> None:
        """A changed event at its new place."""
        dirty.update(fresh.keys)
        cone.replayed.append(fresh.seq)

    changes = ChangeRepository(session)
    # Up to the last changed event's new place, stored events and changed ones interleave;
    # from it only stored events come (and that event's own old changes, if it was corrected
    # in place), and their times are not needed.
    last = (waiting[-1].occurred_at, waiting[-1].seq) if waiting else None
    if last is not None:
        timed = changes.positions_before(ladder.id, start, last)
        for (seq, at), rows in groupby(timed, key=itemgetter(0, 1)):
            while waiting and (waiting[0].occurred_at, waiting[0].seq) < (at, seq):
                admit(waiting.popleft())
            meet(seq, {(player, faction) for _, _, player, faction in rows})
    for fresh in waiting:
        admit(fresh)
    untimed = changes.positions_after(ladder.id, start, last)
    for seq, entries in groupby(untimed, key=itemgetter(0)):
        meet(seq, {(player, faction) for _, player, faction in entries})
    return cone


def states_as_of(
    session: Session, ladder: Ladder, runtime: Runtime, keys: Sequence[PlayerKey], at: datetime
) -> tuple[dict[PlayerKey, PlayerState], Any]:
    """States (and the ladder state) just after everything at or before ``at``: a dry run
    or a preview rates a result as it would stand in history."""
    rows = RatingRepository(session).rows(ladder.id, [db_key(k) for k in keys])
    states: dict[PlayerKey, PlayerState] = {}
    for key in keys:
        row = rows.get(db_key(key))
        if row is not None and row.last_change_id is not None and row.last_event_at <= at:
            states[key] = decode_state(row.state)
    wanted = {db_key(k) for k in keys if k not in states and db_key(k) in rows}
    if wanted:
        for change in ChangeRepository(session).last_at(ladder.id, at):
            if (change.player, change.faction) in wanted:
                states[engine_key(change.player, change.faction)] = decode_state(change.state_after)
    return states, ladder_state_as_of(session, ladder, runtime, at)


def ladder_state_as_of(session: Session, ladder: Ladder, runtime: Runtime, at: datetime) -> Any:
    """The ladder-wide state just after everything at or before ``at``."""
    if not runtime.info.ladder_scoped:
        return ladder.state
    events = EventRepository(session)
    latest = events.latest(ladder.id)
    if latest is None or latest[0] <= at:
        return ladder.state
    state = events.ladder_state_at(ladder.id, at)
    return state if state is not None else plain(runtime.rater.initial_ladder_state())


# -- the parts every path shares ---------------------------------------------------------


def _keys(runtime: Runtime, new: NewEvent) -> list[RatingKey]:
    return _db_keys(runtime, new.event)


def _db_keys(runtime: Runtime, event: LadderEvent) -> list[RatingKey]:
    return [db_key(k) for k in event_keys(runtime.info, event)]


def _locked_rows(
    session: Session, ladder: Ladder, runtime: Runtime, keys: Sequence[RatingKey]
) -> dict[RatingKey, Any]:
    """The rating rows of ``keys``, locked in sorted order; missing ones are created first
    (another writer may create the same ones meanwhile: its insert wins, ours is ignored)."""
    ratings = RatingRepository(session)
    wanted = sorted(set(keys))
    rows = ratings.rows(ladder.id, wanted, lock=True)
    missing = [key for key in wanted if key not in rows]
    if missing:
        ratings.ensure(ladder.id, [_fresh_row(runtime, ladder, key) for key in missing])
        rows.update(ratings.rows(ladder.id, missing, lock=True))
    return rows


def _late(
    session: Session, runtime: Runtime, ladder_id: str, new: NewEvent, rows: Mapping[RatingKey, Any]
) -> bool:
    """Something already applied stands after ``new``: on one of its ratings, or for a
    ladder-scoped system anywhere in the ladder."""
    if runtime.info.ladder_scoped:
        latest = EventRepository(session).latest(ladder_id)
        return latest is not None and latest[0] > new.occurred_at
    return any(
        row.last_event_at is not None and row.last_event_at > new.occurred_at
        for row in rows.values()
    )


def _write_events(session: Session, items: Sequence[NewEvent]) -> list[int]:
    """Insert the events (in the given order, which is their arrival order); their seqs."""
    writer = history_writer(session)
    seqs = writer.draw_seqs(len(items))
    stamp = now()
    writer.write_events(
        [
            {
                "seq": seq,
                "ladder_id": new.ladder_id,
                "kind": new.kind,
                "external_id": new.external_id,
                "occurred_at": new.occurred_at,
                "body": new.body,
                "body_hash": new.body_hash,
                "rated": new.rated,
                "tournament": new.tournament,
                "created_at": stamp,
            }
            for new, seq in zip(items, seqs, strict=True)
        ]
    )
    return seqs


def _extend(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    items: Sequence[NewEvent],
    rows: Mapping[RatingKey, Any],
) -> list[Created]:
    """Store ``items``, which stand after everything their ratings have, and rate them from
    their ratings' current ``rows``."""
    if not items:
        return []
    seqs = _write_events(session, items)
    work = _Replay(session, ladder, runtime, ladder.state, set())
    work.start_from_rows(rows)
    written = work.rate(
        [
            (_Placed(seq, new.occurred_at, new.rated), new.event)
            for new, seq in zip(items, seqs, strict=True)
        ]
    )
    work.finish()
    return [Created(seq, changes, runtime) for seq, changes in zip(seqs, written, strict=True)]


def _fresh_row(runtime: Runtime, ladder: Ladder, key: RatingKey) -> dict[str, Any]:
    state = runtime.rater.initial_state(ladder.state)
    return {"player": key[0], "faction": key[1], **_state_columns(runtime, state, ladder.state)}


def _state_columns(runtime: Runtime, state: PlayerState, ladder_state: Any) -> dict[str, Any]:
    standing = shown(runtime.rater, state, ladder_state)
    return {
        "rating": standing.rating,
        "deviation": standing.deviation,
        "volatility": standing.volatility,
        "ranking_value": standing.ranking_value,
        "tiebreak": standing.tiebreak,
        "state": encode_state(state),
    }


@dataclass(frozen=True, slots=True)
class _Placed:
    """Where an event stands in history."""

    seq: int
    occurred_at: datetime
    rated: bool


@dataclass(slots=True)
class _Start:
    """Where a rating's replay starts: its state, chain and statistics before the first
    event replayed (no state: the system's initial one)."""

    state: PlayerState | None = None
    last_change_id: int | None = None
    last_event_at: datetime | None = None
    last_event_seq: int | None = None
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_played_at: datetime | None = None

    def count(self, outcome: str | None, at: datetime) -> None:
        if outcome is None:
            return
        self.games += 1
        self.wins += outcome == "win"
        self.draws += outcome == "draw"
        self.losses += outcome == "loss"
        self.last_played_at = at

    def statistics(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "last_played_at": self.last_played_at,
        }


class _Replay:
    """Rates events in history order from each rating's starting point, writes their
    changes as it goes, and the rating rows they leave at the end (:meth:`finish`)."""

    def __init__(
        self,
        session: Session,
        ladder: Ladder,
        runtime: Runtime,
        ladder_state: Any,
        lost: set[RatingKey],
        *,
        from_scratch: bool = False,
    ) -> None:
        self.session = session
        self.ladder = ladder
        self.runtime = runtime
        self.writer = history_writer(session)
        self.ladder_state = ladder_state
        #: Ratings whose changes from the replay's start were deleted.
        self.lost = lost
        self.from_scratch = from_scratch
        self.starts: dict[RatingKey, _Start] = {}
        #: Ratings known to have a row (read, or among ``lost``).
        self.with_rows: set[RatingKey] = set(lost)
        self.states: dict[PlayerKey, PlayerState] = {}
        #: Ratings the replay changed.
        self.changed: set[RatingKey] = set()
        self.ladder_states: list[tuple[int, Any]] = []
        self.events = 0

    def start_from_rows(self, rows: Mapping[RatingKey, Any]) -> None:
        """Ratings that lost no changes start from their current rows."""
        for key, row in rows.items():
            self.with_rows.add(key)
            start = _Start(
                None if row.last_change_id is None else decode_state(row.state),
                row.last_change_id,
                row.last_event_at,
                row.last_event_seq,
                row.games,
                row.wins,
                row.draws,
                row.losses,
                row.last_played_at,
            )
            self._start(key, start)

    def _start(self, key: RatingKey, start: _Start) -> None:
        self.starts[key] = start
        if start.state is not None:
            self.states[engine_key(*key)] = start.state

    def load(self, keys: Iterable[RatingKey]) -> None:
        """Bring in the starting points of ratings not seen yet: fresh in a replay from
        scratch; else from the current row when the rating lost no changes, or from its
        newest surviving change and the statistics of the others when it did."""
        wanted = sorted({k for k in keys if k not in self.starts})
        if not wanted:
            return
        if self.from_scratch:
            for key in wanted:
                self._start(key, _Start())
            return
        intact = [k for k in wanted if k not in self.lost]
        self.start_from_rows(RatingRepository(self.session).rows(self.ladder.id, intact))
        lost = [k for k in wanted if k in self.lost]
        points = ChangeRepository(self.session).starting_points(self.ladder.id, lost)
        for key, (change, stats) in points.items():
            state = decode_state(change.state_after)
            self._start(key, _Start(state, change.id, change.occurred_at, change.seq, **stats))
        for key in wanted:
            if key not in self.starts:
                self._start(key, _Start())

    def rate(self, page: Sequence[tuple[_Placed, LadderEvent]]) -> list[list[dict[str, Any]]]:
        """Rate a page of events (their ratings started) and write their changes; each
        event's change rows."""
        info, rater = self.runtime.info, self.runtime.rater
        ids = iter(self.writer.draw_change_ids(sum(len(event_keys(info, e)) for _, e in page)))
        written: list[list[dict[str, Any]]] = []
        with engine_refusals():
            steps = replay(info, rater, [e for _, e in page], self.states, self.ladder_state)
            for (placed, event), step in zip(page, steps, strict=True):
                rows = self._change_rows(placed, event, step.outcome.changes, ids)
                written.append(rows)
                for change in step.outcome.changes:
                    self.states[change.key] = change.after
                if info.ladder_scoped:
                    self.ladder_state = plain(step.outcome.ladder_state)
                    self.ladder_states.append((placed.seq, self.ladder_state))
                self.events += 1
        self.writer.write_changes([row for rows in written for row in rows])
        return written

    def _change_rows(
        self, placed: _Placed, event: LadderEvent, changes: Sequence[Any], ids: Iterable[int]
    ) -> list[dict[str, Any]]:
        """The ``changes`` rows of one event, each chained to its rating's previous change."""
        ranks = event_ranks(event)
        outcomes = outcomes_by_rank(ranks) if placed.rated else [None] * len(ranks)
        rows = []
        # ``ids`` runs on past this event (the page's ids): zip stops at its last change.
        for position, (change, change_id) in enumerate(zip(changes, ids, strict=False)):
            key = db_key(change.key)
            start = self.starts[key]
            rows.append(
                {
                    "id": change_id,
                    "ladder_id": self.ladder.id,
                    "event_seq": placed.seq,
                    "player": key[0],
                    "faction": key[1],
                    "position": position,
                    "rank": ranks[position],
                    "outcome": outcomes[position],
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
                    "prev_change_id": start.last_change_id,
                }
            )
            start.last_change_id = change_id
            start.last_event_at, start.last_event_seq = placed.occurred_at, placed.seq
            start.count(outcomes[position], placed.occurred_at)
            self.changed.add(key)
        return rows

    def finish(self) -> tuple[int, int]:
        """Write the rating rows the replay leaves (and the ladder's state); returns (events
        replayed, ratings rewritten)."""
        ladder_id = self.ladder.id
        ratings = RatingRepository(self.session)
        self.load(self.lost)  # ratings that lost changes and had none replayed
        affected = self.lost | self.changed
        new = sorted(self.changed - self.with_rows)
        ratings.ensure(ladder_id, [_fresh_row(self.runtime, self.ladder, k) for k in new])
        updates: list[dict[str, Any]] = []
        orphaned: list[RatingKey] = []
        for key in sorted(affected):
            start = self.starts[key]
            state = self.states.get(engine_key(*key))
            if state is None or start.last_change_id is None:
                orphaned.append(key)  # every change it had was voided
                continue
            updates.append(
                {
                    "player": key[0],
                    "faction": key[1],
                    **_state_columns(self.runtime, state, self.ladder_state),
                    "last_change_id": start.last_change_id,
                    "last_event_at": start.last_event_at,
                    "last_event_seq": start.last_event_seq,
                    **start.statistics(),
                }
            )
        self.writer.update_ratings(ladder_id, updates)
        ratings.delete_many(ladder_id, orphaned)
        if self.runtime.info.ladder_scoped:
            self._store_ladder_state()
        return self.events, len(affected)

    def _store_ladder_state(self) -> None:
        """A ladder-wide state (NADF's base) moved: store it with each event replayed, and
        re-derive every shown rating under it (its floor may have risen or fallen)."""
        ladder_id = self.ladder.id
        EventRepository(self.session).set_ladder_states(self.ladder_states)
        LadderRepository(self.session).set_state(ladder_id, self.ladder_state, now())
        self.writer.update_ratings(
            ladder_id,
            [
                {
                    "player": row.player,
                    "faction": row.faction,
                    **_state_columns(self.runtime, decode_state(row.state), self.ladder_state),
                }
                for row in RatingRepository(self.session).all_of_ladder(ladder_id)
            ],
        )
