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
  from ..models.leaderboard_entry import LeaderboardEntry





T = TypeVar("T", bound="LeaderboardOut")



@_attrs_define
class LeaderboardOut:
    """ 
        Attributes:
            active_since (datetime.datetime | None): The filter's cutoff (that many days before now, or before `as_of`):
                only ratings last played at or after it are counted; null when no activity filter applies.
            active_within_days (int): The activity filter applied, in days: the query's value, or the system's default when
                the query gives none (Fundox: 30); 0 = none, everyone is counted.
            entries (list[LeaderboardEntry]):
            ladder (str):
            total (int):
            country (None | str | Unset): The national ranking's country (the query's `country`): positions and `total`
                count only the players whose profile names it.
            season (None | str | Unset): The season whose board this is (the query's `season`): states at its end (now while
                it is current), statistics and placement of its events only.
     """

    active_since: datetime.datetime | None
    active_within_days: int
    entries: list[LeaderboardEntry]
    ladder: str
    total: int
    country: None | str | Unset = UNSET
    season: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.leaderboard_entry import LeaderboardEntry # noqa: PLC0415
        active_since: None | str
        if isinstance(self.active_since, datetime.datetime):
            active_since = self.active_since.isoformat()
        else:
            active_since = self.active_since

        active_within_days = self.active_within_days

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)



        ladder = self.ladder

        total = self.total

        country: None | str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        else:
            country = self.country

        season: None | str | Unset
        if isinstance(self.season, Unset):
            season = UNSET
        else:
            season = self.season


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "active_since": active_since,
            "active_within_days": active_within_days,
            "entries": entries,
            "ladder": ladder,
            "total": total,
        })
        if country is not UNSET:
            field_dict["country"] = country
        if season is not UNSET:
            field_dict["season"] = season

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_entry import LeaderboardEntry # noqa: PLC0415
        d = dict(src_dict)
        def _parse_active_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                active_since_type_0 = datetime.datetime.fromisoformat(data)



                return active_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        active_since = _parse_active_since(d.pop("active_since"))


        active_within_days = d.pop("active_within_days")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in (_entries):
            entries_item = LeaderboardEntry.from_dict(entries_item_data)



            entries.append(entries_item)


        ladder = d.pop("ladder")

        total = d.pop("total")

        def _parse_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        country = _parse_country(d.pop("country", UNSET))


        def _parse_season(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        season = _parse_season(d.pop("season", UNSET))


        leaderboard_out = cls(
            active_since=active_since,
            active_within_days=active_within_days,
            entries=entries,
            ladder=ladder,
            total=total,
            country=country,
            season=season,
        )


        leaderboard_out.additional_properties = d
        return leaderboard_out

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
