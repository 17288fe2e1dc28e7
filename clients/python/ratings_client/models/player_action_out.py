from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PlayerActionOut")



@_attrs_define
class PlayerActionOut:
    """ 
        Attributes:
            action (str):
            community (str):
            ladders (list[str]):
            player (str):
     """

    action: str
    community: str
    ladders: list[str]
    player: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        action = self.action

        community = self.community

        ladders = self.ladders



        player = self.player


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "action": action,
            "community": community,
            "ladders": ladders,
            "player": player,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        community = d.pop("community")

        ladders = cast(list[str], d.pop("ladders"))


        player = d.pop("player")

        player_action_out = cls(
            action=action,
            community=community,
            ladders=ladders,
            player=player,
        )


        player_action_out.additional_properties = d
        return player_action_out

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
