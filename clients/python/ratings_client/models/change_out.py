from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.change_out_details import ChangeOutDetails





T = TypeVar("T", bound="ChangeOut")



@_attrs_define
class ChangeOut:
    """ 
        Attributes:
            delta (float):
            details (ChangeOutDetails):
            faction (None | str):
            player (str):
            rank (int | None):
            rating_after (float):
            rating_before (float):
            country (None | str | Unset):
            deviation_after (float | None | Unset):
            deviation_before (float | None | Unset):
            name (None | str | Unset):
            ranking_value (float | None | Unset):
            team (None | str | Unset):
            volatility_after (float | None | Unset):
            volatility_before (float | None | Unset):
     """

    delta: float
    details: ChangeOutDetails
    faction: None | str
    player: str
    rank: int | None
    rating_after: float
    rating_before: float
    country: None | str | Unset = UNSET
    deviation_after: float | None | Unset = UNSET
    deviation_before: float | None | Unset = UNSET
    name: None | str | Unset = UNSET
    ranking_value: float | None | Unset = UNSET
    team: None | str | Unset = UNSET
    volatility_after: float | None | Unset = UNSET
    volatility_before: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change_out_details import ChangeOutDetails # noqa: PLC0415
        delta = self.delta

        details = self.details.to_dict()

        faction: None | str
        faction = self.faction

        player = self.player

        rank: int | None
        rank = self.rank

        rating_after = self.rating_after

        rating_before = self.rating_before

        country: None | str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        else:
            country = self.country

        deviation_after: float | None | Unset
        if isinstance(self.deviation_after, Unset):
            deviation_after = UNSET
        else:
            deviation_after = self.deviation_after

        deviation_before: float | None | Unset
        if isinstance(self.deviation_before, Unset):
            deviation_before = UNSET
        else:
            deviation_before = self.deviation_before

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        ranking_value: float | None | Unset
        if isinstance(self.ranking_value, Unset):
            ranking_value = UNSET
        else:
            ranking_value = self.ranking_value

        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team

        volatility_after: float | None | Unset
        if isinstance(self.volatility_after, Unset):
            volatility_after = UNSET
        else:
            volatility_after = self.volatility_after

        volatility_before: float | None | Unset
        if isinstance(self.volatility_before, Unset):
            volatility_before = UNSET
        else:
            volatility_before = self.volatility_before


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "delta": delta,
            "details": details,
            "faction": faction,
            "player": player,
            "rank": rank,
            "rating_after": rating_after,
            "rating_before": rating_before,
        })
        if country is not UNSET:
            field_dict["country"] = country
        if deviation_after is not UNSET:
            field_dict["deviation_after"] = deviation_after
        if deviation_before is not UNSET:
            field_dict["deviation_before"] = deviation_before
        if name is not UNSET:
            field_dict["name"] = name
        if ranking_value is not UNSET:
            field_dict["ranking_value"] = ranking_value
        if team is not UNSET:
            field_dict["team"] = team
        if volatility_after is not UNSET:
            field_dict["volatility_after"] = volatility_after
        if volatility_before is not UNSET:
            field_dict["volatility_before"] = volatility_before

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_out_details import ChangeOutDetails # noqa: PLC0415
        d = dict(src_dict)
        delta = d.pop("delta")

        details = ChangeOutDetails.from_dict(d.pop("details"))




        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        player = d.pop("player")

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))


        rating_after = d.pop("rating_after")

        rating_before = d.pop("rating_before")

        def _parse_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        country = _parse_country(d.pop("country", UNSET))


        def _parse_deviation_after(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        deviation_after = _parse_deviation_after(d.pop("deviation_after", UNSET))


        def _parse_deviation_before(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        deviation_before = _parse_deviation_before(d.pop("deviation_before", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_ranking_value(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        ranking_value = _parse_ranking_value(d.pop("ranking_value", UNSET))


        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))


        def _parse_volatility_after(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        volatility_after = _parse_volatility_after(d.pop("volatility_after", UNSET))


        def _parse_volatility_before(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        volatility_before = _parse_volatility_before(d.pop("volatility_before", UNSET))


        change_out = cls(
            delta=delta,
            details=details,
            faction=faction,
            player=player,
            rank=rank,
            rating_after=rating_after,
            rating_before=rating_before,
            country=country,
            deviation_after=deviation_after,
            deviation_before=deviation_before,
            name=name,
            ranking_value=ranking_value,
            team=team,
            volatility_after=volatility_after,
            volatility_before=volatility_before,
        )


        change_out.additional_properties = d
        return change_out

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
