from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="DecayOut")



@_attrs_define
class DecayOut:
    """ What inactivity decay took from a rating read now (or as of a time).

        Attributes:
            deviation (float | None): The stored deviation, before decay.
            idle_days (float): Days since the player's last event.
            ranking_value (float | None): The stored ranking value, before decay.
            rating (float): The stored rating, before decay.
     """

    deviation: float | None
    idle_days: float
    ranking_value: float | None
    rating: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        deviation: float | None
        deviation = self.deviation

        idle_days = self.idle_days

        ranking_value: float | None
        ranking_value = self.ranking_value

        rating = self.rating


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deviation": deviation,
            "idle_days": idle_days,
            "ranking_value": ranking_value,
            "rating": rating,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_deviation(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        deviation = _parse_deviation(d.pop("deviation"))


        idle_days = d.pop("idle_days")

        def _parse_ranking_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ranking_value = _parse_ranking_value(d.pop("ranking_value"))


        rating = d.pop("rating")

        decay_out = cls(
            deviation=deviation,
            idle_days=idle_days,
            ranking_value=ranking_value,
            rating=rating,
        )


        decay_out.additional_properties = d
        return decay_out

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
