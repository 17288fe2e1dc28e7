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
  from ..models.change_out import ChangeOut





T = TypeVar("T", bound="TournamentOut")



@_attrs_define
class TournamentOut:
    """ 
        Attributes:
            changes (list[ChangeOut]):
            held_on (datetime.date):
            id (str):
            ladder (str):
            name (None | str):
            seq (int):
            recomputed_events (int | Unset):  Default: 0.
            recomputed_players (int | Unset):  Default: 0.
            version (int | Unset): The stored result's version: 1, then one more at each correction (PUT) and void (DELETE).
                Its ETag header names it; PUT and DELETE honour If-Match. Default: 1.
            voided (bool | Unset):  Default: False.
     """

    changes: list[ChangeOut]
    held_on: datetime.date
    id: str
    ladder: str
    name: None | str
    seq: int
    recomputed_events: int | Unset = 0
    recomputed_players: int | Unset = 0
    version: int | Unset = 1
    voided: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change_out import ChangeOut # noqa: PLC0415
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)



        held_on = self.held_on.isoformat()

        id = self.id

        ladder = self.ladder

        name: None | str
        name = self.name

        seq = self.seq

        recomputed_events = self.recomputed_events

        recomputed_players = self.recomputed_players

        version = self.version

        voided = self.voided


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "changes": changes,
            "held_on": held_on,
            "id": id,
            "ladder": ladder,
            "name": name,
            "seq": seq,
        })
        if recomputed_events is not UNSET:
            field_dict["recomputed_events"] = recomputed_events
        if recomputed_players is not UNSET:
            field_dict["recomputed_players"] = recomputed_players
        if version is not UNSET:
            field_dict["version"] = version
        if voided is not UNSET:
            field_dict["voided"] = voided

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_out import ChangeOut # noqa: PLC0415
        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in (_changes):
            changes_item = ChangeOut.from_dict(changes_item_data)



            changes.append(changes_item)


        held_on = datetime.date.fromisoformat(d.pop("held_on"))




        id = d.pop("id")

        ladder = d.pop("ladder")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        seq = d.pop("seq")

        recomputed_events = d.pop("recomputed_events", UNSET)

        recomputed_players = d.pop("recomputed_players", UNSET)

        version = d.pop("version", UNSET)

        voided = d.pop("voided", UNSET)

        tournament_out = cls(
            changes=changes,
            held_on=held_on,
            id=id,
            ladder=ladder,
            name=name,
            seq=seq,
            recomputed_events=recomputed_events,
            recomputed_players=recomputed_players,
            version=version,
            voided=voided,
        )


        tournament_out.additional_properties = d
        return tournament_out

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
