from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="OpponentOut")



@_attrs_define
class OpponentOut:
    """ A rated player to meet, with the player's chance against it and the player's own
    change if it wins, draws (null where draws give nothing) or loses (null on whole-history
    ladders, ttt and whr: a result there moves the whole fit, known only by refitting it).

        Attributes:
            faction (None | str):
            if_draw (float | None):
            if_loss (float | None):
            if_win (float | None):
            player (str):
            quality (float):
            rating (float):
            win_probability (float):
     """

    faction: None | str
    if_draw: float | None
    if_loss: float | None
    if_win: float | None
    player: str
    quality: float
    rating: float
    win_probability: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        faction: None | str
        faction = self.faction

        if_draw: float | None
        if_draw = self.if_draw

        if_loss: float | None
        if_loss = self.if_loss

        if_win: float | None
        if_win = self.if_win

        player = self.player

        quality = self.quality

        rating = self.rating

        win_probability = self.win_probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "faction": faction,
            "if_draw": if_draw,
            "if_loss": if_loss,
            "if_win": if_win,
            "player": player,
            "quality": quality,
            "rating": rating,
            "win_probability": win_probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        def _parse_if_draw(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        if_draw = _parse_if_draw(d.pop("if_draw"))


        def _parse_if_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        if_loss = _parse_if_loss(d.pop("if_loss"))


        def _parse_if_win(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        if_win = _parse_if_win(d.pop("if_win"))


        player = d.pop("player")

        quality = d.pop("quality")

        rating = d.pop("rating")

        win_probability = d.pop("win_probability")

        opponent_out = cls(
            faction=faction,
            if_draw=if_draw,
            if_loss=if_loss,
            if_win=if_win,
            player=player,
            quality=quality,
            rating=rating,
            win_probability=win_probability,
        )


        opponent_out.additional_properties = d
        return opponent_out

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
