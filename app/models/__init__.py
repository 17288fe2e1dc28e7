"""ORM tables (imported here so Alembic sees all of them through ``Base.metadata``)."""

from app.models.base import Base
from app.models.tables import NO_FACTION, Change, Event, Ladder, PlayerRating, TournamentTeam

__all__ = ["NO_FACTION", "Base", "Change", "Event", "Ladder", "PlayerRating", "TournamentTeam"]
