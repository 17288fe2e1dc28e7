from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.opponent_out import OpponentOut





T = TypeVar("T", bound="OpponentsOut")



@_attrs_define
class OpponentsOut:
    """ 
        Attributes:
            candidates (int):
            faction (None | str):
            ladder (str):
            opponents (list[OpponentOut]):
            player (str):
            rating (float):
     """

    candidates: int
    faction: None | str
    ladder: str
    opponents: list[OpponentOut]
    player: str
    rating: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.opponent_out import OpponentOut # noqa: PLC0415
        candidates = self.candidates

        faction: None | str
        faction = self.faction

        ladder = self.ladder

        opponents = []
        for opponents_item_data in self.opponents:
            opponents_item = opponents_item_data.to_dict()
            opponents.append(opponents_item)



        player = self.player

        rating = self.rating


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidates": candidates,
            "faction": faction,
            "ladder": ladder,
            "opponents": opponents,
            "player": player,
            "rating": rating,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opponent_out import OpponentOut # noqa: PLC0415
        d = dict(src_dict)
        candidates = d.pop("candidates")

        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        ladder = d.pop("ladder")

        opponents = []
        _opponents = d.pop("opponents")
        for opponents_item_data in (_opponents):
            opponents_item = OpponentOut.from_dict(opponents_item_data)



            opponents.append(opponents_item)


        player = d.pop("player")

        rating = d.pop("rating")

        opponents_out = cls(
            candidates=candidates,
            faction=faction,
            ladder=ladder,
            opponents=opponents,
            player=player,
            rating=rating,
        )


        opponents_out.additional_properties = d
        return opponents_out

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
