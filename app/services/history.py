"""Recording events in a ladder's history, and recomputing what follows them.

Order of history is (time, arrival): ``occurred_at`` then ``seq``. An ordinary event locks the
ladder shared and its players' rating rows exclusively (sorted, so never a deadlock), then
extends each rating's chain of changes. An event that is late (earlier than something already
applied to one of its ratings), a correction and a void re-rate what depends on them, their
dependency cone (:func:`rerate`), holding the ladder shared and the cone's rating rows (the
ladder exclusively when another writer holds one of them); an event of a ladder-scoped system
needs the ladder's exclusive lock and recomputes everything from its time onward
(:func:`recompute`).

Every path rates through one loop, :class:`app.services.replay.Replay` over the engine's
:func:`app.engine.ledger.replay`: recording one event, a group of them, a batch or an import
chunk, and recomputation, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy.orm import Session

from app.core.database import Lock, Retry
from app.core.errors import Conflict, DomainError, Invalid, NotFound
from app.engine.errors import InvalidEvent
from app.engine.ledger import validate_game
from app.engine.protocols import GameRater, TournamentRater
from app.engine.types import Game, LadderEvent, PlayerKey, PlayerState, Tournament
from app.models import Event, Ladder
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.history import history_writer
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingKey, RatingRepository
from app.services.cone import Cone, find_cone
from app.services.conversion import stored_to_engine
from app.services.replay import Placed, Replay, db_keys, fresh_row
from app.services.runtime import (
    Runtime,
    body_hash,
    db_key,
    decode_state,
    engine_key,
    now,
    plain,
    refused,
    require_ladder,
    runtime_for,
)

#: Events read and rated per page during recomputation: memory follows the page, not the
#: ladder's history.
EVENT_PAGE = 5_000
#: Times a cone is searched again for ratings that joined it while it was being locked.
CONE_ROUNDS = 4


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
    kind = runtime.info.kind
    # A try statement rather than engine_refusals(): this runs for every event of a what-if
    # or an evaluation, where a context manager per call cost more than most of the checks.
    try:
        if isinstance(event, Game):
            if kind != "game":
                raise Invalid.at(
                    ("ladder",),
                    f"ladder uses the tournament system {runtime.info.id!r}: its results are "
                    "tournaments (POST /tournaments, or tournament lines in an import), not "
                    "games",
                )
            validate_game(runtime.info, cast(GameRater, runtime.rater), event)
        elif isinstance(event, Tournament):
            if kind != "tournament":
                raise Invalid.at(
                    ("ladder",),
                    f"ladder uses the game system {runtime.info.id!r}: its results are games "
                    "(POST /games, or game lines in an import), not tournaments",
                )
            cast(TournamentRater, runtime.rater).validate_tournament(event)
        else:
            # An adjustment's values must be acceptable to the system (a deviation on Elo...).
            runtime.rater.adjusted_state(
                None, event.rating, event.deviation, event.volatility, event.at
            )
    except InvalidEvent as exc:
        raise refused(exc) from exc


def record(
    session: Session, ladder_id: str, new: NewEvent, *, lock: Lock
) -> Created | Existing | Recomputed | Retry:
    """Record ``new`` (idempotent on its ladder, kind and id) holding ``lock`` of its
    ladder, or ask for more (:class:`Retry`): a late event re-rates its dependency cone
    holding the cone's rating rows (:attr:`Retry.CONE`), an event of a ladder-wide system
    needs the whole ladder (:attr:`Retry.EXCLUSIVE`)."""
    ladders = LadderRepository(session)
    events = EventRepository(session)
    ladder = require_ladder(ladders.get_locked(ladder_id, exclusive=lock is Lock.LADDER), ladder_id)
    runtime = runtime_for(ladder)
    validate(runtime, new.event)
    if runtime.info.ladder_scoped and lock is not Lock.LADDER:
        return Retry.EXCLUSIVE
    if new.external_id is not None:
        stored = events.find(ladder_id, new.kind, new.external_id)
        if stored is not None:
            return _repeat(stored, new)
    if lock is not Lock.CONE:
        rows = _locked_rows(session, ladder, runtime, _keys(runtime, new))
        if not _late(session, runtime, ladder_id, new, rows):
            [created] = _extend(session, ladder, runtime, [new], rows)
            return created
        if lock is Lock.ROWS:
            # The cone's rows are locked in one sorted statement, not added to these.
            return Retry.CONE
    [seq] = _write_events(session, [new])
    recomputed = rerate(session, ladder, new.occurred_at, [seq], lock)
    if isinstance(recomputed, Retry):
        return recomputed
    return Recomputed(seq, *recomputed)


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
    games, ids already stored or repeated in the group, ladder-wide systems, every game of a
    ladder whose exclusive lock is held and every game of a rating whose row another writer
    holds (a recomputation must not stall the writer that serves every ladder)."""
    locked, ladder = LadderRepository(session).try_lock_shared_and_get(ladder_id)
    if not locked:
        return [DEFERRED for _ in items]
    if ladder is None:
        return [NotFound(f"ladder {ladder_id!r} does not exist") for _ in items]
    runtime = runtime_for(ladder)
    if runtime.info.ladder_scoped:
        return [DEFERRED for _ in items]
    results: list[Appended | None] = [_refusal(runtime, new) for new in items]
    candidates = _first_of_each_id(items, results)
    stored = EventRepository(session).stored_ids(
        ladder_id, [key for i in candidates if (key := items[i].id_key) is not None]
    )
    keys_of = {i: _keys(runtime, items[i]) for i in candidates if items[i].id_key not in stored}
    wanted = [k for keys in keys_of.values() for k in keys]
    rows = _locked_rows(session, ladder, runtime, wanted, skip_locked=True)
    last_at = {key: row.last_event_at for key, row in rows.items()}
    # Rows another writer holds (a late result re-rating its cone): their games, and every
    # later game of the same ratings, are handed back so that this writer never waits.
    held = set(wanted) - set(rows)
    appended: list[int] = []
    for index, keys in keys_of.items():  # in arrival order
        if not held.isdisjoint(keys):
            held.update(keys)
            continue
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
        rows = _locked_rows(session, ladder, runtime, keys, lock=False)
        created = _extend(session, ladder, runtime, [items[i] for i in ordered], rows)
        for index, done in zip(ordered, created, strict=True):
            seqs[index] = done.seq
        return seqs, 0, False
    written = _write_events(session, [items[i] for i in ordered])
    for index, seq in zip(ordered, written, strict=True):
        seqs[index] = seq
    count, _players = recompute(session, ladder, first, changed=written)
    return seqs, count, True


def rerate(
    session: Session, ladder: Ladder, start: datetime, changed: Collection[int], lock: Lock
) -> tuple[int, int] | Retry:
    """Re-rate what the ``changed`` events (stored, corrected or voided, all at or after
    ``start``) can move, holding ``lock``: :func:`recompute` under the ladder's exclusive
    lock; under :attr:`Lock.CONE`, their dependency cone with its rating rows locked.

    The cone is found and its ratings' rows locked, without waiting (``SKIP LOCKED``): if
    another writer holds one, the write takes the ladder instead (:attr:`Retry.EXCLUSIVE`).
    Waiting for rows while holding others could deadlock, and under contention a cone that
    waited was found to have grown by the writes it waited for, so that waiting and then
    taking the ladder cost more than taking it at once (bench/README.md, "a late game holds
    only its cone"). A write that committed between the search and the locks may have
    extended or re-rated a rating of the cone: then its row no longer ends where the search
    saw it end (:meth:`Cone.stands`), and the cone is found again and its new ratings locked.
    Writes for other ratings go on meanwhile; a write for a locked one waits and then
    extends what the re-rating left.
    """
    runtime = runtime_for(ladder)
    if lock is Lock.LADDER:
        return recompute(session, ladder, start, changed=changed)
    if runtime.info.ladder_scoped:
        return Retry.EXCLUSIVE
    changed = set(changed)
    cone = find_cone(session, ladder, runtime, start, changed, EVENT_PAGE)
    locked: dict[RatingKey, Any] = {}
    for _round in range(CONE_ROUNDS):
        wanted = sorted(cone.touched - locked.keys())
        got = _locked_rows(session, ladder, runtime, wanted, skip_locked=True)
        if len(got) < len(wanted):
            break
        locked.update(got)
        if cone.stands(locked, start):
            return _rerate_cone(session, ladder, runtime, cone, changed)
        cone = find_cone(session, ladder, runtime, start, changed, EVENT_PAGE)
    return Retry.EXCLUSIVE


def recompute(
    session: Session, ladder: Ladder, start: datetime | None, *, changed: Collection[int] = ()
) -> tuple[int, int]:
    """Re-rate what follows ``start`` (``None``: everything, from scratch); the caller holds
    the ladder's exclusive lock.

    ``changed`` names the events stored, corrected or voided since they were last rated (all
    at or after ``start``). With them, a system whose events depend only on their own
    ratings re-rates just their dependency cone (``cone.find_cone``): the replay is the same
    as the whole tail's for every event it rates, and the others could not move. Without them,
    for a ladder-scoped system, or from scratch, every live event from ``start`` is
    re-rated.

    Returns (stored events re-rated, ``changed`` not included; ratings rewritten).
    """
    runtime = runtime_for(ladder)
    changed = set(changed)
    if start is None or not changed or runtime.info.ladder_scoped:
        return _recompute_tail(session, ladder, runtime, start, changed)
    cone = find_cone(session, ladder, runtime, start, changed, EVENT_PAGE)
    return _rerate_cone(session, ladder, runtime, cone, changed)


def _rerate_cone(
    session: Session, ladder: Ladder, runtime: Runtime, cone: Cone, changed: Collection[int]
) -> tuple[int, int]:
    """Delete the cone's changes and replay it from each rating's newest surviving change."""
    ChangeRepository(session).delete_of_events(ladder.id, cone.deleted)
    ladder_state = plain(runtime.rater.initial_ladder_state())  # not ladder-scoped: constant
    work = Replay(session, ladder, runtime, ladder_state, cone.lost)
    pages = EventRepository(session).live_rows_of(ladder.id, cone.replayed, EVENT_PAGE)
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
    work = Replay(session, ladder, runtime, ladder_state, lost, from_scratch=start is None)
    return _replay_pages(work, runtime, events.live_rows(ladder.id, start, EVENT_PAGE), changed)


def _replay_pages(
    work: Replay, runtime: Runtime, pages: Iterable[Sequence[Any]], changed: Collection[int]
) -> tuple[int, int]:
    """Rate the pages of stored rows in order; (stored events re-rated but ``changed``,
    ratings rewritten)."""
    per_faction = runtime.info.per_faction
    own = 0
    for page in pages:
        placed = [
            (
                Placed(row.seq, row.occurred_at, row.rated),
                stored_to_engine(row.kind, row.body, per_faction),
            )
            for row in page
        ]
        own += sum(1 for row in page if row.seq in changed)
        work.load([k for _, event in placed for k in db_keys(runtime, event)])
        work.rate(placed)
    replayed, players = work.finish()
    return replayed - own, players


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
    return db_keys(runtime, new.event)


def _locked_rows(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    keys: Sequence[RatingKey],
    *,
    lock: bool = True,
    skip_locked: bool = False,
) -> dict[RatingKey, Any]:
    """The rating rows of ``keys``, locked in sorted order; missing ones are created first
    (another writer may create the same ones meanwhile: its insert wins, ours is ignored).
    ``lock=False`` under the ladder's exclusive lock, which keeps every other writer out
    already (a PostgreSQL row lock writes to its row). ``skip_locked``: rows another
    transaction holds are left out instead of waited for."""
    ratings = RatingRepository(session)
    wanted = sorted(set(keys))
    rows = ratings.rows(ladder.id, wanted, lock=lock, skip_locked=skip_locked)
    missing = [key for key in wanted if key not in rows]
    if missing:
        ratings.ensure(ladder.id, [fresh_row(runtime, ladder, key) for key in missing])
        rows.update(ratings.rows(ladder.id, missing, lock=lock, skip_locked=skip_locked))
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


def _write_events(
    session: Session, items: Sequence[NewEvent], seqs: Sequence[int] | None = None
) -> Sequence[int]:
    """Insert the events (in the given order, which is their arrival order) with their
    ``seqs`` (drawn here if not given); their seqs."""
    writer = history_writer(session)
    if seqs is None:
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
    # Both kinds of id in one draw (one statement on PostgreSQL).
    seqs, change_ids = history_writer(session).draw(
        len(items), sum(len(_keys(runtime, new)) for new in items)
    )
    _write_events(session, items, seqs)
    work = Replay(session, ladder, runtime, ladder.state, set())
    work.start_from_rows(rows)
    written = work.rate(
        [
            (Placed(seq, new.occurred_at, new.rated), new.event)
            for new, seq in zip(items, seqs, strict=True)
        ],
        change_ids,
    )
    work.finish()
    return [Created(seq, changes, runtime) for seq, changes in zip(seqs, written, strict=True)]
