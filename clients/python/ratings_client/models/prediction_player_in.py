from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PredictionPlayerIn")



@_attrs_define
class PredictionPlayerIn:
    """ 
        Attributes:
            player (str):
            centres (int | None | Unset):
            faction (None | str | Unset):
     """

    player: str
    centres: int | None | Unset = UNSET
    faction: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        player = self.player

        centres: int | None | Unset
        if isinstance(self.centres, Unset):
            centres = UNSET
        else:
            centres = self.centres

        faction: None | str | Unset
        if isinstance(self.faction, Unset):
            faction = UNSET
        else:
            faction = self.faction


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "player": player,
        })
        if centres is not UNSET:
            field_dict["centres"] = centres
        if faction is not UNSET:
            field_dict["faction"] = faction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player = d.pop("player")

        def _parse_centres(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        centres = _parse_centres(d.pop("centres", UNSET))


        def _parse_faction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        faction = _parse_faction(d.pop("faction", UNSET))


        prediction_player_in = cls(
            player=player,
            centres=centres,
            faction=faction,
        )

        return prediction_player_in

