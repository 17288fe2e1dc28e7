"""Maintenance use cases."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.memory import collector_paused
from app.repositories.ladders import LadderRepository
from app.services.history import recompute
from app.services.runtime import require_ladder


def recompute_ladder(db: Database, ladder_id: str, start: datetime | None) -> tuple[int, int]:
    """Replay the ladder's history from ``start`` (None: from scratch) under its lock."""

    def work(session: Session) -> tuple[int, int]:
        ladder = require_ladder(
            LadderRepository(session).get_locked(ladder_id, exclusive=True), ladder_id
        )
        return recompute(session, ladder, start)

    with collector_paused():  # a replay of a long history allocates millions of objects
        return db.run(work)
