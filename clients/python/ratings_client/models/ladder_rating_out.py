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
  from ..models.decay_out import DecayOut
  from ..models.event_statistics_out import EventStatisticsOut





T = TypeVar("T", bound="LadderRatingOut")



@_attrs_define
class LadderRatingOut:
    """ 
        Attributes:
            deviation (float | None):
            draws (int):
            faction (None | str):
            games (int):
            ladder (str):
            last_played_at (datetime.datetime | None):
            loss_rate (float | None):
            losses (int):
            position (int | None):
            ranking_value (float | None):
            rating (float):
            volatility (float | None):
            win_rate (float | None):
            wins (int):
            decay (DecayOut | None | Unset): Where the ladder decays and decay applied: what it took.
            division (None | str | Unset): Its division, where the ladder has some.
            event_statistics (EventStatisticsOut | None | Unset): On a tournament ladder, the player's tournament statistics
                (`wins`, `draws`, `losses` stay 0 and the rates null there); null on a game ladder.
            provisional (bool | Unset): Fewer rated games than placement_games, or a deviation at least
                provisional_deviation: left out of leaderboards unless asked (position null). Default: False.
     """

    deviation: float | None
    draws: int
    faction: None | str
    games: int
    ladder: str
    last_played_at: datetime.datetime | None
    loss_rate: float | None
    losses: int
    position: int | None
    ranking_value: float | None
    rating: float
    volatility: float | None
    win_rate: float | None
    wins: int
    decay: DecayOut | None | Unset = UNSET
    division: None | str | Unset = UNSET
    event_statistics: EventStatisticsOut | None | Unset = UNSET
    provisional: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.decay_out import DecayOut # noqa: PLC0415
        from ..models.event_statistics_out import EventStatisticsOut # noqa: PLC0415
        deviation: float | None
        deviation = self.deviation

        draws = self.draws

        faction: None | str
        faction = self.faction

        games = self.games

        ladder = self.ladder

        last_played_at: None | str
        if isinstance(self.last_played_at, datetime.datetime):
            last_played_at = self.last_played_at.isoformat()
        else:
            last_played_at = self.last_played_at

        loss_rate: float | None
        loss_rate = self.loss_rate

        losses = self.losses

        position: int | None
        position = self.position

        ranking_value: float | None
        ranking_value = self.ranking_value

        rating = self.rating

        volatility: float | None
        volatility = self.volatility

        win_rate: float | None
        win_rate = self.win_rate

        wins = self.wins

        decay: dict[str, Any] | None | Unset
        if isinstance(self.decay, Unset):
            decay = UNSET
        elif isinstance(self.decay, DecayOut):
            decay = self.decay.to_dict()
        else:
            decay = self.decay

        division: None | str | Unset
        if isinstance(self.division, Unset):
            division = UNSET
        else:
            division = self.division

        event_statistics: dict[str, Any] | None | Unset
        if isinstance(self.event_statistics, Unset):
            event_statistics = UNSET
        elif isinstance(self.event_statistics, EventStatisticsOut):
            event_statistics = self.event_statistics.to_dict()
        else:
            event_statistics = self.event_statistics

        provisional = self.provisional


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deviation": deviation,
            "draws": draws,
            "faction": faction,
            "games": games,
            "ladder": ladder,
            "last_played_at": last_played_at,
            "loss_rate": loss_rate,
            "losses": losses,
            "position": position,
            "ranking_value": ranking_value,
            "rating": rating,
            "volatility": volatility,
            "win_rate": win_rate,
            "wins": wins,
        })
        if decay is not UNSET:
            field_dict["decay"] = decay
        if division is not UNSET:
            field_dict["division"] = division
        if event_statistics is not UNSET:
            field_dict["event_statistics"] = event_statistics
        if provisional is not UNSET:
            field_dict["provisional"] = provisional

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decay_out import DecayOut # noqa: PLC0415
        from ..models.event_statistics_out import EventStatisticsOut # noqa: PLC0415
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

        ladder = d.pop("ladder")

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

        def _parse_position(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        position = _parse_position(d.pop("position"))


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

        def _parse_decay(data: object) -> DecayOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decay_type_0 = DecayOut.from_dict(data)



                return decay_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecayOut | None | Unset, data)

        decay = _parse_decay(d.pop("decay", UNSET))


        def _parse_division(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        division = _parse_division(d.pop("division", UNSET))


        def _parse_event_statistics(data: object) -> EventStatisticsOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                event_statistics_type_0 = EventStatisticsOut.from_dict(data)



                return event_statistics_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventStatisticsOut | None | Unset, data)

        event_statistics = _parse_event_statistics(d.pop("event_statistics", UNSET))


        provisional = d.pop("provisional", UNSET)

        ladder_rating_out = cls(
            deviation=deviation,
            draws=draws,
            faction=faction,
            games=games,
            ladder=ladder,
            last_played_at=last_played_at,
            loss_rate=loss_rate,
            losses=losses,
            position=position,
            ranking_value=ranking_value,
            rating=rating,
            volatility=volatility,
            win_rate=win_rate,
            wins=wins,
            decay=decay,
            division=division,
            event_statistics=event_statistics,
            provisional=provisional,
        )


        ladder_rating_out.additional_properties = d
        return ladder_rating_out

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
