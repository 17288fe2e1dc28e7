"""Glicko-2 (SYSTEMS.md "glicko2"; M. E. Glickman, "Example of the Glicko-2 system",
Boston University, November 30, 2013; the NAF Glicko ranking, seed 004_3c56f4e0f8d4dd82.txt).

Glickman's steps, on the Glicko-2 scale (step 2: mu = (r - 1500) / 173.7178,
phi = RD / 173.7178), for a player against opponents j with scores s_j in one rating period:

* step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2),
  E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j))),
  v = [sum_j g(phi_j)^2 E_j (1 - E_j)]^-1;
* step 4: Delta = v sum_j g(phi_j) (s_j - E_j);
* step 5: the new volatility sigma' by the Illinois iteration on
  f(x) = e^x (Delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2,
  a = ln(sigma^2), to convergence tolerance epsilon = 0.000001; sigma' = e^(A/2);
* step 6: phi* = sqrt(phi^2 + sigma'^2);
* step 7: phi' = 1 / sqrt(1 / phi*^2 + 1 / v), mu' = mu + phi'^2 sum_j g(phi_j) (s_j - E_j);
* step 8: r' = 173.7178 mu' + 1500, RD' = 173.7178 phi'.

A player who does not compete in a period keeps mu and sigma; phi grows to
sqrt(phi^2 + sigma^2) (the no-game step). Rating periods (``period`` parameter) are handled by
:mod:`app.engine.periods`; multiplayer games are pairwise by rank. What Glicko-1 and Glicko-2
share around the steps (rating a game's periods, the ranking value, adjustments) is
:class:`app.engine.glicko_family.GlickoFamilyRater`.

The NAF presentation ranks by ``ranking_value = r - 2.5 RD`` (seed 004: "subtracting 2.5 * phi
from mu"), so a new coach (1500, 350) shows 625.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from app.engine import glicko
from app.engine.base import RatingSystem, duel_score, require_finite
from app.engine.errors import InvalidEvent, IterationLimit
from app.engine.glicko_family import (
    GlickoFamilyConfig,
    GlickoFamilyRater,
    PeriodStep,
    initial_deviation_param,
    initial_rating_param,
    period_details,
    period_param,
    ranking_multiplier_param,
)
from app.engine.params import ParamSpec
from app.engine.periods import GAME_MODE_EXTRA, PERIOD_GAME, PeriodResult, Position
from app.engine.protocols import SystemInfo
from app.engine.sources import NAF_RANKINGS
from app.engine.types import Change, Details, Game, Json, Outcome, PlayerKey, PlayerState

#: Glickman (2013), step 2: the factor between the Glicko scale and the Glicko-2 scale.
SCALE = 173.7178
#: Glickman (2013), step 2: the Glicko rating that is mu = 0 on the Glicko-2 scale.
RATING_CENTRE = 1500.0
#: Glickman (2013), step 1: an unrated player's volatility (rating and RD: the family's).
INITIAL_VOLATILITY = 0.06
#: SYSTEMS.md "glicko2": the system constant tau (Glickman: "between 0.3 and 1.2").
TAU = 0.5
#: Glickman (2013), step 5: the convergence tolerance epsilon of the Illinois iteration.
EPSILON = 0.000001
#: Step 5's loops stop here: lichess's Glicko-2 (lila, modules/rating, RatingCalculator's
#: ITERATION_MAX) gives up after 1,000 iterations of the Illinois loop, where convergence
#: takes a handful; past it the update is an error, not a hang.
MAX_ITERATIONS = 1000
#: pi^2 of step 3's g(phi), computed once.
PI_SQUARED = math.pi**2
#: Not from the sources, numerical guards: tau must keep (x - a) / tau^2 finite; a volatility
#: must keep ln(sigma^2) finite (the deviation's guard is the family's DEVIATION_MIN).
TAU_MIN = 0.01
TAU_MAX = 10.0
VOLATILITY_MIN = 1e-9
VOLATILITY_MAX = 1.0

PARAMS: tuple[ParamSpec, ...] = (
    initial_rating_param("Rating r of a player before its first game (Glickman: 1500)."),
    initial_deviation_param(
        "Rating deviation RD of a new player (Glickman: 350); also the cap on RD growth."
    ),
    ParamSpec(
        "initial_volatility",
        "number",
        INITIAL_VOLATILITY,
        "Volatility sigma of a new player (Glickman: 0.06).",
        minimum=VOLATILITY_MIN,
        maximum=VOLATILITY_MAX,
    ),
    ParamSpec(
        "tau",
        "number",
        TAU,
        "System constant tau: how fast volatility may change (Glickman: 0.3 to 1.2).",
        minimum=TAU_MIN,
        maximum=TAU_MAX,
    ),
    period_param(
        "Rating period: 'game' (each game is its own period), or 'day', 'week' (ISO, Monday "
        "start) or 'month' in UTC: a player's games in one period are rated together from "
        "the period-start state; RD grows by the no-game step for each empty period."
    ),
    ranking_multiplier_param(
        "The leaderboard ranks by ranking_value = rating - ranking_multiplier * RD (NAF: 2.5)."
    ),
)

INFO = SystemInfo(
    id="glicko2",
    title="Glicko-2",
    kind="game",
    description=(
        "Glickman's Glicko-2: rating r, deviation RD and volatility sigma; a player's games in "
        "a rating period are rated together (g, E, v, Delta, sigma' by the Illinois iteration, "
        "phi*, phi', mu'). Multiplayer games are pairwise by rank; in team games each member "
        "plays every other side as one opponent at the side's mean r and mean RD. "
        "Leaderboards rank by r - 2.5 RD (the NAF presentation)."
    ),
    sources=(
        "M. E. Glickman, Example of the Glicko-2 system (Boston University, 2013)",
        NAF_RANKINGS,
        "SYSTEMS.md: glicko2",
    ),
    params=PARAMS,
    duel=True,
    rank_by="ranking_value",
    # Teams by the composite opponent (glicko_family.composite); Glickman's update has no
    # partial-play term, so weights are refused.
    sides=True,
    weights=False,
)


# --- Glickman's steps (pure functions on the Glicko-2 scale) -----------------------------------


def to_mu(r: float) -> float:
    """Step 2: mu = (r - 1500) / 173.7178."""
    return (r - RATING_CENTRE) / SCALE


def to_phi(RD: float) -> float:
    """Step 2: phi = RD / 173.7178."""
    return RD / SCALE


def to_r(mu: float) -> float:
    """Step 8: r = 173.7178 mu + 1500."""
    return SCALE * mu + RATING_CENTRE


def to_RD(phi: float) -> float:
    """Step 8: RD = 173.7178 phi."""
    return SCALE * phi


def g(phi: float) -> float:
    """Step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / PI_SQUARED)


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), evaluated without overflow for either sign of x."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    t = math.exp(x)
    return t / (1.0 + t)


def E(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))."""
    return _logistic(g(phi_j) * (mu - mu_j))


def _E_and_complement(mu: float, mu_j: float, phi_j: float) -> tuple[float, float]:
    """E and 1 - E, each computed directly so that their product never underflows to 0."""
    x = g(phi_j) * (mu - mu_j)
    return _logistic(x), _logistic(-x)


@dataclass(frozen=True, slots=True)
class Opponent:
    """One result of a period on the Glicko-2 scale: opponent's mu_j and phi_j, score s_j."""

    mu_j: float
    phi_j: float
    s_j: float


def v(mu: float, opponents: Sequence[Opponent]) -> float:
    """Step 3: v = [sum_j g(phi_j)^2 E(mu, mu_j, phi_j) (1 - E(mu, mu_j, phi_j))]^-1."""
    total = 0.0
    for o in opponents:
        E_j, one_minus_E_j = _E_and_complement(mu, o.mu_j, o.phi_j)
        total += g(o.phi_j) ** 2 * E_j * one_minus_E_j
    return 1.0 / total


def score_sum(mu: float, opponents: Sequence[Opponent]) -> float:
    """Steps 4 and 7: sum_j g(phi_j) (s_j - E(mu, mu_j, phi_j))."""
    return sum(g(o.phi_j) * (o.s_j - E(mu, o.mu_j, o.phi_j)) for o in opponents)


def Delta(mu: float, opponents: Sequence[Opponent], v_value: float) -> float:
    """Step 4: Delta = v sum_j g(phi_j) (s_j - E(mu, mu_j, phi_j))."""
    return v_value * score_sum(mu, opponents)


def sigma_prime(
    phi: float,
    sigma: float,
    v_value: float,
    Delta_value: float,
    tau: float,
    epsilon: float,
    max_iterations: int = MAX_ITERATIONS,
) -> float:
    """Step 5: the new volatility sigma' by the Illinois algorithm (Glickman 2013).

    1. a = ln(sigma^2); f(x) = e^x (Delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2)
       - (x - a) / tau^2.
    2. A = a. If Delta^2 > phi^2 + v, B = ln(Delta^2 - phi^2 - v); otherwise B = a - k tau for
       the smallest k = 1, 2, ... with f(a - k tau) >= 0.
    3. While |B - A| > epsilon: C = A + (A - B) f_A / (f_B - f_A); if f_C f_B <= 0 then
       A, f_A = B, f_B, otherwise f_A = f_A / 2; then B, f_B = C, f_C.
    4. sigma' = e^(A / 2).

    Each loop stops after ``max_iterations`` (lichess: 1,000) with IterationLimit.
    """
    a = math.log(sigma**2)
    phi2 = phi**2
    Delta2 = Delta_value**2
    # The parts of f that do not depend on x, evaluated once in the order f would evaluate
    # them (left to right), so f's value is the same float. f is written out where it is
    # evaluated (f(a - k tau), f_A, f_B, f_C), as ex * (D - ex) / (2 (P + ex)^2) - (x - a) /
    # tau^2: the update evaluates it a handful of times, and a call for each cost a tenth of
    # the update.
    D = Delta2 - phi2 - v_value
    P = phi2 + v_value
    tau2 = tau**2
    exp = math.exp

    A = a
    if Delta2 > P:
        B = math.log(D)
    else:
        k = 1
        x = a - k * tau
        ex = exp(x)
        while ex * (D - ex) / (2.0 * (P + ex) ** 2) - (x - a) / tau2 < 0:
            k += 1
            if k > max_iterations:
                raise IterationLimit(f"step 5.2 found no bracket in {max_iterations} steps")
            x = a - k * tau
            ex = exp(x)
        B = a - k * tau
    ex = exp(A)
    f_A = ex * (D - ex) / (2.0 * (P + ex) ** 2) - (A - a) / tau2
    ex = exp(B)
    f_B = ex * (D - ex) / (2.0 * (P + ex) ** 2) - (B - a) / tau2
    iterations = 0
    while abs(B - A) > epsilon:
        iterations += 1
        if iterations > max_iterations:
            raise IterationLimit(f"step 5.4 did not converge in {max_iterations} iterations")
        C = A + (A - B) * f_A / (f_B - f_A)
        ex = exp(C)
        f_C = ex * (D - ex) / (2.0 * (P + ex) ** 2) - (C - a) / tau2
        if f_C * f_B <= 0:
            A, f_A = B, f_B
        else:
            f_A = f_A / 2.0
        B, f_B = C, f_C
    return math.exp(A / 2.0)


def phi_star(phi: float, sigma: float) -> float:
    """Step 6 (and the no-game step): phi* = sqrt(phi^2 + sigma^2)."""
    return math.sqrt(phi**2 + sigma**2)


def phi_prime(phi_star_value: float, v_value: float) -> float:
    """Step 7: phi' = 1 / sqrt(1 / phi*^2 + 1 / v)."""
    return 1.0 / math.sqrt(1.0 / phi_star_value**2 + 1.0 / v_value)


def mu_prime(mu: float, phi_prime_value: float, opponents: Sequence[Opponent]) -> float:
    """Step 7: mu' = mu + phi'^2 sum_j g(phi_j) (s_j - E(mu, mu_j, phi_j))."""
    return mu + phi_prime_value**2 * score_sum(mu, opponents)


class PeriodUpdate(NamedTuple):
    """The result of one rating period on the Glicko-2 scale, with the intermediate terms.

    ``v`` and ``Delta`` are None for a period without games (only the no-game step applies).
    """

    mu: float
    phi: float
    sigma: float
    g: tuple[float, ...]
    E: tuple[float, ...]
    v: float | None
    Delta: float | None
    phi_star: float

    # A named tuple rather than a frozen dataclass: as immutable, and cheaper to build (once
    # per player and game).


def rate_period(
    mu: float,
    phi: float,
    sigma: float,
    opponents: Sequence[Opponent],
    tau: float = TAU,
    epsilon: float = EPSILON,
    phi_max: float = math.inf,
) -> PeriodUpdate:
    """Steps 3-7 of Glickman (2013) for one player and one rating period.

    Without opponents the player keeps mu and sigma and phi becomes phi* = sqrt(phi^2 + sigma^2).
    ``phi_max`` caps the pre-rating-period value phi* (SYSTEMS.md: the no-game growth is capped
    at the initial RD); the default, no cap, is Glickman's algorithm as published. With the cap,
    phi' < phi* <= phi_max, so RD never exceeds the initial RD.
    """
    return rate_period_of(
        mu,
        phi,
        sigma,
        [o.mu_j for o in opponents],
        [o.phi_j for o in opponents],
        [o.s_j for o in opponents],
        tau,
        epsilon,
        phi_max,
    )


def rate_period_of(
    mu: float,
    phi: float,
    sigma: float,
    mu_j: Sequence[float],
    phi_j: Sequence[float],
    s_j: Sequence[float],
    tau: float,
    epsilon: float,
    phi_max: float,
) -> PeriodUpdate:
    """:func:`rate_period` with the opponents given as three parallel sequences mu_j, phi_j
    and s_j."""
    opponents = list(zip(mu_j, phi_j, s_j, strict=True))
    return PeriodUpdate(*_period_update(mu, phi, sigma, opponents, tau, epsilon, phi_max))


#: :class:`PeriodUpdate`'s fields as a plain tuple, in its order.
UpdateValues = tuple[
    float, float, float, tuple[float, ...], tuple[float, ...], float | None, float | None, float
]


def _period_update(
    mu: float,
    phi: float,
    sigma: float,
    opponents: Sequence[tuple[float, float, float]],
    tau: float,
    epsilon: float,
    phi_max: float,
) -> UpdateValues:
    """:func:`rate_period`'s values, each opponent given as (mu_j, phi_j, s_j): what the
    rater holds, without an :class:`Opponent` per result or a :class:`PeriodUpdate`."""
    if not opponents:
        grown = min(phi_star(phi, sigma), phi_max)
        return mu, grown, sigma, (), (), None, None, grown
    return _update_of(
        mu,
        phi,
        sigma,
        [(mu_j, g(phi_j), s_j) for mu_j, phi_j, s_j in opponents],
        tau,
        epsilon,
        phi_max,
    )


def _update_of(
    mu: float,
    phi: float,
    sigma: float,
    opponents: Sequence[tuple[float, float, float]],
    tau: float,
    epsilon: float,
    phi_max: float,
) -> UpdateValues:
    """:func:`_period_update` for at least one opponent, each given as (mu_j, g(phi_j), s_j):
    g(phi_j) depends on the opponent alone, so a game computes it once per player."""
    # The terms of v, Delta and mu' exactly as ``v``, ``Delta`` and ``mu_prime`` compute them
    # (same expressions, same order, so the same floats), in one pass over the opponents with
    # E and 1 - E evaluated once per opponent instead of once per use.
    g_j: list[float] = []
    E_j: list[float] = []
    terms: list[float] = []
    total = 0.0
    exp = math.exp
    for mu_value, g_value, s_value in opponents:
        x = g_value * (mu - mu_value)
        # _logistic(x) and _logistic(-x) (E and 1 - E) from the one exp both evaluate.
        if x >= 0:
            t = exp(-x)
            E_value = 1.0 / (1.0 + t)
            complement = t / (1.0 + t)
        else:
            t = exp(x)
            E_value = t / (1.0 + t)
            complement = 1.0 / (1.0 + t)
        total += g_value**2 * E_value * complement
        terms.append(g_value * (s_value - E_value))
        g_j.append(g_value)
        E_j.append(E_value)
    v_value = 1.0 / total
    # sum() of the terms in order, as ``score_sum`` adds them.
    scores = sum(terms)
    Delta_value = v_value * scores
    sigma_new = sigma_prime(phi, sigma, v_value, Delta_value, tau, epsilon)
    # phi_star and phi_prime, written out.
    phi_star_value = min(math.sqrt(phi**2 + sigma_new**2), phi_max)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star_value**2 + 1.0 / v_value)
    mu_new = mu + phi_new**2 * scores
    return mu_new, phi_new, sigma_new, tuple(g_j), tuple(E_j), v_value, Delta_value, phi_star_value


def idle_phi(phi: float, sigma: float, periods: int, phi_max: float) -> float:
    """phi after ``periods`` no-game steps phi <- sqrt(phi^2 + sigma^2), capped at ``phi_max``.

    SYSTEMS.md "glicko2": RD grows by the no-game step for each empty period, capped at the
    initial RD. Applying the step n times gives sqrt(phi^2 + n sigma^2).
    """
    if periods <= 0:
        return phi
    return min(math.sqrt(phi**2 + periods * sigma**2), phi_max)


# --- The configured rater ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Glicko2Config(GlickoFamilyConfig):
    """A ladder's Glicko-2 parameters, checked and typed."""

    initial_volatility: float
    tau: float

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> Glicko2Config:
        return cls(
            **cls.family_values(params),
            initial_volatility=float(params["initial_volatility"]),
            tau=float(params["tau"]),
        )


@dataclass(frozen=True, slots=True)
class Glicko2Rater(GlickoFamilyRater[Glicko2Config]):
    """Glicko-2 configured with a ladder's parameters (see :data:`PARAMS`)."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        config = self.config
        return PlayerState(
            rating=config.initial_rating,
            deviation=config.initial_deviation,
            volatility=config.initial_volatility,
        )

    def _sigma(self, state: PlayerState) -> float:
        return self.config.initial_volatility if state.volatility is None else state.volatility

    def adjusted_values(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
    ) -> PlayerState:
        """Omitted deviation / volatility keep the previous (or initial) values."""
        deviation = self.adjusted_deviation(previous, deviation)
        if volatility is None:
            volatility = (
                self.config.initial_volatility if previous is None else self._sigma(previous)
            )
        require_finite(("volatility",), volatility)
        if not VOLATILITY_MIN <= volatility <= VOLATILITY_MAX:
            raise InvalidEvent(
                ("volatility",),
                f"must be between {VOLATILITY_MIN:g} and {VOLATILITY_MAX:g}, got {volatility:g}",
            )
        return PlayerState(rating=rating, deviation=deviation, volatility=volatility)

    def expected_score(
        self, player: PlayerState, opponent: PlayerState, game: Game | None = None
    ) -> float:
        """Glickman's E(mu, mu_j, phi_j): the player's expected score, discounted by the
        opponent's RD through g(phi_j) (the player's own RD does not enter, as in step 3)."""
        return E(to_mu(player.rating), to_mu(opponent.rating), to_phi(self._RD(opponent)))

    def pair_win_probability(self, r_a: float, RD_a: float, r_b: float, RD_b: float) -> float:
        """Glickman's two-deviation prediction on the display scale, where Glicko-2 states
        keep r and RD (SYSTEMS.md: the same formula for both systems;
        :func:`app.engine.glicko.win_probability`)."""
        return glicko.win_probability(r_a, RD_a, r_b, RD_b)

    def idle_periods(self, position: Position) -> int:
        """The number of empty periods since the state.

        An open period that held results was closed by Glickman's update (its phi* step is that
        period's growth), so only the periods after it are empty; an open period without
        results (an adjustment) is empty itself.
        """
        return max(position.elapsed - (1 if position.rated else 0), 0)

    def grown_deviation(self, state: PlayerState, periods: int) -> float:
        """The no-game step over ``periods`` empty periods, capped at the initial RD."""
        phi = idle_phi(
            to_phi(self._RD(state)),
            self._sigma(state),
            periods,
            to_phi(self.config.initial_deviation),
        )
        return to_RD(phi)

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        """The family's rating of a game (:meth:`GlickoFamilyRater.rate_game`), a free-for-all
        in ``"game"`` mode rated here directly: each game is its own period, so no player has
        earlier results in it, and Glicko-2 grows no RD before it (:meth:`idle_periods` is 0:
        the last game's phi* step was the growth), so each player starts from its state and
        the period machinery (positions, period starts, results) has nothing to do. The same
        expressions in the same order give the same floats; the details are rendered from
        the values kept (:func:`game_details`) by the family's :func:`period_details`."""
        config = self.config
        players = game.participants
        if config.period != PERIOD_GAME:
            return GlickoFamilyRater.rate_game(self, game, before, ladder_state)
        for p in players:
            if p.team is not None:
                return self.rate_sides(game, before)
        tau = config.tau
        phi_max = config.initial_deviation / SCALE
        keys = [PlayerKey(p.player) for p in players]
        states = [before[key] for key in keys]
        bases: list[PlayerState] = []
        # Each player's mu, phi, g(phi) and sigma, computed once per game: an opponent's
        # g(phi_j) is the same for every player it meets.
        seats: list[tuple[float, float, float, float]] = []
        for state in states:
            RD, sigma = state.deviation, state.volatility
            if RD is None or sigma is None:
                # As period_start: a state without RD or sigma starts from the initial ones.
                RD, sigma = self._RD(state), self._sigma(state)
                state = PlayerState(state.rating, RD, sigma)
            bases.append(state)
            phi = RD / SCALE
            seats.append(((state.rating - RATING_CENTRE) / SCALE, phi, g(phi), sigma))
        changes: list[Change] = []
        for i, me in enumerate(players):
            mu, phi, _, sigma = seats[i]
            # Pairwise by rank (SYSTEMS.md "glicko2"), as the family's rate_game.
            opponents: list[tuple[float, float, float]] = []
            for j, opponent in enumerate(players):
                if j != i:
                    opponents.append((seats[j][0], seats[j][2], duel_score(me, opponent)))
            values = _update_of(mu, phi, sigma, opponents, tau, EPSILON, phi_max)
            base = bases[i]
            # Step 8 as rate_results writes it.
            after = PlayerState(
                base.rating + SCALE * (values[0] - mu),
                SCALE * values[1],
                values[2],
                GAME_MODE_EXTRA,
            )
            state = states[i]
            details = Details(game_details, self, state, after, base, i, game, bases, values)
            changes.append(Change(keys[i], state, after, details))
        return Outcome(tuple(changes))

    def rate_results(self, base: PlayerState, results: tuple[PeriodResult, ...]) -> PeriodStep:
        """Steps 2-8 from the period-start state ``base`` over the period's results."""
        mu = to_mu(base.rating)
        phi = to_phi(self._RD(base))
        sigma = self._sigma(base)
        # Interpretation (docs/systems/glicko2.md): step 6's phi* is the period's no-game
        # growth, capped at the initial RD like the growth over empty periods.
        phi_max = to_phi(self.config.initial_deviation)
        opponents = [
            (to_mu(result.opponent_rating), to_phi(result.opponent_deviation), result.score)
            for result in results
        ]
        values = _period_update(mu, phi, sigma, opponents, self.config.tau, EPSILON, phi_max)
        mu_new, phi_new, sigma_new, g_j, E_j = values[:5]
        return PeriodStep(
            # Step 8, r' = 173.7178 mu' + 1500, written as r + 173.7178 (mu' - mu) so that a
            # change too small for float64 never turns into a rounding error of the opposite
            # sign.
            rating=base.rating + SCALE * (mu_new - mu),
            deviation=to_RD(phi_new),
            volatility=sigma_new,
            g=g_j,
            E=E_j,
            terms=Details(period_terms, sigma, mu, phi, values, self.config.tau),
        )


def period_terms(
    sigma: float, mu: float, phi: float, values: UpdateValues, tau: float
) -> dict[str, Json]:
    """Glickman's intermediate values of one period update, as a change's details show them."""
    update = PeriodUpdate(*values)
    return {
        "volatility_start": sigma,
        "mu": mu,
        "phi": phi,
        "g": list(update.g),
        "E": list(update.E),
        "v": update.v,
        "delta": update.Delta,
        "phi_star": update.phi_star,
        "mu_prime": update.mu,
        "phi_prime": update.phi,
        "tau": tau,
    }


SYSTEM = RatingSystem(info=INFO, config=Glicko2Config.from_params, rater=Glicko2Rater)


def game_details(
    rater: Glicko2Rater,
    state: PlayerState,
    after: PlayerState,
    base: PlayerState,
    i: int,
    game: Game,
    bases: Sequence[PlayerState],
    values: UpdateValues,
) -> dict[str, Json]:
    """The details of player ``i``'s change in a game that :meth:`Glicko2Rater.rate_game` rated
    in ``"game"`` mode: the family's :func:`period_details` of the period step and results the
    family's path builds."""
    mu = to_mu(base.rating)
    phi = to_phi(rater._RD(base))
    step = PeriodStep(
        rating=after.rating,
        deviation=to_RD(values[1]),
        volatility=values[2],
        g=values[3],
        E=values[4],
        terms=Details(period_terms, rater._sigma(base), mu, phi, values, rater.config.tau),
    )
    players = game.participants
    me = players[i]
    others = [j for j in range(len(players)) if j != i]
    results = [
        PeriodResult(bases[j].rating, rater._RD(bases[j]), duel_score(me, players[j]))
        for j in others
    ]
    names = [players[j].player for j in others]
    return period_details(rater, state, after, base, 0, None, step, 0, results, names, None)
