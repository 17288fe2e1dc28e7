from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.candidate_in_params_type_0 import CandidateInParamsType0





T = TypeVar("T", bound="CandidateIn")



@_attrs_define
class CandidateIn:
    """ A system and parameters to evaluate. ``system`` defaults to the ladder's; the ladder's
    own system keeps the ladder's parameters under ``params``, another starts from its
    defaults (as a what-if does).

        Attributes:
            label (None | str | Unset):
            params (CandidateInParamsType0 | None | Unset):
            system (None | str | Unset):
     """

    label: None | str | Unset = UNSET
    params: CandidateInParamsType0 | None | Unset = UNSET
    system: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.candidate_in_params_type_0 import CandidateInParamsType0 # noqa: PLC0415
        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, CandidateInParamsType0):
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
        if label is not UNSET:
            field_dict["label"] = label
        if params is not UNSET:
            field_dict["params"] = params
        if system is not UNSET:
            field_dict["system"] = system

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.candidate_in_params_type_0 import CandidateInParamsType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))


        def _parse_params(data: object) -> CandidateInParamsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = CandidateInParamsType0.from_dict(data)



                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CandidateInParamsType0 | None | Unset, data)

        params = _parse_params(d.pop("params", UNSET))


        def _parse_system(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        system = _parse_system(d.pop("system", UNSET))


        candidate_in = cls(
            label=label,
            params=params,
            system=system,
        )

        return candidate_in

