"""Use cases for games and tournaments: submit (with dry run), read, correct and void."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import anyio.to_thread
from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, DomainError, NotFound, PreconditionFailed
from app.engine.ledger import event_keys, event_ranks, event_teams, rate_event
from app.engine.types import Change as EngineChange
from app.engine.types import Game, Outcome
from app.models import Change, Event
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import ChangeOut, GameIn, GameOut, TournamentIn, TournamentOut
from app.services import auth, feed, whole_history
from app.services.auth import ADMIN, Caller, Principal
from app.services.conversion import (
    GAME,
    TOURNAMENT,
    game_to_engine,
    tournament_time,
    tournament_to_engine,
)
from app.services.group_commit import QUEUED, GroupCommitter, LateCommitters
from app.services.history import NewEvent, record, rerate, states_as_of, validate
from app.services.runtime import (
    Runtime,
    decode_state,
    engine_refusals,
    now,
    plain,
    require_ladder,
    runtime_for,
)
from app.services.unit_of_work import (
    Created,
    Deferred,
    Existing,
    LadderWrite,
    Lock,
    Recomputed,
    UnitOfWork,
    run_write,
)


@dataclass(frozen=True, slots=True)
class Submitted:
    status: int
    body: GameOut | TournamentOut


def verified(db: Database, caller: Caller, ladder_id: str) -> Principal:
    """The caller of a request that writes nothing (a dry run), verified and counted in a
    transaction of its own, with its right to the ladder (401, 403, 404, 429)."""
    principal = auth.authenticate(db, caller) if isinstance(caller, auth.KeyClaim) else caller
    principal.check_ladder(ladder_id)
    return principal


@dataclass(frozen=True, slots=True)
class EventView:
    """What a response needs of a stored event (from the database or just written)."""

    ladder_id: str
    kind: str
    external_id: str | None
    seq: int
    occurred_at: datetime
    rated: bool
    voided: bool
    body: dict[str, Any]
    version: int = 1

    @classmethod
    def of(cls, event: Event) -> EventView:
        return cls(
            event.ladder_id,
            event.kind,
            event.external_id,
            event.seq,
            event.occurred_at,
            event.rated,
            event.voided_at is not None,
            event.body,
            event.version,
        )


CHANGE_FIELDS = (
    "player", "faction", "position", "rank", "team", "rating_before", "rating_after",
    "deviation_before", "deviation_after", "volatility_before", "volatility_after",
    "details", "state_after",
)  # fmt: skip


def _change_dict(change: Change) -> dict[str, Any]:
    return {name: getattr(change, name) for name in CHANGE_FIELDS}


def _change_out(
    runtime: Runtime, change: Mapping[str, Any], faction_shown: str | None
) -> ChangeOut:
    # Systems that rank by a conservative value (Glicko's, TrueSkill's mu - 3 sigma) show it
    # on each change, as the engine's own changes do.
    shows_value = runtime.info.duel or runtime.info.rank_by == "ranking_value"
    standing = runtime.standing(decode_state(change["state_after"])) if shows_value else None
    return ChangeOut(
        player=change["player"],
        faction=faction_shown,
        rank=change["rank"],
        team=change["team"],
        rating_before=change["rating_before"],
        rating_after=change["rating_after"],
        delta=change["rating_after"] - change["rating_before"],
        details=change["details"],
        deviation_before=change["deviation_before"],
        deviation_after=change["deviation_after"],
        volatility_before=change["volatility_before"],
        volatility_after=change["volatility_after"],
        ranking_value=standing.ranking_value if standing else None,
    )


def _engine_change_out(
    runtime: Runtime,
    change: EngineChange,
    rank: int | None,
    team: str | None,
    faction_shown: str | None,
) -> ChangeOut:
    standing = runtime.standing(change.after)
    return ChangeOut(
        player=change.key.player,
        faction=faction_shown,
        rank=rank,
        team=team,
        rating_before=change.before.rating,
        rating_after=change.after.rating,
        delta=change.after.rating - change.before.rating,
        details=plain(change.details),
        deviation_before=change.before.deviation,
        deviation_after=change.after.deviation,
        volatility_before=change.before.volatility,
        volatility_after=change.after.volatility,
        ranking_value=standing.ranking_value,
    )


def event_out(
    runtime: Runtime,
    event: Event | EventView,
    changes: Sequence[Change | Mapping[str, Any]],
    recomputed: int = 0,
    recomputed_players: int = 0,
) -> GameOut | TournamentOut:
    view = event if isinstance(event, EventView) else EventView.of(event)
    rows = [c if isinstance(c, Mapping) else _change_dict(c) for c in changes]
    if view.kind == GAME:
        factions = _shown_factions(view.kind, view.body, len(rows))
        return GameOut(
            ladder=view.ladder_id,
            id=view.external_id or "",
            seq=view.seq,
            version=view.version,
            played_at=view.occurred_at,
            rated=view.rated,
            tournament=view.body.get("tournament"),
            voided=view.voided,
            recomputed_events=recomputed,
            recomputed_players=recomputed_players,
            teams=view.body.get("teams"),
            changes=[_change_out(runtime, c, factions[c["position"]]) for c in rows],
        )
    return TournamentOut(
        ladder=view.ladder_id,
        id=view.external_id or "",
        seq=view.seq,
        version=view.version,
        held_on=view.occurred_at.date(),
        name=view.body.get("name"),
        voided=view.voided,
        recomputed_events=recomputed,
        recomputed_players=recomputed_players,
        changes=[_change_out(runtime, c, None) for c in rows],
    )


def _shown_factions(kind: str, body: Mapping[str, Any], count: int) -> list[str | None]:
    """The faction each change shows: a game's, as posted; none in a tournament."""
    if kind == GAME:
        if "teams" in body:
            return [p.get("faction") for side in body["teams"] for p in side["players"]]
        return [player.get("faction") for player in body.get("players", [])]
    return [None] * count


def _answer(
    new: NewEvent,
    seq: int,
    changes: list[dict[str, Any]],
    runtime: Runtime,
    *counts: int,
    version: int = 1,
) -> GameOut | TournamentOut:
    """The response to an event just written, from the rows the unit wrote (memory)."""
    view = EventView(
        new.ladder_id,
        new.kind,
        new.external_id,
        seq,
        new.occurred_at,
        new.rated,
        False,
        new.body,
        version,
    )
    return event_out(runtime, view, changes, *counts)


def _event_ref(new: NewEvent) -> tuple[str, str] | None:
    """How a feed item names the event (adjustments have no id)."""
    return None if new.external_id is None else (new.kind, new.external_id)


def _stored_answer(write: LadderWrite, seq: int) -> GameOut | TournamentOut:
    """The response of a stored event, as stored now (a repeat's: 200)."""
    event = write.session.get(Event, seq)
    assert event is not None
    return event_out(write.runtime, event, ChangeRepository(write.session).of_event(seq))


def _submitted(
    write: LadderWrite, new: NewEvent, recorded: Created | Existing | Recomputed
) -> Submitted:
    if isinstance(recorded, Created):
        return Submitted(201, _answer(new, recorded.seq, recorded.changes, recorded.runtime))
    if isinstance(recorded, Existing):
        return Submitted(200, _stored_answer(write, recorded.seq))
    counts = (recorded.events, recorded.players)
    return Submitted(201, _answer(new, recorded.seq, recorded.changes, recorded.runtime, *counts))


def _submit(
    db: Database,
    new: NewEvent,
    caller: Caller,
    *,
    dry_run: bool,
    late: bool | None = None,
    lock: Lock = Lock.SHARED,
) -> Submitted:
    """Record one event in a unit of work of its own (``late``, ``lock``: what a group that
    handed it back found)."""
    if dry_run:
        verified(db, caller, new.ladder_id)
        return Submitted(200, _dry_run(db, new))

    def work(unit: UnitOfWork) -> tuple[Submitted, str]:
        unit.admit(caller, new.ladder_id)
        write = unit.ladder(new.ladder_id)
        recorded = record(write, new, late=late)
        if not isinstance(recorded, Existing):
            write.publish(feed.KIND_TYPES[new.kind, "rated"], _event_ref(new))
        return _submitted(write, new, recorded), write.runtime.info.id

    submitted, system = run_write(db, work, lock=lock)
    if submitted.status == 201:
        metrics.record_applied(new.ladder_id, system, new.kind)
        metrics.record_recomputed(new.ladder_id, system, submitted.body.recomputed_events)
    return submitted


def _dry_run(db: Database, new: NewEvent) -> GameOut | TournamentOut:
    """The response the event would get, computed from history as of its time; nothing stored."""
    ladder_id = new.ladder_id

    def work(session: Session) -> GameOut | TournamentOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        validate(runtime, new.event)
        existing = EventRepository(session).find(ladder_id, new.kind, new.external_id or "")
        if existing is not None:
            if existing.body_hash != new.body_hash:
                raise Conflict(
                    f"{new.kind} {new.external_id!r} already exists with a different body"
                )
            # Already recorded: the dry run answers what posting it would, the stored response.
            return event_out(runtime, existing, ChangeRepository(session).of_event(existing.seq))
        keys = event_keys(runtime.info, new.event)
        states, ladder_state = states_as_of(session, ladder, runtime, keys, new.occurred_at)
        if runtime.info.whole_history and isinstance(new.event, Game):
            # The refit the write would make, with the game in its place (nothing stored).
            outcome = Outcome(
                tuple(whole_history.dry_run(session, ladder_id, runtime, new.event)), ladder_state
            )
        else:
            with engine_refusals():
                outcome = rate_event(runtime.info, runtime.rater, new.event, states, ladder_state)
        ranks = event_ranks(new.event)
        teams = event_teams(new.event)
        shown_factions = _shown_factions(new.kind, new.body, len(ranks))
        changes = [
            _engine_change_out(runtime, c, ranks[i], teams[i], shown_factions[i])
            for i, c in enumerate(outcome.changes)
        ]
        if new.kind == GAME:
            return GameOut(
                ladder=ladder_id,
                id=new.external_id or "",
                seq=0,
                version=0,
                played_at=new.occurred_at,
                rated=new.rated,
                tournament=new.tournament,
                teams=new.body.get("teams"),
                changes=changes,
            )
        return TournamentOut(
            ladder=ladder_id,
            id=new.external_id or "",
            seq=0,
            version=0,
            held_on=new.occurred_at.date(),
            name=new.body.get("name"),
            changes=changes,
        )

    return db.run(work, write=False)


def new_game_event(body: GameIn) -> NewEvent:
    return NewEvent(
        ladder_id=body.ladder,
        kind=GAME,
        external_id=body.id,
        occurred_at=body.played_at,
        body=body.model_dump(mode="json", by_alias=True),
        event=game_to_engine(body),
        rated=body.rated,
        tournament=body.tournament,
    )


def new_tournament_event(body: TournamentIn) -> NewEvent:
    return NewEvent(
        ladder_id=body.ladder,
        kind=TOURNAMENT,
        external_id=body.id,
        occurred_at=tournament_time(body.held_on),
        body=body.model_dump(mode="json", by_alias=True),
        event=tournament_to_engine(body),
    )


def submit_game(
    db: Database, body: GameIn, *, caller: Caller = ADMIN, dry_run: bool = False
) -> Submitted:
    return _submit(db, new_game_event(body), caller, dry_run=dry_run)


async def submit_game_grouped(
    committer: GroupCommitter, late: LateCommitters, body: GameIn, caller: Caller = ADMIN
) -> Submitted:
    """POST /games under load: recorded together with the games arriving beside it.

    A game the group hands back late, or because its ladder or one of its rows was busy (on
    a hot ladder: behind a late game's recomputation), queues on ``late``, to be recorded
    with the others of its ladder that arrive meanwhile (one recomputation for all, where
    one is late), not each waiting for the ladder and recomputing on its own. What else is
    handed back (a repeated id, a ladder-wide system, ...) is recorded on its own, in a
    worker thread, starting where the group found it must
    (:class:`~app.services.unit_of_work.Deferred`).
    """
    new = new_game_event(body)
    recorded = await committer.submit(new, caller)
    if isinstance(recorded, Deferred) and recorded.why in QUEUED:
        recorded = await late.submit(new, caller)
    if isinstance(recorded, DomainError):
        raise recorded
    if isinstance(recorded, Created):
        metrics.record_applied(body.ladder, recorded.runtime.info.id, new.kind)
        return Submitted(201, _answer(new, recorded.seq, recorded.changes, recorded.runtime))
    if isinstance(recorded, Recomputed):  # its shared recomputation is counted once, there
        metrics.record_applied(body.ladder, recorded.runtime.info.id, new.kind)
        counts = (recorded.events, recorded.players)
        return Submitted(
            201, _answer(new, recorded.seq, recorded.changes, recorded.runtime, *counts)
        )
    one_by_one = functools.partial(
        _submit, committer.db, new, caller, dry_run=False, late=recorded.late, lock=recorded.lock
    )
    return await anyio.to_thread.run_sync(one_by_one)


def submit_tournament(
    db: Database, body: TournamentIn, *, caller: Caller = ADMIN, dry_run: bool = False
) -> Submitted:
    return _submit(db, new_tournament_event(body), caller, dry_run=dry_run)


def get_event(db: Database, ladder_id: str, kind: str, external_id: str) -> GameOut | TournamentOut:
    def work(session: Session) -> GameOut | TournamentOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        event = EventRepository(session).find(ladder_id, kind, external_id)
        if event is None:
            raise NotFound(f"{kind} {external_id!r} does not exist in ladder {ladder_id!r}")
        return event_out(runtime, event, ChangeRepository(session).of_event(event.seq))

    return db.run(work, write=False)


def etag(seq: int, version: int) -> str:
    """A stored result's entity tag: its seq (unique in the service, so a tag of one result
    never matches another's) and its version. Strong, as If-Match compares strongly; it
    names the result as submitted (body and void), not the ratings a late result elsewhere
    may recompute in it."""
    return f'"{seq}.{version}"'


def out_etag(out: GameOut | TournamentOut) -> str | None:
    """The ETag of a response (None for a dry run's, which stores nothing)."""
    return etag(out.seq, out.version) if out.seq else None


def _check_if_match(event: Event, if_match: Sequence[str] | None) -> None:
    """RFC 9110 If-Match: one of the tags (or "*") must be the stored version's, else 412
    and nothing changes (the caller's transaction rolls back)."""
    if if_match is None or "*" in if_match:
        return
    current = etag(event.seq, event.version)
    if current not in if_match:
        raise PreconditionFailed(
            f"{event.kind} {event.external_id!r} has changed: it is at version "
            f"{event.version} (ETag {current}), not {', '.join(if_match)}; read it again "
            "and repeat the change if it still applies"
        )


def correct_event(
    db: Database,
    ladder_id: str,
    external_id: str,
    new: NewEvent,
    caller: Caller = ADMIN,
    if_match: Sequence[str] | None = None,
) -> GameOut | TournamentOut:
    """Replace a stored result and re-rate what it moves, from the earlier of the two times
    (its dependency cone, holding the cone's rating rows; :func:`rerate`)."""

    def work(unit: UnitOfWork) -> tuple[GameOut | TournamentOut, str]:
        unit.admit(caller, ladder_id)
        write = unit.ladder(ladder_id)
        validate(write.runtime, new.event)
        event = EventRepository(write.session).find(ladder_id, new.kind, external_id, lock=True)
        if event is None:
            raise NotFound(f"{new.kind} {external_id!r} does not exist in ladder {ladder_id!r}")
        _check_if_match(event, if_match)
        start = min(event.occurred_at, new.occurred_at)
        event.version += 1
        event.body = new.body
        event.body_hash = new.body_hash
        event.occurred_at = new.occurred_at
        event.rated = new.rated
        event.tournament = new.tournament
        event.voided_at = None
        event.voided_changes = None
        write.session.flush()
        recomputed = rerate(write, start, {event.seq: new})
        write.publish(feed.KIND_TYPES[new.kind, "corrected"], _event_ref(new))
        written = write.written.get(event.seq, [])
        out = _answer(new, event.seq, written, write.runtime, *recomputed, version=event.version)
        return out, write.runtime.info.id

    out, system = run_write(db, work)
    metrics.record_recomputed(ladder_id, system, out.recomputed_events)
    return out


def void_event(
    db: Database,
    ladder_id: str,
    kind: str,
    external_id: str,
    caller: Caller = ADMIN,
    if_match: Sequence[str] | None = None,
) -> GameOut | TournamentOut:
    """Void a result: it stays in history, marked voided, and changes no rating; what it
    moved is re-rated (its dependency cone, holding the cone's rating rows)."""

    def work(unit: UnitOfWork) -> tuple[GameOut | TournamentOut, str]:
        unit.admit(caller, ladder_id)
        write = unit.ladder(ladder_id)
        event = EventRepository(write.session).find(ladder_id, kind, external_id, lock=True)
        if event is None:
            raise NotFound(f"{kind} {external_id!r} does not exist in ladder {ladder_id!r}")
        _check_if_match(event, if_match)
        recomputed = (0, 0)
        if event.voided_at is None:
            event.version += 1
            event.voided_at = now()
            changes = ChangeRepository(write.session).of_event(event.seq)
            event.voided_changes = [_voided_snapshot(c) for c in changes]
            write.session.flush()
            recomputed = rerate(write, event.occurred_at, {event.seq: None})
            write.publish(feed.KIND_TYPES[kind, "voided"], (kind, external_id))
        return event_out(write.runtime, event, [], *recomputed), write.runtime.info.id

    out, system = run_write(db, work)
    metrics.record_recomputed(ladder_id, system, out.recomputed_events)
    return out


def _voided_snapshot(change: Change) -> dict[str, Any]:
    return {
        "player": change.player,
        "faction": change.faction,
        "rank": change.rank,
        "rating_before": change.rating_before,
        "rating_after": change.rating_after,
        "deviation_before": change.deviation_before,
        "deviation_after": change.deviation_after,
        "volatility_before": change.volatility_before,
        "volatility_after": change.volatility_after,
        "details": change.details,
    }


def correct_game(
    db: Database,
    ladder_id: str,
    external_id: str,
    body: GameIn,
    caller: Caller = ADMIN,
    if_match: Sequence[str] | None = None,
) -> GameOut | TournamentOut:
    return correct_event(db, ladder_id, external_id, new_game_event(body), caller, if_match)


def correct_tournament(
    db: Database,
    ladder_id: str,
    external_id: str,
    body: TournamentIn,
    caller: Caller = ADMIN,
    if_match: Sequence[str] | None = None,
) -> GameOut | TournamentOut:
    return correct_event(db, ladder_id, external_id, new_tournament_event(body), caller, if_match)
