"""Recording several new games of one ladder in one transaction (group commit).

Games that arrive together and only extend history (none earlier than what its players
already have) are rated in arrival order, exactly as :func:`app.services.ledger.record` would
rate them one by one, and written with one statement per table instead of one transaction
each. The rest is handed back, untouched, for the one-by-one path: late games (they need the
ladder's exclusive lock and a recomputation) and ladder-scoped systems (NADF's pot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.core.errors import DomainError, Invalid, NotFound
from app.engine.ledger import event_keys
from app.engine.types import PlayerKey, PlayerState
from app.repositories.groups import GroupRepository
from app.repositories.ratings import RatingKey, RatingRepository
from app.services.ledger import (
    Chain,
    Counters,
    NewEvent,
    Placed,
    Recorded,
    event_change_rows,
    fresh_row,
    now,
    validate,
)
from app.services.runtime import db_key, decode_state, engine_key, rate, runtime_for


@dataclass(frozen=True, slots=True)
class Deferred:
    """Not recorded here: the caller records it on its own (late, or a ladder-wide system)."""


DEFERRED = Deferred()

#: What each submitted game became: recorded (new or a repeat), refused, or handed back.
Appended = Recorded | DomainError | Deferred


def record_appends(session: Session, ladder_id: str, items: Sequence[NewEvent]) -> list[Appended]:
    """Record ``items`` (games of ``ladder_id``, in arrival order) in the caller's transaction.
    In a session with an explicit begin (pipelined PostgreSQL), that transaction begins here
    and, when the games are written, ends here too: nothing may follow in it.

    Locks as :func:`~app.services.ledger.record` does: the ladder shared, then every player's
    rating row, sorted. Ids already stored (or twice in the group) are handed back; a
    concurrent writer inserting the same id meanwhile makes the event insert fail with an
    integrity error, and the caller retries the group.
    """
    group = GroupRepository(session)
    ladder = group.open(ladder_id)
    if ladder is None:
        return [NotFound(f"ladder {ladder_id!r} does not exist") for _ in items]
    runtime = runtime_for(ladder)
    if runtime.info.ladder_scoped:
        return [DEFERRED for _ in items]
    results: list[Appended | None] = [None] * len(items)
    for index, new in enumerate(items):
        try:
            validate(runtime, new.event)
        except Invalid as exc:
            results[index] = exc

    # Repeats and id conflicts are rare: the one-by-one path answers them (200 or 409).
    id_keys = {i: (new.kind, new.external_id or "") for i, new in enumerate(items)}
    seen: set[tuple[str, str]] = set()
    candidates: list[int] = []
    for index, result in enumerate(results):
        if result is not None:
            continue
        if id_keys[index] in seen:
            results[index] = DEFERRED
        else:
            seen.add(id_keys[index])
            candidates.append(index)

    # Everything is read at once, for every candidate: the rows and ids of the few that turn
    # out stored or late are locked or drawn for nothing (ids may have gaps).
    keys_of = {i: [db_key(k) for k in event_keys(runtime.info, items[i].event)] for i in candidates}
    wanted = sorted({key for keys in keys_of.values() for key in keys})
    read = group.read(
        ladder_id,
        [id_keys[i] for i in candidates],
        wanted,
        events=len(candidates),
        changes=sum(len(keys) for keys in keys_of.values()),
    )
    fresh: list[int] = []
    for index in candidates:
        if id_keys[index] in read.stored:
            results[index] = DEFERRED
        else:
            fresh.append(index)
    rows = read.rows
    missing = [key for key in wanted if key not in rows]
    if missing:
        ratings = RatingRepository(session)
        ratings.ensure(ladder_id, [fresh_row(runtime, ladder, key) for key in missing])
        rows.update(ratings.lock_rows(ladder_id, missing))
        # Ids drawn before these rows were locked could be smaller than those of a game
        # another writer applied to a new player meanwhile: seqs must follow the locks.
        read = group.redraw(read)

    # Which games extend history: none earlier than a player's last game, here or stored.
    last_at = {key: row.last_event_at for key, row in rows.items()}
    appended: list[int] = []
    for index in fresh:
        at = items[index].occurred_at
        if any((last := last_at[key]) is not None and last > at for key in keys_of[index]):
            results[index] = DEFERRED
            continue
        appended.append(index)
        for key in keys_of[index]:
            last_at[key] = at

    stamp = now()
    seqs = read.seqs[: len(appended)]
    event_rows = [
        {
            "ladder_id": ladder_id,
            "kind": items[i].kind,
            "external_id": items[i].external_id,
            "occurred_at": items[i].occurred_at,
            "body": items[i].body,
            "body_hash": items[i].body_hash,
            "rated": items[i].rated,
            "tournament": items[i].tournament,
            "created_at": stamp,
        }
        for i in appended
    ]
    states: dict[PlayerKey, PlayerState] = {
        engine_key(*key): decode_state(row.state)
        for key, row in rows.items()
        if row.last_change_id is not None
    }
    chain = Chain({key: row.last_change_id for key, row in rows.items()})
    counters = {
        key: Counters(row.games, row.wins, row.draws, row.losses, row.last_played_at)
        for key, row in rows.items()
    }
    ids = iter(read.change_ids)
    all_changes: list[dict[str, Any]] = []
    finals: dict[RatingKey, dict[str, Any]] = {}
    for index, seq in zip(appended, seqs, strict=True):
        new = items[index]
        outcome = rate(runtime.info, runtime.rater, new.event, states, ladder.state)
        for change in outcome.changes:
            states[change.key] = change.after
        placed = Placed(seq, new.occurred_at, new.rated)
        change_ids = [next(ids) for _ in outcome.changes]
        change_rows, updates = event_change_rows(
            ladder_id, placed, new.event, outcome, chain, runtime, change_ids
        )
        all_changes.extend(change_rows)
        for key, update in updates.items():
            counters[key].add(update.pop("outcome"), new.occurred_at)
            finals[key] = update
        results[index] = Recorded(seq, changes=change_rows, runtime=runtime)
    group.write(
        ladder_id,
        event_rows,
        seqs,
        all_changes,
        [
            {"player": key[0], "faction": key[1], **update, **counters[key].columns()}
            for key, update in sorted(finals.items())
        ],
        last=True,
    )
    return [result if result is not None else DEFERRED for result in results]
