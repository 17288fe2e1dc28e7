from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ProfileOut")



@_attrs_define
class ProfileOut:
    """ 
        Attributes:
            country (None | str):
            name (None | str):
            player (str):
            community (str | Unset):  Default: 'default'.
     """

    country: None | str
    name: None | str
    player: str
    community: str | Unset = 'default'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        country: None | str
        country = self.country

        name: None | str
        name = self.name

        player = self.player

        community = self.community


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "country": country,
            "name": name,
            "player": player,
        })
        if community is not UNSET:
            field_dict["community"] = community

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_country(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        country = _parse_country(d.pop("country"))


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        player = d.pop("player")

        community = d.pop("community", UNSET)

        profile_out = cls(
            country=country,
            name=name,
            player=player,
            community=community,
        )


        profile_out.additional_properties = d
        return profile_out

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
