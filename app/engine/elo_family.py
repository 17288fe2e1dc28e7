"""Arithmetic shared by the Elo family: ``elo``, ``fundox`` and ``naf``.

All three rest on the same base-10 logistic curve (Elo, *The Rating of Chessplayers, Past and
Present*, 1978; SYSTEMS.md "Elo family"):

* the expected score ``E_a = 1 / (1 + 10^((R_b - R_a) / scale))``
  (NAF, seed 004_3c56f4e0f8d4dd82.txt, writes the same as ``1 / (10^((R_opp - R_you)/150) + 1)``);
* the update ``R' = R + K (S - E)`` with ``S`` = 1 / 0.5 / 0.

Fundox (seed 003_2f9c47745724d002.txt) is the same exchange with ``K = 16`` and ``scale = 800``:
its pair amount when A beats B, ``16 / (1 + 10^((R_A - R_B)/800))``, equals ``16 (1 - E_A)``.

The win probability of one side over another (SYSTEMS.md "Win probability of one side over
another") is the same E on the sides' mean ratings, for all three systems; each one's ``scale``
(Elo's parameter, default 400; Fundox's ``divisor`` 800; NAF's 150) is its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import TypeVar

from app.engine.base import BaseRater
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.types import Game, Json, PlayerState

#: The base of Elo's logistic curve: a rating difference of one ``scale`` means odds of 10:1.
LOGISTIC_BASE = 10.0


def logistic_expected_score(R_a: float, R_b: float, scale: float) -> float:
    """E_a = 1 / (1 + 10^((R_b - R_a) / scale)), the expected score of A against B.

    Evaluated so that no power overflows: for a positive exponent ``x`` the equivalent
    ``10^-x / (1 + 10^-x)`` is used (an underflow to 0 is the correct limit).
    """
    x = (R_b - R_a) / scale
    if x > 0:
        t = math.pow(LOGISTIC_BASE, -x)
        return t / (1.0 + t)
    return 1.0 / (1.0 + math.pow(LOGISTIC_BASE, x))


def duel_delta(K: float, S: float, E: float) -> float:
    """The rating change of one duel, K (S - E)."""
    return K * (S - E)


def initial_rating_param(default: float, description: str) -> ParamSpec:
    """The family's ``initial`` parameter: any rating within +-:data:`SCALE_LIMIT`."""
    return ParamSpec(
        "initial", "number", default, description, minimum=-SCALE_LIMIT, maximum=SCALE_LIMIT
    )


def positive_param(name: str, default: float, description: str) -> ParamSpec:
    """A K, a scale or a divisor: greater than 0 (a divisor of 0 has no meaning, a K of 0
    rates nothing) and at most :data:`SCALE_LIMIT`."""
    return ParamSpec(
        name,
        "number",
        default,
        description,
        minimum=0.0,
        exclusive_minimum=True,
        maximum=SCALE_LIMIT,
    )


@dataclass(frozen=True, slots=True)
class EloFamilyConfig:
    """What the family's shared parts read: the ``initial`` rating and the ``scale`` of E."""

    initial: float
    #: The divisor of the rating difference in E (Elo and NAF: ``scale``; Fundox: ``divisor``).
    scale: float


ConfigT = TypeVar("ConfigT", bound=EloFamilyConfig)


@dataclass(frozen=True, slots=True)
class EloFamilyRater(BaseRater[ConfigT]):
    """Defaults shared by the family: a plain rating starting at ``config.initial``, and the
    logistic expected score over ``config.scale``."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=self.config.initial)

    def expected_score(
        self, player: PlayerState, opponent: PlayerState, game: Game | None = None
    ) -> float:
        """E = 1 / (1 + 10^((R_opp - R) / scale)), the probability that ``player`` wins a duel
        against ``opponent`` (NAF's Win Probability; Fundox's implied win probability)."""
        return logistic_expected_score(player.rating, opponent.rating, self.config.scale)

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float:
        """p(``side`` ahead of ``other``) = E on the sides' mean ratings (SYSTEMS.md "Win
        probability of one side over another"): a side is rated as one player with the mean
        of its members' ratings, as :mod:`app.engine.elo` rates team games. p(a, b) +
        p(b, a) = 1 up to the rounding of the two divisions (the exponents are exact
        negatives)."""
        return logistic_expected_score(side_rating(side), side_rating(other), self.config.scale)


def side_rating(members: Sequence[PlayerState]) -> float:
    """The rating of a side rated as one player: the mean of its members' ratings
    (SYSTEMS.md "Teams", elo). ``fmean`` sums with ``math.fsum`` (correctly rounded), so the
    order of the members changes nothing and a side of one is its member's rating exactly."""
    return fmean([state.rating for state in members])
