from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from app.schemas.common import ResponseModel


class DecayOut(ResponseModel):
    """What inactivity decay took from a rating read now (or as of a time)."""

    idle_days: float = Field(description="Days since the player's last event.")
    rating: float = Field(description="The stored rating, before decay.")
    deviation: float | None = Field(description="The stored deviation, before decay.")
    ranking_value: float | None = Field(description="The stored ranking value, before decay.")


class EventStatisticsOut(ResponseModel):
    """A player's tournaments on a tournament ladder (rated, not voided; up to ``as_of``).
    Tournaments count in no win/draw/loss statistic: these take their place."""

    events: int = Field(description="Tournaments placed in.")
    best_place: int | None = Field(description="The best (lowest) rank reached.")
    top3: int = Field(description="Tournaments finished with rank 1, 2 or 3 (ties included).")
    mean_percentile: float | None = Field(
        description="Mean over the tournaments of (n − rank) / (n − 1), n the players the "
        "tournament ranked: 1 for first, 0 for last, 0.5 for the middle; a tournament of one "
        "player counts 1."
    )


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
    provisional: bool = Field(
        default=False,
        description="Fewer rated games than placement_games, or a deviation at least "
        "provisional_deviation: left out of leaderboards unless asked (position null).",
    )
    division: str | None = Field(
        default=None, description="Its division, where the ladder has some."
    )
    decay: DecayOut | None = Field(
        default=None, description="Where the ladder decays and decay applied: what it took."
    )
    event_statistics: EventStatisticsOut | None = Field(
        default=None,
        description="On a tournament ladder, the player's tournament statistics (`wins`, "
        "`draws`, `losses` stay 0 and the rates null there); null on a game ladder.",
    )


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
    provisional: bool = Field(
        default=False, description="Listed only with include_provisional=true."
    )
    division: str | None = None
    decay: DecayOut | None = None
    event_statistics: EventStatisticsOut | None = Field(
        default=None,
        description="On a tournament ladder, the player's tournament statistics "
        "(`win_rate` is null there); null on a game ladder.",
    )
    points: float | None = Field(
        default=None,
        description="A circuit's season board (`best_of` N): the sum of the player's best N "
        "events' points in the season, by which it ranks; null elsewhere.",
    )


class LeaderboardOut(ResponseModel):
    ladder: str
    total: int
    season: str | None = Field(
        default=None,
        description="The season whose board this is (the query's `season`): states at its "
        "end (now while it is current), statistics and placement of its events only.",
    )
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
