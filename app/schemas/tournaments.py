"""Standings of tournaments made of games (Kinzett), and their teams."""

from __future__ import annotations

from pydantic import Field, model_validator

from app.schemas.common import Identifier, RequestModel, ResponseModel

MAX_TEAMS = 1_000
MAX_TEAM_SIZE = 100


class TeamsIn(RequestModel):
    teams: dict[Identifier, list[Identifier]] = Field(max_length=MAX_TEAMS)

    @model_validator(mode="after")
    def _each_player_once(self) -> TeamsIn:
        seen: dict[str, str] = {}
        for team, members in self.teams.items():
            if not members:
                raise ValueError(f"teams.{team}: a team needs at least one player")
            if len(members) > MAX_TEAM_SIZE:
                raise ValueError(f"teams.{team}: at most {MAX_TEAM_SIZE} players")
            for player in members:
                if player in seen:
                    raise ValueError(
                        f"teams.{team}: player {player!r} is already in team {seen[player]!r}"
                    )
                seen[player] = team
        return self


class TeamsOut(ResponseModel):
    ladder: str
    tournament: str
    teams: dict[str, list[str]]


class PlayerStanding(ResponseModel):
    position: int
    player: str
    #: The player's profile, where it has one.
    name: str | None = None
    country: str | None = None
    team: str | None
    games: int
    primary: float
    secondary: float


class TeamStanding(ResponseModel):
    position: int
    team: str
    members: list[str]
    primary: float
    secondary: float


class StandingsOut(ResponseModel):
    ladder: str
    tournament: str
    players: list[PlayerStanding]
    teams: list[TeamStanding]
