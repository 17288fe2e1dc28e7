from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.pair_prediction import PairPrediction
  from ..models.player_prediction import PlayerPrediction





T = TypeVar("T", bound="PredictionOut")



@_attrs_define
class PredictionOut:
    """ 
        Attributes:
            ladder (str):
            pairs (list[PairPrediction]):
            players (list[PlayerPrediction]):
            quality (float | None | Unset):
     """

    ladder: str
    pairs: list[PairPrediction]
    players: list[PlayerPrediction]
    quality: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pair_prediction import PairPrediction # noqa: PLC0415
        from ..models.player_prediction import PlayerPrediction # noqa: PLC0415
        ladder = self.ladder

        pairs = []
        for pairs_item_data in self.pairs:
            pairs_item = pairs_item_data.to_dict()
            pairs.append(pairs_item)



        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        quality: float | None | Unset
        if isinstance(self.quality, Unset):
            quality = UNSET
        else:
            quality = self.quality


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ladder": ladder,
            "pairs": pairs,
            "players": players,
        })
        if quality is not UNSET:
            field_dict["quality"] = quality

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pair_prediction import PairPrediction # noqa: PLC0415
        from ..models.player_prediction import PlayerPrediction # noqa: PLC0415
        d = dict(src_dict)
        ladder = d.pop("ladder")

        pairs = []
        _pairs = d.pop("pairs")
        for pairs_item_data in (_pairs):
            pairs_item = PairPrediction.from_dict(pairs_item_data)



            pairs.append(pairs_item)


        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = PlayerPrediction.from_dict(players_item_data)



            players.append(players_item)


        def _parse_quality(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        quality = _parse_quality(d.pop("quality", UNSET))


        prediction_out = cls(
            ladder=ladder,
            pairs=pairs,
            players=players,
            quality=quality,
        )


        prediction_out.additional_properties = d
        return prediction_out

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
