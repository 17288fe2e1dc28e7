from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.balanced_team import BalancedTeam





T = TypeVar("T", bound="BalancedSplit")



@_attrs_define
class BalancedSplit:
    """ 
        Attributes:
            quality (float):
            teams (list[BalancedTeam]):
     """

    quality: float
    teams: list[BalancedTeam]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.balanced_team import BalancedTeam # noqa: PLC0415
        quality = self.quality

        teams = []
        for teams_item_data in self.teams:
            teams_item = teams_item_data.to_dict()
            teams.append(teams_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "quality": quality,
            "teams": teams,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balanced_team import BalancedTeam # noqa: PLC0415
        d = dict(src_dict)
        quality = d.pop("quality")

        teams = []
        _teams = d.pop("teams")
        for teams_item_data in (_teams):
            teams_item = BalancedTeam.from_dict(teams_item_data)



            teams.append(teams_item)


        balanced_split = cls(
            quality=quality,
            teams=teams,
        )


        balanced_split.additional_properties = d
        return balanced_split

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
