from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.curve_point_out import CurvePointOut





T = TypeVar("T", bound="CurveOut")



@_attrs_define
class CurveOut:
    """ A player's skill curve in a whole-history ladder: one point per UTC day it played.

        Attributes:
            player (str):
            points (list[CurvePointOut]):
     """

    player: str
    points: list[CurvePointOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.curve_point_out import CurvePointOut # noqa: PLC0415
        player = self.player

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "player": player,
            "points": points,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.curve_point_out import CurvePointOut # noqa: PLC0415
        d = dict(src_dict)
        player = d.pop("player")

        points = []
        _points = d.pop("points")
        for points_item_data in (_points):
            points_item = CurvePointOut.from_dict(points_item_data)



            points.append(points_item)


        curve_out = cls(
            player=player,
            points=points,
        )


        curve_out.additional_properties = d
        return curve_out

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
