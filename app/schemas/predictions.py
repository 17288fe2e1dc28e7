from __future__ import annotations

from datetime import date

from pydantic import Field, model_validator

from app.schemas.common import Identifier, PartModel, RequestModel, ResponseModel
from app.schemas.events import (
    CLASS_MAX_LENGTH,
    FACTION_MAX_LENGTH,
    MAX_CENTRES,
    MAX_PLAYERS_PER_GAME,
    EventContextIn,
)

MAX_PLACEMENTS = 1_000
MAX_EVENT_SIZE = 100_000


class PredictionPlayerIn(PartModel):
    player: Identifier
    faction: str | None = Field(default=None, min_length=1, max_length=FACTION_MAX_LENGTH)
    #: Tournament systems that score centres (DAANZ): the result to predict with.
    centres: int | None = Field(default=None, ge=0, le=MAX_CENTRES)


class PredictionIn(RequestModel):
    ladder: Identifier
    players: list[PredictionPlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS_PER_GAME)
    event: EventContextIn | None = None
    # Tournament systems:
    size: int | None = Field(default=None, ge=2, le=MAX_EVENT_SIZE)
    rounds: int = Field(default=1, ge=1, le=1000)
    world_championship: bool = False
    #: A tournament system's event class (WPE: one of the ladder's ``influence`` classes).
    event_class: str | None = Field(
        default=None, alias="class", min_length=1, max_length=CLASS_MAX_LENGTH
    )
    held_on: date | None = None
    placements: list[int] | None = Field(default=None, min_length=1, max_length=MAX_PLACEMENTS)

    @model_validator(mode="after")
    def _unique(self) -> PredictionIn:
        seen: set[tuple[str, str | None]] = set()
        for index, entry in enumerate(self.players):
            key = (entry.player, entry.faction)
            if key in seen:
                raise ValueError(f"players[{index}]: {entry.player!r} appears twice")
            seen.add(key)
        return self


class LossRange(ResponseModel):
    min: float
    max: float


class PlayerPrediction(ResponseModel):
    player: str
    faction: str | None
    rating: float
    win_probability: float | None = None
    if_win: float | None = None
    if_draw: float | None = None
    if_loss: LossRange | None = None
    by_placement: list[PlacementPrediction] | None = None


class PlacementPrediction(ResponseModel):
    placement: int
    delta: float
    rating_after: float


class PairPrediction(ResponseModel):
    player: str
    opponent: str
    win_probability: float
    if_win: float
    if_draw: float | None
    if_loss: float


class PredictionOut(ResponseModel):
    ladder: str
    players: list[PlayerPrediction]
    pairs: list[PairPrediction]


PlayerPrediction.model_rebuild()
