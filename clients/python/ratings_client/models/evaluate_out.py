from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.evaluation_result import EvaluationResult
  from ..models.metrics_out import MetricsOut





T = TypeVar("T", bound="EvaluateOut")



@_attrs_define
class EvaluateOut:
    """ 
        Attributes:
            baseline (MetricsOut):
            ladder (str):
            results (list[EvaluationResult]):
     """

    baseline: MetricsOut
    ladder: str
    results: list[EvaluationResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.evaluation_result import EvaluationResult # noqa: PLC0415
        from ..models.metrics_out import MetricsOut # noqa: PLC0415
        baseline = self.baseline.to_dict()

        ladder = self.ladder

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "baseline": baseline,
            "ladder": ladder,
            "results": results,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evaluation_result import EvaluationResult # noqa: PLC0415
        from ..models.metrics_out import MetricsOut # noqa: PLC0415
        d = dict(src_dict)
        baseline = MetricsOut.from_dict(d.pop("baseline"))




        ladder = d.pop("ladder")

        results = []
        _results = d.pop("results")
        for results_item_data in (_results):
            results_item = EvaluationResult.from_dict(results_item_data)



            results.append(results_item)


        evaluate_out = cls(
            baseline=baseline,
            ladder=ladder,
            results=results,
        )


        evaluate_out.additional_properties = d
        return evaluate_out

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
