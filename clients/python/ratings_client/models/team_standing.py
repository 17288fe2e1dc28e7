from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TeamStanding")



@_attrs_define
class TeamStanding:
    """ 
        Attributes:
            members (list[str]):
            position (int):
            primary (float):
            secondary (float):
            team (str):
     """

    members: list[str]
    position: int
    primary: float
    secondary: float
    team: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        members = self.members



        position = self.position

        primary = self.primary

        secondary = self.secondary

        team = self.team


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "members": members,
            "position": position,
            "primary": primary,
            "secondary": secondary,
            "team": team,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        members = cast(list[str], d.pop("members"))


        position = d.pop("position")

        primary = d.pop("primary")

        secondary = d.pop("secondary")

        team = d.pop("team")

        team_standing = cls(
            members=members,
            position=position,
            primary=primary,
            secondary=secondary,
            team=team,
        )


        team_standing.additional_properties = d
        return team_standing

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
