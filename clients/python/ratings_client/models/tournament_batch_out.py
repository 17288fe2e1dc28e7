from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.batch_item_out import BatchItemOut





T = TypeVar("T", bound="TournamentBatchOut")



@_attrs_define
class TournamentBatchOut:
    """ 
        Attributes:
            created (int):
            existing (int):
            recomputed_events (int):
            tournaments (list[BatchItemOut]):
     """

    created: int
    existing: int
    recomputed_events: int
    tournaments: list[BatchItemOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_item_out import BatchItemOut # noqa: PLC0415
        created = self.created

        existing = self.existing

        recomputed_events = self.recomputed_events

        tournaments = []
        for tournaments_item_data in self.tournaments:
            tournaments_item = tournaments_item_data.to_dict()
            tournaments.append(tournaments_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created": created,
            "existing": existing,
            "recomputed_events": recomputed_events,
            "tournaments": tournaments,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_item_out import BatchItemOut # noqa: PLC0415
        d = dict(src_dict)
        created = d.pop("created")

        existing = d.pop("existing")

        recomputed_events = d.pop("recomputed_events")

        tournaments = []
        _tournaments = d.pop("tournaments")
        for tournaments_item_data in (_tournaments):
            tournaments_item = BatchItemOut.from_dict(tournaments_item_data)



            tournaments.append(tournaments_item)


        tournament_batch_out = cls(
            created=created,
            existing=existing,
            recomputed_events=recomputed_events,
            tournaments=tournaments,
        )


        tournament_batch_out.additional_properties = d
        return tournament_batch_out

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
