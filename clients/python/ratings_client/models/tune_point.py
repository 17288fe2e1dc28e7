from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.tune_point_params import TunePointParams





T = TypeVar("T", bound="TunePoint")



@_attrs_define
class TunePoint:
    """ 
        Attributes:
            accuracy (float | None):
            brier (float | None):
            games (int):
            log_loss (float | None):
            pairs (int):
            params (TunePointParams):
     """

    accuracy: float | None
    brier: float | None
    games: int
    log_loss: float | None
    pairs: int
    params: TunePointParams
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.tune_point_params import TunePointParams # noqa: PLC0415
        accuracy: float | None
        accuracy = self.accuracy

        brier: float | None
        brier = self.brier

        games = self.games

        log_loss: float | None
        log_loss = self.log_loss

        pairs = self.pairs

        params = self.params.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accuracy": accuracy,
            "brier": brier,
            "games": games,
            "log_loss": log_loss,
            "pairs": pairs,
            "params": params,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tune_point_params import TunePointParams # noqa: PLC0415
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


        games = d.pop("games")

        def _parse_log_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        log_loss = _parse_log_loss(d.pop("log_loss"))


        pairs = d.pop("pairs")

        params = TunePointParams.from_dict(d.pop("params"))




        tune_point = cls(
            accuracy=accuracy,
            brier=brier,
            games=games,
            log_loss=log_loss,
            pairs=pairs,
            params=params,
        )


        tune_point.additional_properties = d
        return tune_point

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
