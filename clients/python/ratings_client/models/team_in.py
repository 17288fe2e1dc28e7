from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.team_player_in import TeamPlayerIn





T = TypeVar("T", bound="TeamIn")



@_attrs_define
class TeamIn:
    """ One side of a team game: a label unique in the game (default its position, "1",
    "2", ...), its rank (1 is best, equal ranks draw) and its members.

        Attributes:
            players (list[TeamPlayerIn]):
            rank (int):
            team (None | str | Unset):
     """

    players: list[TeamPlayerIn]
    rank: int
    team: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.team_player_in import TeamPlayerIn # noqa: PLC0415
        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        rank = self.rank

        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "players": players,
            "rank": rank,
        })
        if team is not UNSET:
            field_dict["team"] = team

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.team_player_in import TeamPlayerIn # noqa: PLC0415
        d = dict(src_dict)
        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = TeamPlayerIn.from_dict(players_item_data)



            players.append(players_item)


        rank = d.pop("rank")

        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))


        team_in = cls(
            players=players,
            rank=rank,
            team=team,
        )

        return team_in

