from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TeamPairPrediction")



@_attrs_define
class TeamPairPrediction:
    """ 
        Attributes:
            opponent (str):
            team (str):
            win_probability (float | None):
     """

    opponent: str
    team: str
    win_probability: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        opponent = self.opponent

        team = self.team

        win_probability: float | None
        win_probability = self.win_probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "opponent": opponent,
            "team": team,
            "win_probability": win_probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        opponent = d.pop("opponent")

        team = d.pop("team")

        def _parse_win_probability(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_probability = _parse_win_probability(d.pop("win_probability"))


        team_pair_prediction = cls(
            opponent=opponent,
            team=team,
            win_probability=win_probability,
        )


        team_pair_prediction.additional_properties = d
        return team_pair_prediction

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
