from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="EventContextIn")



@_attrs_define
class EventContextIn:
    """ 
        Attributes:
            coaches (int | None | Unset):
            id (None | str | Unset):
            major (bool | Unset):  Default: False.
     """

    coaches: int | None | Unset = UNSET
    id: None | str | Unset = UNSET
    major: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        coaches: int | None | Unset
        if isinstance(self.coaches, Unset):
            coaches = UNSET
        else:
            coaches = self.coaches

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        major = self.major


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if coaches is not UNSET:
            field_dict["coaches"] = coaches
        if id is not UNSET:
            field_dict["id"] = id
        if major is not UNSET:
            field_dict["major"] = major

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_coaches(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        coaches = _parse_coaches(d.pop("coaches", UNSET))


        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))


        major = d.pop("major", UNSET)

        event_context_in = cls(
            coaches=coaches,
            id=id,
            major=major,
        )

        return event_context_in

