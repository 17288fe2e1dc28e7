from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RatingEntry")



@_attrs_define
class RatingEntry:
    """ A rating as the player endpoint shows it, without its position (which other players'
    writes move).

        Attributes:
            deviation (float | None):
            draws (int):
            faction (None | str):
            games (int):
            last_played_at (datetime.datetime | None):
            loss_rate (float | None):
            losses (int):
            ranking_value (float | None):
            rating (float):
            volatility (float | None):
            win_rate (float | None):
            wins (int):
     """

    deviation: float | None
    draws: int
    faction: None | str
    games: int
    last_played_at: datetime.datetime | None
    loss_rate: float | None
    losses: int
    ranking_value: float | None
    rating: float
    volatility: float | None
    win_rate: float | None
    wins: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        deviation: float | None
        deviation = self.deviation

        draws = self.draws

        faction: None | str
        faction = self.faction

        games = self.games

        last_played_at: None | str
        if isinstance(self.last_played_at, datetime.datetime):
            last_played_at = self.last_played_at.isoformat()
        else:
            last_played_at = self.last_played_at

        loss_rate: float | None
        loss_rate = self.loss_rate

        losses = self.losses

        ranking_value: float | None
        ranking_value = self.ranking_value

        rating = self.rating

        volatility: float | None
        volatility = self.volatility

        win_rate: float | None
        win_rate = self.win_rate

        wins = self.wins


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deviation": deviation,
            "draws": draws,
            "faction": faction,
            "games": games,
            "last_played_at": last_played_at,
            "loss_rate": loss_rate,
            "losses": losses,
            "ranking_value": ranking_value,
            "rating": rating,
            "volatility": volatility,
            "win_rate": win_rate,
            "wins": wins,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_deviation(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        deviation = _parse_deviation(d.pop("deviation"))


        draws = d.pop("draws")

        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        games = d.pop("games")

        def _parse_last_played_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_played_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_played_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_played_at = _parse_last_played_at(d.pop("last_played_at"))


        def _parse_loss_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        loss_rate = _parse_loss_rate(d.pop("loss_rate"))


        losses = d.pop("losses")

        def _parse_ranking_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ranking_value = _parse_ranking_value(d.pop("ranking_value"))


        rating = d.pop("rating")

        def _parse_volatility(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        volatility = _parse_volatility(d.pop("volatility"))


        def _parse_win_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate = _parse_win_rate(d.pop("win_rate"))


        wins = d.pop("wins")

        rating_entry = cls(
            deviation=deviation,
            draws=draws,
            faction=faction,
            games=games,
            last_played_at=last_played_at,
            loss_rate=loss_rate,
            losses=losses,
            ranking_value=ranking_value,
            rating=rating,
            volatility=volatility,
            win_rate=win_rate,
            wins=wins,
        )


        rating_entry.additional_properties = d
        return rating_entry

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
