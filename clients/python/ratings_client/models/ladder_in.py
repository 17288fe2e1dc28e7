from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ladder_in_params_type_0 import LadderInParamsType0





T = TypeVar("T", bound="LadderIn")



@_attrs_define
class LadderIn:
    """ 
        Attributes:
            id (str):
            system (str):
            community (str | Unset): The community the ladder belongs to, fixed once created: its players' ids and profiles
                are the community's (API.md "Communities"). Default: 'default'.
            params (LadderInParamsType0 | None | Unset):
            title (None | str | Unset):
     """

    id: str
    system: str
    community: str | Unset = 'default'
    params: LadderInParamsType0 | None | Unset = UNSET
    title: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ladder_in_params_type_0 import LadderInParamsType0 # noqa: PLC0415
        id = self.id

        system = self.system

        community = self.community

        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, LadderInParamsType0):
            params = self.params.to_dict()
        else:
            params = self.params

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "system": system,
        })
        if community is not UNSET:
            field_dict["community"] = community
        if params is not UNSET:
            field_dict["params"] = params
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ladder_in_params_type_0 import LadderInParamsType0 # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        system = d.pop("system")

        community = d.pop("community", UNSET)

        def _parse_params(data: object) -> LadderInParamsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = LadderInParamsType0.from_dict(data)



                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LadderInParamsType0 | None | Unset, data)

        params = _parse_params(d.pop("params", UNSET))


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        ladder_in = cls(
            id=id,
            system=system,
            community=community,
            params=params,
            title=title,
        )

        return ladder_in

