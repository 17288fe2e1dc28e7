from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="MergeIn")



@_attrs_define
class MergeIn:
    """ 
        Attributes:
            into (str):
     """

    into: str





    def to_dict(self) -> dict[str, Any]:
        into = self.into


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "into": into,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        into = d.pop("into")

        merge_in = cls(
            into=into,
        )

        return merge_in

