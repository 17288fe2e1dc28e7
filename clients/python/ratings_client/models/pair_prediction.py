from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PairPrediction")



@_attrs_define
class PairPrediction:
    """ 
        Attributes:
            if_draw (float | None):
            if_loss (float):
            if_win (float):
            opponent (str):
            player (str):
            win_probability (float | None):
     """

    if_draw: float | None
    if_loss: float
    if_win: float
    opponent: str
    player: str
    win_probability: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        if_draw: float | None
        if_draw = self.if_draw

        if_loss = self.if_loss

        if_win = self.if_win

        opponent = self.opponent

        player = self.player

        win_probability: float | None
        win_probability = self.win_probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "if_draw": if_draw,
            "if_loss": if_loss,
            "if_win": if_win,
            "opponent": opponent,
            "player": player,
            "win_probability": win_probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_if_draw(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        if_draw = _parse_if_draw(d.pop("if_draw"))


        if_loss = d.pop("if_loss")

        if_win = d.pop("if_win")

        opponent = d.pop("opponent")

        player = d.pop("player")

        def _parse_win_probability(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_probability = _parse_win_probability(d.pop("win_probability"))


        pair_prediction = cls(
            if_draw=if_draw,
            if_loss=if_loss,
            if_win=if_win,
            opponent=opponent,
            player=player,
            win_probability=win_probability,
        )


        pair_prediction.additional_properties = d
        return pair_prediction

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
