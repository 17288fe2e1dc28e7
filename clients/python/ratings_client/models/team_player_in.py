from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TeamPlayerIn")



@_attrs_define
class TeamPlayerIn:
    """ A member of a side (API.md "Teams"); the side carries the rank.

        Attributes:
            player (str):
            faction (None | str | Unset):
            weight (float | None | Unset):
     """

    player: str
    faction: None | str | Unset = UNSET
    weight: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        player = self.player

        faction: None | str | Unset
        if isinstance(self.faction, Unset):
            faction = UNSET
        else:
            faction = self.faction

        weight: float | None | Unset
        if isinstance(self.weight, Unset):
            weight = UNSET
        else:
            weight = self.weight


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "player": player,
        })
        if faction is not UNSET:
            field_dict["faction"] = faction
        if weight is not UNSET:
            field_dict["weight"] = weight

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


        def _parse_weight(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        weight = _parse_weight(d.pop("weight", UNSET))


        team_player_in = cls(
            player=player,
            faction=faction,
            weight=weight,
        )

        return team_player_in

