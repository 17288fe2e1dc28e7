from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

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


class LadderOut(ResponseModel):
    id: str
    system: str
    kind: str
    title: str | None
    params: dict[str, Any]
    players: int
    games: int
    tournaments: int
    created_at: datetime
    updated_at: datetime


class LadderList(ResponseModel):
    total: int
    ladders: list[LadderOut]
