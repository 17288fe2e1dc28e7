"""Player profiles: a display name and a country, shared by every ladder.

Profiles are not history: no rating depends on them, so setting one recomputes nothing. The
reads that show players (leaderboards, players, histories, events) look their profiles up
with ``profiles_of`` and show ``name`` and ``country`` beside the id.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import PlayerProfile
from app.repositories.profiles import ProfileRepository
from app.schemas.events import GameOut, TournamentOut
from app.schemas.profiles import ProfileIn, ProfileOut
from app.services.runtime import now


def profiles_of(session: Session, players: Iterable[str]) -> dict[str, PlayerProfile]:
    return ProfileRepository(session).of_players(players)


def name_and_country(
    profiles: dict[str, PlayerProfile], player: str
) -> tuple[str | None, str | None]:
    profile = profiles.get(player)
    return (None, None) if profile is None else (profile.name, profile.country)


def name_changes(session: Session, events: Iterable[GameOut | TournamentOut]) -> None:
    """Fill in the profile of every player the events' changes name."""
    outs = list(events)
    profiles = profiles_of(session, {c.player for out in outs for c in out.changes})
    for out in outs:
        for change in out.changes:
            change.name, change.country = name_and_country(profiles, change.player)


def with_names(db: Database, out: GameOut | TournamentOut) -> GameOut | TournamentOut:
    """``out`` with its players' profiles (a read of its own: the event services do not
    look profiles up)."""
    db.run(lambda session: name_changes(session, [out]), write=False)
    return out


def put_profile(db: Database, player: str, body: ProfileIn) -> ProfileOut:
    """Replace the player's profile. Nothing else is touched: no event, no rating."""

    def work(session: Session) -> ProfileOut:
        ProfileRepository(session).put(player, body.name, body.country, now())
        return ProfileOut(player=player, name=body.name, country=body.country)

    return db.run(work)
