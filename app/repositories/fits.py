"""SQL for the stored whole-history fits of ``ttt`` and ``whr`` ladders."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.orm import Session

from app.models import LadderFit, PlayerFit


class FitRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def head(self, ladder_id: str) -> LadderFit | None:
        return self.session.get(LadderFit, ladder_id)

    def players(self, ladder_id: str) -> list[PlayerFit]:
        return list(self.session.scalars(select(PlayerFit).where(PlayerFit.ladder_id == ladder_id)))

    def players_named(self, ladder_id: str, players: Collection[str]) -> list[PlayerFit]:
        if not players:
            return []
        return list(
            self.session.scalars(
                select(PlayerFit).where(
                    PlayerFit.ladder_id == ladder_id, PlayerFit.player.in_(sorted(players))
                )
            )
        )

    def put_players(self, ladder_id: str, players: Sequence[Mapping[str, Any]]) -> None:
        """Store these players' parts of the fit in place of their previous ones (``players``:
        player, curve, state); the other players' are kept."""
        names = sorted(row["player"] for row in players)
        self.session.execute(
            delete(PlayerFit).where(PlayerFit.ladder_id == ladder_id, PlayerFit.player.in_(names))
        )
        self.session.execute(
            insert(PlayerFit), [{"ladder_id": ladder_id, **row} for row in players]
        )

    def mark_unconverged(self, ladder_id: str, max_step: float, at: datetime) -> None:
        """A bounded update moved part of the fit: it is no longer converged (no sweep of the
        whole history since: ``sweeps`` 0). A lease held on it is kept."""
        self.session.execute(
            update(LadderFit)
            .where(LadderFit.ladder_id == ladder_id)
            .values(converged=False, sweeps=0, max_step=max_step, at=at)
        )

    def unconverged(self, now: datetime, limit: int) -> list[str]:
        """Ladders whose fit is not converged and not leased, oldest write first."""
        return list(
            self.session.scalars(
                select(LadderFit.ladder_id)
                .where(
                    LadderFit.converged.is_(False),
                    or_(LadderFit.leased_until.is_(None), LadderFit.leased_until < now),
                )
                .order_by(LadderFit.at, LadderFit.ladder_id)
                .limit(limit)
            )
        )

    def take_lease(self, ladder_id: str, lease: str, now: datetime, until: datetime) -> bool:
        """Whether ``lease`` took the ladder's unconverged fit (nobody held it, or the holder's
        lease ran out), by one atomic update."""
        taken = self.session.execute(
            update(LadderFit)
            .where(
                LadderFit.ladder_id == ladder_id,
                LadderFit.converged.is_(False),
                or_(LadderFit.leased_until.is_(None), LadderFit.leased_until < now),
            )
            .values(lease=lease, leased_until=until)
        )
        return bool(taken.rowcount)  # type: ignore[attr-defined]

    def release(self, ladder_id: str, lease: str) -> None:
        self.session.execute(
            update(LadderFit)
            .where(LadderFit.ladder_id == ladder_id, LadderFit.lease == lease)
            .values(lease=None, leased_until=None)
        )

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
