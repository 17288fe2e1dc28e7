from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CalibrationBinOut")



@_attrs_define
class CalibrationBinOut:
    """ 
        Attributes:
            count (int):
            high (float):
            low (float):
            observed (float | None):
            predicted (float | None):
     """

    count: int
    high: float
    low: float
    observed: float | None
    predicted: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        high = self.high

        low = self.low

        observed: float | None
        observed = self.observed

        predicted: float | None
        predicted = self.predicted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "high": high,
            "low": low,
            "observed": observed,
            "predicted": predicted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        high = d.pop("high")

        low = d.pop("low")

        def _parse_observed(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        observed = _parse_observed(d.pop("observed"))


        def _parse_predicted(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        predicted = _parse_predicted(d.pop("predicted"))


        calibration_bin_out = cls(
            count=count,
            high=high,
            low=low,
            observed=observed,
            predicted=predicted,
        )


        calibration_bin_out.additional_properties = d
        return calibration_bin_out

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
