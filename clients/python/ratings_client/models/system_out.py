from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.system_out_kind import SystemOutKind
from ..models.system_out_rank_by import SystemOutRankBy
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.system_out_params import SystemOutParams





T = TypeVar("T", bound="SystemOut")



@_attrs_define
class SystemOut:
    """ 
        Attributes:
            default_active_within_days (int | None):
            description (str):
            duel (bool):
            id (str):
            kind (SystemOutKind):
            params (SystemOutParams):
            per_faction (bool):
            rank_by (SystemOutRankBy):
            sources (list[str]):
            title (str):
            sides (bool | Unset):  Default: False.
            weights (bool | Unset):  Default: False.
     """

    default_active_within_days: int | None
    description: str
    duel: bool
    id: str
    kind: SystemOutKind
    params: SystemOutParams
    per_faction: bool
    rank_by: SystemOutRankBy
    sources: list[str]
    title: str
    sides: bool | Unset = False
    weights: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.system_out_params import SystemOutParams # noqa: PLC0415
        default_active_within_days: int | None
        default_active_within_days = self.default_active_within_days

        description = self.description

        duel = self.duel

        id = self.id

        kind = self.kind.value

        params = self.params.to_dict()

        per_faction = self.per_faction

        rank_by = self.rank_by.value

        sources = self.sources



        title = self.title

        sides = self.sides

        weights = self.weights


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "default_active_within_days": default_active_within_days,
            "description": description,
            "duel": duel,
            "id": id,
            "kind": kind,
            "params": params,
            "per_faction": per_faction,
            "rank_by": rank_by,
            "sources": sources,
            "title": title,
        })
        if sides is not UNSET:
            field_dict["sides"] = sides
        if weights is not UNSET:
            field_dict["weights"] = weights

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.system_out_params import SystemOutParams # noqa: PLC0415
        d = dict(src_dict)
        def _parse_default_active_within_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        default_active_within_days = _parse_default_active_within_days(d.pop("default_active_within_days"))


        description = d.pop("description")

        duel = d.pop("duel")

        id = d.pop("id")

        kind = SystemOutKind(d.pop("kind"))




        params = SystemOutParams.from_dict(d.pop("params"))




        per_faction = d.pop("per_faction")

        rank_by = SystemOutRankBy(d.pop("rank_by"))




        sources = cast(list[str], d.pop("sources"))


        title = d.pop("title")

        sides = d.pop("sides", UNSET)

        weights = d.pop("weights", UNSET)

        system_out = cls(
            default_active_within_days=default_active_within_days,
            description=description,
            duel=duel,
            id=id,
            kind=kind,
            params=params,
            per_faction=per_faction,
            rank_by=rank_by,
            sources=sources,
            title=title,
            sides=sides,
            weights=weights,
        )


        system_out.additional_properties = d
        return system_out

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
