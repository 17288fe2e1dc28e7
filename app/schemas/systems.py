from __future__ import annotations

from typing import Any, Literal

from app.schemas.common import ResponseModel


class SystemOut(ResponseModel):
    id: str
    title: str
    kind: Literal["game", "tournament"]
    description: str
    sources: list[str]
    params: dict[str, dict[str, Any]]
    per_faction: bool
    duel: bool
    default_active_within_days: int | None
    rank_by: Literal["rating", "ranking_value"]
    #: Rates sides of several players (API.md "Teams"); others take sides of one only.
    sides: bool = False
    #: Takes partial play (a player's ``weight`` below 1).
    weights: bool = False
