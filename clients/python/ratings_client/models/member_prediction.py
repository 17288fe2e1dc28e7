from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.loss_range import LossRange





T = TypeVar("T", bound="MemberPrediction")



@_attrs_define
class MemberPrediction:
    """ One member of a predicted side: its change if its side wins alone, draws with every
    side, or loses (over which other side wins).

        Attributes:
            faction (None | str):
            if_draw (float | None):
            if_loss (LossRange | None):
            if_win (float | None):
            player (str):
            rating (float):
     """

    faction: None | str
    if_draw: float | None
    if_loss: LossRange | None
    if_win: float | None
    player: str
    rating: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.loss_range import LossRange # noqa: PLC0415
        faction: None | str
        faction = self.faction

        if_draw: float | None
        if_draw = self.if_draw

        if_loss: dict[str, Any] | None
        if isinstance(self.if_loss, LossRange):
            if_loss = self.if_loss.to_dict()
        else:
            if_loss = self.if_loss

        if_win: float | None
        if_win = self.if_win

        player = self.player

        rating = self.rating


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "faction": faction,
            "if_draw": if_draw,
            "if_loss": if_loss,
            "if_win": if_win,
            "player": player,
            "rating": rating,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.loss_range import LossRange # noqa: PLC0415
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


        def _parse_if_loss(data: object) -> LossRange | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                if_loss_type_0 = LossRange.from_dict(data)



                return if_loss_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LossRange | None, data)

        if_loss = _parse_if_loss(d.pop("if_loss"))


        def _parse_if_win(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        if_win = _parse_if_win(d.pop("if_win"))


        player = d.pop("player")

        rating = d.pop("rating")

        member_prediction = cls(
            faction=faction,
            if_draw=if_draw,
            if_loss=if_loss,
            if_win=if_win,
            player=player,
            rating=rating,
        )


        member_prediction.additional_properties = d
        return member_prediction

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
