from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.balance_player_in import BalancePlayerIn





T = TypeVar("T", bound="BalanceIn")



@_attrs_define
class BalanceIn:
    """ Players to split into ``teams`` sides, each party (players who queue together) kept
    on one side.

        Attributes:
            players (list[BalancePlayerIn]):
            parties (list[list[str]] | Unset):
            teams (int | Unset):  Default: 2.
     """

    players: list[BalancePlayerIn]
    parties: list[list[str]] | Unset = UNSET
    teams: int | Unset = 2





    def to_dict(self) -> dict[str, Any]:
        from ..models.balance_player_in import BalancePlayerIn # noqa: PLC0415
        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        parties: list[list[str]] | Unset = UNSET
        if not isinstance(self.parties, Unset):
            parties = []
            for parties_item_data in self.parties:
                parties_item = parties_item_data


                parties.append(parties_item)



        teams = self.teams


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "players": players,
        })
        if parties is not UNSET:
            field_dict["parties"] = parties
        if teams is not UNSET:
            field_dict["teams"] = teams

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balance_player_in import BalancePlayerIn # noqa: PLC0415
        d = dict(src_dict)
        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = BalancePlayerIn.from_dict(players_item_data)



            players.append(players_item)


        _parties = d.pop("parties", UNSET)
        parties: list[list[str]] | Unset = UNSET
        if _parties is not UNSET:
            parties = []
            for parties_item_data in _parties:
                parties_item = cast(list[str], parties_item_data)

                parties.append(parties_item)


        teams = d.pop("teams", UNSET)

        balance_in = cls(
            players=players,
            parties=parties,
            teams=teams,
        )

        return balance_in

