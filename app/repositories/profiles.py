"""SQL for player profiles (a display name and a country, shared by every ladder)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import String, any_, bindparam, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from app.models import PlayerProfile, PlayerRating
from app.repositories.base import insert_ignoring_conflicts, is_postgres
from app.repositories.events import IDS_PER_ARRAY, IDS_PER_QUERY


class ProfileRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, player: str) -> PlayerProfile | None:
        return self.session.get(PlayerProfile, player)

    def put(self, player: str, name: str | None, country: str | None, at: datetime) -> None:
        """Replace the player's profile (created if it has none)."""
        insert_ignoring_conflicts(
            self.session,
            PlayerProfile,
            [{"player": player, "name": name, "country": country, "updated_at": at}],
        )
        profile = self.session.get(PlayerProfile, player, with_for_update=True)
        assert profile is not None
        profile.name, profile.country, profile.updated_at = name, country, at
        self.session.flush()

    def of_players(self, players: Iterable[str]) -> dict[str, PlayerProfile]:
        """The profiles of ``players`` that have one, by player."""
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
            found.update(
                (p.player, p) for p in self.session.scalars(select(PlayerProfile).where(condition))
            )
        return found

    def all(self) -> list[PlayerProfile]:
        return list(self.session.scalars(select(PlayerProfile).order_by(PlayerProfile.player)))

    def put_many(
        self, profiles: Iterable[tuple[str, str | None, str | None]], at: datetime
    ) -> None:
        for player, name, country in profiles:
            self.put(player, name, country, at)

    def of_ladder(self, ladder_id: str) -> list[PlayerProfile]:
        """The profiles of the ladder's rated players, by player."""
        rated = select(PlayerRating.player).where(PlayerRating.ladder_id == ladder_id)
        return list(
            self.session.scalars(
                select(PlayerProfile)
                .where(PlayerProfile.player.in_(rated))
                .order_by(PlayerProfile.player)
            )
        )

    def players_of(self, country: str) -> set[str]:
        return set(self.session.scalars(players_of_country(country)))


def players_of_country(country: str) -> Select[Any]:
    """The players whose profile names ``country`` (a subquery for the ladder queries)."""
    return select(PlayerProfile.player).where(PlayerProfile.country == country)
