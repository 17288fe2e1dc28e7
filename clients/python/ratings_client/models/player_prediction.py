from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.loss_range import LossRange
  from ..models.placement_prediction import PlacementPrediction





T = TypeVar("T", bound="PlayerPrediction")



@_attrs_define
class PlayerPrediction:
    """ 
        Attributes:
            faction (None | str):
            player (str):
            rating (float):
            by_placement (list[PlacementPrediction] | None | Unset):
            if_draw (float | None | Unset):
            if_loss (LossRange | None | Unset):
            if_win (float | None | Unset):
            win_probability (float | None | Unset):
     """

    faction: None | str
    player: str
    rating: float
    by_placement: list[PlacementPrediction] | None | Unset = UNSET
    if_draw: float | None | Unset = UNSET
    if_loss: LossRange | None | Unset = UNSET
    if_win: float | None | Unset = UNSET
    win_probability: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.loss_range import LossRange # noqa: PLC0415
        from ..models.placement_prediction import PlacementPrediction # noqa: PLC0415
        faction: None | str
        faction = self.faction

        player = self.player

        rating = self.rating

        by_placement: list[dict[str, Any]] | None | Unset
        if isinstance(self.by_placement, Unset):
            by_placement = UNSET
        elif isinstance(self.by_placement, list):
            by_placement = []
            for by_placement_type_0_item_data in self.by_placement:
                by_placement_type_0_item = by_placement_type_0_item_data.to_dict()
                by_placement.append(by_placement_type_0_item)


        else:
            by_placement = self.by_placement

        if_draw: float | None | Unset
        if isinstance(self.if_draw, Unset):
            if_draw = UNSET
        else:
            if_draw = self.if_draw

        if_loss: dict[str, Any] | None | Unset
        if isinstance(self.if_loss, Unset):
            if_loss = UNSET
        elif isinstance(self.if_loss, LossRange):
            if_loss = self.if_loss.to_dict()
        else:
            if_loss = self.if_loss

        if_win: float | None | Unset
        if isinstance(self.if_win, Unset):
            if_win = UNSET
        else:
            if_win = self.if_win

        win_probability: float | None | Unset
        if isinstance(self.win_probability, Unset):
            win_probability = UNSET
        else:
            win_probability = self.win_probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "faction": faction,
            "player": player,
            "rating": rating,
        })
        if by_placement is not UNSET:
            field_dict["by_placement"] = by_placement
        if if_draw is not UNSET:
            field_dict["if_draw"] = if_draw
        if if_loss is not UNSET:
            field_dict["if_loss"] = if_loss
        if if_win is not UNSET:
            field_dict["if_win"] = if_win
        if win_probability is not UNSET:
            field_dict["win_probability"] = win_probability

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.loss_range import LossRange # noqa: PLC0415
        from ..models.placement_prediction import PlacementPrediction # noqa: PLC0415
        d = dict(src_dict)
        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        player = d.pop("player")

        rating = d.pop("rating")

        def _parse_by_placement(data: object) -> list[PlacementPrediction] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                by_placement_type_0 = []
                _by_placement_type_0 = data
                for by_placement_type_0_item_data in (_by_placement_type_0):
                    by_placement_type_0_item = PlacementPrediction.from_dict(by_placement_type_0_item_data)



                    by_placement_type_0.append(by_placement_type_0_item)

                return by_placement_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PlacementPrediction] | None | Unset, data)

        by_placement = _parse_by_placement(d.pop("by_placement", UNSET))


        def _parse_if_draw(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        if_draw = _parse_if_draw(d.pop("if_draw", UNSET))


        def _parse_if_loss(data: object) -> LossRange | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                if_loss_type_0 = LossRange.from_dict(data)



                return if_loss_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LossRange | None | Unset, data)

        if_loss = _parse_if_loss(d.pop("if_loss", UNSET))


        def _parse_if_win(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        if_win = _parse_if_win(d.pop("if_win", UNSET))


        def _parse_win_probability(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        win_probability = _parse_win_probability(d.pop("win_probability", UNSET))


        player_prediction = cls(
            faction=faction,
            player=player,
            rating=rating,
            by_placement=by_placement,
            if_draw=if_draw,
            if_loss=if_loss,
            if_win=if_win,
            win_probability=win_probability,
        )


        player_prediction.additional_properties = d
        return player_prediction

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
