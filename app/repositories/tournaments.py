"""SQL for tournaments made of games (Kinzett): their games' changes and declared teams."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from app.models import Change, Event, TournamentTeam


class TournamentRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def game_changes(self, ladder_id: str, tournament: str) -> list[tuple[str, dict[str, Any]]]:
        """(player, details) of every change in the tournament's live, rated games."""
        rows = self.session.execute(
            select(Change.player, Change.details)
            .join(Event, Event.seq == Change.event_seq)
            .where(
                Event.ladder_id == ladder_id,
                Event.tournament == tournament,
                Event.kind == "game",
                Event.rated.is_(True),
                Event.voided_at.is_(None),
            )
            .order_by(Change.occurred_at, Change.seq, Change.position)
        )
        return [(row[0], row[1]) for row in rows]

    def teams(self, ladder_id: str, tournament: str) -> dict[str, str]:
        """player -> team."""
        rows = self.session.execute(
            select(TournamentTeam.player, TournamentTeam.team).where(
                TournamentTeam.ladder_id == ladder_id, TournamentTeam.tournament == tournament
            )
        )
        return {row[0]: row[1] for row in rows}

    def replace_teams(self, ladder_id: str, tournament: str, members: dict[str, str]) -> None:
        self.session.execute(
            delete(TournamentTeam).where(
                TournamentTeam.ladder_id == ladder_id, TournamentTeam.tournament == tournament
            )
        )
        if members:
            self.session.execute(
                insert(TournamentTeam),
                [
                    {"ladder_id": ladder_id, "tournament": tournament, "player": p, "team": t}
                    for p, t in members.items()
                ],
            )
