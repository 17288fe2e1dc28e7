from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from app.schemas.common import Identifier, IsoDate, PartModel, RequestModel, ResponseModel
from app.schemas.events import (
    CLASS_MAX_LENGTH,
    FACTION_MAX_LENGTH,
    MAX_CENTRES,
    MAX_PLAYERS_PER_GAME,
    EventContextIn,
    TeamPlayerIn,
    either_players_or_teams,
    labelled_sides,
)

MAX_PLACEMENTS = 1_000
MAX_EVENT_SIZE = 100_000


class PredictionPlayerIn(PartModel):
    player: Identifier
    faction: str | None = Field(default=None, min_length=1, max_length=FACTION_MAX_LENGTH)
    #: Tournament systems that score centres (DAANZ): the result to predict with.
    centres: int | None = Field(default=None, ge=0, le=MAX_CENTRES)


class PredictionTeamIn(PartModel):
    """A side of a predicted team game (API.md "Teams"): as a side of ``POST /games`` without
    its rank, since every order of the sides is predicted."""

    team: Identifier | None = None
    players: list[TeamPlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS_PER_GAME)


class PredictionIn(RequestModel):
    ladder: Identifier
    #: A free-for-all table (each player a side of its own), or a tournament's players ...
    players: list[PredictionPlayerIn] | None = Field(
        default=None, min_length=1, max_length=MAX_PLAYERS_PER_GAME
    )
    #: ... or the sides of a team game (game systems): exactly one of the two.
    teams: list[PredictionTeamIn] | None = Field(
        default=None, min_length=2, max_length=MAX_PLAYERS_PER_GAME
    )
    event: EventContextIn | None = None
    # Tournament systems:
    size: int | None = Field(default=None, ge=2, le=MAX_EVENT_SIZE)
    rounds: int = Field(default=1, ge=1, le=1000)
    world_championship: bool = False
    #: A tournament system's event class (WPE: one of the ladder's ``influence`` classes).
    event_class: str | None = Field(
        default=None, alias="class", min_length=1, max_length=CLASS_MAX_LENGTH
    )
    held_on: IsoDate | None = None
    placements: list[int] | None = Field(default=None, min_length=1, max_length=MAX_PLACEMENTS)

    @model_validator(mode="after")
    def _unique(self) -> PredictionIn:
        either_players_or_teams(self.players, self.teams)
        seen: set[tuple[str, str | None]] = set()
        for index, entry in enumerate(self.players or ()):
            key = (entry.player, entry.faction)
            if key in seen:
                raise ValueError(f"players[{index}]: {entry.player!r} appears twice")
            seen.add(key)
        return self

    @field_validator("teams")
    @classmethod
    def _teams_valid(cls, teams: list[PredictionTeamIn] | None) -> list[PredictionTeamIn] | None:
        return None if teams is None else labelled_sides(teams)

    @property
    def player_count(self) -> int:
        """How many players the prediction names (a team game's in all its sides)."""
        if self.teams is not None:
            return sum(len(side.players) for side in self.teams)
        return len(self.players or ())

    @property
    def table(self) -> list[PredictionPlayerIn]:
        """The players of a free-for-all or a tournament (empty for a team game)."""
        return list(self.players or ())


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
    #: p(player ahead of opponent), SYSTEMS.md "Win probability of one side over another".
    win_probability: float | None
    if_win: float
    if_draw: float | None
    if_loss: float


class PredictionOut(ResponseModel):
    ladder: str
    players: list[PlayerPrediction]
    pairs: list[PairPrediction]
    #: How even the table is (API.md "Teams"), null where the system has no pair probability
    #: (and for tournaments).
    quality: float | None = None


class MemberPrediction(ResponseModel):
    """One member of a predicted side: its change if its side wins alone, draws with every
    side, or loses (over which other side wins)."""

    player: str
    faction: str | None
    rating: float
    #: Null on whole-history ladders (ttt), whose swings are a refit of the whole history.
    if_win: float | None
    if_draw: float | None
    if_loss: LossRange | None


class TeamPrediction(ResponseModel):
    team: str
    #: The side's chance to finish first alone: Luce's rule over its pair probabilities.
    win_probability: float | None
    players: list[MemberPrediction]


class TeamPairPrediction(ResponseModel):
    team: str
    opponent: str
    win_probability: float | None


class TeamPredictionOut(ResponseModel):
    """``POST /predictions`` with ``teams`` (API.md "Teams")."""

    ladder: str
    teams: list[TeamPrediction]
    pairs: list[TeamPairPrediction]
    quality: float | None


PlayerPrediction.model_rebuild()
