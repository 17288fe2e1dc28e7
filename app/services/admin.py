"""Maintenance use cases."""

from __future__ import annotations

from datetime import datetime

from app.core.database import Database
from app.core.memory import collector_paused
from app.services import feed
from app.services.history import recompute
from app.services.unit_of_work import Lock, UnitOfWork, run_write


def recompute_ladder(db: Database, ladder_id: str, start: datetime | None) -> tuple[int, int]:
    """Replay the ladder's history from ``start`` (None: from scratch) under its lock."""

    def work(unit: UnitOfWork) -> tuple[int, int]:
        # An archived ladder's replay changes no result: the operator may run it.
        write = unit.ladder(ladder_id, archived=True)
        done = recompute(write, start)
        if write.moved.listed():  # a replay that moves nothing (the usual case) says nothing
            write.publish(feed.LADDER_CHANGED, None)
        return done

    with collector_paused():  # a replay of a long history allocates millions of objects
        return run_write(db, work, lock=Lock.EXCLUSIVE)
