"""Many events in one atomic transaction: POST /games/batch and bulk import.

Every event is validated first (nothing is stored unless all are valid); then each ladder is
locked exclusively, the new events are inserted in time order and the ladder is recomputed
from the earliest of them, which for results that extend the history is just the new events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, FieldError, Invalid, NotFound
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import BatchItemOut, GameBatchIn, GameBatchOut
from app.services.events import new_game_event
from app.services.history import NewEvent, validate
from app.services.history import store as store_events
from app.services.runtime import Runtime, runtime_for


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


def apply(db: Database, items: Sequence[NewEvent]) -> GameBatchOut:
    """Store the (validated) items atomically; the same id with the same body is no-op."""
    stored = store(db, items)
    return GameBatchOut(
        created=stored.created,
        existing=stored.existing,
        recomputed_events=stored.recomputed_events,
        games=[
            BatchItemOut(ladder=ladder, id=external_id, seq=seq, status=status)
            for ladder, external_id, seq, status in stored.outcomes
        ],
    )


def store(db: Database, items: Sequence[NewEvent]) -> Stored:
    """:func:`apply` without its response (an import's chunk needs only the counts)."""

    def work(session: Session) -> tuple[list[Outcome], int, Counter[tuple[str, str]], Counter[str]]:
        ladders = LadderRepository(session)
        events = EventRepository(session)
        outcomes: dict[int, Outcome] = {}
        recomputed = 0
        created: Counter[tuple[str, str]] = Counter()
        #: Events replayed per ladder because new ones came before stored ones (what the
        #: recomputation metrics count; extending history is not a recomputation).
        replayed_late: Counter[str] = Counter()
        by_ladder: dict[str, list[tuple[int, NewEvent]]] = {}
        for index, item in enumerate(items):
            by_ladder.setdefault(item.ladder_id, []).append((index, item))
        for ladder_id in sorted(by_ladder):  # a fixed order: two batches never deadlock
            ladder = ladders.get_locked(ladder_id, exclusive=True)
            if ladder is None:
                raise NotFound(f"ladder {ladder_id!r} does not exist")
            stored = events.find_many(
                ladder_id, [key for _, item in by_ladder[ladder_id] if (key := item.id_key)]
            )
            fresh: list[tuple[int, NewEvent]] = []
            #: The first of each id in the batch (check() refused different bodies).
            first: dict[tuple[str, str], int] = {}
            repeats: list[tuple[int, tuple[str, str]]] = []
            for index, item in by_ladder[ladder_id]:
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
                    outcomes[index] = (ladder_id, item.external_id, found.seq, EXISTING)
                    first[key] = index
                else:
                    fresh.append((index, item))
                    first[key] = index
            seqs, count, late = store_events(session, ladder, [item for _, item in fresh])
            for (index, item), seq in zip(fresh, seqs, strict=True):
                outcomes[index] = (ladder_id, item.external_id, seq, CREATED)
                created[(ladder_id, item.kind)] += 1
            for index, key in repeats:
                outcomes[index] = (ladder_id, key[1], outcomes[first[key]][2], EXISTING)
            recomputed += count
            if late:
                replayed_late[ladder_id] += count
        return [outcomes[i] for i in range(len(items))], recomputed, created, replayed_late

    ordered, recomputed, created, replayed_late = db.run(work)
    systems = {ladder_id: _system_of(db, ladder_id) for ladder_id, _ in created}
    for (ladder_id, kind), count in created.items():
        metrics.record_applied(ladder_id, systems[ladder_id], kind, count)
    for ladder_id, count in replayed_late.items():
        metrics.record_recomputed(ladder_id, systems[ladder_id], count)
    total = sum(created.values())
    return Stored(ordered, recomputed, total, len(ordered) - total)


def _system_of(db: Database, ladder_id: str) -> str:
    def work(session: Session) -> str:
        ladder = LadderRepository(session).get(ladder_id)
        return ladder.system if ladder is not None else "unknown"

    return db.run(work, write=False)


def submit_games(db: Database, body: GameBatchIn) -> GameBatchOut:
    """POST /games/batch: all valid and stored together, or a 422 listing every problem."""
    items = [(("games", index), new_game_event(game)) for index, game in enumerate(body.games)]
    errors = check(db, items)
    if errors:
        raise Invalid(f"{len(errors)} problem(s) in the batch; nothing was stored", errors=errors)
    return apply(db, [item for _, item in items])
