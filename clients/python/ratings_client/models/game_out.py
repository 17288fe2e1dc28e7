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
  from ..models.change_out import ChangeOut
  from ..models.game_out_teams_type_0_item import GameOutTeamsType0Item





T = TypeVar("T", bound="GameOut")



@_attrs_define
class GameOut:
    """ 
        Attributes:
            changes (list[ChangeOut]):
            id (str):
            ladder (str):
            played_at (datetime.datetime):
            rated (bool):
            seq (int):
            recomputed_events (int | Unset):  Default: 0.
            recomputed_players (int | Unset):  Default: 0.
            teams (list[GameOutTeamsType0Item] | None | Unset):
            tournament (None | str | Unset):
            version (int | Unset): The stored result's version: 1, then one more at each correction (PUT) and void (DELETE).
                Its ETag header names it; PUT and DELETE honour If-Match. Default: 1.
            voided (bool | Unset):  Default: False.
     """

    changes: list[ChangeOut]
    id: str
    ladder: str
    played_at: datetime.datetime
    rated: bool
    seq: int
    recomputed_events: int | Unset = 0
    recomputed_players: int | Unset = 0
    teams: list[GameOutTeamsType0Item] | None | Unset = UNSET
    tournament: None | str | Unset = UNSET
    version: int | Unset = 1
    voided: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change_out import ChangeOut # noqa: PLC0415
        from ..models.game_out_teams_type_0_item import GameOutTeamsType0Item # noqa: PLC0415
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)



        id = self.id

        ladder = self.ladder

        played_at = self.played_at.isoformat()

        rated = self.rated

        seq = self.seq

        recomputed_events = self.recomputed_events

        recomputed_players = self.recomputed_players

        teams: list[dict[str, Any]] | None | Unset
        if isinstance(self.teams, Unset):
            teams = UNSET
        elif isinstance(self.teams, list):
            teams = []
            for teams_type_0_item_data in self.teams:
                teams_type_0_item = teams_type_0_item_data.to_dict()
                teams.append(teams_type_0_item)


        else:
            teams = self.teams

        tournament: None | str | Unset
        if isinstance(self.tournament, Unset):
            tournament = UNSET
        else:
            tournament = self.tournament

        version = self.version

        voided = self.voided


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "changes": changes,
            "id": id,
            "ladder": ladder,
            "played_at": played_at,
            "rated": rated,
            "seq": seq,
        })
        if recomputed_events is not UNSET:
            field_dict["recomputed_events"] = recomputed_events
        if recomputed_players is not UNSET:
            field_dict["recomputed_players"] = recomputed_players
        if teams is not UNSET:
            field_dict["teams"] = teams
        if tournament is not UNSET:
            field_dict["tournament"] = tournament
        if version is not UNSET:
            field_dict["version"] = version
        if voided is not UNSET:
            field_dict["voided"] = voided

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_out import ChangeOut # noqa: PLC0415
        from ..models.game_out_teams_type_0_item import GameOutTeamsType0Item # noqa: PLC0415
        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in (_changes):
            changes_item = ChangeOut.from_dict(changes_item_data)



            changes.append(changes_item)


        id = d.pop("id")

        ladder = d.pop("ladder")

        played_at = datetime.datetime.fromisoformat(d.pop("played_at"))




        rated = d.pop("rated")

        seq = d.pop("seq")

        recomputed_events = d.pop("recomputed_events", UNSET)

        recomputed_players = d.pop("recomputed_players", UNSET)

        def _parse_teams(data: object) -> list[GameOutTeamsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                teams_type_0 = []
                _teams_type_0 = data
                for teams_type_0_item_data in (_teams_type_0):
                    teams_type_0_item = GameOutTeamsType0Item.from_dict(teams_type_0_item_data)



                    teams_type_0.append(teams_type_0_item)

                return teams_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[GameOutTeamsType0Item] | None | Unset, data)

        teams = _parse_teams(d.pop("teams", UNSET))


        def _parse_tournament(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tournament = _parse_tournament(d.pop("tournament", UNSET))


        version = d.pop("version", UNSET)

        voided = d.pop("voided", UNSET)

        game_out = cls(
            changes=changes,
            id=id,
            ladder=ladder,
            played_at=played_at,
            rated=rated,
            seq=seq,
            recomputed_events=recomputed_events,
            recomputed_players=recomputed_players,
            teams=teams,
            tournament=tournament,
            version=version,
            voided=voided,
        )


        game_out.additional_properties = d
        return game_out

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
