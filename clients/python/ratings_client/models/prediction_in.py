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
  from ..models.prediction_player_in import PredictionPlayerIn
  from ..models.prediction_team_in import PredictionTeamIn





T = TypeVar("T", bound="PredictionIn")



@_attrs_define
class PredictionIn:
    """ 
        Attributes:
            ladder (str):
            class_ (None | str | Unset):
            event (EventContextIn | None | Unset):
            held_on (datetime.date | None | Unset):
            placements (list[int] | None | Unset):
            players (list[PredictionPlayerIn] | None | Unset):
            rounds (int | Unset):  Default: 1.
            size (int | None | Unset):
            teams (list[PredictionTeamIn] | None | Unset):
            world_championship (bool | Unset):  Default: False.
     """

    ladder: str
    class_: None | str | Unset = UNSET
    event: EventContextIn | None | Unset = UNSET
    held_on: datetime.date | None | Unset = UNSET
    placements: list[int] | None | Unset = UNSET
    players: list[PredictionPlayerIn] | None | Unset = UNSET
    rounds: int | Unset = 1
    size: int | None | Unset = UNSET
    teams: list[PredictionTeamIn] | None | Unset = UNSET
    world_championship: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_context_in import EventContextIn # noqa: PLC0415
        from ..models.prediction_player_in import PredictionPlayerIn # noqa: PLC0415
        from ..models.prediction_team_in import PredictionTeamIn # noqa: PLC0415
        ladder = self.ladder

        class_: None | str | Unset
        if isinstance(self.class_, Unset):
            class_ = UNSET
        else:
            class_ = self.class_

        event: dict[str, Any] | None | Unset
        if isinstance(self.event, Unset):
            event = UNSET
        elif isinstance(self.event, EventContextIn):
            event = self.event.to_dict()
        else:
            event = self.event

        held_on: None | str | Unset
        if isinstance(self.held_on, Unset):
            held_on = UNSET
        elif isinstance(self.held_on, datetime.date):
            held_on = self.held_on.isoformat()
        else:
            held_on = self.held_on

        placements: list[int] | None | Unset
        if isinstance(self.placements, Unset):
            placements = UNSET
        elif isinstance(self.placements, list):
            placements = self.placements


        else:
            placements = self.placements

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

        rounds = self.rounds

        size: int | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        else:
            size = self.size

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

        world_championship = self.world_championship


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ladder": ladder,
        })
        if class_ is not UNSET:
            field_dict["class"] = class_
        if event is not UNSET:
            field_dict["event"] = event
        if held_on is not UNSET:
            field_dict["held_on"] = held_on
        if placements is not UNSET:
            field_dict["placements"] = placements
        if players is not UNSET:
            field_dict["players"] = players
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if size is not UNSET:
            field_dict["size"] = size
        if teams is not UNSET:
            field_dict["teams"] = teams
        if world_championship is not UNSET:
            field_dict["world_championship"] = world_championship

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_context_in import EventContextIn # noqa: PLC0415
        from ..models.prediction_player_in import PredictionPlayerIn # noqa: PLC0415
        from ..models.prediction_team_in import PredictionTeamIn # noqa: PLC0415
        d = dict(src_dict)
        ladder = d.pop("ladder")

        def _parse_class_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        class_ = _parse_class_(d.pop("class", UNSET))


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


        def _parse_held_on(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                held_on_type_0 = datetime.date.fromisoformat(data)



                return held_on_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        held_on = _parse_held_on(d.pop("held_on", UNSET))


        def _parse_placements(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                placements_type_0 = cast(list[int], data)

                return placements_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        placements = _parse_placements(d.pop("placements", UNSET))


        def _parse_players(data: object) -> list[PredictionPlayerIn] | None | Unset:
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
                    players_type_0_item = PredictionPlayerIn.from_dict(players_type_0_item_data)



                    players_type_0.append(players_type_0_item)

                return players_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PredictionPlayerIn] | None | Unset, data)

        players = _parse_players(d.pop("players", UNSET))


        rounds = d.pop("rounds", UNSET)

        def _parse_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        size = _parse_size(d.pop("size", UNSET))


        def _parse_teams(data: object) -> list[PredictionTeamIn] | None | Unset:
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
                    teams_type_0_item = PredictionTeamIn.from_dict(teams_type_0_item_data)



                    teams_type_0.append(teams_type_0_item)

                return teams_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PredictionTeamIn] | None | Unset, data)

        teams = _parse_teams(d.pop("teams", UNSET))


        world_championship = d.pop("world_championship", UNSET)

        prediction_in = cls(
            ladder=ladder,
            class_=class_,
            event=event,
            held_on=held_on,
            placements=placements,
            players=players,
            rounds=rounds,
            size=size,
            teams=teams,
            world_championship=world_championship,
        )

        return prediction_in

