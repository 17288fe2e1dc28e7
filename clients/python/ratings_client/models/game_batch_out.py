from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.batch_item_out import BatchItemOut





T = TypeVar("T", bound="GameBatchOut")



@_attrs_define
class GameBatchOut:
    """ 
        Attributes:
            created (int):
            existing (int):
            games (list[BatchItemOut]):
            recomputed_events (int):
     """

    created: int
    existing: int
    games: list[BatchItemOut]
    recomputed_events: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_item_out import BatchItemOut # noqa: PLC0415
        created = self.created

        existing = self.existing

        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)



        recomputed_events = self.recomputed_events


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created": created,
            "existing": existing,
            "games": games,
            "recomputed_events": recomputed_events,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_item_out import BatchItemOut # noqa: PLC0415
        d = dict(src_dict)
        created = d.pop("created")

        existing = d.pop("existing")

        games = []
        _games = d.pop("games")
        for games_item_data in (_games):
            games_item = BatchItemOut.from_dict(games_item_data)



            games.append(games_item)


        recomputed_events = d.pop("recomputed_events")

        game_batch_out = cls(
            created=created,
            existing=existing,
            games=games,
            recomputed_events=recomputed_events,
        )


        game_batch_out.additional_properties = d
        return game_batch_out

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
