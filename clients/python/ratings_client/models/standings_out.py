from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.player_standing import PlayerStanding
  from ..models.team_standing import TeamStanding





T = TypeVar("T", bound="StandingsOut")



@_attrs_define
class StandingsOut:
    """ 
        Attributes:
            ladder (str):
            players (list[PlayerStanding]):
            teams (list[TeamStanding]):
            tournament (str):
     """

    ladder: str
    players: list[PlayerStanding]
    teams: list[TeamStanding]
    tournament: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.player_standing import PlayerStanding # noqa: PLC0415
        from ..models.team_standing import TeamStanding # noqa: PLC0415
        ladder = self.ladder

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        teams = []
        for teams_item_data in self.teams:
            teams_item = teams_item_data.to_dict()
            teams.append(teams_item)



        tournament = self.tournament


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ladder": ladder,
            "players": players,
            "teams": teams,
            "tournament": tournament,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_standing import PlayerStanding # noqa: PLC0415
        from ..models.team_standing import TeamStanding # noqa: PLC0415
        d = dict(src_dict)
        ladder = d.pop("ladder")

        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = PlayerStanding.from_dict(players_item_data)



            players.append(players_item)


        teams = []
        _teams = d.pop("teams")
        for teams_item_data in (_teams):
            teams_item = TeamStanding.from_dict(teams_item_data)



            teams.append(teams_item)


        tournament = d.pop("tournament")

        standings_out = cls(
            ladder=ladder,
            players=players,
            teams=teams,
            tournament=tournament,
        )


        standings_out.additional_properties = d
        return standings_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
