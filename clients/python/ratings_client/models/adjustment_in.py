from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="AdjustmentIn")



@_attrs_define
class AdjustmentIn:
    """ 
        Attributes:
            rating (float):
            at (datetime.datetime | None | Unset):
            deviation (float | None | Unset):
            faction (None | str | Unset):
            reason (None | str | Unset):
            volatility (float | None | Unset):
     """

    rating: float
    at: datetime.datetime | None | Unset = UNSET
    deviation: float | None | Unset = UNSET
    faction: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    volatility: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rating = self.rating

        at: None | str | Unset
        if isinstance(self.at, Unset):
            at = UNSET
        elif isinstance(self.at, datetime.datetime):
            at = self.at.isoformat()
        else:
            at = self.at

        deviation: float | None | Unset
        if isinstance(self.deviation, Unset):
            deviation = UNSET
        else:
            deviation = self.deviation

        faction: None | str | Unset
        if isinstance(self.faction, Unset):
            faction = UNSET
        else:
            faction = self.faction

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        volatility: float | None | Unset
        if isinstance(self.volatility, Unset):
            volatility = UNSET
        else:
            volatility = self.volatility


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rating": rating,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if deviation is not UNSET:
            field_dict["deviation"] = deviation
        if faction is not UNSET:
            field_dict["faction"] = faction
        if reason is not UNSET:
            field_dict["reason"] = reason
        if volatility is not UNSET:
            field_dict["volatility"] = volatility

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rating = d.pop("rating")

        def _parse_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                at_type_0 = datetime.datetime.fromisoformat(data)



                return at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        at = _parse_at(d.pop("at", UNSET))


        def _parse_deviation(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        deviation = _parse_deviation(d.pop("deviation", UNSET))


        def _parse_faction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        faction = _parse_faction(d.pop("faction", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_volatility(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        volatility = _parse_volatility(d.pop("volatility", UNSET))


        adjustment_in = cls(
            rating=rating,
            at=at,
            deviation=deviation,
            faction=faction,
            reason=reason,
            volatility=volatility,
        )

        return adjustment_in

