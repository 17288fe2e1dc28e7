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
  from ..models.fit_out import FitOut
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
            archived_at (datetime.datetime | None | Unset): When the ladder was archived (null: it is not); an archived
                ladder is read-only.
            community (str | Unset):  Default: 'default'.
            feed_cursor (int | Unset): The cursor of the ladder's last change-feed item (0: none yet): read the newest items
                from just before it. Default: 0.
            fit (FitOut | None | Unset): ttt and whr ladders: how the fit of the whole history served now ended (null before
                the first game, and on ladders of other systems).
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
    archived_at: datetime.datetime | None | Unset = UNSET
    community: str | Unset = 'default'
    feed_cursor: int | Unset = 0
    fit: FitOut | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.fit_out import FitOut # noqa: PLC0415
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

        archived_at: None | str | Unset
        if isinstance(self.archived_at, Unset):
            archived_at = UNSET
        elif isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        community = self.community

        feed_cursor = self.feed_cursor

        fit: dict[str, Any] | None | Unset
        if isinstance(self.fit, Unset):
            fit = UNSET
        elif isinstance(self.fit, FitOut):
            fit = self.fit.to_dict()
        else:
            fit = self.fit


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
        if archived_at is not UNSET:
            field_dict["archived_at"] = archived_at
        if community is not UNSET:
            field_dict["community"] = community
        if feed_cursor is not UNSET:
            field_dict["feed_cursor"] = feed_cursor
        if fit is not UNSET:
            field_dict["fit"] = fit

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fit_out import FitOut # noqa: PLC0415
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




        def _parse_archived_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)



                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        archived_at = _parse_archived_at(d.pop("archived_at", UNSET))


        community = d.pop("community", UNSET)

        feed_cursor = d.pop("feed_cursor", UNSET)

        def _parse_fit(data: object) -> FitOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fit_type_0 = FitOut.from_dict(data)



                return fit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FitOut | None | Unset, data)

        fit = _parse_fit(d.pop("fit", UNSET))


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
            archived_at=archived_at,
            community=community,
            feed_cursor=feed_cursor,
            fit=fit,
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
