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
pairwise by rank. Leaderboards rank by ``r - 2.5 RD`` as for ``glicko2``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from app.engine.base import BaseRater, require_finite, require_player_count
from app.engine.errors import InvalidEvent
from app.engine.params import ParamSpec, resolve
from app.engine.periods import (
    PERIOD_CHOICES,
    PERIOD_GAME,
    PeriodResult,
    Position,
    adjusted_extra,
    extra_for,
    locate,
    pairwise_scores,
    period_index,
)
from app.engine.protocols import SystemInfo
from app.engine.types import (
    Change,
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
    Standing,
    frozen,
)

#: Glickman, "The Glicko system", step 2: q = ln 10 / 400.
Q = math.log(10.0) / 400.0
#: Glickman: the base and divisor of the expected-score curve 10^(-g (r - r_j) / 400).
LOGISTIC_BASE = 10.0
RATING_SCALE = 400.0
#: Glickman, step 1: an unrated player's rating and RD.
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
#: SYSTEMS.md "glicko" (Glickman's example value): c, the RD growth per idle period.
C = 34.6
#: Seed 004 (NAF presentation, shared with glicko2): rank by r - 2.5 RD.
RANKING_MULTIPLIER = 2.5
#: Not from the sources, numerical guard: a deviation below one rating point carries no
#: meaning, and keeps 1 / RD^2 finite.
DEVIATION_MIN = 1.0
#: Not from the sources: an adjusted rating must lie within this distance of the initial rating,
#: so that E (1 - E) stays far from float underflow (which would make d^2 infinite).
MAX_RATING_OFFSET = 5000.0
#: A game needs two players to hold a duel.
MIN_PLAYERS = 2

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "initial_rating",
        "number",
        INITIAL_RATING,
        "Rating r of a player before its first game (Glickman: 1500).",
    ),
    ParamSpec(
        "initial_deviation",
        "number",
        INITIAL_DEVIATION,
        "Rating deviation RD of a new player (Glickman: 350); also the cap of step 1.",
        minimum=DEVIATION_MIN,
    ),
    ParamSpec(
        "c",
        "number",
        C,
        "Step 1: RD grows to sqrt(RD^2 + c^2 t) after t rating periods (Glickman's example: "
        "34.6, so that RD 50 returns to 350 after 100 idle periods).",
        minimum=0.0,
    ),
    ParamSpec(
        "period",
        "string",
        PERIOD_GAME,
        "Rating period: 'game' (each game is its own period), or 'day', 'week' (ISO, Monday "
        "start) or 'month' in UTC: a player's games in one period are rated together from "
        "the period-start state.",
        choices=PERIOD_CHOICES,
    ),
    ParamSpec(
        "ranking_multiplier",
        "number",
        RANKING_MULTIPLIER,
        "The leaderboard ranks by ranking_value = rating - ranking_multiplier * RD.",
        minimum=0.0,
    ),
)

INFO = SystemInfo(
    id="glicko",
    title="Glicko",
    kind="game",
    description=(
        "Glickman's original Glicko: rating r and deviation RD; RD grows by c per idle rating "
        "period (step 1); a player's games in a period are rated together (q, g, E, d^2, r', "
        "RD'). Multiplayer games are pairwise by rank. Leaderboards rank by r - 2.5 RD."
    ),
    sources=(
        "M. E. Glickman, The Glicko system (Boston University)",
        "SYSTEMS.md: glicko",
    ),
    params=PARAMS,
    duel=True,
    rank_by="ranking_value",
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
class GlickoRater(BaseRater):
    """Glicko-1 configured with a ladder's parameters (see :data:`PARAMS`)."""

    @property
    def initial_rating(self) -> float:
        return float(self.params["initial_rating"])

    @property
    def initial_deviation(self) -> float:
        return float(self.params["initial_deviation"])

    @property
    def c(self) -> float:
        return float(self.params["c"])

    @property
    def period(self) -> str:
        return str(self.params["period"])

    @property
    def ranking_multiplier(self) -> float:
        return float(self.params["ranking_multiplier"])

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=self.initial_rating, deviation=self.initial_deviation)

    def _RD(self, state: PlayerState) -> float:
        return self.initial_deviation if state.deviation is None else state.deviation

    def ranking_value(self, state: PlayerState) -> float:
        """r - ranking_multiplier * RD (the NAF presentation of seed 004)."""
        return state.rating - self.ranking_multiplier * self._RD(state)

    def standing(self, state: PlayerState) -> Standing:
        return Standing(
            rating=state.rating,
            deviation=self._RD(state),
            volatility=None,
            ranking_value=self.ranking_value(state),
        )

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """The state an administrator sets at ``at`` (API.md "Rating adjustments").

        An omitted deviation keeps the previous (or initial) RD; Glicko-1 has no volatility.
        In a calendar period mode the state is the start of the period containing ``at``: that
        period's games are rated from it with no step-1 growth. In ``"game"`` mode the next
        game is rated from it without growth.
        """
        require_finite(("rating",), rating)
        if abs(rating - self.initial_rating) > MAX_RATING_OFFSET:
            raise InvalidEvent(
                ("rating",),
                f"must be within {MAX_RATING_OFFSET:g} of the initial rating "
                f"{self.initial_rating:g}, got {rating:g}",
            )
        if volatility is not None:
            raise InvalidEvent(("volatility",), "Glicko-1 has no volatility")
        if deviation is None:
            deviation = self.initial_deviation if previous is None else self._RD(previous)
        require_finite(("deviation",), deviation)
        if not DEVIATION_MIN <= deviation <= self.initial_deviation:
            raise InvalidEvent(
                ("deviation",),
                f"must be between {DEVIATION_MIN:g} and the initial deviation "
                f"{self.initial_deviation:g}, got {deviation:g}",
            )
        state = PlayerState(rating=rating, deviation=deviation)
        return replace(state, extra=adjusted_extra(period_index(at, self.period), state))

    def validate_game(self, game: Game) -> None:
        require_player_count(game.participants, MIN_PLAYERS, None)

    def expected_score(
        self, player: PlayerState, opponent: PlayerState, game: Game | None = None
    ) -> float:
        """Glickman's E(s | r, r_j, RD_j): the player's expected score, discounted by the
        opponent's RD through g(RD_j) (the player's own RD does not enter, as in step 2)."""
        return E(player.rating, opponent.rating, self._RD(opponent))

    def period_start(self, position: Position) -> tuple[PlayerState, int]:
        """Step 1 for ``position``: the onset state and t, the periods grown over.

        t is the number of periods since the state (1 for consecutive periods, and between
        consecutive games in ``"game"`` mode); 0 within the open period, for a new player and
        right after an adjustment.
        """
        state = position.state
        base = PlayerState(rating=state.rating, deviation=self._RD(state))
        t = position.elapsed
        if t <= 0:
            return base, 0
        RD = RD_onset(self._RD(base), t, self.c, self.initial_deviation)
        return replace(base, deviation=RD), t

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        players = game.participants
        period = period_index(game.played_at, self.period)
        keys = [PlayerKey(p.player) for p in players]
        states = [before[key] for key in keys]
        positions = [locate(state, period) for state in states]
        starts = [self.period_start(position) for position in positions]
        duels = pairwise_scores(players)

        changes: list[Change] = []
        for i, (state, position, (base, t)) in enumerate(
            zip(states, positions, starts, strict=True)
        ):
            new_results = tuple(
                PeriodResult(starts[j][0].rating, self._RD(starts[j][0]), S) for j, S in duels[i]
            )
            results = position.results + new_results
            opponents = [
                Opponent(res.opponent_rating, res.opponent_deviation, res.score) for res in results
            ]
            RD = self._RD(base)
            update = rate_period(base.rating, RD, opponents)
            after = PlayerState(
                rating=update.r,
                deviation=update.RD,
                extra=extra_for(period, base, results),
            )
            first_new = len(position.results)
            per_opponent = [
                {
                    "opponent": players[j].player,
                    "score": S,
                    "rating": starts[j][0].rating,
                    "deviation": self._RD(starts[j][0]),
                    "g": update.g[first_new + n],
                    "E": update.E[first_new + n],
                }
                for n, (j, S) in enumerate(duels[i])
            ]
            d2 = update.d_squared
            details: dict[str, Json] = {
                "period": period,
                "period_results": len(results),
                "idle_periods": t,
                "rating_start": base.rating,
                "deviation_start": RD,
                "q": Q,
                "c": self.c,
                "g": list(update.g),
                "E": list(update.E),
                "d_squared": d2,
                "d": None if d2 is None else math.sqrt(d2),
                "opponents": per_opponent,
                "deviation_before": self._RD(state),
                "deviation_after": update.RD,
                "volatility_before": None,
                "volatility_after": None,
                "ranking_value_before": self.ranking_value(state),
                "ranking_value_after": self.ranking_value(after),
            }
            changes.append(Change(key=keys[i], before=state, after=after, details=frozen(details)))
        return Outcome(changes=tuple(changes))


@dataclass(frozen=True, slots=True)
class GlickoSystem:
    """The ``glicko`` system: its description and its configured raters."""

    info: SystemInfo

    def configure(self, params: Mapping[str, Json] | None = None) -> GlickoRater:
        """Validate ``params`` against :data:`PARAMS` (InvalidParameter) and build the rater."""
        return GlickoRater(params=resolve(self.info.params, params))


SYSTEM = GlickoSystem(info=INFO)
