from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GamePlayerIn")



@_attrs_define
class GamePlayerIn:
    """ 
        Attributes:
            player (str):
            rank (int):
            centres (int | None | Unset):
            eliminated_in (int | None | Unset):
            faction (None | str | Unset):
            weight (float | None | Unset):
     """

    player: str
    rank: int
    centres: int | None | Unset = UNSET
    eliminated_in: int | None | Unset = UNSET
    faction: None | str | Unset = UNSET
    weight: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        player = self.player

        rank = self.rank

        centres: int | None | Unset
        if isinstance(self.centres, Unset):
            centres = UNSET
        else:
            centres = self.centres

        eliminated_in: int | None | Unset
        if isinstance(self.eliminated_in, Unset):
            eliminated_in = UNSET
        else:
            eliminated_in = self.eliminated_in

        faction: None | str | Unset
        if isinstance(self.faction, Unset):
            faction = UNSET
        else:
            faction = self.faction

        weight: float | None | Unset
        if isinstance(self.weight, Unset):
            weight = UNSET
        else:
            weight = self.weight


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "player": player,
            "rank": rank,
        })
        if centres is not UNSET:
            field_dict["centres"] = centres
        if eliminated_in is not UNSET:
            field_dict["eliminated_in"] = eliminated_in
        if faction is not UNSET:
            field_dict["faction"] = faction
        if weight is not UNSET:
            field_dict["weight"] = weight

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player = d.pop("player")

        rank = d.pop("rank")

        def _parse_centres(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        centres = _parse_centres(d.pop("centres", UNSET))


        def _parse_eliminated_in(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        eliminated_in = _parse_eliminated_in(d.pop("eliminated_in", UNSET))


        def _parse_faction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        faction = _parse_faction(d.pop("faction", UNSET))


        def _parse_weight(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        weight = _parse_weight(d.pop("weight", UNSET))


        game_player_in = cls(
            player=player,
            rank=rank,
            centres=centres,
            eliminated_in=eliminated_in,
            faction=faction,
            weight=weight,
        )

        return game_player_in

