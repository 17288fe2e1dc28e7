from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.configuration_params import ConfigurationParams





T = TypeVar("T", bound="Configuration")



@_attrs_define
class Configuration:
    """ 
        Attributes:
            params (ConfigurationParams):
            system (str):
     """

    params: ConfigurationParams
    system: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.configuration_params import ConfigurationParams # noqa: PLC0415
        params = self.params.to_dict()

        system = self.system


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "params": params,
            "system": system,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.configuration_params import ConfigurationParams # noqa: PLC0415
        d = dict(src_dict)
        params = ConfigurationParams.from_dict(d.pop("params"))




        system = d.pop("system")

        configuration = cls(
            params=params,
            system=system,
        )


        configuration.additional_properties = d
        return configuration

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
