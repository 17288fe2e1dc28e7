"""SQL for the stored whole-history fits of ``ttt`` and ``whr`` ladders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from app.models import LadderFit, PlayerFit


class FitRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def head(self, ladder_id: str) -> LadderFit | None:
        return self.session.get(LadderFit, ladder_id)

    def players(self, ladder_id: str) -> list[PlayerFit]:
        return list(self.session.scalars(select(PlayerFit).where(PlayerFit.ladder_id == ladder_id)))

    def player(self, ladder_id: str, player: str) -> PlayerFit | None:
        return self.session.get(PlayerFit, (ladder_id, player))

    def replace(
        self,
        ladder_id: str,
        head: Mapping[str, Any],
        players: Sequence[Mapping[str, Any]],
        at: datetime,
    ) -> None:
        """Store a ladder's fit in place of the previous one (``head``: converged, sweeps,
        max_step, state; ``players``: player, curve, state)."""
        self.session.execute(delete(PlayerFit).where(PlayerFit.ladder_id == ladder_id))
        self.session.execute(delete(LadderFit).where(LadderFit.ladder_id == ladder_id))
        self.session.execute(insert(LadderFit).values(ladder_id=ladder_id, at=at, **head))
        if players:
            self.session.execute(
                insert(PlayerFit), [{"ladder_id": ladder_id, **row} for row in players]
            )
