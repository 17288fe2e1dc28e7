from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="DeliveryOut")



@_attrs_define
class DeliveryOut:
    """ 
        Attributes:
            at (datetime.datetime):
            attempt (int):
            cursor (int):
            error (None | str):
            item (str): The item's id (the webhook-id header).
            ladder (str):
            seconds (float):
            status (int | None): The HTTP status answered; null: no answer.
     """

    at: datetime.datetime
    attempt: int
    cursor: int
    error: None | str
    item: str
    ladder: str
    seconds: float
    status: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        attempt = self.attempt

        cursor = self.cursor

        error: None | str
        error = self.error

        item = self.item

        ladder = self.ladder

        seconds = self.seconds

        status: int | None
        status = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "attempt": attempt,
            "cursor": cursor,
            "error": error,
            "item": item,
            "ladder": ladder,
            "seconds": seconds,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        attempt = d.pop("attempt")

        cursor = d.pop("cursor")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        item = d.pop("item")

        ladder = d.pop("ladder")

        seconds = d.pop("seconds")

        def _parse_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status = _parse_status(d.pop("status"))


        delivery_out = cls(
            at=at,
            attempt=attempt,
            cursor=cursor,
            error=error,
            item=item,
            ladder=ladder,
            seconds=seconds,
            status=status,
        )


        delivery_out.additional_properties = d
        return delivery_out

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
