from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.placing import Placing





T = TypeVar("T", bound="WhatIfEntry")



@_attrs_define
class WhatIfEntry:
    """ 
        Attributes:
            current (None | Placing):
            faction (None | str):
            player (str):
            position_difference (int | None):
            proposed (None | Placing):
            rating_difference (float | None):
     """

    current: None | Placing
    faction: None | str
    player: str
    position_difference: int | None
    proposed: None | Placing
    rating_difference: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.placing import Placing # noqa: PLC0415
        current: dict[str, Any] | None
        if isinstance(self.current, Placing):
            current = self.current.to_dict()
        else:
            current = self.current

        faction: None | str
        faction = self.faction

        player = self.player

        position_difference: int | None
        position_difference = self.position_difference

        proposed: dict[str, Any] | None
        if isinstance(self.proposed, Placing):
            proposed = self.proposed.to_dict()
        else:
            proposed = self.proposed

        rating_difference: float | None
        rating_difference = self.rating_difference


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "current": current,
            "faction": faction,
            "player": player,
            "position_difference": position_difference,
            "proposed": proposed,
            "rating_difference": rating_difference,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placing import Placing # noqa: PLC0415
        d = dict(src_dict)
        def _parse_current(data: object) -> None | Placing:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                current_type_0 = Placing.from_dict(data)



                return current_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Placing, data)

        current = _parse_current(d.pop("current"))


        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        player = d.pop("player")

        def _parse_position_difference(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        position_difference = _parse_position_difference(d.pop("position_difference"))


        def _parse_proposed(data: object) -> None | Placing:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proposed_type_0 = Placing.from_dict(data)



                return proposed_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Placing, data)

        proposed = _parse_proposed(d.pop("proposed"))


        def _parse_rating_difference(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        rating_difference = _parse_rating_difference(d.pop("rating_difference"))


        what_if_entry = cls(
            current=current,
            faction=faction,
            player=player,
            position_difference=position_difference,
            proposed=proposed,
            rating_difference=rating_difference,
        )


        what_if_entry.additional_properties = d
        return what_if_entry

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
