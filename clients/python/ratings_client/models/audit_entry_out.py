from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="AuditEntryOut")



@_attrs_define
class AuditEntryOut:
    """ 
        Attributes:
            action (str):
            actor (str):
            at (datetime.datetime):
            community (str):
            id (int):
            ladders (list[str]):
            players (list[str]):
     """

    action: str
    actor: str
    at: datetime.datetime
    community: str
    id: int
    ladders: list[str]
    players: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        action = self.action

        actor = self.actor

        at = self.at.isoformat()

        community = self.community

        id = self.id

        ladders = self.ladders



        players = self.players




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "action": action,
            "actor": actor,
            "at": at,
            "community": community,
            "id": id,
            "ladders": ladders,
            "players": players,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        actor = d.pop("actor")

        at = datetime.datetime.fromisoformat(d.pop("at"))




        community = d.pop("community")

        id = d.pop("id")

        ladders = cast(list[str], d.pop("ladders"))


        players = cast(list[str], d.pop("players"))


        audit_entry_out = cls(
            action=action,
            actor=actor,
            at=at,
            community=community,
            id=id,
            ladders=ladders,
            players=players,
        )


        audit_entry_out.additional_properties = d
        return audit_entry_out

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
