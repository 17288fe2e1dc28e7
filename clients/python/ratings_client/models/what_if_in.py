from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.what_if_in_params_type_0 import WhatIfInParamsType0





T = TypeVar("T", bound="WhatIfIn")



@_attrs_define
class WhatIfIn:
    """ 
        Attributes:
            params (None | Unset | WhatIfInParamsType0):
            system (None | str | Unset):
     """

    params: None | Unset | WhatIfInParamsType0 = UNSET
    system: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.what_if_in_params_type_0 import WhatIfInParamsType0 # noqa: PLC0415
        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, WhatIfInParamsType0):
            params = self.params.to_dict()
        else:
            params = self.params

        system: None | str | Unset
        if isinstance(self.system, Unset):
            system = UNSET
        else:
            system = self.system


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if params is not UNSET:
            field_dict["params"] = params
        if system is not UNSET:
            field_dict["system"] = system

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.what_if_in_params_type_0 import WhatIfInParamsType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_params(data: object) -> None | Unset | WhatIfInParamsType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = WhatIfInParamsType0.from_dict(data)



                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WhatIfInParamsType0, data)

        params = _parse_params(d.pop("params", UNSET))


        def _parse_system(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        system = _parse_system(d.pop("system", UNSET))


        what_if_in = cls(
            params=params,
            system=system,
        )

        return what_if_in

