from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.key_in_scopes_item import KeyInScopesItem
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="KeyIn")



@_attrs_define
class KeyIn:
    """ 
        Attributes:
            name (str):
            scopes (list[KeyInScopesItem]):
            communities (list[str] | Unset): Communities, or ["*"] for every community: the key sees a ladder that both its
                ladders and its communities admit, and only its communities' players.
            expires_at (datetime.datetime | None | Unset):
            ladders (list[str] | Unset): Ladder ids, or ["*"] for every ladder.
     """

    name: str
    scopes: list[KeyInScopesItem]
    communities: list[str] | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    ladders: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)



        communities: list[str] | Unset = UNSET
        if not isinstance(self.communities, Unset):
            communities = self.communities



        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        ladders: list[str] | Unset = UNSET
        if not isinstance(self.ladders, Unset):
            ladders = self.ladders




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "scopes": scopes,
        })
        if communities is not UNSET:
            field_dict["communities"] = communities
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if ladders is not UNSET:
            field_dict["ladders"] = ladders

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in (_scopes):
            scopes_item = KeyInScopesItem(scopes_item_data)



            scopes.append(scopes_item)


        communities = cast(list[str], d.pop("communities", UNSET))


        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        ladders = cast(list[str], d.pop("ladders", UNSET))


        key_in = cls(
            name=name,
            scopes=scopes,
            communities=communities,
            expires_at=expires_at,
            ladders=ladders,
        )

        return key_in

