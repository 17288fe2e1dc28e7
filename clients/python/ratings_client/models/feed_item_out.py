from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.event_ref import EventRef
  from ..models.moved_rating import MovedRating





T = TypeVar("T", bound="FeedItemOut")



@_attrs_define
class FeedItemOut:
    """ 
        Attributes:
            at (datetime.datetime):
            cursor (int): Strictly increasing within the ladder, in commit order.
            event (EventRef | None):
            id (str): Unique and stable: the webhook id of the item.
            ratings (list[MovedRating]):
            type_ (str): game.rated, game.corrected, game.voided, tournament.rated, tournament.corrected, tournament.voided,
                rating.adjusted, ladder.changed, season.started, season.changed, fit.converged (a whole-history ladder's fit
                converged by the background work: the ratings it moved)
     """

    at: datetime.datetime
    cursor: int
    event: EventRef | None
    id: str
    ratings: list[MovedRating]
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_ref import EventRef # noqa: PLC0415
        from ..models.moved_rating import MovedRating # noqa: PLC0415
        at = self.at.isoformat()

        cursor = self.cursor

        event: dict[str, Any] | None
        if isinstance(self.event, EventRef):
            event = self.event.to_dict()
        else:
            event = self.event

        id = self.id

        ratings = []
        for ratings_item_data in self.ratings:
            ratings_item = ratings_item_data.to_dict()
            ratings.append(ratings_item)



        type_ = self.type_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "cursor": cursor,
            "event": event,
            "id": id,
            "ratings": ratings,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_ref import EventRef # noqa: PLC0415
        from ..models.moved_rating import MovedRating # noqa: PLC0415
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        cursor = d.pop("cursor")

        def _parse_event(data: object) -> EventRef | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                event_type_0 = EventRef.from_dict(data)



                return event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventRef | None, data)

        event = _parse_event(d.pop("event"))


        id = d.pop("id")

        ratings = []
        _ratings = d.pop("ratings")
        for ratings_item_data in (_ratings):
            ratings_item = MovedRating.from_dict(ratings_item_data)



            ratings.append(ratings_item)


        type_ = d.pop("type")

        feed_item_out = cls(
            at=at,
            cursor=cursor,
            event=event,
            id=id,
            ratings=ratings,
            type_=type_,
        )


        feed_item_out.additional_properties = d
        return feed_item_out

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
