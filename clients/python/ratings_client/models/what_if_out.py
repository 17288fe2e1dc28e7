from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.configuration import Configuration
  from ..models.what_if_entry import WhatIfEntry





T = TypeVar("T", bound="WhatIfOut")



@_attrs_define
class WhatIfOut:
    """ 
        Attributes:
            current (Configuration):
            entries (list[WhatIfEntry]):
            events (int):
            ladder (str):
            proposed (Configuration):
     """

    current: Configuration
    entries: list[WhatIfEntry]
    events: int
    ladder: str
    proposed: Configuration
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.configuration import Configuration # noqa: PLC0415
        from ..models.what_if_entry import WhatIfEntry # noqa: PLC0415
        current = self.current.to_dict()

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)



        events = self.events

        ladder = self.ladder

        proposed = self.proposed.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "current": current,
            "entries": entries,
            "events": events,
            "ladder": ladder,
            "proposed": proposed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.configuration import Configuration # noqa: PLC0415
        from ..models.what_if_entry import WhatIfEntry # noqa: PLC0415
        d = dict(src_dict)
        current = Configuration.from_dict(d.pop("current"))




        entries = []
        _entries = d.pop("entries")
        for entries_item_data in (_entries):
            entries_item = WhatIfEntry.from_dict(entries_item_data)



            entries.append(entries_item)


        events = d.pop("events")

        ladder = d.pop("ladder")

        proposed = Configuration.from_dict(d.pop("proposed"))




        what_if_out = cls(
            current=current,
            entries=entries,
            events=events,
            ladder=ladder,
            proposed=proposed,
        )


        what_if_out.additional_properties = d
        return what_if_out

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
