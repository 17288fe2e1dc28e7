"""Player profiles: a display name and a country, shared by every ladder of a community (the
same id in two communities is two players, API.md "Communities").

Profiles are not history: no rating depends on them, so setting one recomputes nothing. The
reads that show players (leaderboards, players, histories, events) look their profiles up
with ``profiles_of`` and show ``name`` and ``country`` beside the id.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import NotFound
from app.models import PlayerProfile
from app.models.tables import DEFAULT_COMMUNITY
from app.repositories.ladders import LadderRepository
from app.repositories.profiles import ProfileRepository
from app.repositories.ratings import RatingRepository
from app.schemas.events import GameOut, TournamentOut
from app.schemas.profiles import ProfileIn, ProfileOut
from app.services.auth import Principal
from app.services.runtime import now


def profiles_of(
    session: Session, community: str, players: Iterable[str]
) -> dict[str, PlayerProfile]:
    return ProfileRepository(session).of_players(community, players)


def name_and_country(
    profiles: dict[str, PlayerProfile], player: str
) -> tuple[str | None, str | None]:
    profile = profiles.get(player)
    return (None, None) if profile is None else (profile.name, profile.country)


def name_changes(
    session: Session, community: str, events: Iterable[GameOut | TournamentOut]
) -> None:
    """Fill in the profile of every player the events' changes name (events of ladders of
    ``community``)."""
    outs = list(events)
    profiles = profiles_of(session, community, {c.player for out in outs for c in out.changes})
    for out in outs:
        for change in out.changes:
            change.name, change.country = name_and_country(profiles, change.player)


def with_names(db: Database, out: GameOut | TournamentOut) -> GameOut | TournamentOut:
    """``out`` with its players' profiles (a read of its own: the event services do not
    look profiles up)."""

    def work(session: Session) -> None:
        community = LadderRepository(session).community_of(out.ladder) or DEFAULT_COMMUNITY
        name_changes(session, community, [out])

    db.run(work, write=False)
    return out


def unknown_player(community: str, player: str) -> NotFound:
    """What a caller is told of a player it may not see: the same as of an unknown one, so
    no key learns which ids exist outside what is its own."""
    return NotFound(f"player {player!r} does not exist in community {community!r}")


def require_own(session: Session, caller: Principal, community: str, player: str) -> None:
    """404 unless the player is the caller's: in one of its communities and, for a key
    limited to ladders, rated in one of them (API.md "Communities")."""
    if not caller.sees_community(community):
        raise unknown_player(community, player)
    if caller.every_ladder:
        return
    rated_in = RatingRepository(session).ladders_of_player(community, player)
    if not any(caller.sees(ladder) for ladder in rated_in):
        raise unknown_player(community, player)


def put_profile(
    db: Database, caller: Principal, community: str, player: str, body: ProfileIn
) -> ProfileOut:
    """Replace the player's profile in ``community``, if the player is the caller's (404
    otherwise, as for an unknown one). Nothing else is touched: no event, no rating."""

    def work(session: Session) -> ProfileOut:
        require_own(session, caller, community, player)
        ProfileRepository(session).put(community, player, body.name, body.country, now())
        return ProfileOut(player=player, community=community, name=body.name, country=body.country)

    return db.run(work)
