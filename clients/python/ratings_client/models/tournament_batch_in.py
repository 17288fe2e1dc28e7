from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.tournament_in import TournamentIn





T = TypeVar("T", bound="TournamentBatchIn")



@_attrs_define
class TournamentBatchIn:
    """ 
        Attributes:
            tournaments (list[TournamentIn]):
     """

    tournaments: list[TournamentIn]





    def to_dict(self) -> dict[str, Any]:
        from ..models.tournament_in import TournamentIn # noqa: PLC0415
        tournaments = []
        for tournaments_item_data in self.tournaments:
            tournaments_item = tournaments_item_data.to_dict()
            tournaments.append(tournaments_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tournaments": tournaments,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tournament_in import TournamentIn # noqa: PLC0415
        d = dict(src_dict)
        tournaments = []
        _tournaments = d.pop("tournaments")
        for tournaments_item_data in (_tournaments):
            tournaments_item = TournamentIn.from_dict(tournaments_item_data)



            tournaments.append(tournaments_item)


        tournament_batch_in = cls(
            tournaments=tournaments,
        )

        return tournament_batch_in

