from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_item_out_status import BatchItemOutStatus
from typing import cast






T = TypeVar("T", bound="BatchItemOut")



@_attrs_define
class BatchItemOut:
    """ 
        Attributes:
            id (None | str):
            ladder (str):
            seq (int):
            status (BatchItemOutStatus):
     """

    id: None | str
    ladder: str
    seq: int
    status: BatchItemOutStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id: None | str
        id = self.id

        ladder = self.ladder

        seq = self.seq

        status = self.status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "ladder": ladder,
            "seq": seq,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))


        ladder = d.pop("ladder")

        seq = d.pop("seq")

        status = BatchItemOutStatus(d.pop("status"))




        batch_item_out = cls(
            id=id,
            ladder=ladder,
            seq=seq,
            status=status,
        )


        batch_item_out.additional_properties = d
        return batch_item_out

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
