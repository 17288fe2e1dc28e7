from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.calibration_bin_out import CalibrationBinOut
  from ..models.evaluation_result_params import EvaluationResultParams





T = TypeVar("T", bound="EvaluationResult")



@_attrs_define
class EvaluationResult:
    """ 
        Attributes:
            accuracy (float | None):
            brier (float | None):
            calibration (list[CalibrationBinOut]):
            games (int):
            label (str):
            log_loss (float | None):
            pairs (int):
            params (EvaluationResultParams):
            system (str):
     """

    accuracy: float | None
    brier: float | None
    calibration: list[CalibrationBinOut]
    games: int
    label: str
    log_loss: float | None
    pairs: int
    params: EvaluationResultParams
    system: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.calibration_bin_out import CalibrationBinOut # noqa: PLC0415
        from ..models.evaluation_result_params import EvaluationResultParams # noqa: PLC0415
        accuracy: float | None
        accuracy = self.accuracy

        brier: float | None
        brier = self.brier

        calibration = []
        for calibration_item_data in self.calibration:
            calibration_item = calibration_item_data.to_dict()
            calibration.append(calibration_item)



        games = self.games

        label = self.label

        log_loss: float | None
        log_loss = self.log_loss

        pairs = self.pairs

        params = self.params.to_dict()

        system = self.system


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accuracy": accuracy,
            "brier": brier,
            "calibration": calibration,
            "games": games,
            "label": label,
            "log_loss": log_loss,
            "pairs": pairs,
            "params": params,
            "system": system,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.calibration_bin_out import CalibrationBinOut # noqa: PLC0415
        from ..models.evaluation_result_params import EvaluationResultParams # noqa: PLC0415
        d = dict(src_dict)
        def _parse_accuracy(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        accuracy = _parse_accuracy(d.pop("accuracy"))


        def _parse_brier(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        brier = _parse_brier(d.pop("brier"))


        calibration = []
        _calibration = d.pop("calibration")
        for calibration_item_data in (_calibration):
            calibration_item = CalibrationBinOut.from_dict(calibration_item_data)



            calibration.append(calibration_item)


        games = d.pop("games")

        label = d.pop("label")

        def _parse_log_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        log_loss = _parse_log_loss(d.pop("log_loss"))


        pairs = d.pop("pairs")

        params = EvaluationResultParams.from_dict(d.pop("params"))




        system = d.pop("system")

        evaluation_result = cls(
            accuracy=accuracy,
            brier=brier,
            calibration=calibration,
            games=games,
            label=label,
            log_loss=log_loss,
            pairs=pairs,
            params=params,
            system=system,
        )


        evaluation_result.additional_properties = d
        return evaluation_result

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
