from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="BalancePlayerIn")



@_attrs_define
class BalancePlayerIn:
    """ 
        Attributes:
            player (str):
            faction (None | str | Unset):
     """

    player: str
    faction: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        player = self.player

        faction: None | str | Unset
        if isinstance(self.faction, Unset):
            faction = UNSET
        else:
            faction = self.faction


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "player": player,
        })
        if faction is not UNSET:
            field_dict["faction"] = faction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player = d.pop("player")

        def _parse_faction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        faction = _parse_faction(d.pop("faction", UNSET))


        balance_player_in = cls(
            player=player,
            faction=faction,
        )

        return balance_player_in

