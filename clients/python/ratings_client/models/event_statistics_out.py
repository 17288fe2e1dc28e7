from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="EventStatisticsOut")



@_attrs_define
class EventStatisticsOut:
    """ A player's tournaments on a tournament ladder (rated, not voided; up to ``as_of``).
    Tournaments count in no win/draw/loss statistic: these take their place.

        Attributes:
            best_place (int | None): The best (lowest) rank reached.
            events (int): Tournaments placed in.
            mean_percentile (float | None): Mean over the tournaments of (n − rank) / (n − 1), n the players the tournament
                ranked: 1 for first, 0 for last, 0.5 for the middle; a tournament of one player counts 1.
            top3 (int): Tournaments finished with rank 1, 2 or 3 (ties included).
     """

    best_place: int | None
    events: int
    mean_percentile: float | None
    top3: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        best_place: int | None
        best_place = self.best_place

        events = self.events

        mean_percentile: float | None
        mean_percentile = self.mean_percentile

        top3 = self.top3


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "best_place": best_place,
            "events": events,
            "mean_percentile": mean_percentile,
            "top3": top3,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_best_place(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        best_place = _parse_best_place(d.pop("best_place"))


        events = d.pop("events")

        def _parse_mean_percentile(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_percentile = _parse_mean_percentile(d.pop("mean_percentile"))


        top3 = d.pop("top3")

        event_statistics_out = cls(
            best_place=best_place,
            events=events,
            mean_percentile=mean_percentile,
            top3=top3,
        )


        event_statistics_out.additional_properties = d
        return event_statistics_out

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
