from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from app.schemas.common import (
    MAX_TITLE_LENGTH,
    RequestModel,
    ResponseModel,
    UtcDateTime,
)

Scope = Literal["results:write", "ladders:admin", "read"]
MAX_KEY_LADDERS = 1_000
LadderOrAll = Annotated[str, StringConstraints(pattern=r"^(\*|[A-Za-z0-9._:@-]{1,100})$")]


class KeyIn(RequestModel):
    name: str = Field(min_length=1, max_length=MAX_TITLE_LENGTH)
    scopes: list[Scope] = Field(min_length=1, max_length=3)
    ladders: list[LadderOrAll] = Field(
        default_factory=lambda: ["*"],
        min_length=1,
        max_length=MAX_KEY_LADDERS,
        description='Ladder ids, or ["*"] for every ladder.',
    )
    communities: list[LadderOrAll] = Field(
        default_factory=lambda: ["*"],
        min_length=1,
        max_length=MAX_KEY_LADDERS,
        description='Communities, or ["*"] for every community: the key sees a ladder that '
        "both its ladders and its communities admit, and only its communities' players.",
    )
    expires_at: UtcDateTime | None = None


class KeyOut(ResponseModel):
    id: str
    name: str
    prefix: str
    scopes: list[str]
    ladders: list[str]
    communities: list[str]
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None


class KeyCreated(KeyOut):
    #: The key itself: shown once, never again.
    key: str


class KeyList(ResponseModel):
    total: int
    keys: list[KeyOut]
