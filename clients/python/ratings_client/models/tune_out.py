from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.tune_out_metric import TuneOutMetric
from typing import cast

if TYPE_CHECKING:
  from ..models.tune_point import TunePoint





T = TypeVar("T", bound="TuneOut")



@_attrs_define
class TuneOut:
    """ 
        Attributes:
            ladder (str):
            metric (TuneOutMetric):
            results (list[TunePoint]):
            system (str):
     """

    ladder: str
    metric: TuneOutMetric
    results: list[TunePoint]
    system: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.tune_point import TunePoint # noqa: PLC0415
        ladder = self.ladder

        metric = self.metric.value

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)



        system = self.system


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ladder": ladder,
            "metric": metric,
            "results": results,
            "system": system,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tune_point import TunePoint # noqa: PLC0415
        d = dict(src_dict)
        ladder = d.pop("ladder")

        metric = TuneOutMetric(d.pop("metric"))




        results = []
        _results = d.pop("results")
        for results_item_data in (_results):
            results_item = TunePoint.from_dict(results_item_data)



            results.append(results_item)


        system = d.pop("system")

        tune_out = cls(
            ladder=ladder,
            metric=metric,
            results=results,
            system=system,
        )


        tune_out.additional_properties = d
        return tune_out

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
