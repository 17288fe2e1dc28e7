"""Matchmaking (API.md "Matchmaking"): balanced sides, and the most even opponents."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from app.schemas.common import Identifier, PartModel, RequestModel, ResponseModel
from app.schemas.events import FACTION_MAX_LENGTH

#: API.md "Matchmaking": at most 100 players per balance.
MAX_BALANCE_PLAYERS = 100
#: API.md "Matchmaking": the default number of opponents, and at most as many as a prediction
#: may hold players (each opponent is a two-player prediction).
DEFAULT_OPPONENTS = 10
MAX_OPPONENTS = 100


class BalancePlayerIn(PartModel):
    player: Identifier
    faction: str | None = Field(default=None, min_length=1, max_length=FACTION_MAX_LENGTH)


class BalanceIn(RequestModel):
    """Players to split into ``teams`` sides, each party (players who queue together) kept
    on one side."""

    players: list[BalancePlayerIn] = Field(min_length=2, max_length=MAX_BALANCE_PLAYERS)
    teams: int = Field(default=2, ge=2, le=MAX_BALANCE_PLAYERS)
    parties: list[list[Identifier]] = Field(default_factory=list, max_length=MAX_BALANCE_PLAYERS)
    party_policy: Literal["spread", "together"] = Field(
        default="spread",
        description="`spread` (default): premade players (those in a party of two or more) "
        "are spread over the sides as evenly as the parties allow, then the most even split "
        "is taken; `together`: only the split's quality counts, so premades may be stacked on "
        "one side. Every party stays on one side under both.",
    )

    @field_validator("players")
    @classmethod
    def _players_unique(cls, players: list[BalancePlayerIn]) -> list[BalancePlayerIn]:
        seen: set[str] = set()
        for index, entry in enumerate(players):
            if entry.player in seen:
                raise ValueError(f"players[{index}]: player {entry.player!r} appears twice")
            seen.add(entry.player)
        return players

    @model_validator(mode="after")
    def _parties_of_players(self) -> BalanceIn:
        named = {entry.player for entry in self.players}
        placed: set[str] = set()
        for index, party in enumerate(self.parties):
            for member, player in enumerate(party):
                if player not in named:
                    raise _refused(("parties", index, member), f"{player!r} is not a player")
                if player in placed:
                    raise _refused(("parties", index, member), f"{player!r} is in a party already")
                placed.add(player)
        return self


def _refused(loc: tuple[str | int, ...], rule: str) -> PydanticCustomError:
    """A rule of the whole body, reported at ``loc`` (the API's renderer appends it)."""
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    return PydanticCustomError(
        "value_error", "{path}: {rule}", {"path": path, "rule": rule, "loc": loc}
    )


class BalancedTeam(ResponseModel):
    """One side of a split: its label ("1", "2", ...), its players (in request order), its
    rating (the mean of its players' ratings) and its chance to finish first alone."""

    team: str
    players: list[str]
    rating: float
    win_probability: float


class BalancedSplit(ResponseModel):
    teams: list[BalancedTeam]
    quality: float


class BalanceOut(ResponseModel):
    """The most even split, and the next best (API.md "Matchmaking")."""

    ladder: str
    party_policy: Literal["spread", "together"] = Field(description="The policy applied.")
    teams: list[BalancedTeam]
    quality: float
    alternatives: list[BalancedSplit]
    #: Whether the split is the proven best (an exhaustive search, up to 16 players) or the
    #: heuristic's (docs/api.md "Matchmaking").
    exact: bool


class OpponentOut(ResponseModel):
    """A rated player to meet, with the player's chance against it and the player's own
    change if it wins, draws (null where draws give nothing) or loses (null on whole-history
    ladders, ttt and whr: a result there moves the whole fit, known only by refitting it)."""

    player: str
    faction: str | None
    rating: float
    quality: float
    win_probability: float
    if_win: float | None
    if_draw: float | None
    if_loss: float | None


class OpponentsOut(ResponseModel):
    ladder: str
    player: str
    faction: str | None
    rating: float
    #: How many rated players were weighed (the ratings nearest the player's: docs/api.md).
    candidates: int
    opponents: list[OpponentOut]
