"""``cdiplo`` — the C-Diplo tournament ranking (Edi Birsan).

Source: seed 001_f1e33522112d1554.txt ("C-Diplo Method"); SYSTEMS.md "cdiplo".

Points for an event = ``N / place`` + a bonus of 38 for 1st, 14 for 2nd and 7 for 3rd
(nothing for other places). A player's ranking is the sum of its points over events. Tied
players share the average of the points of the places they occupy.

The seed's own example ("third in a tournament of 35 players ... 14 + 35/3 = 25.67") adds the
2nd-place bonus; it contradicts the rule stated just above it, and the rule stands
(SYSTEMS.md): 3rd of 35 → 7 + 35/3 = 18.67.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engine.base import RatingSystem
from app.engine.params import SCALE_LIMIT, ParamSpec, non_increasing_entries
from app.engine.placements import (
    Place,
    StandingRule,
    StandingsRater,
    by_place,
    player_count,
    validate_standings,
)
from app.engine.protocols import SystemInfo
from app.engine.sources import BIRSAN_RANKING_SYSTEMS
from app.engine.types import Json, Placement, PlayerState, Tournament

#: "If you're in the first place + 38 points ... second place + 14 ... third place, + 7"
#: (seed 001). Entry i is the bonus for place i + 1; later places get none.
DEFAULT_BONUS: tuple[float, ...] = (38.0, 14.0, 7.0)
#: A ranking is a running sum of event points, starting from nothing.
INITIAL_TOTAL = 0.0


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "bonus",
        "array",
        list(DEFAULT_BONUS),
        "Bonus points by place: entry 1 for 1st, entry 2 for 2nd, ...; later places get none "
        "(seed 001: 38, 14, 7). Non-negative and non-increasing.",
        check=non_increasing_entries(
            "bonuses must not increase with the place (1st >= 2nd >= ...)"
        ),
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
)

INFO = SystemInfo(
    id="cdiplo",
    title="C-Diplo ranking",
    kind="tournament",
    description=(
        "Edi Birsan's C-Diplo method: an event gives N/place points plus a bonus of 38 for "
        "1st, 14 for 2nd and 7 for 3rd; tied players share the average of their places' "
        "points. The ranking is the sum over events."
    ),
    sources=(BIRSAN_RANKING_SYSTEMS,),
    params=PARAMS,
)


def base_points(N: int, place: int) -> float:
    """N / place: "the number of players in the tournament / your rank" (seed 001)."""
    return N / place


@dataclass(frozen=True, slots=True)
class CdiploConfig:
    """A ladder's C-Diplo parameters, checked and typed: the bonus by place."""

    bonus: tuple[float, ...]

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> CdiploConfig:
        return cls(bonus=tuple(float(b) for b in params["bonus"]))


@dataclass(frozen=True, slots=True)
class CdiploRater(StandingsRater[CdiploConfig]):
    """A C-Diplo ladder with resolved parameters."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=INITIAL_TOTAL)

    def validate_tournament(self, tournament: Tournament) -> None:
        validate_standings(tournament)

    def standing_rule(self, tournament: Tournament) -> StandingRule:
        N = player_count(tournament.standings)
        bonus = self.config.bonus

        def rule(s: Placement, p: Place, old: PlayerState) -> tuple[PlayerState, dict[str, Json]]:
            base = p.mean_over(lambda k: base_points(N, k))
            extra_points = p.mean_over(lambda k: by_place(bonus, k))
            points = base + extra_points
            return PlayerState(rating=old.rating + points, extra=old.extra), {
                "points": points,
                "base_points": base,
                "bonus": extra_points,
                "place": p.rank,
                "tied": p.tied,
                "players": N,
            }

        return rule


SYSTEM = RatingSystem(info=INFO, config=CdiploConfig.from_params, rater=CdiploRater)
