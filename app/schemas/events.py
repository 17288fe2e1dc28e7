"""Games, tournaments and the changes they cause."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Annotated, Any, Literal, Protocol, TypeVar, cast

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from app.schemas.common import (
    MAX_TEXT_LENGTH,
    MAX_TITLE_LENGTH,
    Identifier,
    IsoDate,
    PartModel,
    RequestModel,
    ResponseModel,
    UtcDateTime,
)

MAX_RANK = 100_000
MAX_CENTRES = 34
MIN_GAME_YEAR = 1901
MAX_GAME_YEAR = 9999
MAX_PLAYERS_PER_GAME = 100
#: A free-for-all's players in a body: each ladder's ``max_field_players`` (default 100) is
#: checked against its own games (docs/api.md "Large fields"); this is the most any may allow.
MAX_FIELD_PLAYERS = 100_000
MAX_STANDINGS = 10_000
MAX_COACHES = 100_000
MAX_ROUNDS = 1_000
FACTION_MAX_LENGTH = 100
#: An event class is a short name (WPE: world, continental, main, minor, or a ladder's own).
CLASS_MAX_LENGTH = 100


class EventContextIn(PartModel):
    id: Identifier | None = None
    coaches: int | None = Field(default=None, ge=1, le=MAX_COACHES)
    major: bool = False


#: A player's share of a game (SYSTEMS.md "Teams"): in (0, 1], 1 when omitted.
Weight = Annotated[float, Field(gt=0, le=1)]


def _is_none(value: object) -> bool:
    """``exclude_if`` of the optional fields a dump leaves out when the body did not give
    them, so a body without them is stored, hashed (idempotency) and returned exactly as
    before they existed."""
    return value is None


class GamePlayerIn(PartModel):
    player: Identifier
    rank: int = Field(ge=1, le=MAX_RANK)
    faction: str | None = Field(default=None, min_length=1, max_length=FACTION_MAX_LENGTH)
    centres: int | None = Field(default=None, ge=0, le=MAX_CENTRES)
    eliminated_in: int | None = Field(default=None, ge=MIN_GAME_YEAR, le=MAX_GAME_YEAR)
    weight: Weight | None = Field(default=None, exclude_if=_is_none)


class TeamPlayerIn(PartModel):
    """A member of a side (API.md "Teams"); the side carries the rank."""

    player: Identifier
    faction: str | None = Field(
        default=None, min_length=1, max_length=FACTION_MAX_LENGTH, exclude_if=_is_none
    )
    weight: Weight | None = Field(default=None, exclude_if=_is_none)


class _Member(Protocol):
    @property
    def player(self) -> str: ...


class _Side(Protocol):
    @property
    def team(self) -> str | None: ...

    @property
    def players(self) -> Sequence[_Member]: ...


SideT = TypeVar("SideT", bound=BaseModel)


def labelled_sides(teams: list[SideT]) -> list[SideT]:
    """The sides with their labels filled in (default "1", "2", ... by position), once each
    label and each player is known to appear once and the sides hold at most a game's
    players: the rules of a game's ``teams`` (API.md "Teams"), for games and predictions."""
    labels: set[str] = set()
    seen: set[str] = set()
    total = 0
    for index, side in enumerate(cast(list[_Side], teams)):
        label = side.team if side.team is not None else str(index + 1)
        if label in labels:
            raise ValueError(f"teams[{index}].team: label {label!r} appears twice")
        labels.add(label)
        for member, entry in enumerate(side.players):
            if entry.player in seen:
                raise ValueError(
                    f"teams[{index}].players[{member}]: player {entry.player!r} appears twice"
                )
            seen.add(entry.player)
        total += len(side.players)
    if total > MAX_PLAYERS_PER_GAME:
        raise ValueError(
            f"teams: {total} players in all, more than the {MAX_PLAYERS_PER_GAME} a game may have"
        )
    return [
        side if cast(_Side, side).team is not None else side.model_copy(update={"team": str(i + 1)})
        for i, side in enumerate(teams)
    ]


def either_players_or_teams(players: object | None, teams: object | None) -> None:
    """A body gives a free-for-all's ``players`` or a team game's ``teams``, exactly one."""
    if (players is None) == (teams is None):
        rule = "give either players (a free-for-all) or teams (sides), not both or neither"
        where = "players" if players is not None else "teams"
        raise PydanticCustomError(
            "value_error", "{path}: {rule}", {"path": where, "rule": rule, "loc": (where,)}
        )


class TeamIn(PartModel):
    """One side of a team game: a label unique in the game (default its position, "1",
    "2", ...), its rank (1 is best, equal ranks draw) and its members."""

    team: Identifier | None = None
    rank: int = Field(ge=1, le=MAX_RANK)
    players: list[TeamPlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS_PER_GAME)


def _no_duplicate_players(players: list[Any], field: str) -> None:
    seen: set[str] = set()
    for index, entry in enumerate(players):
        if entry.player in seen:
            raise ValueError(f"{field}[{index}]: player {entry.player!r} appears twice")
        seen.add(entry.player)


class GameBody(RequestModel):
    """A game result (API.md "Games"); the ladder and id come with it or from the path."""

    played_at: UtcDateTime
    rated: bool = True
    event: EventContextIn | None = None
    tournament: Identifier | None = None
    end_year: int | None = Field(default=None, ge=MIN_GAME_YEAR, le=MAX_GAME_YEAR)
    #: A free-for-all (each player a side of its own) ...
    players: list[GamePlayerIn] | None = Field(
        default=None, min_length=2, max_length=MAX_FIELD_PLAYERS, exclude_if=_is_none
    )
    #: ... or sides of one or more players (API.md "Teams"): exactly one of the two.
    teams: list[TeamIn] | None = Field(
        default=None, min_length=2, max_length=MAX_PLAYERS_PER_GAME, exclude_if=_is_none
    )

    @field_validator("players")
    @classmethod
    def _players_unique(cls, players: list[GamePlayerIn] | None) -> list[GamePlayerIn] | None:
        if players is not None:
            _no_duplicate_players(players, "players")
        return players

    @field_validator("teams")
    @classmethod
    def _teams_valid(cls, teams: list[TeamIn] | None) -> list[TeamIn] | None:
        # Labels are stored filled in, so a game's changes and its GET name the same sides.
        return None if teams is None else labelled_sides(teams)

    @model_validator(mode="after")
    def _players_or_teams(self) -> GameBody:
        either_players_or_teams(self.players, self.teams)
        return self

    @property
    def player_count(self) -> int:
        if self.teams is not None:
            return sum(len(side.players) for side in self.teams)
        return len(self.players or ())


class GameIn(GameBody):
    ladder: Identifier
    id: Identifier


class ChangeOut(ResponseModel):
    player: str
    #: The player's profile (GET of an event and the lists fill them in; null without one).
    name: str | None = None
    country: str | None = None
    faction: str | None
    rank: int | None
    #: The side the player was on in a team game (its label); null in a free-for-all.
    team: str | None = None
    rating_before: float
    rating_after: float
    delta: float
    details: dict[str, Any]
    deviation_before: float | None = None
    deviation_after: float | None = None
    volatility_before: float | None = None
    volatility_after: float | None = None
    ranking_value: float | None = None


class GameOut(ResponseModel):
    ladder: str
    id: str
    seq: int
    #: 1 when stored, one more at each correction and void; the ETag names it.
    version: int = Field(
        default=1,
        description="The stored result's version: 1, then one more at each correction (PUT) "
        "and void (DELETE). Its ETag header names it; PUT and DELETE honour If-Match.",
    )
    played_at: datetime
    rated: bool
    #: The Kinzett tournament the game belongs to (its standings: GET .../standings).
    tournament: str | None = None
    voided: bool = False
    #: Events replayed, and ratings rewritten, by a late result, a correction or a void.
    recomputed_events: int = 0
    recomputed_players: int = 0
    #: A team game's sides as posted (labels filled in); null for a free-for-all.
    teams: list[dict[str, Any]] | None = None
    changes: list[ChangeOut]


class StandingIn(PartModel):
    player: Identifier
    rank: int = Field(ge=1, le=MAX_RANK)
    centres: int | None = Field(default=None, ge=0, le=MAX_CENTRES)


class TournamentBody(RequestModel):
    name: str | None = Field(default=None, max_length=MAX_TITLE_LENGTH)
    held_on: IsoDate
    rounds: int = Field(default=1, ge=1, le=MAX_ROUNDS)
    world_championship: bool = False
    #: Which classes exist is the ladder's system's business (WPE: its ``influence``
    #: parameter), so any name is accepted here and the system refuses an unknown one.
    event_class: str | None = Field(
        default=None, alias="class", min_length=1, max_length=CLASS_MAX_LENGTH
    )
    major: bool = False
    standings: list[StandingIn] = Field(min_length=2, max_length=MAX_STANDINGS)

    @field_validator("standings")
    @classmethod
    def _standings_unique(cls, standings: list[StandingIn]) -> list[StandingIn]:
        _no_duplicate_players(standings, "standings")
        return standings


class TournamentIn(TournamentBody):
    ladder: Identifier
    id: Identifier


class TournamentOut(ResponseModel):
    ladder: str
    id: str
    seq: int
    #: 1 when stored, one more at each correction and void; the ETag names it.
    version: int = Field(
        default=1,
        description="The stored result's version: 1, then one more at each correction (PUT) "
        "and void (DELETE). Its ETag header names it; PUT and DELETE honour If-Match.",
    )
    held_on: date
    name: str | None
    voided: bool = False
    recomputed_events: int = 0
    recomputed_players: int = 0
    changes: list[ChangeOut]


class AdjustmentIn(RequestModel):
    faction: str | None = Field(default=None, min_length=1, max_length=FACTION_MAX_LENGTH)
    rating: float
    deviation: float | None = Field(default=None, gt=0)
    volatility: float | None = Field(default=None, gt=0)
    at: UtcDateTime | None = None
    reason: str | None = Field(default=None, max_length=MAX_TEXT_LENGTH)


#: POST /games/batch takes at most this many games in one atomic request.
MAX_BATCH_GAMES = 10_000


class GameBatchIn(RequestModel):
    games: list[GameIn] = Field(min_length=1, max_length=MAX_BATCH_GAMES)


class BatchItemOut(ResponseModel):
    ladder: str
    id: str | None
    seq: int
    status: Literal["created", "existing"]


class GameBatchOut(ResponseModel):
    created: int
    existing: int
    recomputed_events: int
    games: list[BatchItemOut]


class TournamentBatchIn(RequestModel):
    tournaments: list[TournamentIn] = Field(min_length=1, max_length=MAX_BATCH_GAMES)


class TournamentBatchOut(ResponseModel):
    created: int
    existing: int
    recomputed_events: int
    tournaments: list[BatchItemOut]
