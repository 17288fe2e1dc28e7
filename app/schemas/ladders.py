from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import Field

from app.models.tables import DEFAULT_COMMUNITY
from app.schemas.common import (
    MAX_TITLE_LENGTH,
    Identifier,
    RequestModel,
    ResponseModel,
)


class LadderIn(RequestModel):
    id: Identifier
    system: str = Field(min_length=1, max_length=32, examples=["fundox"])
    params: dict[str, Any] | None = None
    title: str | None = Field(default=None, max_length=MAX_TITLE_LENGTH)
    community: Identifier = Field(
        default=DEFAULT_COMMUNITY,
        description="The community the ladder belongs to, fixed once created: its players' "
        'ids and profiles are the community\'s (API.md "Communities").',
    )


class FitOut(ResponseModel):
    """How a whole-history ladder's last fit ended (API.md "Whole-history and large-field
    systems")."""

    converged: bool = Field(
        description="The last sweep moved no estimate by more than the system's tolerance."
    )
    sweeps: int = Field(description="Sweeps the last fit made.")
    max_step: float = Field(description="The last sweep's largest move of an estimate.")
    at: datetime = Field(description="When the fit was made (the write that made it).")


class CurvePointOut(ResponseModel):
    day: date
    rating: float
    deviation: float


class CurveOut(ResponseModel):
    """A player's skill curve in a whole-history ladder: one point per UTC day it played."""

    player: str
    points: list[CurvePointOut]


class LadderOut(ResponseModel):
    id: str
    system: str
    community: str = DEFAULT_COMMUNITY
    kind: str
    title: str | None
    params: dict[str, Any]
    players: int
    games: int
    tournaments: int
    created_at: datetime
    updated_at: datetime
    archived_at: datetime | None = Field(
        default=None,
        description="When the ladder was archived (null: it is not); an archived ladder is "
        "read-only.",
    )
    feed_cursor: int = Field(
        default=0,
        description="The cursor of the ladder's last change-feed item (0: none yet): read "
        "the newest items from just before it.",
    )
    fit: FitOut | None = Field(
        default=None,
        description="ttt and whr ladders: how the fit of the whole history served now ended "
        "(null before the first game, and on ladders of other systems).",
    )


class LadderList(ResponseModel):
    total: int
    ladders: list[LadderOut]


class LadderPatch(RequestModel):
    """New parameters (merged into the current ones) and/or a new title."""

    params: dict[str, Any] | None = None
    title: str | None = Field(default=None, max_length=MAX_TITLE_LENGTH)
    archived: bool | None = Field(
        default=None,
        description="true archives the ladder (read-only: every write to it is a 409), false "
        "makes it writable again; alone in the body.",
    )


class LadderChanged(LadderOut):
    recomputed_events: int
    recomputed_players: int


class WhatIfIn(RequestModel):
    system: str | None = Field(default=None, min_length=1, max_length=32)
    params: dict[str, Any] | None = None


class Configuration(ResponseModel):
    system: str
    params: dict[str, Any]


class Placing(ResponseModel):
    position: int
    rating: float


class WhatIfEntry(ResponseModel):
    player: str
    faction: str | None
    current: Placing | None
    proposed: Placing | None
    rating_difference: float | None
    position_difference: int | None


class WhatIfOut(ResponseModel):
    ladder: str
    current: Configuration
    proposed: Configuration
    events: int
    entries: list[WhatIfEntry]
