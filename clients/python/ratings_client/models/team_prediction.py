from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.member_prediction import MemberPrediction





T = TypeVar("T", bound="TeamPrediction")



@_attrs_define
class TeamPrediction:
    """ 
        Attributes:
            players (list[MemberPrediction]):
            team (str):
            win_probability (float | None):
     """

    players: list[MemberPrediction]
    team: str
    win_probability: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.member_prediction import MemberPrediction # noqa: PLC0415
        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        team = self.team

        win_probability: float | None
        win_probability = self.win_probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "players": players,
            "team": team,
            "win_probability": win_probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.member_prediction import MemberPrediction # noqa: PLC0415
        d = dict(src_dict)
        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = MemberPrediction.from_dict(players_item_data)



            players.append(players_item)


        team = d.pop("team")

        def _parse_win_probability(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_probability = _parse_win_probability(d.pop("win_probability"))


        team_prediction = cls(
            players=players,
            team=team,
            win_probability=win_probability,
        )


        team_prediction.additional_properties = d
        return team_prediction

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
