"""Glicko-1 (SYSTEMS.md "glicko"; M. E. Glickman, "The Glicko system", Boston University).

Glickman's two steps for a player with rating r and deviation RD, against opponents j with
ratings r_j, deviations RD_j and scores s_j in one rating period:

* step 1, at the onset of a period in which the player plays:
  RD = min(sqrt(RD_old^2 + c^2 t), 350), t = the number of rating periods since the player's
  last rated period (1 for consecutive periods); a new player starts at 1500 / 350;
* step 2: q = ln 10 / 400, g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2),
  E(s | r, r_j, RD_j) = 1 / (1 + 10^(-g(RD_j) (r - r_j) / 400)),
  d^2 = [q^2 sum_j g(RD_j)^2 E_j (1 - E_j)]^-1,
  r' = r + q / (1 / RD^2 + 1 / d^2) sum_j g(RD_j) (s_j - E_j),
  RD' = sqrt((1 / RD^2 + 1 / d^2)^-1).

The cap of step 1 is the ladder's initial RD. Rating periods (``period`` parameter) are handled
by :mod:`app.engine.periods`; in ``"game"`` mode each game is a period, so t = 1 between a
player's consecutive games and a player's first game has no growth step. Multiplayer games are
pairwise by rank. Leaderboards rank by ``r - 2.5 RD`` as for ``glicko2``; what the two share
(rating a game's periods, the ranking value, adjustments) is
:class:`app.engine.glicko_family.GlickoFamilyRater`, this module Glickman's steps 1 and 2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.engine.base import RatingSystem
from app.engine.errors import InvalidEvent
from app.engine.glicko_family import (
    DEVIATION_MAX,
    GlickoFamilyConfig,
    GlickoFamilyRater,
    PeriodStep,
    initial_deviation_param,
    initial_rating_param,
    period_param,
    ranking_multiplier_param,
)
from app.engine.params import ParamSpec
from app.engine.periods import PeriodResult, Position
from app.engine.protocols import SystemInfo
from app.engine.types import Game, Json, PlayerState

#: Glickman, "The Glicko system", step 2: q = ln 10 / 400.
Q = math.log(10.0) / 400.0
#: Glickman: the base and divisor of the expected-score curve 10^(-g (r - r_j) / 400).
LOGISTIC_BASE = 10.0
RATING_SCALE = 400.0
#: SYSTEMS.md "glicko" (Glickman's example value): c, the RD growth per idle period.
C = 34.6
#: Not from the sources: c past the largest initial RD restores any RD in one period, as
#: that RD itself would.
C_MAX = DEVIATION_MAX

PARAMS: tuple[ParamSpec, ...] = (
    initial_rating_param("Rating r of a player before its first game (Glickman: 1500)."),
    initial_deviation_param(
        "Rating deviation RD of a new player (Glickman: 350); also the cap of step 1."
    ),
    ParamSpec(
        "c",
        "number",
        C,
        "Step 1: RD grows to sqrt(RD^2 + c^2 t) after t rating periods (Glickman's example: "
        "34.6, so that RD 50 returns to 350 after 100 idle periods).",
        minimum=0.0,
        maximum=C_MAX,
    ),
    period_param(
        "Rating period: 'game' (each game is its own period), or 'day', 'week' (ISO, Monday "
        "start) or 'month' in UTC: a player's games in one period are rated together from "
        "the period-start state."
    ),
    ranking_multiplier_param(
        "The leaderboard ranks by ranking_value = rating - ranking_multiplier * RD."
    ),
)

INFO = SystemInfo(
    id="glicko",
    title="Glicko",
    kind="game",
    description=(
        "Glickman's original Glicko: rating r and deviation RD; RD grows by c per idle rating "
        "period (step 1); a player's games in a period are rated together (q, g, E, d^2, r', "
        "RD'). Multiplayer games are pairwise by rank; in team games each member plays every "
        "other side as one opponent at the side's mean r and mean RD. Leaderboards rank by "
        "r - 2.5 RD."
    ),
    sources=(
        "M. E. Glickman, The Glicko system (Boston University)",
        "SYSTEMS.md: glicko",
    ),
    params=PARAMS,
    duel=True,
    rank_by="ranking_value",
    # Teams by the composite opponent (glicko_family.composite); Glickman's update has no
    # partial-play term, so weights are refused.
    sides=True,
    weights=False,
)


# --- Glickman's formulas (pure functions) ------------------------------------------------------


def RD_onset(RD_old: float, t: int, c: float, RD_max: float) -> float:
    """Step 1: RD = min(sqrt(RD_old^2 + c^2 t), RD_max) after t rating periods."""
    if t <= 0:
        return RD_old
    return min(math.sqrt(RD_old**2 + c**2 * t), RD_max)


def g(RD: float) -> float:
    """Step 2: g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * Q**2 * RD**2 / math.pi**2)


def _E_and_complement(r: float, r_j: float, RD_j: float) -> tuple[float, float]:
    """E and 1 - E, each evaluated so that no power overflows and E (1 - E) stays positive."""
    x = g(RD_j) * (r - r_j) / RATING_SCALE
    if x >= 0:
        t = math.pow(LOGISTIC_BASE, -x)
        return 1.0 / (1.0 + t), t / (1.0 + t)
    t = math.pow(LOGISTIC_BASE, x)
    return t / (1.0 + t), 1.0 / (1.0 + t)


def E(r: float, r_j: float, RD_j: float) -> float:
    """Step 2: E(s | r, r_j, RD_j) = 1 / (1 + 10^(-g(RD_j) (r - r_j) / 400))."""
    return _E_and_complement(r, r_j, RD_j)[0]


def win_probability(r_a: float, RD_a: float, r_b: float, RD_b: float) -> float:
    """Glickman's prediction that A beats B with both deviations ("The Glicko system", 1995:
    the expected outcome of a game between two players),

        p = 1 / (1 + 10^(-g(sqrt(RD_a^2 + RD_b^2)) (r_a - r_b) / 400)),

    which is E with the two deviations combined in g. (Step 2's E uses the opponent's RD
    only: it is the update's term, not a prediction.) p(a, b) + p(b, a) = 1 up to rounding:
    the exponents are exact negatives and ``math.hypot`` is symmetric."""
    return E(r_a, r_b, math.hypot(RD_a, RD_b))


@dataclass(frozen=True, slots=True)
class Opponent:
    """One result of a period: the opponent's r_j and RD_j, and the score s_j."""

    r_j: float
    RD_j: float
    s_j: float


def d_squared(r: float, opponents: Sequence[Opponent]) -> float:
    """Step 2: d^2 = [q^2 sum_j g(RD_j)^2 E_j (1 - E_j)]^-1."""
    total = 0.0
    for o in opponents:
        E_j, one_minus_E_j = _E_and_complement(r, o.r_j, o.RD_j)
        total += g(o.RD_j) ** 2 * E_j * one_minus_E_j
    return 1.0 / (Q**2 * total)


def score_sum(r: float, opponents: Sequence[Opponent]) -> float:
    """Step 2: sum_j g(RD_j) (s_j - E(s | r, r_j, RD_j))."""
    return sum(g(o.RD_j) * (o.s_j - E(r, o.r_j, o.RD_j)) for o in opponents)


def r_prime(r: float, RD: float, d2: float, opponents: Sequence[Opponent]) -> float:
    """Step 2: r' = r + q / (1 / RD^2 + 1 / d^2) sum_j g(RD_j) (s_j - E_j)."""
    return r + Q / (1.0 / RD**2 + 1.0 / d2) * score_sum(r, opponents)


def RD_prime(RD: float, d2: float) -> float:
    """Step 2: RD' = sqrt((1 / RD^2 + 1 / d^2)^-1)."""
    return math.sqrt(1.0 / (1.0 / RD**2 + 1.0 / d2))


@dataclass(frozen=True, slots=True)
class PeriodUpdate:
    """The result of step 2 for one player and period, with the intermediate terms.

    ``d_squared`` is None for a period without games (the player keeps r and RD).
    """

    r: float
    RD: float
    g: tuple[float, ...]
    E: tuple[float, ...]
    d_squared: float | None


def rate_period(r: float, RD: float, opponents: Sequence[Opponent]) -> PeriodUpdate:
    """Step 2 of Glickman's Glicko system for one player and one rating period.

    ``RD`` is the onset deviation (after step 1).
    """
    if not opponents:
        return PeriodUpdate(r, RD, (), (), None)
    g_j = tuple(g(o.RD_j) for o in opponents)
    E_j = tuple(E(r, o.r_j, o.RD_j) for o in opponents)
    d2 = d_squared(r, opponents)
    return PeriodUpdate(r_prime(r, RD, d2, opponents), RD_prime(RD, d2), g_j, E_j, d2)


# --- The configured rater ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GlickoConfig(GlickoFamilyConfig):
    """A ladder's Glicko-1 parameters, checked and typed."""

    c: float

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> GlickoConfig:
        return cls(
            **cls.family_values(params),
            c=float(params["c"]),
        )


@dataclass(frozen=True, slots=True)
class GlickoRater(GlickoFamilyRater[GlickoConfig]):
    """Glicko-1 configured with a ladder's parameters (see :data:`PARAMS`)."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        config = self.config
        return PlayerState(rating=config.initial_rating, deviation=config.initial_deviation)

    def adjusted_values(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
    ) -> PlayerState:
        """An omitted deviation keeps the previous (or initial) RD; Glicko-1 has no volatility."""
        if volatility is not None:
            raise InvalidEvent(("volatility",), "Glicko-1 has no volatility")
        return PlayerState(rating=rating, deviation=self.adjusted_deviation(previous, deviation))

    def expected_score(
        self, player: PlayerState, opponent: PlayerState, game: Game | None = None
    ) -> float:
        """Glickman's E(s | r, r_j, RD_j): the player's expected score, discounted by the
        opponent's RD through g(RD_j) (the player's own RD does not enter, as in step 2)."""
        return E(player.rating, opponent.rating, self._RD(opponent))

    def pair_win_probability(self, r_a: float, RD_a: float, r_b: float, RD_b: float) -> float:
        """Glickman's two-deviation prediction (:func:`win_probability`)."""
        return win_probability(r_a, RD_a, r_b, RD_b)

    def idle_periods(self, position: Position) -> int:
        """Step 1's t: the number of periods since the state (1 for consecutive periods, and
        between consecutive games in ``"game"`` mode); 0 within the open period, for a new
        player and right after an adjustment."""
        return position.elapsed

    def grown_deviation(self, state: PlayerState, periods: int) -> float:
        """Step 1: RD = min(sqrt(RD_old^2 + c^2 t), initial RD)."""
        return RD_onset(self._RD(state), periods, self.config.c, self.config.initial_deviation)

    def rate_results(self, base: PlayerState, results: tuple[PeriodResult, ...]) -> PeriodStep:
        """Step 2 from the onset state ``base`` (after step 1) over the period's results."""
        opponents = [
            Opponent(res.opponent_rating, res.opponent_deviation, res.score) for res in results
        ]
        update = rate_period(base.rating, self._RD(base), opponents)
        d2 = update.d_squared
        terms: dict[str, Json] = {
            "q": Q,
            "c": self.config.c,
            "g": list(update.g),
            "E": list(update.E),
            "d_squared": d2,
            "d": None if d2 is None else math.sqrt(d2),
        }
        return PeriodStep(update.r, update.RD, None, update.g, update.E, terms)


SYSTEM = RatingSystem(info=INFO, config=GlickoConfig.from_params, rater=GlickoRater)
