from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from app.schemas.common import ResponseModel


class RatingOut(ResponseModel):
    faction: str | None
    rating: float
    deviation: float | None
    volatility: float | None
    ranking_value: float | None
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float | None
    loss_rate: float | None
    last_played_at: datetime | None
    position: int | None


class PlayerOut(ResponseModel):
    player: str
    ladder: str
    name: str | None = None
    country: str | None = None
    ratings: list[RatingOut]


class HistoryEntry(ResponseModel):
    kind: str
    id: str | None
    seq: int
    at: datetime
    faction: str | None
    rank: int | None
    #: The side the player was on in a team game (its label); null in a free-for-all.
    team: str | None = None
    rating_before: float
    rating_after: float
    delta: float
    deviation_before: float | None
    deviation_after: float | None
    volatility_before: float | None
    volatility_after: float | None
    details: dict[str, Any]
    voided: bool = False


class HistoryOut(ResponseModel):
    player: str
    ladder: str
    name: str | None = None
    country: str | None = None
    total: int
    entries: list[HistoryEntry]


class LeaderboardEntry(ResponseModel):
    position: int
    player: str
    name: str | None = None
    country: str | None = None
    faction: str | None
    rating: float
    deviation: float | None
    ranking_value: float | None
    tiebreak: float | None = Field(
        description="What splits equal ratings (Kinzett: total secondary points); "
        "null where the system has no tiebreak."
    )
    games: int
    win_rate: float | None
    last_played_at: datetime | None


class LeaderboardOut(ResponseModel):
    ladder: str
    total: int
    country: str | None = Field(
        default=None,
        description="The national ranking's country (the query's `country`): positions and "
        "`total` count only the players whose profile names it.",
    )
    active_within_days: int = Field(
        description="The activity filter applied, in days: the query's value, or the system's "
        "default when the query gives none (Fundox: 30); 0 = none, everyone is counted."
    )
    active_since: datetime | None = Field(
        description="The filter's cutoff (that many days before now, or before `as_of`): only "
        "ratings last played at or after it are counted; null when no activity filter applies."
    )
    entries: list[LeaderboardEntry]
