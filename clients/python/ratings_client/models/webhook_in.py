from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_in_types_type_0_item import WebhookInTypesType0Item
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookIn")



@_attrs_define
class WebhookIn:
    """ 
        Attributes:
            url (str): http(s) URL the items are POSTed to; loopback, private and link-local destinations are refused unless
                RATINGS_WEBHOOK_ALLOWED_HOSTS names their host.
            description (None | str | Unset):
            ladders (list[str] | None | Unset): The ladders it hears of (default: every ladder the caller may read).
            types (list[WebhookInTypesType0Item] | None | Unset): The item types it hears of (default: all).
     """

    url: str
    description: None | str | Unset = UNSET
    ladders: list[str] | None | Unset = UNSET
    types: list[WebhookInTypesType0Item] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        ladders: list[str] | None | Unset
        if isinstance(self.ladders, Unset):
            ladders = UNSET
        elif isinstance(self.ladders, list):
            ladders = self.ladders


        else:
            ladders = self.ladders

        types: list[str] | None | Unset
        if isinstance(self.types, Unset):
            types = UNSET
        elif isinstance(self.types, list):
            types = []
            for types_type_0_item_data in self.types:
                types_type_0_item = types_type_0_item_data.value
                types.append(types_type_0_item)


        else:
            types = self.types


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if ladders is not UNSET:
            field_dict["ladders"] = ladders
        if types is not UNSET:
            field_dict["types"] = types

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_ladders(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ladders_type_0 = cast(list[str], data)

                return ladders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        ladders = _parse_ladders(d.pop("ladders", UNSET))


        def _parse_types(data: object) -> list[WebhookInTypesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                types_type_0 = []
                _types_type_0 = data
                for types_type_0_item_data in (_types_type_0):
                    types_type_0_item = WebhookInTypesType0Item(types_type_0_item_data)



                    types_type_0.append(types_type_0_item)

                return types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookInTypesType0Item] | None | Unset, data)

        types = _parse_types(d.pop("types", UNSET))


        webhook_in = cls(
            url=url,
            description=description,
            ladders=ladders,
            types=types,
        )

        return webhook_in

