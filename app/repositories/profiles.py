"""SQL for player profiles (a display name and a country, shared by every ladder of their
community: a profile is keyed by community and player)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import String, any_, bindparam, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from app.models import Ladder, PlayerProfile, PlayerRating
from app.repositories.base import insert_ignoring_conflicts, is_postgres
from app.repositories.events import IDS_PER_ARRAY, IDS_PER_QUERY


class ProfileRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, community: str, player: str) -> PlayerProfile | None:
        return self.session.get(PlayerProfile, (community, player))

    def put(
        self, community: str, player: str, name: str | None, country: str | None, at: datetime
    ) -> None:
        """Replace the player's profile in ``community`` (created if it has none)."""
        row = {
            "community": community,
            "player": player,
            "name": name,
            "country": country,
            "updated_at": at,
        }
        insert_ignoring_conflicts(self.session, PlayerProfile, [row])
        profile = self.session.get(PlayerProfile, (community, player), with_for_update=True)
        assert profile is not None
        profile.name, profile.country, profile.updated_at = name, country, at
        self.session.flush()

    def of_players(self, community: str, players: Iterable[str]) -> dict[str, PlayerProfile]:
        """The profiles of ``community``'s ``players`` that have one, by player."""
        wanted = sorted(set(players))
        postgres = is_postgres(self.session)
        per_query = IDS_PER_ARRAY if postgres else IDS_PER_QUERY
        found: dict[str, PlayerProfile] = {}
        for begin in range(0, len(wanted), per_query):
            part = wanted[begin : begin + per_query]
            condition = (
                PlayerProfile.player == any_(bindparam("players", part, type_=ARRAY(String)))
                if postgres
                else PlayerProfile.player.in_(part)
            )
            query = select(PlayerProfile).where(PlayerProfile.community == community, condition)
            found.update((p.player, p) for p in self.session.scalars(query))
        return found

    def of_ladder(self, ladder_id: str) -> list[PlayerProfile]:
        """The profiles of the ladder's rated players (in the ladder's community), by player."""
        rated = select(PlayerRating.player).where(PlayerRating.ladder_id == ladder_id)
        community = select(Ladder.community).where(Ladder.id == ladder_id).scalar_subquery()
        return list(
            self.session.scalars(
                select(PlayerProfile)
                .where(PlayerProfile.community == community, PlayerProfile.player.in_(rated))
                .order_by(PlayerProfile.player)
            )
        )

    def players_of(self, community: str, country: str) -> set[str]:
        return set(self.session.scalars(players_of_country(community, country)))


def players_of_country(community: str, country: str) -> Select[Any]:
    """The players of ``community`` whose profile names ``country`` (a subquery for the
    ladder queries: a national ranking counts only the ladder's community's profiles)."""
    return select(PlayerProfile.player).where(
        PlayerProfile.community == community, PlayerProfile.country == country
    )
