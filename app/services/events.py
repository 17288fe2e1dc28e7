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
from app.core.database import Database, Lock, Retry
from app.core.errors import Conflict, NotFound
from app.engine.ledger import event_keys, event_ranks, event_teams, rate_event
from app.engine.types import Change as EngineChange
from app.models import Change, Event
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import ChangeOut, GameIn, GameOut, TournamentIn, TournamentOut
from app.services.conversion import (
    GAME,
    TOURNAMENT,
    game_to_engine,
    tournament_time,
    tournament_to_engine,
)
from app.services.group_commit import committer_for
from app.services.history import (
    Created,
    Existing,
    NewEvent,
    record,
    rerate,
    states_as_of,
    validate,
)
from app.services.runtime import (
    Runtime,
    decode_state,
    engine_refusals,
    now,
    plain,
    require_ladder,
    runtime_for,
)


@dataclass(frozen=True, slots=True)
class Submitted:
    status: int
    body: GameOut | TournamentOut


def _load_runtime(db: Database, ladder_id: str) -> Runtime:
    def work(session: Session) -> Runtime:
        return runtime_for(require_ladder(LadderRepository(session).get(ladder_id), ladder_id))

    return db.run(work, write=False)


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


def _answer_new(new: NewEvent, created: Created) -> GameOut | TournamentOut:
    """The response to a newly recorded event, from the rows just written."""
    view = EventView(
        new.ladder_id,
        new.kind,
        new.external_id,
        created.seq,
        new.occurred_at,
        new.rated,
        False,
        new.body,
    )
    return event_out(created.runtime, view, created.changes)


def _submit(db: Database, new: NewEvent, *, dry_run: bool) -> Submitted:
    if dry_run:
        return Submitted(200, _dry_run(db, new))

    def work(session: Session, lock: Lock) -> tuple[Submitted, str] | Retry:
        recorded = record(session, new.ladder_id, new, lock=lock)
        if isinstance(recorded, Retry):
            return recorded
        if isinstance(recorded, Created):
            return Submitted(201, _answer_new(new, recorded)), recorded.runtime.info.id
        ladder = require_ladder(LadderRepository(session).get(new.ladder_id), new.ladder_id)
        runtime = runtime_for(ladder)
        event = session.get(Event, recorded.seq)
        assert event is not None
        changes = ChangeRepository(session).of_event(recorded.seq)
        if isinstance(recorded, Existing):
            return Submitted(200, event_out(runtime, event, changes)), runtime.info.id
        out = event_out(runtime, event, changes, recorded.events, recorded.players)
        return Submitted(201, out), runtime.info.id

    submitted, system = db.run_escalating(work)
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


def submit_game(db: Database, body: GameIn, *, dry_run: bool = False) -> Submitted:
    return _submit(db, new_game_event(body), dry_run=dry_run)


async def submit_game_grouped(db: Database, body: GameIn, max_group: int) -> Submitted:
    """POST /games under load: recorded together with the games arriving beside it.

    What the group cannot take (a late game, a repeated id, a ladder-wide system) is
    recorded on its own, in a worker thread, exactly as :func:`submit_game` does.
    """
    new = new_game_event(body)
    recorded = await committer_for(db, max_group).submit(new)
    if isinstance(recorded, Created):
        metrics.record_applied(body.ladder, recorded.runtime.info.id, new.kind)
        return Submitted(201, _answer_new(new, recorded))
    one_by_one = functools.partial(_submit, db, new, dry_run=False)
    return await anyio.to_thread.run_sync(one_by_one)


def submit_tournament(db: Database, body: TournamentIn, *, dry_run: bool = False) -> Submitted:
    return _submit(db, new_tournament_event(body), dry_run=dry_run)


def get_event(db: Database, ladder_id: str, kind: str, external_id: str) -> GameOut | TournamentOut:
    def work(session: Session) -> GameOut | TournamentOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        event = EventRepository(session).find(ladder_id, kind, external_id)
        if event is None:
            raise NotFound(f"{kind} {external_id!r} does not exist in ladder {ladder_id!r}")
        return event_out(runtime, event, ChangeRepository(session).of_event(event.seq))

    return db.run(work, write=False)


def correct_event(
    db: Database, ladder_id: str, external_id: str, new: NewEvent
) -> GameOut | TournamentOut:
    """Replace a stored result and re-rate what it moves, from the earlier of the two times
    (its dependency cone, holding the cone's rating rows; :func:`rerate`)."""
    runtime = _load_runtime(db, ladder_id)
    validate(runtime, new.event)

    def work(session: Session, lock: Lock) -> tuple[GameOut | TournamentOut] | Retry:
        ladder = require_ladder(
            LadderRepository(session).get_locked(ladder_id, exclusive=lock is Lock.LADDER),
            ladder_id,
        )
        event = EventRepository(session).find(ladder_id, new.kind, external_id, lock=True)
        if event is None:
            raise NotFound(f"{new.kind} {external_id!r} does not exist in ladder {ladder_id!r}")
        start = min(event.occurred_at, new.occurred_at)
        event.body = new.body
        event.body_hash = new.body_hash
        event.occurred_at = new.occurred_at
        event.rated = new.rated
        event.tournament = new.tournament
        event.voided_at = None
        event.voided_changes = None
        session.flush()
        recomputed = rerate(session, ladder, start, [event.seq], lock)
        if isinstance(recomputed, Retry):
            return recomputed
        changes = ChangeRepository(session).of_event(event.seq)
        return (event_out(runtime, event, changes, *recomputed),)

    [out] = db.run_escalating(work, start=Lock.CONE)
    metrics.record_recomputed(ladder_id, runtime.info.id, out.recomputed_events)
    return out


def void_event(
    db: Database, ladder_id: str, kind: str, external_id: str
) -> GameOut | TournamentOut:
    """Void a result: it stays in history, marked voided, and changes no rating; what it
    moved is re-rated (its dependency cone, holding the cone's rating rows)."""

    def work(session: Session, lock: Lock) -> tuple[GameOut | TournamentOut, str] | Retry:
        ladder = require_ladder(
            LadderRepository(session).get_locked(ladder_id, exclusive=lock is Lock.LADDER),
            ladder_id,
        )
        runtime = runtime_for(ladder)
        event = EventRepository(session).find(ladder_id, kind, external_id, lock=True)
        if event is None:
            raise NotFound(f"{kind} {external_id!r} does not exist in ladder {ladder_id!r}")
        recomputed = (0, 0)
        if event.voided_at is None:
            event.voided_at = now()
            changes = ChangeRepository(session).of_event(event.seq)
            event.voided_changes = [_voided_snapshot(c) for c in changes]
            session.flush()
            rerated = rerate(session, ladder, event.occurred_at, [event.seq], lock)
            if isinstance(rerated, Retry):
                return rerated
            recomputed = rerated
        return event_out(runtime, event, [], *recomputed), runtime.info.id

    out, system = db.run_escalating(work, start=Lock.CONE)
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
    db: Database, ladder_id: str, external_id: str, body: GameIn
) -> GameOut | TournamentOut:
    return correct_event(db, ladder_id, external_id, new_game_event(body))


def correct_tournament(
    db: Database, ladder_id: str, external_id: str, body: TournamentIn
) -> GameOut | TournamentOut:
    return correct_event(db, ladder_id, external_id, new_tournament_event(body))
