from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ReplayIn")



@_attrs_define
class ReplayIn:
    """ 
        Attributes:
            after (int): Deliver again every item after this cursor.
            ladder (None | str | Unset): Of this ladder only (default: of every ladder it hears of).
     """

    after: int
    ladder: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        after = self.after

        ladder: None | str | Unset
        if isinstance(self.ladder, Unset):
            ladder = UNSET
        else:
            ladder = self.ladder


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "after": after,
        })
        if ladder is not UNSET:
            field_dict["ladder"] = ladder

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        after = d.pop("after")

        def _parse_ladder(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ladder = _parse_ladder(d.pop("ladder", UNSET))


        replay_in = cls(
            after=after,
            ladder=ladder,
        )

        return replay_in

