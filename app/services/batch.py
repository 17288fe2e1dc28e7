"""Many events in one atomic transaction: POST /games/batch and bulk import.

Every event is validated first (nothing is stored unless all are valid); then each ladder is
locked exclusively, the new events are inserted in time order and the ladder is recomputed
from the earliest of them, which for results that extend the history is just the new events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, FieldError, Invalid, NotFound
from app.engine.types import LadderEvent
from app.repositories.events import COPY_MIN_ROWS, EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import BatchItemOut, GameBatchIn, GameBatchOut, GameIn, TournamentIn
from app.services.conversion import (
    GAME,
    TOURNAMENT,
    game_to_engine,
    tournament_time,
    tournament_to_engine,
)
from app.services.events import run_write
from app.services.ledger import Placed, append, now, recompute, validate
from app.services.runtime import Runtime, body_hash, runtime_for


@dataclass(frozen=True, slots=True)
class Item:
    """One event of a batch, validated."""

    ladder: str
    kind: str
    #: None for adjustments, which have no client id (and so no idempotency).
    external_id: str | None
    occurred_at: datetime
    body: dict[str, Any]
    event: LadderEvent
    rated: bool = True
    tournament: str | None = None
    #: The body's hash (idempotency), computed once: every step of an import compares it.
    digest: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", body_hash(self.body))


def check(db: Database, items: Sequence[tuple[tuple[str | int, ...], Item]]) -> list[FieldError]:
    """Every rule violation of every item (``loc`` prefixed by where the item came from)."""
    runtimes: dict[str, Runtime | None] = {}

    def load(session: Session) -> None:
        repo = LadderRepository(session)
        for ladder_id in {item.ladder for _, item in items}:
            ladder = repo.get(ladder_id)
            runtimes[ladder_id] = runtime_for(ladder) if ladder is not None else None

    db.run(load, write=False)
    errors: list[FieldError] = []
    seen: dict[tuple[str, str, str], str] = {}
    for where, item in items:
        runtime = runtimes[item.ladder]
        if runtime is None:
            errors.append(FieldError((*where, "ladder"), f"ladder {item.ladder!r} does not exist"))
            continue
        try:
            validate(runtime, item.event)
        except Invalid as exc:
            errors.extend(FieldError((*where, *e.loc), e.msg) for e in exc.errors)
        if item.external_id is None:
            continue
        key = (item.ladder, item.kind, item.external_id)
        if key in seen and seen[key] != item.digest:
            errors.append(
                FieldError(
                    (*where, "id"), f"{item.external_id!r} appears twice with different bodies"
                )
            )
        seen[key] = item.digest
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


def apply(db: Database, items: Sequence[Item]) -> GameBatchOut:
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


def store(db: Database, items: Sequence[Item]) -> Stored:
    """:func:`apply` without its response (an import's chunk needs only the counts)."""

    def work(
        session: Session, _exclusive: bool
    ) -> tuple[list[Outcome], int, Counter[tuple[str, str]], Counter[str]]:
        ladders = LadderRepository(session)
        events = EventRepository(session)
        outcomes: dict[int, Outcome] = {}
        recomputed = 0
        created: Counter[tuple[str, str]] = Counter()
        #: Events replayed per ladder because new ones came before stored ones (what the
        #: recomputation metrics count; extending history is not a recomputation).
        replayed_late: Counter[str] = Counter()
        by_ladder: dict[str, list[tuple[int, Item]]] = {}
        for index, item in enumerate(items):
            by_ladder.setdefault(item.ladder, []).append((index, item))
        for ladder_id in sorted(by_ladder):  # a fixed order: two batches never deadlock
            ladder = ladders.get_locked(ladder_id, exclusive=True)
            if ladder is None:
                raise NotFound(f"ladder {ladder_id!r} does not exist")
            fresh: list[tuple[int, Item]] = []
            existing = events.find_many(
                ladder_id,
                [
                    (item.kind, item.external_id)
                    for _, item in by_ladder[ladder_id]
                    if item.external_id is not None
                ],
            )
            in_batch: dict[tuple[str, str], str] = {}
            first_seq: dict[tuple[str, str], int] = {}
            repeats: list[tuple[int, tuple[str, str]]] = []
            for index, item in by_ladder[ladder_id]:
                if item.external_id is None:
                    fresh.append((index, item))
                    continue
                key = (item.kind, item.external_id)
                if key in in_batch:
                    # The same event twice in one batch (check() refused different bodies).
                    repeats.append((index, key))
                    continue
                in_batch[key] = item.digest
                found = existing.get(key)
                if found is not None:
                    if found.body_hash != item.digest:
                        raise Conflict(
                            f"{item.kind} {item.external_id!r} already exists in ladder "
                            f"{ladder_id!r} with a different body; nothing was stored"
                        )
                    outcomes[index] = (ladder_id, item.external_id, found.seq, EXISTING)
                    first_seq[key] = found.seq
                    continue
                fresh.append((index, item))
            # Arrival numbers follow time order within the batch (then input order).
            fresh.sort(key=lambda pair: (pair[1].occurred_at, pair[0]))
            for kind, count in Counter(item.kind for _, item in fresh).items():
                created[(ladder_id, kind)] += count
            stamp = now()
            rows = [
                {
                    "ladder_id": ladder_id,
                    "kind": item.kind,
                    "external_id": item.external_id,
                    "occurred_at": item.occurred_at,
                    "body": item.body,
                    "body_hash": item.digest,
                    "rated": item.rated,
                    "tournament": item.tournament,
                    "created_at": stamp,
                }
                for _, item in fresh
            ]
            # New events at or after everything live extend the history: rated from the
            # items in memory. Anything earlier replays the history from there.
            latest = events.latest(ladder_id) if fresh else None
            extends = bool(fresh) and (latest is None or latest[0] <= fresh[0][1].occurred_at)
            leading: list[dict[str, Any]] | None = None
            if extends and len(rows) >= COPY_MIN_ROWS:
                # Written by the replay, while it rates the first of them (ledger.append).
                seqs = events.draw_seqs(len(rows))
                leading = [{**row, "seq": seq} for row, seq in zip(rows, seqs, strict=True)]
            else:
                seqs = events.insert_many(rows)
            for (index, item), seq in zip(fresh, seqs, strict=True):
                outcomes[index] = (ladder_id, item.external_id, seq, CREATED)
                if item.external_id is not None:
                    first_seq[(item.kind, item.external_id)] = seq
            for index, key in repeats:
                outcomes[index] = (ladder_id, key[1], first_seq[key], EXISTING)
            if extends:
                placed = [
                    (Placed(seq, item.occurred_at, item.rated), item.event)
                    for (_, item), seq in zip(fresh, seqs, strict=True)
                ]
                count, _players = append(session, ladder, placed, leading)
                recomputed += count
            elif fresh:
                count, _players = recompute(session, ladder, fresh[0][1].occurred_at)
                recomputed += count
                replayed_late[ladder_id] += count
        return [outcomes[i] for i in range(len(items))], recomputed, created, replayed_late

    ordered, recomputed, created, replayed_late = run_write(db, work)
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


def game_item(body: GameIn) -> Item:
    return Item(
        ladder=body.ladder,
        kind=GAME,
        external_id=body.id,
        occurred_at=body.played_at,
        body=body.model_dump(mode="json", by_alias=True),
        event=game_to_engine(body),
        rated=body.rated,
        tournament=body.tournament,
    )


def tournament_item(body: TournamentIn) -> Item:
    return Item(
        ladder=body.ladder,
        kind=TOURNAMENT,
        external_id=body.id,
        occurred_at=tournament_time(body.held_on),
        body=body.model_dump(mode="json", by_alias=True),
        event=tournament_to_engine(body),
    )


def submit_games(db: Database, body: GameBatchIn) -> GameBatchOut:
    """POST /games/batch: all valid and stored together, or a 422 listing every problem."""
    items = [(("games", index), game_item(game)) for index, game in enumerate(body.games)]
    errors = check(db, items)
    if errors:
        raise Invalid(f"{len(errors)} problem(s) in the batch; nothing was stored", errors=errors)
    return apply(db, [item for _, item in items])
