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





T = TypeVar("T", bound="LeaderboardEntry")



@_attrs_define
class LeaderboardEntry:
    """ 
        Attributes:
            deviation (float | None):
            faction (None | str):
            games (int):
            last_played_at (datetime.datetime | None):
            player (str):
            position (int):
            ranking_value (float | None):
            rating (float):
            tiebreak (float | None): What splits equal ratings (Kinzett: total secondary points); null where the system has
                no tiebreak.
            win_rate (float | None):
            country (None | str | Unset):
            decay (DecayOut | None | Unset):
            division (None | str | Unset):
            event_statistics (EventStatisticsOut | None | Unset): On a tournament ladder, the player's tournament statistics
                (`win_rate` is null there); null on a game ladder.
            name (None | str | Unset):
            points (float | None | Unset): A circuit's season board (`best_of` N): the sum of the player's best N events'
                points in the season, by which it ranks; null elsewhere.
            provisional (bool | Unset): Listed only with include_provisional=true. Default: False.
     """

    deviation: float | None
    faction: None | str
    games: int
    last_played_at: datetime.datetime | None
    player: str
    position: int
    ranking_value: float | None
    rating: float
    tiebreak: float | None
    win_rate: float | None
    country: None | str | Unset = UNSET
    decay: DecayOut | None | Unset = UNSET
    division: None | str | Unset = UNSET
    event_statistics: EventStatisticsOut | None | Unset = UNSET
    name: None | str | Unset = UNSET
    points: float | None | Unset = UNSET
    provisional: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.decay_out import DecayOut # noqa: PLC0415
        from ..models.event_statistics_out import EventStatisticsOut # noqa: PLC0415
        deviation: float | None
        deviation = self.deviation

        faction: None | str
        faction = self.faction

        games = self.games

        last_played_at: None | str
        if isinstance(self.last_played_at, datetime.datetime):
            last_played_at = self.last_played_at.isoformat()
        else:
            last_played_at = self.last_played_at

        player = self.player

        position = self.position

        ranking_value: float | None
        ranking_value = self.ranking_value

        rating = self.rating

        tiebreak: float | None
        tiebreak = self.tiebreak

        win_rate: float | None
        win_rate = self.win_rate

        country: None | str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        else:
            country = self.country

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

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        points: float | None | Unset
        if isinstance(self.points, Unset):
            points = UNSET
        else:
            points = self.points

        provisional = self.provisional


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deviation": deviation,
            "faction": faction,
            "games": games,
            "last_played_at": last_played_at,
            "player": player,
            "position": position,
            "ranking_value": ranking_value,
            "rating": rating,
            "tiebreak": tiebreak,
            "win_rate": win_rate,
        })
        if country is not UNSET:
            field_dict["country"] = country
        if decay is not UNSET:
            field_dict["decay"] = decay
        if division is not UNSET:
            field_dict["division"] = division
        if event_statistics is not UNSET:
            field_dict["event_statistics"] = event_statistics
        if name is not UNSET:
            field_dict["name"] = name
        if points is not UNSET:
            field_dict["points"] = points
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


        player = d.pop("player")

        position = d.pop("position")

        def _parse_ranking_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ranking_value = _parse_ranking_value(d.pop("ranking_value"))


        rating = d.pop("rating")

        def _parse_tiebreak(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        tiebreak = _parse_tiebreak(d.pop("tiebreak"))


        def _parse_win_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate = _parse_win_rate(d.pop("win_rate"))


        def _parse_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        country = _parse_country(d.pop("country", UNSET))


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


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_points(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        points = _parse_points(d.pop("points", UNSET))


        provisional = d.pop("provisional", UNSET)

        leaderboard_entry = cls(
            deviation=deviation,
            faction=faction,
            games=games,
            last_played_at=last_played_at,
            player=player,
            position=position,
            ranking_value=ranking_value,
            rating=rating,
            tiebreak=tiebreak,
            win_rate=win_rate,
            country=country,
            decay=decay,
            division=division,
            event_statistics=event_statistics,
            name=name,
            points=points,
            provisional=provisional,
        )


        leaderboard_entry.additional_properties = d
        return leaderboard_entry

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
