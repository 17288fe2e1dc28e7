from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.season_in_repeat_type_0 import SeasonInRepeatType0
  from ..models.season_in_reset_type_0 import SeasonInResetType0





T = TypeVar("T", bound="SeasonIn")



@_attrs_define
class SeasonIn:
    """ A season: from ``starts_at`` to the next season's start. ``PUT`` takes the whole body
    again (its ``id`` equal to the path's).

        Attributes:
            id (str):
            starts_at (datetime.datetime):
            best_of (int | None | Unset): Tournament ladders awarding points per event (cdiplo, wpe, daanz): the season's
                board ranks by each player's best N events' points.
            name (None | str | Unset):
            repeat (None | SeasonInRepeatType0 | Unset): {"every": N, "unit": "days" | "weeks" | "months"}: a schedule,
                standing for a season at starts_at and every N units after it, each with this reset and best_of (a month's day
                past its end: the month's last day). One a ladder.
            reset (None | SeasonInResetType0 | Unset): {"kind": "none"} (default), {"kind": "soft", "fraction": f}, {"kind":
                "uncertainty", "min", "min_until_days", "full_after_days"} or {"kind": "hard"}: applied at starts_at to every
                player rated before it.
     """

    id: str
    starts_at: datetime.datetime
    best_of: int | None | Unset = UNSET
    name: None | str | Unset = UNSET
    repeat: None | SeasonInRepeatType0 | Unset = UNSET
    reset: None | SeasonInResetType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.season_in_repeat_type_0 import SeasonInRepeatType0 # noqa: PLC0415
        from ..models.season_in_reset_type_0 import SeasonInResetType0 # noqa: PLC0415
        id = self.id

        starts_at = self.starts_at.isoformat()

        best_of: int | None | Unset
        if isinstance(self.best_of, Unset):
            best_of = UNSET
        else:
            best_of = self.best_of

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        repeat: dict[str, Any] | None | Unset
        if isinstance(self.repeat, Unset):
            repeat = UNSET
        elif isinstance(self.repeat, SeasonInRepeatType0):
            repeat = self.repeat.to_dict()
        else:
            repeat = self.repeat

        reset: dict[str, Any] | None | Unset
        if isinstance(self.reset, Unset):
            reset = UNSET
        elif isinstance(self.reset, SeasonInResetType0):
            reset = self.reset.to_dict()
        else:
            reset = self.reset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "starts_at": starts_at,
        })
        if best_of is not UNSET:
            field_dict["best_of"] = best_of
        if name is not UNSET:
            field_dict["name"] = name
        if repeat is not UNSET:
            field_dict["repeat"] = repeat
        if reset is not UNSET:
            field_dict["reset"] = reset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.season_in_repeat_type_0 import SeasonInRepeatType0 # noqa: PLC0415
        from ..models.season_in_reset_type_0 import SeasonInResetType0 # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))




        def _parse_best_of(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        best_of = _parse_best_of(d.pop("best_of", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_repeat(data: object) -> None | SeasonInRepeatType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                repeat_type_0 = SeasonInRepeatType0.from_dict(data)



                return repeat_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeasonInRepeatType0 | Unset, data)

        repeat = _parse_repeat(d.pop("repeat", UNSET))


        def _parse_reset(data: object) -> None | SeasonInResetType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reset_type_0 = SeasonInResetType0.from_dict(data)



                return reset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeasonInResetType0 | Unset, data)

        reset = _parse_reset(d.pop("reset", UNSET))


        season_in = cls(
            id=id,
            starts_at=starts_at,
            best_of=best_of,
            name=name,
            repeat=repeat,
            reset=reset,
        )

        return season_in

