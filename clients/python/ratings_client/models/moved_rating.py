from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.rating_entry import RatingEntry





T = TypeVar("T", bound="MovedRating")



@_attrs_define
class MovedRating:
    """ 
        Attributes:
            after (None | RatingEntry): null: the write removed the rating (every result it had was voided)
            before (None | RatingEntry): null: the write rated the player first
            faction (None | str):
            player (str):
     """

    after: None | RatingEntry
    before: None | RatingEntry
    faction: None | str
    player: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rating_entry import RatingEntry # noqa: PLC0415
        after: dict[str, Any] | None
        if isinstance(self.after, RatingEntry):
            after = self.after.to_dict()
        else:
            after = self.after

        before: dict[str, Any] | None
        if isinstance(self.before, RatingEntry):
            before = self.before.to_dict()
        else:
            before = self.before

        faction: None | str
        faction = self.faction

        player = self.player


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "after": after,
            "before": before,
            "faction": faction,
            "player": player,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rating_entry import RatingEntry # noqa: PLC0415
        d = dict(src_dict)
        def _parse_after(data: object) -> None | RatingEntry:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                after_type_0 = RatingEntry.from_dict(data)



                return after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RatingEntry, data)

        after = _parse_after(d.pop("after"))


        def _parse_before(data: object) -> None | RatingEntry:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                before_type_0 = RatingEntry.from_dict(data)



                return before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RatingEntry, data)

        before = _parse_before(d.pop("before"))


        def _parse_faction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        faction = _parse_faction(d.pop("faction"))


        player = d.pop("player")

        moved_rating = cls(
            after=after,
            before=before,
            faction=faction,
            player=player,
        )


        moved_rating.additional_properties = d
        return moved_rating

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
