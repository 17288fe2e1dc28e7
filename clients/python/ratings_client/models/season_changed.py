from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.season_changed_status import SeasonChangedStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.season_changed_repeat_type_0 import SeasonChangedRepeatType0
  from ..models.season_changed_reset import SeasonChangedReset





T = TypeVar("T", bound="SeasonChanged")



@_attrs_define
class SeasonChanged:
    """ 
        Attributes:
            best_of (int | None):
            ends_at (datetime.datetime | None): The next season's start; null for the last.
            id (str):
            name (str):
            recomputed_events (int):
            recomputed_players (int):
            reset (SeasonChangedReset):
            starts_at (datetime.datetime):
            status (SeasonChangedStatus):
            repeat (None | SeasonChangedRepeatType0 | Unset): A schedule's step (only on the schedule itself).
            schedule (None | str | Unset): The schedule this season is an occurrence of.
     """

    best_of: int | None
    ends_at: datetime.datetime | None
    id: str
    name: str
    recomputed_events: int
    recomputed_players: int
    reset: SeasonChangedReset
    starts_at: datetime.datetime
    status: SeasonChangedStatus
    repeat: None | SeasonChangedRepeatType0 | Unset = UNSET
    schedule: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.season_changed_repeat_type_0 import SeasonChangedRepeatType0 # noqa: PLC0415
        from ..models.season_changed_reset import SeasonChangedReset # noqa: PLC0415
        best_of: int | None
        best_of = self.best_of

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        id = self.id

        name = self.name

        recomputed_events = self.recomputed_events

        recomputed_players = self.recomputed_players

        reset = self.reset.to_dict()

        starts_at = self.starts_at.isoformat()

        status = self.status.value

        repeat: dict[str, Any] | None | Unset
        if isinstance(self.repeat, Unset):
            repeat = UNSET
        elif isinstance(self.repeat, SeasonChangedRepeatType0):
            repeat = self.repeat.to_dict()
        else:
            repeat = self.repeat

        schedule: None | str | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        else:
            schedule = self.schedule


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "best_of": best_of,
            "ends_at": ends_at,
            "id": id,
            "name": name,
            "recomputed_events": recomputed_events,
            "recomputed_players": recomputed_players,
            "reset": reset,
            "starts_at": starts_at,
            "status": status,
        })
        if repeat is not UNSET:
            field_dict["repeat"] = repeat
        if schedule is not UNSET:
            field_dict["schedule"] = schedule

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.season_changed_repeat_type_0 import SeasonChangedRepeatType0 # noqa: PLC0415
        from ..models.season_changed_reset import SeasonChangedReset # noqa: PLC0415
        d = dict(src_dict)
        def _parse_best_of(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        best_of = _parse_best_of(d.pop("best_of"))


        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)



                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("ends_at"))


        id = d.pop("id")

        name = d.pop("name")

        recomputed_events = d.pop("recomputed_events")

        recomputed_players = d.pop("recomputed_players")

        reset = SeasonChangedReset.from_dict(d.pop("reset"))




        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))




        status = SeasonChangedStatus(d.pop("status"))




        def _parse_repeat(data: object) -> None | SeasonChangedRepeatType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                repeat_type_0 = SeasonChangedRepeatType0.from_dict(data)



                return repeat_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeasonChangedRepeatType0 | Unset, data)

        repeat = _parse_repeat(d.pop("repeat", UNSET))


        def _parse_schedule(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        schedule = _parse_schedule(d.pop("schedule", UNSET))


        season_changed = cls(
            best_of=best_of,
            ends_at=ends_at,
            id=id,
            name=name,
            recomputed_events=recomputed_events,
            recomputed_players=recomputed_players,
            reset=reset,
            starts_at=starts_at,
            status=status,
            repeat=repeat,
            schedule=schedule,
        )


        season_changed.additional_properties = d
        return season_changed

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
