from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="FitOut")



@_attrs_define
class FitOut:
    """ How a whole-history ladder's last fit ended (API.md "Whole-history and large-field
    systems").

        Attributes:
            at (datetime.datetime): When the fit was made (the write that made it).
            converged (bool): The last sweep moved no estimate by more than the system's tolerance.
            max_step (float): The last sweep's largest move of an estimate.
            sweeps (int): Sweeps the last fit made.
     """

    at: datetime.datetime
    converged: bool
    max_step: float
    sweeps: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        converged = self.converged

        max_step = self.max_step

        sweeps = self.sweeps


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "converged": converged,
            "max_step": max_step,
            "sweeps": sweeps,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        converged = d.pop("converged")

        max_step = d.pop("max_step")

        sweeps = d.pop("sweeps")

        fit_out = cls(
            at=at,
            converged=converged,
            max_step=max_step,
            sweeps=sweeps,
        )


        fit_out.additional_properties = d
        return fit_out

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
