from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_created_status import WebhookCreatedStatus
from typing import cast
import datetime






T = TypeVar("T", bound="WebhookCreated")



@_attrs_define
class WebhookCreated:
    """ 
        Attributes:
            created_at (datetime.datetime):
            description (None | str):
            disabled_at (datetime.datetime | None):
            failing_since (datetime.datetime | None):
            id (str):
            ladders (list[str] | None):
            secret (str): whsec_ + base64 of the signing key: shown only here.
            status (WebhookCreatedStatus): failing: an item exhausted its retries, nothing is sent until a replay; disabled:
                the endpoint answered 410 Gone.
            types (list[str] | None):
            url (str):
     """

    created_at: datetime.datetime
    description: None | str
    disabled_at: datetime.datetime | None
    failing_since: datetime.datetime | None
    id: str
    ladders: list[str] | None
    secret: str
    status: WebhookCreatedStatus
    types: list[str] | None
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        id = self.id

        ladders: list[str] | None
        if isinstance(self.ladders, list):
            ladders = self.ladders


        else:
            ladders = self.ladders

        secret = self.secret

        status = self.status.value

        types: list[str] | None
        if isinstance(self.types, list):
            types = self.types


        else:
            types = self.types

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "description": description,
            "disabled_at": disabled_at,
            "failing_since": failing_since,
            "id": id,
            "ladders": ladders,
            "secret": secret,
            "status": status,
            "types": types,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)



                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at"))


        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)



                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))


        id = d.pop("id")

        def _parse_ladders(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ladders_type_0 = cast(list[str], data)

                return ladders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        ladders = _parse_ladders(d.pop("ladders"))


        secret = d.pop("secret")

        status = WebhookCreatedStatus(d.pop("status"))




        def _parse_types(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                types_type_0 = cast(list[str], data)

                return types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        types = _parse_types(d.pop("types"))


        url = d.pop("url")

        webhook_created = cls(
            created_at=created_at,
            description=description,
            disabled_at=disabled_at,
            failing_since=failing_since,
            id=id,
            ladders=ladders,
            secret=secret,
            status=status,
            types=types,
            url=url,
        )


        webhook_created.additional_properties = d
        return webhook_created

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
