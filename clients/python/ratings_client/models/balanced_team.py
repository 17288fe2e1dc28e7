from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="BalancedTeam")



@_attrs_define
class BalancedTeam:
    """ One side of a split: its label ("1", "2", ...), its players (in request order), its
    rating (the mean of its players' ratings) and its chance to finish first alone.

        Attributes:
            players (list[str]):
            rating (float):
            team (str):
            win_probability (float):
     """

    players: list[str]
    rating: float
    team: str
    win_probability: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        players = self.players



        rating = self.rating

        team = self.team

        win_probability = self.win_probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "players": players,
            "rating": rating,
            "team": team,
            "win_probability": win_probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        players = cast(list[str], d.pop("players"))


        rating = d.pop("rating")

        team = d.pop("team")

        win_probability = d.pop("win_probability")

        balanced_team = cls(
            players=players,
            rating=rating,
            team=team,
            win_probability=win_probability,
        )


        balanced_team.additional_properties = d
        return balanced_team

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
