"""Player profiles (a display name and a country) and the lists of API.md "Lists"."""

from __future__ import annotations

from pydantic import Field, field_validator

from app.core.countries import COUNTRY_CODES
from app.models.tables import DEFAULT_COMMUNITY, NAME_LENGTH
from app.schemas.common import RequestModel, ResponseModel
from app.schemas.events import GameOut, TournamentOut
from app.schemas.players import RatingOut

COUNTRY_DESCRIPTION = "ISO 3166-1 alpha-2 country code, in capitals (FR, GB, US, ...)."


def check_country(value: str | None) -> str | None:
    """An assigned ISO 3166-1 alpha-2 code (app/core/countries.py), or ValueError."""
    if value is not None and value not in COUNTRY_CODES:
        raise ValueError(
            f"{value!r} is not an ISO 3166-1 alpha-2 country code (two capitals, e.g. FR)"
        )
    return value


class ProfileIn(RequestModel):
    """The whole profile: a field left out is cleared."""

    name: str | None = Field(default=None, min_length=1, max_length=NAME_LENGTH)
    country: str | None = Field(default=None, description=COUNTRY_DESCRIPTION)

    @field_validator("country")
    @classmethod
    def _assigned_country(cls, value: str | None) -> str | None:
        return check_country(value)


class ProfileOut(ResponseModel):
    player: str
    community: str = DEFAULT_COMMUNITY
    name: str | None
    country: str | None


class LadderRatingOut(RatingOut):
    ladder: str


class PlayerProfileOut(ProfileOut):
    """A profile with the player's ratings in every ladder the caller may read."""

    ratings: list[LadderRatingOut]


class GameList(ResponseModel):
    total: int
    items: list[GameOut]


class TournamentList(ResponseModel):
    total: int
    items: list[TournamentOut]


class PlayerItem(ResponseModel):
    player: str
    name: str | None = None
    country: str | None = None
    ratings: list[RatingOut]


class PlayerList(ResponseModel):
    total: int
    items: list[PlayerItem]
