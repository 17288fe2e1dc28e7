from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.balance_out_party_policy import BalanceOutPartyPolicy
from typing import cast

if TYPE_CHECKING:
  from ..models.balanced_split import BalancedSplit
  from ..models.balanced_team import BalancedTeam





T = TypeVar("T", bound="BalanceOut")



@_attrs_define
class BalanceOut:
    """ The most even split, and the next best (API.md "Matchmaking").

        Attributes:
            alternatives (list[BalancedSplit]):
            exact (bool):
            ladder (str):
            party_policy (BalanceOutPartyPolicy): The policy applied.
            quality (float):
            teams (list[BalancedTeam]):
     """

    alternatives: list[BalancedSplit]
    exact: bool
    ladder: str
    party_policy: BalanceOutPartyPolicy
    quality: float
    teams: list[BalancedTeam]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.balanced_split import BalancedSplit # noqa: PLC0415
        from ..models.balanced_team import BalancedTeam # noqa: PLC0415
        alternatives = []
        for alternatives_item_data in self.alternatives:
            alternatives_item = alternatives_item_data.to_dict()
            alternatives.append(alternatives_item)



        exact = self.exact

        ladder = self.ladder

        party_policy = self.party_policy.value

        quality = self.quality

        teams = []
        for teams_item_data in self.teams:
            teams_item = teams_item_data.to_dict()
            teams.append(teams_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "alternatives": alternatives,
            "exact": exact,
            "ladder": ladder,
            "party_policy": party_policy,
            "quality": quality,
            "teams": teams,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balanced_split import BalancedSplit # noqa: PLC0415
        from ..models.balanced_team import BalancedTeam # noqa: PLC0415
        d = dict(src_dict)
        alternatives = []
        _alternatives = d.pop("alternatives")
        for alternatives_item_data in (_alternatives):
            alternatives_item = BalancedSplit.from_dict(alternatives_item_data)



            alternatives.append(alternatives_item)


        exact = d.pop("exact")

        ladder = d.pop("ladder")

        party_policy = BalanceOutPartyPolicy(d.pop("party_policy"))




        quality = d.pop("quality")

        teams = []
        _teams = d.pop("teams")
        for teams_item_data in (_teams):
            teams_item = BalancedTeam.from_dict(teams_item_data)



            teams.append(teams_item)


        balance_out = cls(
            alternatives=alternatives,
            exact=exact,
            ladder=ladder,
            party_policy=party_policy,
            quality=quality,
            teams=teams,
        )


        balance_out.additional_properties = d
        return balance_out

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
