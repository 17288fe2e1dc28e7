"""Many events in one atomic transaction: POST /games/batch and bulk import.

Every event is validated first (nothing is stored unless all are valid); then each ladder is
locked exclusively, the new events are inserted in time order and the ladder is recomputed
from the earliest of them, which for results that extend the history is just the new events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, FieldError, Invalid, NotFound
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import (
    BatchItemOut,
    GameBatchIn,
    GameBatchOut,
    TournamentBatchIn,
    TournamentBatchOut,
)
from app.services import feed
from app.services.auth import ADMIN, Caller
from app.services.conversion import ADJUSTMENT
from app.services.events import new_game_event, new_tournament_event
from app.services.history import NewEvent, validate
from app.services.history import store as store_events
from app.services.runtime import Runtime, runtime_for
from app.services.unit_of_work import LadderWrite, Lock, UnitOfWork, run_write


def check(
    db: Database,
    items: Sequence[tuple[tuple[str | int, ...], NewEvent]],
    known: Mapping[str, Runtime] | None = None,
) -> list[FieldError]:
    """Every rule violation of every item (``loc`` prefixed by where the item came from).
    ``known``: the systems of ladders not to look up (an import's, perhaps not created yet)."""
    runtimes: dict[str, Runtime | None] = dict(known or {})

    def load(session: Session) -> None:
        repo = LadderRepository(session)
        for ladder_id in {item.ladder_id for _, item in items} - set(runtimes):
            ladder = repo.get(ladder_id)
            runtimes[ladder_id] = runtime_for(ladder) if ladder is not None else None

    db.run(load, write=False)
    return problems(items, runtimes)


def problems(
    items: Sequence[tuple[tuple[str | int, ...], NewEvent]],
    runtimes: Mapping[str, Runtime | None],
) -> list[FieldError]:
    """:func:`check` given each ladder's runtime (None: the ladder does not exist)."""
    errors: list[FieldError] = []
    seen: dict[tuple[str, str, str], str] = {}
    for where, item in items:
        runtime = runtimes[item.ladder_id]
        if runtime is None:
            errors.append(
                FieldError((*where, "ladder"), f"ladder {item.ladder_id!r} does not exist")
            )
            continue
        try:
            validate(runtime, item.event)
        except Invalid as exc:
            errors.extend(FieldError((*where, *e.loc), e.msg) for e in exc.errors)
        if item.external_id is None:
            continue
        key = (item.ladder_id, item.kind, item.external_id)
        if key in seen and seen[key] != item.body_hash:
            errors.append(
                FieldError(
                    (*where, "id"), f"{item.external_id!r} appears twice with different bodies"
                )
            )
        seen[key] = item.body_hash
    return errors


def _publish(write: LadderWrite, created: Sequence[NewEvent]) -> None:
    """One feed item for what a batch or an import chunk stored in a ladder: typed by its
    results' kind (a ladder rates one kind; adjustments come with them), naming the event
    when there is one."""
    if not created:
        return
    kinds = {item.kind for item in created if item.kind != ADJUSTMENT} or {ADJUSTMENT}
    kind = min(kinds)
    named = [item for item in created if item.external_id is not None]
    event = (named[0].kind, named[0].external_id or "") if len(created) == 1 and named else None
    write.publish(feed.KIND_TYPES[kind, "rated"], event)


#: What became of one item: (ladder, id, seq, status).
Outcome = tuple[str, str | None, int, str]
CREATED, EXISTING = "created", "existing"


@dataclass(frozen=True, slots=True)
class Stored:
    """What :func:`store` did: an outcome per item, in the items' order."""

    outcomes: list[Outcome]
    recomputed_events: int
    created: int
    existing: int


def _items_out(stored: Stored) -> list[BatchItemOut]:
    return [
        BatchItemOut(ladder=ladder, id=external_id, seq=seq, status=status)
        for ladder, external_id, seq, status in stored.outcomes
    ]


def store(
    db: Database,
    items: Sequence[NewEvent],
    caller: Caller = ADMIN,
    check_all: Callable[[UnitOfWork], None] | None = None,
) -> Stored:
    """Store the (validated) items atomically; the same id with the same body is a no-op.
    ``check_all``: refuses the items in the unit, before anything is stored."""
    by_ladder: dict[str, list[tuple[int, NewEvent]]] = {}
    for index, item in enumerate(items):
        by_ladder.setdefault(item.ladder_id, []).append((index, item))

    def work(unit: UnitOfWork) -> _Batch:
        for ladder_id in sorted(by_ladder):
            unit.admit(caller, ladder_id)
        if check_all is not None:
            check_all(unit)
        batch = _Batch()
        for ladder_id in sorted(by_ladder):  # a fixed order: two batches never deadlock
            _store_ladder(unit.ladder(ladder_id), by_ladder[ladder_id], batch)
        return batch

    batch = run_write(db, work, lock=Lock.EXCLUSIVE)
    for (ladder_id, kind), count in batch.created.items():
        metrics.record_applied(ladder_id, batch.systems[ladder_id], kind, count)
    for ladder_id, count in batch.replayed_late.items():
        metrics.record_recomputed(ladder_id, batch.systems[ladder_id], count)
    total = sum(batch.created.values())
    outcomes = [batch.outcomes[i] for i in range(len(items))]
    return Stored(outcomes, batch.recomputed, total, len(outcomes) - total)


@dataclass(slots=True)
class _Batch:
    """What a batch's transaction did, ladder by ladder."""

    outcomes: dict[int, Outcome] = field(default_factory=dict)
    recomputed: int = 0
    created: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Events replayed per ladder because new ones came before stored ones (what the
    #: recomputation metrics count; extending history is not a recomputation).
    replayed_late: Counter[str] = field(default_factory=Counter)
    systems: dict[str, str] = field(default_factory=dict)


def _store_ladder(write: LadderWrite, items: list[tuple[int, NewEvent]], batch: _Batch) -> None:
    ladder_id = write.ladder.id
    batch.systems[ladder_id] = write.runtime.info.id
    stored = EventRepository(write.session).find_many(
        ladder_id, [key for _, item in items if (key := item.id_key)]
    )
    fresh: list[tuple[int, NewEvent]] = []
    #: The first of each id in the batch (check() refused different bodies).
    first: dict[tuple[str, str], int] = {}
    repeats: list[tuple[int, tuple[str, str]]] = []
    for index, item in items:
        key = item.id_key
        if key is None:
            fresh.append((index, item))
        elif key in first:
            repeats.append((index, key))
        elif (found := stored.get(key)) is not None:
            if found.body_hash != item.body_hash:
                raise Conflict(
                    f"{item.kind} {item.external_id!r} already exists in ladder "
                    f"{ladder_id!r} with a different body; nothing was stored"
                )
            batch.outcomes[index] = (ladder_id, item.external_id, found.seq, EXISTING)
            first[key] = index
        else:
            fresh.append((index, item))
            first[key] = index
    seqs, count, late = store_events(write, [item for _, item in fresh])
    for (index, item), seq in zip(fresh, seqs, strict=True):
        batch.outcomes[index] = (ladder_id, item.external_id, seq, CREATED)
        batch.created[(ladder_id, item.kind)] += 1
    _publish(write, [item for _, item in fresh])
    for index, key in repeats:
        batch.outcomes[index] = (ladder_id, key[1], batch.outcomes[first[key]][2], EXISTING)
    batch.recomputed += count
    if late:
        batch.replayed_late[ladder_id] += count


def submit_games(db: Database, body: GameBatchIn, caller: Caller = ADMIN) -> GameBatchOut:
    """POST /games/batch: all valid and stored together, or a 422 listing every problem."""
    located = [(("games", index), new_game_event(game)) for index, game in enumerate(body.games)]
    stored = _submit(db, located, caller)
    return GameBatchOut(
        created=stored.created,
        existing=stored.existing,
        recomputed_events=stored.recomputed_events,
        games=_items_out(stored),
    )


def submit_tournaments(
    db: Database, body: TournamentBatchIn, caller: Caller = ADMIN
) -> TournamentBatchOut:
    """POST /tournaments/batch: as :func:`submit_games`, for tournaments."""
    located = [
        (("tournaments", index), new_tournament_event(tournament))
        for index, tournament in enumerate(body.tournaments)
    ]
    stored = _submit(db, located, caller)
    return TournamentBatchOut(
        created=stored.created,
        existing=stored.existing,
        recomputed_events=stored.recomputed_events,
        tournaments=_items_out(stored),
    )


def _submit(
    db: Database, located: Sequence[tuple[tuple[str | int, ...], NewEvent]], caller: Caller
) -> Stored:
    """A batch, all valid and stored together, or a 422 listing every problem, in one unit
    of work (the caller admitted to every ladder named first: a key never learns which of the
    ladders it may not see exist); ids already stored with the same body count as existing."""
    items = [item for _, item in located]

    def check_all(unit: UnitOfWork) -> None:
        runtimes: dict[str, Runtime | None] = {}
        for ladder_id in sorted({item.ladder_id for item in items}):
            try:
                runtimes[ladder_id] = unit.ladder(ladder_id).runtime
            except NotFound:
                runtimes[ladder_id] = None
        errors = problems(located, runtimes)
        if errors:
            count = len(errors)
            raise Invalid(f"{count} problem(s) in the batch; nothing was stored", errors=errors)

    return store(db, items, caller, check_all)
