"""A ladder's seasons (API.md "Seasons")."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from app.schemas.common import (
    MAX_TITLE_LENGTH,
    Identifier,
    RequestModel,
    ResponseModel,
    UtcDateTime,
)

#: The most events a circuit counts per player (``best_of``).
MAX_BEST_OF = 1_000


class SeasonIn(RequestModel):
    """A season: from ``starts_at`` to the next season's start. ``PUT`` takes the whole body
    again (its ``id`` equal to the path's)."""

    id: Identifier
    starts_at: UtcDateTime
    name: str | None = Field(default=None, min_length=1, max_length=MAX_TITLE_LENGTH)
    reset: dict[str, Any] | None = Field(
        default=None,
        description='{"kind": "none"} (default), {"kind": "soft", "fraction": f}, {"kind": '
        '"uncertainty", "min", "min_until_days", "full_after_days"} or {"kind": "hard"}: '
        "applied at starts_at to every player rated before it.",
        examples=[{"kind": "soft", "fraction": 0.3333}],
    )
    best_of: int | None = Field(
        default=None,
        ge=1,
        le=MAX_BEST_OF,
        description="Tournament ladders awarding points per event (cdiplo, wpe, daanz): the "
        "season's board ranks by each player's best N events' points.",
    )
    repeat: dict[str, Any] | None = Field(
        default=None,
        description='{"every": N, "unit": "days" | "weeks" | "months"}: a schedule, standing '
        "for a season at starts_at and every N units after it, each with this reset and "
        "best_of (a month's day past its end: the month's last day). One a ladder.",
        examples=[{"every": 1, "unit": "months"}],
    )


class SeasonOut(ResponseModel):
    id: str
    name: str
    starts_at: datetime
    ends_at: datetime | None = Field(description="The next season's start; null for the last.")
    status: Literal["upcoming", "current", "closed"]
    reset: dict[str, Any]
    best_of: int | None
    repeat: dict[str, Any] | None = Field(
        default=None, description="A schedule's step (only on the schedule itself)."
    )
    schedule: str | None = Field(
        default=None, description="The schedule this season is an occurrence of."
    )


class SeasonChanged(SeasonOut):
    recomputed_events: int
    recomputed_players: int


class SeasonList(ResponseModel):
    ladder: str
    seasons: list[SeasonOut]
