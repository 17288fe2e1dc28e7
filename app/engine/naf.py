"""NAF Blood Bowl coach rating (seed 004_3c56f4e0f8d4dd82.txt; SYSTEMS.md "naf").

From the seed: every coach starts at a Coach Rating of 150 for every race (one rating per
coach per race, so the ladder is per-faction), and after each game

    Win Probability  E  = 1 / (10^((R_opp - R_you) / 150) + 1)
    K-Value          K  = sqrt(min(number of NAF coaches, MAX)) * 2
    New Rating       R' = R + K (S - E),   S = 1 win / 0.5 draw / 0 loss

where MAX = 60 for the Majors ("treated as always having 60 coaches, even if there are
fewer") and 32 otherwise. The coach count and the major flag come from the game's event.
Games are between exactly two coaches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from app.engine.base import RatingSystem, duel_score, rated_change, require_player_count
from app.engine.elo_family import (
    EloFamilyConfig,
    EloFamilyRater,
    duel_delta,
    initial_rating_param,
    positive_param,
)
from app.engine.errors import InvalidEvent
from app.engine.params import ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.sources import NAF_RANKINGS
from app.engine.types import Change, EventContext, Game, Json, Outcome, PlayerKey, PlayerState

#: Seed 004: "Each coach starts with a Coach Rating (CR) of 150 for every official ... roster."
INITIAL_RATING = 150.0
#: Seed 004: the 150 dividing the rating difference in the Win Probability.
SCALE = 150.0
#: Seed 004: "K-Value = (Square Root (Min(Number of NAF coaches,MAX))) * 2".
K_MULTIPLIER = 2.0
#: Seed 004: "The Majors have a MAX of 60 coaches ... while non-majors have a MAX of 32."
MAX_COACHES_MAJOR = 60
MAX_COACHES = 32
#: The coach count of an event is at least one.
MIN_COACHES = 1
#: The most coaches a MAX may count: the API's largest coach count of an event (a larger MAX
#: would change nothing).
MAX_COACHES_LIMIT = 100_000
#: Blood Bowl games are between two coaches (SYSTEMS.md: anything else is a 422).
PLAYERS = 2

PARAMS: tuple[ParamSpec, ...] = (
    initial_rating_param(INITIAL_RATING, "Coach Rating of a coach's race before its first game."),
    positive_param("scale", SCALE, "The divisor of the rating difference in the Win Probability."),
    positive_param("k_multiplier", K_MULTIPLIER, "K = k_multiplier * sqrt(min(coaches, MAX))."),
    ParamSpec(
        "max_coaches_major",
        "integer",
        MAX_COACHES_MAJOR,
        "MAX for a major; a major always counts as this many coaches, even with fewer.",
        minimum=MIN_COACHES,
        maximum=MAX_COACHES_LIMIT,
    ),
    ParamSpec(
        "max_coaches",
        "integer",
        MAX_COACHES,
        "MAX for any other event: the most coaches that count towards K.",
        minimum=MIN_COACHES,
        maximum=MAX_COACHES_LIMIT,
    ),
)

INFO = SystemInfo(
    id="naf",
    title="NAF coach rating",
    kind="game",
    description=(
        "NAF Blood Bowl Coach Rating, one per coach per race: E = 1 / (10^((R_opp - R) / 150) "
        "+ 1), R' = R + K (S - E), K = 2 * sqrt(min(coaches, MAX)) with MAX 60 for majors "
        "(which always count 60) and 32 otherwise. Two-player games; the event gives coaches."
    ),
    sources=(NAF_RANKINGS,),
    params=PARAMS,
    per_faction=True,
    duel=True,
)


@dataclass(frozen=True, slots=True)
class NafConfig(EloFamilyConfig):
    """A ladder's NAF parameters, checked and typed."""

    k_multiplier: float
    max_coaches_major: int
    max_coaches: int

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> NafConfig:
        return cls(
            initial=float(params["initial"]),
            scale=float(params["scale"]),
            k_multiplier=float(params["k_multiplier"]),
            max_coaches_major=int(params["max_coaches_major"]),
            max_coaches=int(params["max_coaches"]),
        )


@dataclass(frozen=True, slots=True)
class NafRater(EloFamilyRater[NafConfig]):
    """NAF coach rating configured with ``initial``, ``scale``, ``k_multiplier`` and the MAXes."""

    def coaches_counted(self, event: EventContext | None) -> int:
        """min(coaches, MAX); a major counts as ``max_coaches_major`` whatever its size.

        Raises InvalidEvent on ``("event", "coaches")`` when a non-major event (or no event)
        gives no coach count, or when a given count is below one.
        """
        if event is not None and event.coaches is not None and event.coaches < MIN_COACHES:
            raise InvalidEvent(
                ("event", "coaches"), f"coaches must be at least {MIN_COACHES}, got {event.coaches}"
            )
        if event is not None and event.major:
            return self.config.max_coaches_major
        if event is None or event.coaches is None:
            raise InvalidEvent(
                ("event", "coaches"),
                "the number of NAF coaches at the event is required (it sets K) "
                "unless the event is a major",
            )
        return min(event.coaches, self.config.max_coaches)

    def k_value(self, event: EventContext | None) -> float:
        """K = k_multiplier * sqrt(min(coaches, MAX))."""
        return self.config.k_multiplier * math.sqrt(self.coaches_counted(event))

    def validate_game(self, game: Game) -> None:
        require_player_count(game.participants, PLAYERS, PLAYERS)
        for index, participant in enumerate(game.participants):
            if not participant.faction:
                raise InvalidEvent(
                    ("players", index, "faction"),
                    "a race (faction) is required: NAF rates each coach per race",
                )
        self.coaches_counted(game.event)

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        players = game.participants
        coaches = self.coaches_counted(game.event)
        K = self.k_value(game.event)
        major = game.event is not None and game.event.major
        keys = [PlayerKey(p.player, p.faction) for p in players]
        states = [before[key] for key in keys]

        changes: list[Change] = []
        for i, me in enumerate(players):
            j = 1 - i
            opponent = players[j]
            E = self.expected_score(states[i], states[j], game)
            S = duel_score(me, opponent)
            rating = states[i].rating + duel_delta(K, S, E)
            details: dict[str, Json] = {
                "expected_score": E,
                "k": K,
                "coaches_counted": coaches,
                "major": major,
                "score": S,
                "opponent": opponent.player,
                "opponent_faction": opponent.faction,
                "opponent_rating": states[j].rating,
            }
            changes.append(rated_change(keys[i], states[i], rating, details))
        return Outcome(changes=tuple(changes))


SYSTEM = RatingSystem(info=INFO, config=NafConfig.from_params, rater=NafRater)
