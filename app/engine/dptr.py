"""``dptr`` — the Dip Pouch Tournament Rating (Matt Shields).

Source: seed 000_284a3da9f95a5144.txt (World Diplomacy Database page, with the WBC 2012
table) and seed 001_f1e33522112d1554.txt (Edi Birsan's article); SYSTEMS.md "dptr".

Each player starts at 40. A final place becomes a percentile
``P = (N + 0.5 − place) / N × 100``; the event's tournament value is ``TV = 20`` for a World
Championship, otherwise ``N/7 + 2`` for a one-round event and ``N/3.5 + 2`` for more rounds,
at most 15, and 0 for an event held before the cutoff (2001 in seed 000, 1996 in seed 001: a
parameter). The rating moves TV % of the way to P: ``R' = R + TV/100 × (P − R)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from app.engine.base import RatingSystem
from app.engine.params import ParamSpec
from app.engine.placements import (
    TIE_RULES,
    TIES_SHARED,
    Place,
    StandingRule,
    StandingsRater,
    player_count,
    validate_rounds,
    validate_standings,
)
from app.engine.protocols import SystemInfo
from app.engine.sources import BIRSAN_RANKING_SYSTEMS, WDD_DPTR
from app.engine.types import Json, Placement, PlayerState, Tournament

#: "Each player begins with an initial rating of 40" (seed 000).
INITIAL_RATING = 40.0
#: "Events before 2001 ... have a tournament value of zero" (seed 000; seed 001 says 1996).
DEFAULT_CUTOFF = "2001-01-01"
#: The percentile of place p among N: (N + 0.5 − p)/N × 100 — the half place offset and the
#: percent scale (seed 000).
HALF_PLACE = 0.5
PERCENT = 100.0
#: "If the event was the World Championship, the tournament value is 20" (seed 000).
WORLD_CHAMPIONSHIP_VALUE = 20.0
#: One-round events: "number of players ... divided by 7, plus 2" (seed 000).
ONE_ROUND_DIVISOR = 7.0
#: More rounds: "(#players/3.5)+2" (seed 000).
MULTI_ROUND_DIVISOR = 3.5
#: The "+ 2" of both tournament value formulas (seed 000).
VALUE_OFFSET = 2.0
#: "the maximum tournament value for any non-world championship event is 15" (seed 000).
MAX_VALUE = 15.0
#: Events before the cutoff count nothing (seed 000).
NO_VALUE = 0.0
#: The rounds of a one-round event.
ONE_ROUND = 1


def _check_date(value: Json) -> None:
    try:
        date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"must be an ISO date (YYYY-MM-DD), got {value!r}") from exc


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "initial",
        "number",
        INITIAL_RATING,
        "Rating of a player before its first tournament (seed 000: 40).",
        minimum=0.0,
        maximum=PERCENT,
    ),
    ParamSpec(
        "cutoff",
        "date",
        DEFAULT_CUTOFF,
        "Events held before this date have tournament value 0, except World Championships "
        "(seed 000: 2001; seed 001: 1996).",
        check=_check_date,
    ),
    ParamSpec(
        "ties",
        "string",
        TIES_SHARED,
        "Place of tied players: 'shared' = the shared best place (seed 000's table), "
        "'average' = the mean of the places they occupy.",
        choices=TIE_RULES,
    ),
)

INFO = SystemInfo(
    id="dptr",
    title="Dip Pouch Tournament Rating",
    kind="tournament",
    description=(
        "Matt Shields' DPTR: each final place becomes a percentile P = (N + 0.5 - place)/N*100 "
        "and the rating moves TV% of the way to it, R' = R + TV/100*(P - R); TV = 20 for a "
        "World Championship, else N/7 + 2 (one round) or N/3.5 + 2 (more rounds), at most 15, "
        "and 0 before the cutoff date. Initial rating 40."
    ),
    sources=(WDD_DPTR, BIRSAN_RANKING_SYSTEMS),
    params=PARAMS,
)


def percentile(N: int, place: float) -> float:
    """P = (N + 0.5 − place) / N × 100 (seed 000)."""
    return (N + HALF_PLACE - place) / N * PERCENT


def tournament_value(N: int, rounds: int, world_championship: bool, counts: bool) -> float:
    """TV (seed 000): 20 for a World Championship; 0 when the event does not count (before
    the cutoff); else N/7 + 2 for one round, N/3.5 + 2 for more, at most 15."""
    if world_championship:
        return WORLD_CHAMPIONSHIP_VALUE
    if not counts:
        return NO_VALUE
    divisor = ONE_ROUND_DIVISOR if rounds <= ONE_ROUND else MULTI_ROUND_DIVISOR
    return min(N / divisor + VALUE_OFFSET, MAX_VALUE)


@dataclass(frozen=True, slots=True)
class DptrConfig:
    """A ladder's DPTR parameters, checked and typed."""

    initial: float
    cutoff: date
    ties: str

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> DptrConfig:
        return cls(
            initial=float(params["initial"]),
            cutoff=date.fromisoformat(str(params["cutoff"])),
            ties=str(params["ties"]),
        )


@dataclass(frozen=True, slots=True)
class DptrRater(StandingsRater[DptrConfig]):
    """A DPTR ladder with resolved parameters."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=self.config.initial)

    def validate_tournament(self, tournament: Tournament) -> None:
        validate_standings(tournament)
        validate_rounds(tournament)

    def standing_rule(self, tournament: Tournament) -> StandingRule:
        N = player_count(tournament.standings)
        ties = self.config.ties
        TV = tournament_value(
            N,
            tournament.rounds,
            tournament.world_championship,
            tournament.held_on >= self.config.cutoff,
        )

        def rule(s: Placement, p: Place, old: PlayerState) -> tuple[PlayerState, dict[str, Json]]:
            place = p.value(ties)
            P = percentile(N, place)
            R = old.rating
            R_new = R + TV / PERCENT * (P - R)
            return PlayerState(rating=R_new, extra=old.extra), {
                "percentile": P,
                "tournament_value": TV,
                "place": p.rank if ties == TIES_SHARED else place,
                "players": N,
            }

        return rule


SYSTEM = RatingSystem(info=INFO, config=DptrConfig.from_params, rater=DptrRater)
