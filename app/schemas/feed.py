"""The change feed (API.md "Change feed")."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from app.schemas.common import ResponseModel


class RatingEntry(ResponseModel):
    """A rating as the player endpoint shows it, without its position (which other players'
    writes move)."""

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


class MovedRating(ResponseModel):
    player: str
    faction: str | None
    before: RatingEntry | None = Field(description="null: the write rated the player first")
    after: RatingEntry | None = Field(
        description="null: the write removed the rating (every result it had was voided)"
    )


class EventRef(ResponseModel):
    kind: Literal["game", "tournament", "season"] = Field(
        description="What the write was about: a result, or a season (season.changed, "
        "season.started)."
    )
    id: str


class FeedItemOut(ResponseModel):
    cursor: int = Field(description="Strictly increasing within the ladder, in commit order.")
    id: str = Field(description="Unique and stable: the webhook id of the item.")
    type: str = Field(
        description="game.rated, game.corrected, game.voided, tournament.rated, "
        "tournament.corrected, tournament.voided, rating.adjusted, ladder.changed, "
        "season.started, season.changed, fit.converged (a whole-history ladder's fit "
        "converged by the background work: the ratings it moved)"
    )
    at: datetime
    event: EventRef | None
    ratings: list[MovedRating]


class FeedPage(ResponseModel):
    ladder: str
    items: list[FeedItemOut]
    next: int = Field(description="The cursor to ask for next (after=next).")


def feed_page(ladder: str, after: int, items: list[dict[str, Any]]) -> FeedPage:
    return FeedPage(
        ladder=ladder,
        items=[FeedItemOut.model_validate(item) for item in items],
        next=items[-1]["cursor"] if items else after,
    )
