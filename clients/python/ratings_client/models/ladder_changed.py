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
  from ..models.ladder_changed_params import LadderChangedParams





T = TypeVar("T", bound="LadderChanged")



@_attrs_define
class LadderChanged:
    """ 
        Attributes:
            created_at (datetime.datetime):
            games (int):
            id (str):
            kind (str):
            params (LadderChangedParams):
            players (int):
            recomputed_events (int):
            recomputed_players (int):
            system (str):
            title (None | str):
            tournaments (int):
            updated_at (datetime.datetime):
            feed_cursor (int | Unset): The cursor of the ladder's last change-feed item (0: none yet): read the newest items
                from just before it. Default: 0.
     """

    created_at: datetime.datetime
    games: int
    id: str
    kind: str
    params: LadderChangedParams
    players: int
    recomputed_events: int
    recomputed_players: int
    system: str
    title: None | str
    tournaments: int
    updated_at: datetime.datetime
    feed_cursor: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ladder_changed_params import LadderChangedParams # noqa: PLC0415
        created_at = self.created_at.isoformat()

        games = self.games

        id = self.id

        kind = self.kind

        params = self.params.to_dict()

        players = self.players

        recomputed_events = self.recomputed_events

        recomputed_players = self.recomputed_players

        system = self.system

        title: None | str
        title = self.title

        tournaments = self.tournaments

        updated_at = self.updated_at.isoformat()

        feed_cursor = self.feed_cursor


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "games": games,
            "id": id,
            "kind": kind,
            "params": params,
            "players": players,
            "recomputed_events": recomputed_events,
            "recomputed_players": recomputed_players,
            "system": system,
            "title": title,
            "tournaments": tournaments,
            "updated_at": updated_at,
        })
        if feed_cursor is not UNSET:
            field_dict["feed_cursor"] = feed_cursor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ladder_changed_params import LadderChangedParams # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        games = d.pop("games")

        id = d.pop("id")

        kind = d.pop("kind")

        params = LadderChangedParams.from_dict(d.pop("params"))




        players = d.pop("players")

        recomputed_events = d.pop("recomputed_events")

        recomputed_players = d.pop("recomputed_players")

        system = d.pop("system")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))


        tournaments = d.pop("tournaments")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        feed_cursor = d.pop("feed_cursor", UNSET)

        ladder_changed = cls(
            created_at=created_at,
            games=games,
            id=id,
            kind=kind,
            params=params,
            players=players,
            recomputed_events=recomputed_events,
            recomputed_players=recomputed_players,
            system=system,
            title=title,
            tournaments=tournaments,
            updated_at=updated_at,
            feed_cursor=feed_cursor,
        )


        ladder_changed.additional_properties = d
        return ladder_changed

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
