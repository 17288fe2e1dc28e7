from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.team_player_in import TeamPlayerIn





T = TypeVar("T", bound="PredictionTeamIn")



@_attrs_define
class PredictionTeamIn:
    """ A side of a predicted team game (API.md "Teams"): as a side of ``POST /games`` without
    its rank, since every order of the sides is predicted.

        Attributes:
            players (list[TeamPlayerIn]):
            team (None | str | Unset):
     """

    players: list[TeamPlayerIn]
    team: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.team_player_in import TeamPlayerIn # noqa: PLC0415
        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "players": players,
        })
        if team is not UNSET:
            field_dict["team"] = team

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.team_player_in import TeamPlayerIn # noqa: PLC0415
        d = dict(src_dict)
        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = TeamPlayerIn.from_dict(players_item_data)



            players.append(players_item)


        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))


        prediction_team_in = cls(
            players=players,
            team=team,
        )

        return prediction_team_in

