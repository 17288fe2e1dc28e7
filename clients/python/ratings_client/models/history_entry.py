from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.history_entry_details import HistoryEntryDetails





T = TypeVar("T", bound="HistoryEntry")



@_attrs_define
class HistoryEntry:
    """ 
        Attributes:
            at (datetime.datetime):
            delta (float):
            details (HistoryEntryDetails):
            deviation_after (float | None):
            deviation_before (float | None):
            faction (None | str):
            id (None | str):
            kind (str):
            rank (int | None):
            rating_after (float):
            rating_before (float):
            seq (int):
            volatility_after (float | None):
            volatility_before (float | None):
            team (None | str | Unset):
            voided (bool | Unset):  Default: False.
     """

    at: datetime.datetime
    delta: float
    details: HistoryEntryDetails
    deviation_after: float | None
    deviation_before: float | None
    faction: None | str
    id: None | str
    kind: str
    rank: int | None
    rating_after: float
    rating_before: float
    seq: int
    volatility_after: float | None
    volatility_before: float | None
    team: None | str | Unset = UNSET
    voided: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.history_entry_details import HistoryEntryDetails # noqa: PLC0415
        at = self.at.isoformat()

        delta = self.delta

        details = self.details.to_dict()

        deviation_after: float | None
        deviation_after = self.deviation_after

        deviation_before: float | None
        deviation_before = self.deviation_before

        faction: None | str
        faction = self.faction

        id: None | str
        id = self.id

        kind = self.kind

        rank: int | None
        rank = self.rank

        rating_after = self.rating_after

        rating_before = self.rating_before

        seq = self.seq

        volatility_after: float | None
        volatility_after = self.volatility_after

        volatility_before: float | None
        volatility_before = self.volatility_before

        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team

        voided = self.voided


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "delta": delta,
            "details": details,
            "deviation_after": deviation_after,
            "deviation_before": deviation_before,
            "faction": faction,
            "id": id,
            "kind": kind,
            "rank": rank,
            "rating_after": rating_after,
            "rating_before": rating_before,
            "seq": seq,
            "volatility_after": volatility_after,
            "volatility_before": volatility_before,
        })
        if team is not UNSET:
            field_dict["team"] = team
        if voided is not UNSET:
            field_dict["voided"] = voided

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.history_entry_details import HistoryEntryDetails # noqa: PLC0415
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        delta = d.pop("delta")

        details = HistoryEntryDetails.from_dict(d.pop("details"))




        def _parse_deviation_after(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        deviation_after = _parse_deviation_after(d.pop("deviation_after"))


        def _parse_deviation_before(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        deviation_before = _parse_deviation_before(d.pop("deviation_before"))


        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))


        kind = d.pop("kind")

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))


        rating_after = d.pop("rating_after")

        rating_before = d.pop("rating_before")

        seq = d.pop("seq")

        def _parse_volatility_after(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        volatility_after = _parse_volatility_after(d.pop("volatility_after"))


        def _parse_volatility_before(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        volatility_before = _parse_volatility_before(d.pop("volatility_before"))


        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))


        voided = d.pop("voided", UNSET)

        history_entry = cls(
            at=at,
            delta=delta,
            details=details,
            deviation_after=deviation_after,
            deviation_before=deviation_before,
            faction=faction,
            id=id,
            kind=kind,
            rank=rank,
            rating_after=rating_after,
            rating_before=rating_before,
            seq=seq,
            volatility_after=volatility_after,
            volatility_before=volatility_before,
            team=team,
            voided=voided,
        )


        history_entry.additional_properties = d
        return history_entry

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
