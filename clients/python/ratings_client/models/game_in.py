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
  from ..models.event_context_in import EventContextIn
  from ..models.game_player_in import GamePlayerIn
  from ..models.team_in import TeamIn





T = TypeVar("T", bound="GameIn")



@_attrs_define
class GameIn:
    """ 
        Attributes:
            id (str):
            ladder (str):
            played_at (datetime.datetime):
            end_year (int | None | Unset):
            event (EventContextIn | None | Unset):
            players (list[GamePlayerIn] | None | Unset):
            rated (bool | Unset):  Default: True.
            teams (list[TeamIn] | None | Unset):
            tournament (None | str | Unset):
     """

    id: str
    ladder: str
    played_at: datetime.datetime
    end_year: int | None | Unset = UNSET
    event: EventContextIn | None | Unset = UNSET
    players: list[GamePlayerIn] | None | Unset = UNSET
    rated: bool | Unset = True
    teams: list[TeamIn] | None | Unset = UNSET
    tournament: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_context_in import EventContextIn # noqa: PLC0415
        from ..models.game_player_in import GamePlayerIn # noqa: PLC0415
        from ..models.team_in import TeamIn # noqa: PLC0415
        id = self.id

        ladder = self.ladder

        played_at = self.played_at.isoformat()

        end_year: int | None | Unset
        if isinstance(self.end_year, Unset):
            end_year = UNSET
        else:
            end_year = self.end_year

        event: dict[str, Any] | None | Unset
        if isinstance(self.event, Unset):
            event = UNSET
        elif isinstance(self.event, EventContextIn):
            event = self.event.to_dict()
        else:
            event = self.event

        players: list[dict[str, Any]] | None | Unset
        if isinstance(self.players, Unset):
            players = UNSET
        elif isinstance(self.players, list):
            players = []
            for players_type_0_item_data in self.players:
                players_type_0_item = players_type_0_item_data.to_dict()
                players.append(players_type_0_item)


        else:
            players = self.players

        rated = self.rated

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


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "ladder": ladder,
            "played_at": played_at,
        })
        if end_year is not UNSET:
            field_dict["end_year"] = end_year
        if event is not UNSET:
            field_dict["event"] = event
        if players is not UNSET:
            field_dict["players"] = players
        if rated is not UNSET:
            field_dict["rated"] = rated
        if teams is not UNSET:
            field_dict["teams"] = teams
        if tournament is not UNSET:
            field_dict["tournament"] = tournament

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_context_in import EventContextIn # noqa: PLC0415
        from ..models.game_player_in import GamePlayerIn # noqa: PLC0415
        from ..models.team_in import TeamIn # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        ladder = d.pop("ladder")

        played_at = datetime.datetime.fromisoformat(d.pop("played_at"))




        def _parse_end_year(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        end_year = _parse_end_year(d.pop("end_year", UNSET))


        def _parse_event(data: object) -> EventContextIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                event_type_0 = EventContextIn.from_dict(data)



                return event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventContextIn | None | Unset, data)

        event = _parse_event(d.pop("event", UNSET))


        def _parse_players(data: object) -> list[GamePlayerIn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                players_type_0 = []
                _players_type_0 = data
                for players_type_0_item_data in (_players_type_0):
                    players_type_0_item = GamePlayerIn.from_dict(players_type_0_item_data)



                    players_type_0.append(players_type_0_item)

                return players_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[GamePlayerIn] | None | Unset, data)

        players = _parse_players(d.pop("players", UNSET))


        rated = d.pop("rated", UNSET)

        def _parse_teams(data: object) -> list[TeamIn] | None | Unset:
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
                    teams_type_0_item = TeamIn.from_dict(teams_type_0_item_data)



                    teams_type_0.append(teams_type_0_item)

                return teams_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TeamIn] | None | Unset, data)

        teams = _parse_teams(d.pop("teams", UNSET))


        def _parse_tournament(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tournament = _parse_tournament(d.pop("tournament", UNSET))


        game_in = cls(
            id=id,
            ladder=ladder,
            played_at=played_at,
            end_year=end_year,
            event=event,
            players=players,
            rated=rated,
            teams=teams,
            tournament=tournament,
        )

        return game_in

