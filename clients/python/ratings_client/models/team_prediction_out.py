from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.team_pair_prediction import TeamPairPrediction
  from ..models.team_prediction import TeamPrediction





T = TypeVar("T", bound="TeamPredictionOut")



@_attrs_define
class TeamPredictionOut:
    """ ``POST /predictions`` with ``teams`` (API.md "Teams").

        Attributes:
            ladder (str):
            pairs (list[TeamPairPrediction]):
            quality (float | None):
            teams (list[TeamPrediction]):
     """

    ladder: str
    pairs: list[TeamPairPrediction]
    quality: float | None
    teams: list[TeamPrediction]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.team_pair_prediction import TeamPairPrediction # noqa: PLC0415
        from ..models.team_prediction import TeamPrediction # noqa: PLC0415
        ladder = self.ladder

        pairs = []
        for pairs_item_data in self.pairs:
            pairs_item = pairs_item_data.to_dict()
            pairs.append(pairs_item)



        quality: float | None
        quality = self.quality

        teams = []
        for teams_item_data in self.teams:
            teams_item = teams_item_data.to_dict()
            teams.append(teams_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ladder": ladder,
            "pairs": pairs,
            "quality": quality,
            "teams": teams,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.team_pair_prediction import TeamPairPrediction # noqa: PLC0415
        from ..models.team_prediction import TeamPrediction # noqa: PLC0415
        d = dict(src_dict)
        ladder = d.pop("ladder")

        pairs = []
        _pairs = d.pop("pairs")
        for pairs_item_data in (_pairs):
            pairs_item = TeamPairPrediction.from_dict(pairs_item_data)



            pairs.append(pairs_item)


        def _parse_quality(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        quality = _parse_quality(d.pop("quality"))


        teams = []
        _teams = d.pop("teams")
        for teams_item_data in (_teams):
            teams_item = TeamPrediction.from_dict(teams_item_data)



            teams.append(teams_item)


        team_prediction_out = cls(
            ladder=ladder,
            pairs=pairs,
            quality=quality,
            teams=teams,
        )


        team_prediction_out.additional_properties = d
        return team_prediction_out

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
