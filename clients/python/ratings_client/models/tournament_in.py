from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.standing_in import StandingIn





T = TypeVar("T", bound="TournamentIn")



@_attrs_define
class TournamentIn:
    """ 
        Attributes:
            held_on (datetime.date):
            id (str):
            ladder (str):
            standings (list[StandingIn]):
            class_ (None | str | Unset):
            major (bool | Unset):  Default: False.
            name (None | str | Unset):
            rounds (int | Unset):  Default: 1.
            world_championship (bool | Unset):  Default: False.
     """

    held_on: datetime.date
    id: str
    ladder: str
    standings: list[StandingIn]
    class_: None | str | Unset = UNSET
    major: bool | Unset = False
    name: None | str | Unset = UNSET
    rounds: int | Unset = 1
    world_championship: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        from ..models.standing_in import StandingIn # noqa: PLC0415
        held_on = self.held_on.isoformat()

        id = self.id

        ladder = self.ladder

        standings = []
        for standings_item_data in self.standings:
            standings_item = standings_item_data.to_dict()
            standings.append(standings_item)



        class_: None | str | Unset
        if isinstance(self.class_, Unset):
            class_ = UNSET
        else:
            class_ = self.class_

        major = self.major

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        rounds = self.rounds

        world_championship = self.world_championship


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "held_on": held_on,
            "id": id,
            "ladder": ladder,
            "standings": standings,
        })
        if class_ is not UNSET:
            field_dict["class"] = class_
        if major is not UNSET:
            field_dict["major"] = major
        if name is not UNSET:
            field_dict["name"] = name
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if world_championship is not UNSET:
            field_dict["world_championship"] = world_championship

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.standing_in import StandingIn # noqa: PLC0415
        d = dict(src_dict)
        held_on = datetime.date.fromisoformat(d.pop("held_on"))




        id = d.pop("id")

        ladder = d.pop("ladder")

        standings = []
        _standings = d.pop("standings")
        for standings_item_data in (_standings):
            standings_item = StandingIn.from_dict(standings_item_data)



            standings.append(standings_item)


        def _parse_class_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        class_ = _parse_class_(d.pop("class", UNSET))


        major = d.pop("major", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        rounds = d.pop("rounds", UNSET)

        world_championship = d.pop("world_championship", UNSET)

        tournament_in = cls(
            held_on=held_on,
            id=id,
            ladder=ladder,
            standings=standings,
            class_=class_,
            major=major,
            name=name,
            rounds=rounds,
            world_championship=world_championship,
        )

        return tournament_in

