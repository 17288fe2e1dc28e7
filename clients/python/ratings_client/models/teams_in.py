from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.teams_in_teams import TeamsInTeams





T = TypeVar("T", bound="TeamsIn")



@_attrs_define
class TeamsIn:
    """ 
        Attributes:
            teams (TeamsInTeams):
     """

    teams: TeamsInTeams





    def to_dict(self) -> dict[str, Any]:
        from ..models.teams_in_teams import TeamsInTeams # noqa: PLC0415
        teams = self.teams.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "teams": teams,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.teams_in_teams import TeamsInTeams # noqa: PLC0415
        d = dict(src_dict)
        teams = TeamsInTeams.from_dict(d.pop("teams"))




        teams_in = cls(
            teams=teams,
        )

        return teams_in

