from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.tune_in_metric import TuneInMetric
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.tune_in_grid import TuneInGrid





T = TypeVar("T", bound="TuneIn")



@_attrs_define
class TuneIn:
    """ 
        Attributes:
            grid (TuneInGrid): Values of each parameter; every combination is a point (at most 200).
            from_ (datetime.datetime | None | Unset): Score only games played at or after this time.
            metric (TuneInMetric | Unset):  Default: TuneInMetric.LOG_LOSS.
            min_games (int | Unset): A pair counts when every player of both sides had this many rated games. Default: 0.
            system (None | str | Unset):
            to (datetime.datetime | None | Unset): Score only games played at or before this time.
     """

    grid: TuneInGrid
    from_: datetime.datetime | None | Unset = UNSET
    metric: TuneInMetric | Unset = TuneInMetric.LOG_LOSS
    min_games: int | Unset = 0
    system: None | str | Unset = UNSET
    to: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.tune_in_grid import TuneInGrid # noqa: PLC0415
        grid = self.grid.to_dict()

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        elif isinstance(self.from_, datetime.datetime):
            from_ = self.from_.isoformat()
        else:
            from_ = self.from_

        metric: str | Unset = UNSET
        if not isinstance(self.metric, Unset):
            metric = self.metric.value


        min_games = self.min_games

        system: None | str | Unset
        if isinstance(self.system, Unset):
            system = UNSET
        else:
            system = self.system

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        elif isinstance(self.to, datetime.datetime):
            to = self.to.isoformat()
        else:
            to = self.to


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "grid": grid,
        })
        if from_ is not UNSET:
            field_dict["from"] = from_
        if metric is not UNSET:
            field_dict["metric"] = metric
        if min_games is not UNSET:
            field_dict["min_games"] = min_games
        if system is not UNSET:
            field_dict["system"] = system
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tune_in_grid import TuneInGrid # noqa: PLC0415
        d = dict(src_dict)
        grid = TuneInGrid.from_dict(d.pop("grid"))




        def _parse_from_(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_type_0 = datetime.datetime.fromisoformat(data)



                return from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))


        _metric = d.pop("metric", UNSET)
        metric: TuneInMetric | Unset
        if isinstance(_metric,  Unset):
            metric = UNSET
        else:
            metric = TuneInMetric(_metric)




        min_games = d.pop("min_games", UNSET)

        def _parse_system(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        system = _parse_system(d.pop("system", UNSET))


        def _parse_to(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_type_0 = datetime.datetime.fromisoformat(data)



                return to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        to = _parse_to(d.pop("to", UNSET))


        tune_in = cls(
            grid=grid,
            from_=from_,
            metric=metric,
            min_games=min_games,
            system=system,
            to=to,
        )

        return tune_in

