from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.balance_in_party_policy import BalanceInPartyPolicy
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
            party_policy (BalanceInPartyPolicy | Unset): `spread` (default): premade players (those in a party of two or
                more) are spread over the sides as evenly as the parties allow, then the most even split is taken; `together`:
                only the split's quality counts, so premades may be stacked on one side. Every party stays on one side under
                both. Default: BalanceInPartyPolicy.SPREAD.
            teams (int | Unset):  Default: 2.
     """

    players: list[BalancePlayerIn]
    parties: list[list[str]] | Unset = UNSET
    party_policy: BalanceInPartyPolicy | Unset = BalanceInPartyPolicy.SPREAD
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



        party_policy: str | Unset = UNSET
        if not isinstance(self.party_policy, Unset):
            party_policy = self.party_policy.value


        teams = self.teams


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "players": players,
        })
        if parties is not UNSET:
            field_dict["parties"] = parties
        if party_policy is not UNSET:
            field_dict["party_policy"] = party_policy
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


        _party_policy = d.pop("party_policy", UNSET)
        party_policy: BalanceInPartyPolicy | Unset
        if isinstance(_party_policy,  Unset):
            party_policy = UNSET
        else:
            party_policy = BalanceInPartyPolicy(_party_policy)




        teams = d.pop("teams", UNSET)

        balance_in = cls(
            players=players,
            parties=parties,
            party_policy=party_policy,
            teams=teams,
        )

        return balance_in

