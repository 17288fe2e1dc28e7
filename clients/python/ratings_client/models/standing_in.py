from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="StandingIn")



@_attrs_define
class StandingIn:
    """ 
        Attributes:
            player (str):
            rank (int):
            centres (int | None | Unset):
     """

    player: str
    rank: int
    centres: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        player = self.player

        rank = self.rank

        centres: int | None | Unset
        if isinstance(self.centres, Unset):
            centres = UNSET
        else:
            centres = self.centres


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "player": player,
            "rank": rank,
        })
        if centres is not UNSET:
            field_dict["centres"] = centres

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player = d.pop("player")

        rank = d.pop("rank")

        def _parse_centres(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        centres = _parse_centres(d.pop("centres", UNSET))


        standing_in = cls(
            player=player,
            rank=rank,
            centres=centres,
        )

        return standing_in

