from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.candidate_in import CandidateIn





T = TypeVar("T", bound="EvaluateIn")



@_attrs_define
class EvaluateIn:
    """ 
        Attributes:
            candidates (list[CandidateIn] | None | Unset): Default: the ladder's own system and parameters.
            from_ (datetime.datetime | None | Unset): Score only games played at or after this time.
            min_games (int | Unset): A pair counts when every player of both sides had this many rated games. Default: 0.
            to (datetime.datetime | None | Unset): Score only games played at or before this time.
     """

    candidates: list[CandidateIn] | None | Unset = UNSET
    from_: datetime.datetime | None | Unset = UNSET
    min_games: int | Unset = 0
    to: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.candidate_in import CandidateIn # noqa: PLC0415
        candidates: list[dict[str, Any]] | None | Unset
        if isinstance(self.candidates, Unset):
            candidates = UNSET
        elif isinstance(self.candidates, list):
            candidates = []
            for candidates_type_0_item_data in self.candidates:
                candidates_type_0_item = candidates_type_0_item_data.to_dict()
                candidates.append(candidates_type_0_item)


        else:
            candidates = self.candidates

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        elif isinstance(self.from_, datetime.datetime):
            from_ = self.from_.isoformat()
        else:
            from_ = self.from_

        min_games = self.min_games

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        elif isinstance(self.to, datetime.datetime):
            to = self.to.isoformat()
        else:
            to = self.to


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if candidates is not UNSET:
            field_dict["candidates"] = candidates
        if from_ is not UNSET:
            field_dict["from"] = from_
        if min_games is not UNSET:
            field_dict["min_games"] = min_games
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.candidate_in import CandidateIn # noqa: PLC0415
        d = dict(src_dict)
        def _parse_candidates(data: object) -> list[CandidateIn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                candidates_type_0 = []
                _candidates_type_0 = data
                for candidates_type_0_item_data in (_candidates_type_0):
                    candidates_type_0_item = CandidateIn.from_dict(candidates_type_0_item_data)



                    candidates_type_0.append(candidates_type_0_item)

                return candidates_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[CandidateIn] | None | Unset, data)

        candidates = _parse_candidates(d.pop("candidates", UNSET))


        def _parse_from_(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_type_0 = datetime.datetime.fromisoformat(data)



                return from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))


        min_games = d.pop("min_games", UNSET)

        def _parse_to(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_type_0 = datetime.datetime.fromisoformat(data)



                return to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        to = _parse_to(d.pop("to", UNSET))


        evaluate_in = cls(
            candidates=candidates,
            from_=from_,
            min_games=min_games,
            to=to,
        )

        return evaluate_in

