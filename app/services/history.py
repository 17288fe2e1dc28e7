"""Recording events in a ladder's history, and recomputing what follows them.

Order of history is (time, arrival): ``occurred_at`` then ``seq``. Every operation here works
in a :class:`~app.services.unit_of_work.LadderWrite` (the ladder locked and read once, its
rating rows, its writer) and returns one of the outcomes documented in
app/services/unit_of_work.py. An ordinary event locks its players' rating rows (sorted, so
never a deadlock) and extends each rating's chain of changes. An event that is late (earlier
than something already applied to one of its ratings), a correction and a void re-rate what
depends on them, their dependency cone (:func:`rerate`), holding the ladder shared and the
cone's rating rows, or ask for the ladder exclusively when another writer holds one of them;
an event of a ladder-scoped system needs the ladder exclusively and recomputes everything from
its time onward (:func:`recompute`).

Every path rates through one loop, :class:`app.services.replay.Replay` over the engine's
:func:`app.engine.ledger.replay`, so they cannot disagree. New and corrected events are rated
from memory (:data:`Changed`); only stored events are read back.

The writer's held writes are sent before anything here reads what the unit wrote: at the
start of a recomputation of the whole tail, which reads the new events back
(:func:`_recompute_tail`), and before a ladder-wide state re-derives every rating row
(``Replay.finish``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from app.core.errors import Conflict, DomainError, Invalid
from app.engine.errors import InvalidEvent
from app.engine.ledger import validate_game
from app.engine.protocols import GameRater, TournamentRater
from app.engine.types import Game, LadderEvent, PlayerKey, PlayerState, Tournament
from app.models import Event, Ladder
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository, LiveRow
from app.repositories.ratings import RatingKey, RatingRepository
from app.services.cone import Cone, Fresh, find_cone
from app.services.conversion import stored_to_engine
from app.services.replay import Placed, Replay, db_keys
from app.services.runtime import (
    MAX_FIELD_PLAYERS,
    Runtime,
    body_hash,
    db_key,
    decode_state,
    engine_key,
    now,
    plain,
    refused,
)
from app.services.unit_of_work import (
    Created,
    Deferred,
    Escalate,
    Existing,
    LadderWrite,
    Lock,
    Recomputed,
    Why,
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


#: Events whose history changed, by seq: stored, corrected or voided since they were last
#: rated. Where a :class:`NewEvent` is given, the event stands as it says (rated from memory);
#: None: as the database has it now (not live, for a void).
Changed = Mapping[int, NewEvent | None]

#: What each game of a group became (Recomputed: late games recorded together).
Appended = Created | Recomputed | Deferred | DomainError


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
            count = len(event.participants)
            limit = runtime.max_field_players
            if limit is not None and count > limit:
                raise Invalid.at(
                    ("teams",) if event.has_teams else ("players",),
                    f"at most {limit} players per game on this ladder (its "
                    f"{MAX_FIELD_PLAYERS}), got {count}",
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
    write: LadderWrite, new: NewEvent, *, late: bool | None = None
) -> Created | Existing | Recomputed:
    """Record ``new`` (idempotent on its ladder, kind and id). At the end of its ratings'
    histories it extends them; late (``late``: known to be, else found out here from its
    locked rows) it re-rates its dependency cone in the same transaction. A ladder-wide
    system needs the ladder exclusively, and asks for it."""
    runtime = write.runtime
    validate(runtime, new.event)
    exclusive = write.lock is Lock.EXCLUSIVE
    if runtime.info.ladder_scoped and not exclusive:
        raise Escalate(Lock.EXCLUSIVE, "a ladder-wide system orders the whole ladder")
    if new.external_id is not None:
        stored = EventRepository(write.session).find(write.ladder.id, new.kind, new.external_id)
        if stored is not None:
            return _repeat(stored, new)
    if late is not True:
        rows = write.lock_rows(db_keys(runtime, new.event), lock=not exclusive)
        if not _late(write, new, rows):
            [created] = _extend(write, [new], rows)
            return created
    [seq] = _write_events(write, [new])
    events, players = rerate(write, new.occurred_at, {seq: new})
    return Recomputed(seq, write.written.get(seq, []), events, players, runtime)


def _repeat(stored: Event, new: NewEvent) -> Existing:
    """The id is taken: the same body is a repeat (200), another body a conflict (409)."""
    if stored.body_hash != new.body_hash:
        raise Conflict(
            f"{new.kind} {new.external_id!r} already exists in ladder {new.ladder_id!r} "
            "with a different body; use PUT to correct it"
        )
    return Existing(stored.seq)


def append_group(write: LadderWrite, items: Sequence[NewEvent]) -> list[Appended]:
    """Record games that arrived together (group commit), in arrival order, exactly as
    :func:`record` would one by one. What only extends history is recorded here; the rest is
    handed back (:class:`Deferred`, saying why) to be recorded on its own: late games, ids
    already stored or repeated in the group, ladder-wide systems, and every game of a rating
    whose row another writer holds (a recomputation must not stall the writer that serves
    every ladder)."""
    runtime = write.runtime
    if runtime.info.ladder_scoped:
        return [Deferred(Why.LADDER_WIDE) for _ in items]
    results: list[Appended | None] = [_refusal(runtime, new) for new in items]
    keys_of = {i: db_keys(runtime, items[i].event) for i in _new_ids(write, items, results)}
    rows = write.lock_rows([k for keys in keys_of.values() for k in keys], skip_locked=True)
    appended = _extending(items, keys_of, rows, results)
    created = _extend(write, [items[i] for i in appended], rows, per_event=True)
    for index, done in zip(appended, created, strict=True):
        results[index] = done
    return [result if result is not None else Deferred(Why.REPEAT) for result in results]


def record_late(write: LadderWrite, items: Sequence[NewEvent]) -> list[Appended]:
    """Record the games a group handed back to queue on their ladder (issue 39, far-back
    writes on a hot ladder): late ones, and those that found the ladder or one of their rows
    busy (on a hot ladder mostly behind a late game's recomputation, and often late
    themselves). Their rows are locked, waiting. If none is late, they extend history as
    :func:`append_group` would. Otherwise all are inserted, then what they can move is
    re-rated once, from the earliest of them, as :func:`record` would have done for each in
    turn, but in one recomputation instead of one per game (each of which re-rated most of
    the others' cones again); an on-time one among them is rated in its place by the same
    replay. Refused and repeated ids are handed back as :func:`append_group` does. Each
    answer of a recomputation counts its shared events and ratings."""
    runtime = write.runtime
    if runtime.info.ladder_scoped:
        return [Deferred(Why.LADDER_WIDE) for _ in items]
    results: list[Appended | None] = [_refusal(runtime, new) for new in items]
    taken = _new_ids(write, items, results)
    if taken:
        news = [items[i] for i in taken]
        keys_of = {i: db_keys(runtime, items[i].event) for i in taken}
        # Waiting, in sorted order: behind a recomputation that holds them, rather than
        # asking for the whole ladder (which stops every other writer of it meanwhile).
        keys = [k for found in keys_of.values() for k in found]
        rows = write.lock_rows(keys, lock=write.lock is not Lock.EXCLUSIVE)
        if len(_extending(items, keys_of, rows, list(results))) == len(taken):
            for index, done in zip(taken, _extend(write, news, rows, per_event=True), strict=True):
                results[index] = done
        else:
            seqs = _write_events(write, news)
            changed: dict[int, NewEvent | None] = dict(zip(seqs, news, strict=True))
            events, players = rerate(write, min(new.occurred_at for new in news), changed)
            for index, seq in zip(taken, seqs, strict=True):
                results[index] = Recomputed(
                    seq, write.written.get(seq, []), events, players, runtime
                )
    return [result if result is not None else Deferred(Why.REPEAT) for result in results]


def _refusal(runtime: Runtime, new: NewEvent) -> Invalid | None:
    try:
        validate(runtime, new.event)
    except Invalid as exc:
        return exc
    return None


def _new_ids(
    write: LadderWrite, items: Sequence[NewEvent], results: Sequence[Appended | None]
) -> list[int]:
    """The valid items whose id is neither stored nor came earlier in the group (those go one
    by one, as repeats)."""
    seen: set[tuple[str, str] | None] = set()
    first: list[int] = []
    for index, new in enumerate(items):
        if results[index] is None and new.id_key not in seen:
            seen.add(new.id_key)
            first.append(index)
    stored = EventRepository(write.session).stored_ids(
        write.ladder.id, [key for i in first if (key := items[i].id_key) is not None]
    )
    return [i for i in first if items[i].id_key not in stored]


def _extending(
    items: Sequence[NewEvent],
    keys_of: Mapping[int, Sequence[RatingKey]],
    rows: Mapping[RatingKey, Any],
    results: list[Appended | None],
) -> list[int]:
    """The items (in arrival order) that extend their ratings' histories; the others are
    handed back in ``results``: late, or of a rating whose row another writer holds (and then
    every later game of the same ratings too, so each rating's games keep their order)."""
    last_at = {key: row.last_event_at for key, row in rows.items()}
    held = {key for keys in keys_of.values() for key in keys} - rows.keys()
    appended: list[int] = []
    for index, keys in keys_of.items():
        at = items[index].occurred_at
        if not held.isdisjoint(keys):
            held.update(keys)
            results[index] = Deferred(Why.ROW_HELD)
        elif any((last := last_at[k]) is not None and last > at for k in keys):
            results[index] = Deferred(Why.LATE)
        else:
            appended.append(index)
            last_at.update(dict.fromkeys(keys, at))
    return appended


def store(write: LadderWrite, items: Sequence[NewEvent]) -> tuple[list[int], int, bool]:
    """Store new events (not stored yet; the unit holds the ladder exclusively and the caller
    checked their ids), in time order, then input order. Returns their seqs, the stored
    events re-rated (the new ones not included: see :func:`recompute`), and whether history
    before the end was recomputed (some came before a stored event)."""
    if not items:
        return [], 0, False
    ordered = sorted(range(len(items)), key=lambda i: (items[i].occurred_at, i))
    latest = EventRepository(write.session).latest(write.ladder.id)
    first = items[ordered[0]].occurred_at
    seqs = [0] * len(items)
    if latest is None or latest[0] <= first:
        keys = [k for i in ordered for k in db_keys(write.runtime, items[i].event)]
        rows = write.lock_rows(keys, lock=False)
        created = _extend(write, [items[i] for i in ordered], rows)
        for index, done in zip(ordered, created, strict=True):
            seqs[index] = done.seq
        return seqs, 0, False
    written = _write_events(write, [items[i] for i in ordered])
    for index, seq in zip(ordered, written, strict=True):
        seqs[index] = seq
    count, _players = recompute(
        write, first, {seq: items[i] for i, seq in zip(ordered, written, strict=True)}
    )
    return seqs, count, True


def rerate(write: LadderWrite, start: datetime, changed: Changed) -> tuple[int, int]:
    """Re-rate what the ``changed`` events (all at or after ``start``) can move: under the
    ladder's exclusive lock, :func:`recompute`; shared, their dependency cone with its rating
    rows locked.

    The cone is found and its ratings' rows locked, without waiting (``SKIP LOCKED``): if
    another writer holds one, the write asks for the ladder instead. Waiting for rows while
    holding others could deadlock, and under contention a cone that waited was found to have
    grown by the writes it waited for, so that waiting and then taking the ladder cost more
    than taking it at once. A write that committed between the search and the locks may have
    extended or re-rated a rating of the cone: then its row no longer ends where the search
    saw it end (:meth:`Cone.stands`), and the cone is found again and its new ratings locked.
    Writes for other ratings go on meanwhile; a write for a locked one waits and then extends
    what the re-rating left. Returns (stored events re-rated, the changed ones not included;
    ratings rewritten).
    """
    if write.lock is Lock.EXCLUSIVE:
        return recompute(write, start, changed)
    if write.runtime.info.ladder_scoped:
        raise Escalate(Lock.EXCLUSIVE, "a ladder-wide system orders the whole ladder")
    cone = find_cone(write, start, _fresh(write, changed), set(changed))
    for _round in range(CONE_ROUNDS):
        wanted = sorted(cone.touched - write.rows.keys())
        if len(_locked_rows(write, wanted)) < len(wanted):
            break
        if cone.stands(write.rows, start):
            return _rerate_cone(write, cone, changed)
        cone = find_cone(write, start, _fresh(write, changed), set(changed))
    raise Escalate(Lock.EXCLUSIVE, "another writer holds a rating of the cone")


def _locked_rows(write: LadderWrite, keys: Sequence[RatingKey]) -> dict[RatingKey, Any]:
    """The cone's rows, locked without waiting (``SKIP LOCKED``): those another writer holds
    are left out."""
    return write.lock_rows(keys, skip_locked=True)


def recompute(write: LadderWrite, start: datetime | None, changed: Changed = {}) -> tuple[int, int]:  # noqa: B006 (read only)
    """Re-rate what follows ``start`` (``None``: everything, from scratch); the unit holds
    the ladder exclusively.

    ``changed`` names the events stored, corrected or voided since they were last rated (all
    at or after ``start``). With them, a system whose events depend only on their own
    ratings re-rates just their dependency cone (:func:`find_cone`): the replay is the same
    as the whole tail's for every event it rates, and the others could not move. Without them,
    for a ladder-scoped system, or from scratch, every live event from ``start`` is re-rated.

    Returns (stored events re-rated, ``changed`` not included; ratings rewritten).
    """
    if start is None or not changed or write.runtime.info.ladder_scoped:
        return _recompute_tail(write, start, changed)
    cone = find_cone(write, start, _fresh(write, changed), set(changed))
    return _rerate_cone(write, cone, changed)


def _fresh(write: LadderWrite, changed: Changed) -> list[Fresh]:
    """The changed events that are live, where they stand now: from memory where given,
    else read."""
    runtime = write.runtime
    fresh = [
        Fresh(new.occurred_at, seq, frozenset(db_keys(runtime, new.event)))
        for seq, new in changed.items()
        if new is not None
    ]
    stored = sorted(seq for seq, new in changed.items() if new is None)
    per_faction = runtime.info.per_faction
    for page in EventRepository(write.session).live_rows_of(write.ladder.id, stored, EVENT_PAGE):
        for row in page:
            event = stored_to_engine(row.kind, row.body, per_faction)
            fresh.append(Fresh(row.occurred_at, row.seq, frozenset(db_keys(runtime, event))))
    return fresh


def _rerate_cone(write: LadderWrite, cone: Cone, changed: Changed) -> tuple[int, int]:
    """Delete the cone's changes and replay it from each rating's newest surviving change."""
    ChangeRepository(write.session).delete_of_events(write.ladder.id, cone.deleted)
    ladder_state = plain(write.runtime.rater.initial_ladder_state())  # not ladder-scoped
    work = Replay(write, ladder_state, cone.lost, keep=changed.keys())
    return _replay_pages(work, _cone_pages(write, cone.replayed, changed), changed)


def _cone_pages(
    write: LadderWrite, seqs: Sequence[int], changed: Changed
) -> Iterator[list[tuple[Placed, LadderEvent]]]:
    """The cone's events in history order, a page at a time: the changed ones from memory,
    the others read."""
    per_faction = write.runtime.info.per_faction
    events = EventRepository(write.session)
    for begin in range(0, len(seqs), EVENT_PAGE):
        wanted = seqs[begin : begin + EVENT_PAGE]
        read = [seq for seq in wanted if changed.get(seq) is None]
        stored = {
            row.seq: row
            for page in events.live_rows_of(write.ladder.id, read, EVENT_PAGE)
            for row in page
        }
        page: list[tuple[Placed, LadderEvent]] = []
        for seq in wanted:
            new = changed.get(seq)
            if new is not None:
                page.append((Placed(seq, new.occurred_at, new.rated), new.event))
            elif (row := stored.get(seq)) is not None:
                page.append((_placed(row), stored_to_engine(row.kind, row.body, per_faction)))
        yield page


def _placed(row: LiveRow) -> Placed:
    return Placed(row.seq, row.occurred_at, row.rated)


def _recompute_tail(
    write: LadderWrite, start: datetime | None, changed: Changed
) -> tuple[int, int]:
    """Rewrite every change at or after ``start`` by replaying the live history from there."""
    write.unit.flush()  # the tail is read back, new events included
    events = EventRepository(write.session)
    ladder_id = write.ladder.id
    ladder_state: Any = None if start is None else events.ladder_state_before(ladder_id, start)
    if ladder_state is None:
        ladder_state = plain(write.runtime.rater.initial_ladder_state())
    lost = ChangeRepository(write.session).delete_from(ladder_id, start)
    work = Replay(write, ladder_state, lost, from_scratch=start is None, keep=changed.keys())
    per_faction = write.runtime.info.per_faction
    pages = (
        [(_placed(row), stored_to_engine(row.kind, row.body, per_faction)) for row in page]
        for page in events.live_rows(ladder_id, start, EVENT_PAGE)
    )
    return _replay_pages(work, pages, changed)


def _replay_pages(
    work: Replay, pages: Iterable[Sequence[tuple[Placed, LadderEvent]]], changed: Collection[int]
) -> tuple[int, int]:
    """Rate the pages in order; (stored events re-rated but ``changed``, ratings rewritten)."""
    runtime = work.runtime
    own = 0
    for page in pages:
        own += sum(1 for placed, _ in page if placed.seq in changed)
        work.load([k for _, event in page for k in db_keys(runtime, event)])
        work.rate(page)
    replayed, players = work.finish()
    return replayed - own, players


def states_as_of(
    session: Any, ladder: Ladder, runtime: Runtime, keys: Sequence[PlayerKey], at: datetime
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


def ladder_state_as_of(session: Any, ladder: Ladder, runtime: Runtime, at: datetime) -> Any:
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


def _late(write: LadderWrite, new: NewEvent, rows: Mapping[RatingKey, Any]) -> bool:
    """Something already applied stands after ``new``: on one of its ratings, or for a
    ladder-scoped system anywhere in the ladder."""
    if write.runtime.info.ladder_scoped:
        latest = EventRepository(write.session).latest(write.ladder.id)
        return latest is not None and latest[0] > new.occurred_at
    return any(
        row.last_event_at is not None and row.last_event_at > new.occurred_at
        for row in rows.values()
    )


def _write_events(
    write: LadderWrite, items: Sequence[NewEvent], seqs: Sequence[int] | None = None
) -> Sequence[int]:
    """Insert the events (in the given order, which is their arrival order) with their
    ``seqs`` (drawn here if not given); their seqs."""
    if seqs is None:
        seqs = write.writer.draw_seqs(len(items))
    stamp = now()
    write.writer.write_events(
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
    write: LadderWrite,
    items: Sequence[NewEvent],
    rows: Mapping[RatingKey, Any],
    *,
    per_event: bool = False,
) -> list[Created]:
    """Store ``items``, which stand after everything their ratings have, and rate them from
    their ratings' current ``rows``; ``per_event``: note each one's moves (a group's)."""
    if not items:
        return []
    runtime = write.runtime
    # Both kinds of id in one draw (one statement on PostgreSQL).
    seqs, change_ids = write.writer.draw(
        len(items), sum(len(db_keys(runtime, new.event)) for new in items)
    )
    _write_events(write, items, seqs)
    work = Replay(write, write.ladder.state, set(), keep=seqs, per_event=per_event, extends=True)
    work.start_from_rows(rows)
    work.rate(
        [
            (Placed(seq, new.occurred_at, new.rated), new.event)
            for new, seq in zip(items, seqs, strict=True)
        ],
        change_ids,
    )
    work.finish()
    return [Created(seq, write.written[seq], runtime) for seq in seqs]
