from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ladder_patch_params_type_0 import LadderPatchParamsType0





T = TypeVar("T", bound="LadderPatch")



@_attrs_define
class LadderPatch:
    """ New parameters (merged into the current ones) and/or a new title.

        Attributes:
            archived (bool | None | Unset): true archives the ladder (read-only: every write to it is a 409), false makes it
                writable again; alone in the body.
            params (LadderPatchParamsType0 | None | Unset):
            title (None | str | Unset):
     """

    archived: bool | None | Unset = UNSET
    params: LadderPatchParamsType0 | None | Unset = UNSET
    title: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ladder_patch_params_type_0 import LadderPatchParamsType0 # noqa: PLC0415
        archived: bool | None | Unset
        if isinstance(self.archived, Unset):
            archived = UNSET
        else:
            archived = self.archived

        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, LadderPatchParamsType0):
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
        })
        if archived is not UNSET:
            field_dict["archived"] = archived
        if params is not UNSET:
            field_dict["params"] = params
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ladder_patch_params_type_0 import LadderPatchParamsType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_archived(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        archived = _parse_archived(d.pop("archived", UNSET))


        def _parse_params(data: object) -> LadderPatchParamsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = LadderPatchParamsType0.from_dict(data)



                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LadderPatchParamsType0 | None | Unset, data)

        params = _parse_params(d.pop("params", UNSET))


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        ladder_patch = cls(
            archived=archived,
            params=params,
            title=title,
        )

        return ladder_patch

