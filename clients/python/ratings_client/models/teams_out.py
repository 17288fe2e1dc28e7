from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.teams_out_teams import TeamsOutTeams





T = TypeVar("T", bound="TeamsOut")



@_attrs_define
class TeamsOut:
    """ 
        Attributes:
            ladder (str):
            teams (TeamsOutTeams):
            tournament (str):
     """

    ladder: str
    teams: TeamsOutTeams
    tournament: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.teams_out_teams import TeamsOutTeams # noqa: PLC0415
        ladder = self.ladder

        teams = self.teams.to_dict()

        tournament = self.tournament


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ladder": ladder,
            "teams": teams,
            "tournament": tournament,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.teams_out_teams import TeamsOutTeams # noqa: PLC0415
        d = dict(src_dict)
        ladder = d.pop("ladder")

        teams = TeamsOutTeams.from_dict(d.pop("teams"))




        tournament = d.pop("tournament")

        teams_out = cls(
            ladder=ladder,
            teams=teams,
            tournament=tournament,
        )


        teams_out.additional_properties = d
        return teams_out

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
