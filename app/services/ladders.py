"""Use cases for ladders and systems."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, Invalid, NotFound
from app.engine import ranked
from app.engine.protocols import SystemInfo
from app.engine.registry import SYSTEMS
from app.models import Ladder
from app.repositories.keys import KeyRepository
from app.repositories.ladders import LadderRepository
from app.repositories.webhooks import WebhookRepository
from app.schemas.ladders import (
    FitOut,
    LadderChanged,
    LadderIn,
    LadderList,
    LadderOut,
    LadderPatch,
)
from app.schemas.systems import SystemOut
from app.services import feed
from app.services.auth import ADMIN, Caller
from app.services.history import recompute
from app.services.runtime import (
    MAX_FIELD_PLAYERS,
    configure,
    describe_field_limit,
    get_system,
    now,
    plain,
    refuse_archived,
    require_ladder,
)
from app.services.unit_of_work import Lock, UnitOfWork, run_write
from app.services.whole_history import fit_out


def describe_system(info: SystemInfo) -> SystemOut:
    return SystemOut(
        id=info.id,
        title=info.title,
        kind=info.kind,
        description=info.description,
        sources=list(info.sources),
        params={
            **{spec.name: spec.describe() for spec in info.params},
            **(ranked.describe(info.id) if info.kind == "game" else {}),
            **({MAX_FIELD_PLAYERS: describe_field_limit(info)} if info.kind == "game" else {}),
        },
        per_faction=info.per_faction,
        duel=info.duel,
        default_active_within_days=info.default_active_within_days,
        rank_by=info.rank_by,
        sides=info.sides,
        weights=info.weights,
    )


def list_systems() -> list[SystemOut]:
    return [describe_system(system.info) for system in SYSTEMS.values()]


def get_system_out(system_id: str) -> SystemOut:
    system = SYSTEMS.get(system_id)
    if system is None:
        raise NotFound(f"system {system_id!r} does not exist")
    return describe_system(system.info)


def _out(ladder: Ladder, counts: dict[str, int], fit: FitOut | None = None) -> LadderOut:
    return LadderOut(
        id=ladder.id,
        system=ladder.system,
        community=ladder.community,
        kind=get_system(ladder.system).info.kind,
        title=ladder.title,
        params=ladder.params,
        players=counts["players"],
        games=counts["games"],
        tournaments=counts["tournaments"],
        created_at=ladder.created_at,
        updated_at=ladder.updated_at,
        feed_cursor=ladder.feed_cursor or 0,
        archived_at=ladder.archived_at,
        fit=fit,
    )


def create_ladder(db: Database, body: LadderIn) -> LadderOut:
    runtime = configure(body.system, body.params)
    params: dict[str, Any] = runtime.params

    def work(session: Session) -> LadderOut:
        repo = LadderRepository(session)
        if repo.get(body.id) is not None:
            raise Conflict(f"ladder {body.id!r} already exists")
        stamp = now()
        ladder = Ladder(
            id=body.id,
            system=body.system,
            title=body.title,
            community=body.community,
            params=params,
            state=plain(runtime.rater.initial_ladder_state()),
            created_at=stamp,
            updated_at=stamp,
        )
        repo.add(ladder)
        return _out(ladder, {"players": 0, "games": 0, "tournaments": 0})

    # Two creators of one id: the loser's insert fails, and its retry finds the ladder.
    return db.run(work)


def get_ladder(db: Database, ladder_id: str) -> LadderOut:
    def work(session: Session) -> LadderOut:
        repo = LadderRepository(session)
        ladder = require_ladder(repo.get(ladder_id), ladder_id)
        return _out(ladder, repo.counts([ladder_id])[ladder_id], fit_out(session, ladder_id))

    return db.run(work, write=False)


def list_ladders(
    db: Database, limit: int, offset: int, only: frozenset[str] | None = None
) -> LadderList:
    """A page of ladders; ``only`` limits it to the ladders a key may see."""

    def work(session: Session) -> LadderList:
        repo = LadderRepository(session)
        total, ladders = repo.page(limit, offset, only)
        counts = repo.counts([ladder.id for ladder in ladders])
        return LadderList(total=total, ladders=[_out(lad, counts[lad.id]) for lad in ladders])

    return db.run(work, write=False)


def delete_ladder(db: Database, ladder_id: str) -> None:
    """Delete the ladder and its whole history in one transaction, holding its lock
    exclusively (writes to it wait, then find it gone). Keys and webhooks limited to it
    forget it; its community's profiles stay."""

    def work(unit: UnitOfWork) -> None:
        unit.ladder(ladder_id, archived=True)  # locked, or 404
        LadderRepository(unit.session).delete(ladder_id)
        KeyRepository(unit.session).forget_ladder(ladder_id)
        WebhookRepository(unit.session).forget_ladder(ladder_id)

    run_write(db, work, lock=Lock.EXCLUSIVE)


def change_ladder(
    db: Database, ladder_id: str, body: LadderPatch, caller: Caller = ADMIN
) -> LadderChanged:
    """New parameters recompute the whole ladder under them (a federation's rule change)."""

    if body.archived is not None and (body.title is not None or body.params is not None):
        raise Invalid.at(("archived",), "archive or un-archive a ladder alone: no title or params")

    def work(unit: UnitOfWork) -> tuple[LadderChanged, str]:
        unit.admit(caller, ladder_id)
        write = unit.ladder(ladder_id, archived=True)
        ladder = write.ladder
        if body.archived is None:
            refuse_archived(ladder)  # a new title or parameters for an archived ladder
        else:
            ladder.archived_at = (ladder.archived_at or now()) if body.archived else None
        if body.title is not None:
            ladder.title = body.title
        recomputed = (0, 0)
        if body.params is not None:
            merged = {**ladder.params, **body.params}
            new_params = configure(ladder.system, merged, ladder.seasons).params
            if new_params != ladder.params:
                ladder.params = new_params
                write.session.flush()
                # The ladder as it is now: the unit read it under its old parameters.
                write = unit.reopen(ladder)
                recomputed = recompute(write, None)
        ladder.updated_at = now()
        write.session.flush()
        write.publish(feed.LADDER_CHANGED, None)
        out = _out(ladder, LadderRepository(write.session).counts([ladder_id])[ladder_id])
        changed = LadderChanged(
            **out.model_dump(),
            recomputed_events=recomputed[0],
            recomputed_players=recomputed[1],
        )
        return changed, ladder.system

    changed, system = run_write(db, work, lock=Lock.EXCLUSIVE)
    metrics.record_recomputed(ladder_id, system, changed.recomputed_events)
    return changed
