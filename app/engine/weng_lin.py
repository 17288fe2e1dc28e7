"""Weng-Lin Bayesian approximation (SYSTEMS.md ``weng-lin``; R. C. Weng, C.-J. Lin, "A Bayesian
Approximation Method for Online Ranking", JMLR 12, 2011): the system, and its arithmetic as
pure functions.

A side i (team) of members j with beliefs N(mu_ij, sigma_ij^2) has strength mu_i = sum_j mu_ij
and variance sigma_i^2 = sum_j sigma_ij^2, after the dynamics sigma_ij^2 += tau^2 of this game.
Each model computes, for every side, a mean step Omega_i and a variance step Delta_i from the
side ranks, and moves every member in proportion to its share of the side's variance:

    mu_ij    += sigma_ij^2 / sigma_i^2 * Omega_i
    sigma_ij *= sqrt(max(1 - sigma_ij^2 / sigma_i^2 * Delta_i, kappa))

(the paper's team update; kappa keeps the variance positive). gamma_i = sigma_i / c (for the
pairwise models c = c_iq) damps Delta_i. The five models (``model``):

* ``plackett-luce`` (Algorithm 4): c = sqrt(sum_i (sigma_i^2 + beta^2)), the ranking as a
  Plackett-Luce sequence of choices; with A_q the number of sides sharing side q's rank and
  p_{i,q} = e^(mu_i / c) / sum_{s: r(s) >= r(q)} e^(mu_s / c),
  Omega_i = sigma_i^2 / c * sum_{q: r(q) <= r(i)} (1[q = i] - p_{i,q}) / A_q,
  Delta_i = gamma_i sigma_i^2 / c^2 * sum_{q: r(q) <= r(i)} p_{i,q} (1 - p_{i,q}) / A_q.
* ``bradley-terry-full`` (Algorithm 1): every pair, c_iq = sqrt(sigma_i^2 + sigma_q^2 + 2
  beta^2), p_iq = 1 / (1 + e^((mu_q - mu_i) / c_iq)), s = 1, 1/2, 0 for i ahead, level,
  behind: Omega_i = sum_q sigma_i^2 / c_iq (s - p_iq),
  Delta_i = sum_q gamma_i sigma_i^2 / c_iq^2 p_iq p_qi.
* ``bradley-terry-part`` (Algorithm 2): the same over the sides within ``window_size`` places
  of i in rank order, averaged over those comparisons.
* ``thurstone-mosteller-full`` (Algorithm 3): every pair, with t = epsilon / c_iq and
  x = (mu_i - mu_q) / c_iq: ahead Omega += sigma_i^2 / c_iq v(x, t), Delta += gamma_i
  sigma_i^2 / c_iq^2 w(x, t); behind the same with -v(-x, t), w(-x, t); level with v~, w~.
* ``thurstone-mosteller-part`` (after Algorithm 3): the windowed, averaged form, with
  c_iq = 2 sqrt(sigma_i^2 + sigma_q^2 + 2 beta^2).

Ties are equal ranks (A_q, s = 1/2, v~ and w~). These are the models of the openskill libraries,
and every choice that the paper leaves open is openskill.py 6.x's with its defaults, so that
the results agree with it (the tests check 1e-9): the window of 4 and doubled c_iq of the
partial models, the draw margin epsilon 0.1, the guards of v, w, v~, w~ in the far tails, and
the weights below. One choice differs: tied sides are taken in a content order
(:func:`app.engine.gaussian.rank_order`), not the listing's, so that the partial models'
windows do not depend on how the sides are listed.

Weights (SYSTEMS.md: "weights as openskill's ``weights``"): when any member of the game has a
weight other than 1, each side's weights are rescaled to ``weight_bounds`` (openskill's
default [1, 2]: the side's smallest weight maps to 1, its largest to 2, a side of one member or
of equal weights to 2 or 1) and a member's step is Omega * w (Delta * w) when the side gains
and Omega / w (Delta / w) when it loses: a heavier member gains more and loses less. A game
whose weights are all 1 is rated without weights.

Match quality: the system has none of its own (openskill's ``predict_draw`` is a draw
probability under its own margin, not a quality), so the rater gives None and the service uses
1 - |2p - 1| of the least even pair (API.md "Teams").
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from app.engine.base import RatingSystem
from app.engine.gaussian import (
    BETA,
    SIGMA,
    Gaussian,
    GaussianConfig,
    GaussianRater,
    Ratings,
    Side,
    Update,
    check_game,
    mu_param,
    rank_order,
    ranking_multiplier_param,
    spread_param,
    tau_param,
)
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.types import FULL_WEIGHT, Json, PlayerState

PLACKETT_LUCE = "plackett-luce"
BRADLEY_TERRY_FULL = "bradley-terry-full"
BRADLEY_TERRY_PART = "bradley-terry-part"
THURSTONE_MOSTELLER_FULL = "thurstone-mosteller-full"
THURSTONE_MOSTELLER_PART = "thurstone-mosteller-part"
MODELS = (
    PLACKETT_LUCE,
    BRADLEY_TERRY_FULL,
    BRADLEY_TERRY_PART,
    THURSTONE_MOSTELLER_FULL,
    THURSTONE_MOSTELLER_PART,
)
_PARTIAL = (BRADLEY_TERRY_PART, THURSTONE_MOSTELLER_PART)
_BRADLEY_TERRY = (BRADLEY_TERRY_FULL, BRADLEY_TERRY_PART)

#: openskill's defaults (SYSTEMS.md ``weng-lin``): kappa 1e-4, tau 25/300 written as openskill
#: writes it (mu 25, sigma 25/3 and beta 25/6 are the defaults :mod:`app.engine.gaussian`
#: shares with TrueSkill).
KAPPA = 0.0001
TAU = 25.0 / 300.0
#: openskill's draw margin of the Thurstone-Mosteller models.
EPSILON = 0.1
#: openskill's window of the partial-pairing models (sides compared on each side of i).
WINDOW_SIZE = 4
#: Not from the sources: the widest window, the most sides a game can have (the API takes at
#: most 100 players a game); a wider window would compare nothing more.
WINDOW_SIZE_MAX = 100
#: openskill's ``weight_bounds``: each side's weights are rescaled to [1, 2].
WEIGHT_BOUNDS = (1.0, 2.0)
#: openskill's stand-in range when a side's weights are all equal (so they map to the lower
#: bound) - a division guard, kept for agreement.
FLAT_WEIGHT_RANGE = 0.0001
#: openskill's guards of v, w, w~: Phi below machine epsilon counts as 0.
_FLOAT_EPSILON = sys.float_info.epsilon
#: openskill's guard of v~: a draw window of probability below this uses the limit -x -+ t.
_DRAW_WINDOW_FLOOR = 1e-5
#: openskill's phi and Phi are :class:`statistics.NormalDist`'s, whose Phi (1 + erf) / 2 has
#: absolute rather than relative precision in the lower tail; the guards above compare against
#: it, so the same functions are used here (the TrueSkill module keeps erfc's precision).
_NORMAL = NormalDist()
cdf = _NORMAL.cdf
pdf = _NORMAL.pdf
#: Ranks of s in the pairwise models: 1 when i finished ahead of q, 1/2 level, 0 behind.
_AHEAD, _LEVEL, _BEHIND = 1.0, 0.5, 0.0

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "model",
        "string",
        PLACKETT_LUCE,
        "The update rule: plackett-luce (the ranking as a sequence of choices), "
        "bradley-terry-full / -part (logistic pairs: every pair, or neighbours within "
        "window_size), thurstone-mosteller-full / -part (Gaussian pairs with draw margin "
        "epsilon).",
        choices=MODELS,
    ),
    mu_param("mu: the mean skill of a player before its first game."),
    spread_param("sigma", SIGMA, "sigma: the deviation (uncertainty) of a new player's skill."),
    spread_param("beta", BETA, "beta: the performance noise."),
    ParamSpec(
        "kappa",
        "number",
        KAPPA,
        "kappa: the floor of the variance factor, so that sigma never collapses in one game "
        "(sigma shrinks at most by sqrt(kappa)); 1: sigma never shrinks.",
        minimum=0.0,
        exclusive_minimum=True,
        maximum=1.0,
    ),
    tau_param(TAU, "tau: the dynamics; every player's sigma^2 grows by tau^2 before each game."),
    ParamSpec(
        "epsilon",
        "number",
        EPSILON,
        "epsilon: the draw margin of the Thurstone-Mosteller models (unused by the others).",
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "window_size",
        "integer",
        WINDOW_SIZE,
        "The partial models compare each side with the sides within this many places of it "
        "in rank order (unused by the full models and Plackett-Luce).",
        minimum=1,
        maximum=WINDOW_SIZE_MAX,
    ),
    ranking_multiplier_param(),
)

INFO = SystemInfo(
    id="weng-lin",
    title="Weng-Lin (OpenSkill)",
    kind="game",
    description=(
        "Weng and Lin's Bayesian approximation, as the openskill libraries implement it: each "
        "player's skill is a belief N(mu, sigma^2); closed-form updates of every side from the "
        "sides' ranks (equal ranks draw) by the model chosen: Plackett-Luce (default), "
        "Bradley-Terry or Thurstone-Mosteller, full or partial pairing. Each member moves by "
        "its share of its side's variance; sigma^2 grows by tau^2 before each game; "
        "leaderboards rank by mu - 3 sigma. Teams, free-for-alls and weights (openskill's)."
    ),
    sources=(
        "R. C. Weng, C.-J. Lin, A Bayesian Approximation Method for Online Ranking "
        "(Journal of Machine Learning Research 12, 2011)",
        "openskill.py 6.x (V. Bungus), its models and defaults",
        "SYSTEMS.md: Teams, weng-lin, Win probability of one side over another",
    ),
    params=PARAMS,
    rank_by="ranking_value",
    sides=True,
    weights=True,
)


@dataclass(frozen=True, slots=True)
class WengLinConfig(GaussianConfig):
    """A ladder's Weng-Lin parameters, checked and typed."""

    tau: float = TAU
    model: str = PLACKETT_LUCE
    kappa: float = KAPPA
    epsilon: float = EPSILON
    window_size: int = WINDOW_SIZE

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> WengLinConfig:
        return cls(
            model=str(params["model"]),
            mu=float(params["mu"]),
            sigma=float(params["sigma"]),
            beta=float(params["beta"]),
            kappa=float(params["kappa"]),
            tau=float(params["tau"]),
            epsilon=float(params["epsilon"]),
            window_size=int(params["window_size"]),
            ranking_multiplier=float(params["ranking_multiplier"]),
        )


# --- the paper's functions of the Thurstone-Mosteller models (openskill's guards) -------------


def v(x: float, t: float) -> float:
    """v(x, t) = phi(x - t) / Phi(x - t); -(x - t) where Phi(x - t) underflows."""
    xt = x - t
    denom = cdf(xt)
    return -xt if denom < _FLOAT_EPSILON else pdf(xt) / denom


def w(x: float, t: float) -> float:
    """w(x, t) = v(x, t) (v(x, t) + x - t); its limit 1 or 0 where Phi(x - t) underflows."""
    xt = x - t
    denom = cdf(xt)
    if denom < _FLOAT_EPSILON:
        return 1.0 if x < 0 else 0.0
    vx = pdf(xt) / denom
    return vx * (vx + xt)


def vt(x: float, t: float) -> float:
    """v~(x, t) = (phi(-t - |x|) - phi(t - |x|)) / (Phi(t - |x|) - Phi(-t - |x|)), odd in x;
    the limit -x -+ t when the draw window has probability below 1e-5."""
    xx = abs(x)
    b = cdf(t - xx) - cdf(-t - xx)
    if b < _DRAW_WINDOW_FLOOR:
        return -x - t if x < 0 else -x + t
    a = pdf(-t - xx) - pdf(t - xx)
    return (-a if x < 0 else a) / b


def wt(x: float, t: float) -> float:
    """w~(x, t) = ((t - |x|) phi(t - |x|) + (t + |x|) phi(-t - |x|)) / (Phi(t - |x|) -
    Phi(-t - |x|)) + v~(x, t)^2; 1 when the window's probability underflows."""
    xx = abs(x)
    b = cdf(t - xx) - cdf(-t - xx)
    if b < _FLOAT_EPSILON:
        return 1.0
    return ((t - xx) * pdf(t - xx) + (t + xx) * pdf(-t - xx)) / b + vt(x, t) ** 2


def _logistic(x: float) -> float:
    """1 / (1 + e^x) without overflow for large |x|."""
    if x > 0.0:
        e = math.exp(-x)
        return e / (1.0 + e)
    return 1.0 / (1.0 + math.exp(x))


# --- the models: (Omega_i, Delta_i) per side, sides in rank order -----------------------------

#: A model's step: sides' mu_i, sigma_i^2 and ranks (rank order) -> (Omega_i, Delta_i) each.
_Steps = list[tuple[float, float]]


def _plackett_luce(c: float, mus: list[float], vars_: list[float], ranks: list[int]) -> _Steps:
    """Algorithm 4 (module docstring), over the rank groups.

    With the sides in rank order, the q with r(q) <= r(i) are the groups up to i's, and the
    A_g sides of a group g share S_g = sum_{s: r(s) >= r(g)} e^(mu_s / c), so
    Omega_i = sigma_i^2 / c (1 / A_i - sum_g p_{i,g}) and
    Delta_i = gamma_i sigma_i^2 / c^2 sum_g p_{i,g} (1 - p_{i,g}), p_{i,g} = e^(mu_i / c) / S_g,
    with c = sqrt(sum_i (sigma_i^2 + beta^2)) (given by :func:`update`). The S_g are kept as
    logarithms, so no e^(mu / c) overflows or vanishes.
    """
    n = len(mus)
    scaled = [mu / c for mu in mus]
    # log S for the group starting at each index: suffix log-sum-exp of mu / c.
    log_suffix = scaled[:]
    for i in range(n - 2, -1, -1):
        a, b = log_suffix[i], log_suffix[i + 1]
        log_suffix[i] = max(a, b) + math.log1p(math.exp(-abs(a - b)))
    starts = [i for i in range(n) if i == 0 or ranks[i] != ranks[i - 1]]
    ends = [*starts[1:], n]
    steps: _Steps = []
    for g, (start, end) in enumerate(zip(starts, ends, strict=True)):
        for i in range(start, end):
            omega = 1.0 / (end - start)
            delta = 0.0
            for q in starts[: g + 1]:
                p = math.exp(scaled[i] - log_suffix[q])
                omega -= p
                delta += p * (1.0 - p)
            var = vars_[i]
            gamma = math.sqrt(var) / c
            steps.append((var / c * omega, gamma * var / (c * c) * delta))
    return steps


def _outcome(rank_i: int, rank_q: int) -> float:
    if rank_q > rank_i:
        return _AHEAD
    return _LEVEL if rank_q == rank_i else _BEHIND


def _bradley_terry_pair(
    config: WengLinConfig, mu_i: float, s2_i: float, mu_q: float, s2_q: float, s: float
) -> tuple[float, float]:
    """Algorithms 1 and 2: one comparison's (Omega, Delta) terms."""
    c_iq = math.sqrt(s2_i + s2_q + 2.0 * config.beta * config.beta)
    p_iq = _logistic((mu_q - mu_i) / c_iq)
    ratio = s2_i / c_iq
    gamma = math.sqrt(s2_i) / c_iq
    return ratio * (s - p_iq), gamma * ratio / c_iq * p_iq * (1.0 - p_iq)


def _thurstone_mosteller_pair(
    config: WengLinConfig, c_iq: float, mu_i: float, s2_i: float, mu_q: float, s: float
) -> tuple[float, float]:
    """Algorithm 3: one comparison's (Omega, Delta) terms, x = (mu_i - mu_q) / c_iq."""
    x = (mu_i - mu_q) / c_iq
    t = config.epsilon / c_iq
    ratio = s2_i / c_iq
    scale = math.sqrt(s2_i) / c_iq * ratio / c_iq  # gamma_i sigma_i^2 / c_iq^2
    if s == _AHEAD:
        return ratio * v(x, t), scale * w(x, t)
    if s == _BEHIND:
        return -ratio * v(-x, t), scale * w(-x, t)
    return ratio * vt(x, t), scale * wt(x, t)


def _pairwise(
    config: WengLinConfig,
    mus: list[float],
    vars_: list[float],
    ranks: list[int],
    window: int | None,
) -> _Steps:
    """Algorithms 1-3: sum over every other side (``window`` None) or average over the sides
    within ``window`` places in rank order (partial pairing)."""
    n = len(mus)
    bradley_terry = config.model in _BRADLEY_TERRY
    beta2 = config.beta * config.beta
    steps: _Steps = []
    for i in range(n):
        lo, hi = (0, n) if window is None else (max(0, i - window), min(n, i + window + 1))
        omega = delta = 0.0
        comparisons = 0
        for q in range(lo, hi):
            if q == i:
                continue
            s = _outcome(ranks[i], ranks[q])
            if bradley_terry:
                d_omega, d_delta = _bradley_terry_pair(
                    config, mus[i], vars_[i], mus[q], vars_[q], s
                )
            else:
                c_iq = math.sqrt(vars_[i] + vars_[q] + 2.0 * beta2)
                if window is not None:
                    c_iq *= 2.0  # openskill 6.x's partial Thurstone-Mosteller doubles c_iq
                d_omega, d_delta = _thurstone_mosteller_pair(
                    config, c_iq, mus[i], vars_[i], mus[q], s
                )
            omega += d_omega
            delta += d_delta
            comparisons += 1
        if window is not None and comparisons:
            omega, delta = omega / comparisons, delta / comparisons
        steps.append((omega, delta))
    return steps


def _normalized_weights(weights: list[float]) -> list[float]:
    """openskill's per-side rescaling of the weights to :data:`WEIGHT_BOUNDS` (module
    docstring)."""
    low, high = WEIGHT_BOUNDS
    if len(weights) == 1:
        return [high]
    smallest = min(weights)
    spread = (max(weights) - smallest) or FLAT_WEIGHT_RANGE
    return [(x - smallest) / spread * (high - low) + low for x in weights]


def update(config: WengLinConfig, sides: Sequence[Side], ranks: Sequence[int]) -> Update:
    """The new belief of every member after one game (sides with ranks, 1 best, equal = draw),
    sides and members in the input's order (every sigma includes this game's dynamics tau),
    with the formula's terms: each side's ``mu`` (mu_i), ``sigma_squared`` (sigma_i^2),
    ``omega`` and ``delta`` (Omega_i, Delta_i) and, in a game with weights, the members'
    ``weight_factors`` (the factor each step was multiplied by); the game's ``model`` and, for
    Plackett-Luce, its ``c``.
    """
    check_game(sides, ranks)
    order = rank_order(sides, ranks)
    tau2 = config.tau * config.tau
    # Dynamics first (openskill: sigma = sqrt(sigma^2 + tau^2)); sides in rank order.
    members: list[list[tuple[float, float]]] = []
    mus: list[float] = []
    vars_: list[float] = []
    weighted = False
    for k in order:
        row = []
        mu_sum = var_sum = 0.0
        for m in sides[k]:
            sigma = math.sqrt(m.rating.sigma * m.rating.sigma + tau2)
            row.append((m.rating.mu, sigma))
            mu_sum += m.rating.mu
            var_sum += sigma * sigma
            weighted = weighted or m.weight != FULL_WEIGHT
        members.append(row)
        mus.append(mu_sum)
        vars_.append(var_sum)
    sorted_ranks = [ranks[k] for k in order]
    game: dict[str, Json] = {"model": config.model}
    if config.model == PLACKETT_LUCE:
        c = math.sqrt(sum(vars_) + len(mus) * config.beta * config.beta)
        game["c"] = c
        steps = _plackett_luce(c, mus, vars_, sorted_ranks)
    else:
        window = config.window_size if config.model in _PARTIAL else None
        steps = _pairwise(config, mus, vars_, sorted_ranks, window)
    # openskill's partial Thurstone-Mosteller counts Omega = 0 as a loss (its other models as a
    # gain); it matters only for the weights of a side whose step is exactly 0.
    strict_gain = config.model == THURSTONE_MOSTELLER_PART

    kappa = config.kappa
    result: list[tuple[Gaussian, ...]] = [()] * len(sides)
    side_terms: list[Mapping[str, Json]] = [{}] * len(sides)
    for pos, k in enumerate(order):
        omega, delta = steps[pos]
        side_var = vars_[pos]
        terms: dict[str, Json] = {
            "mu": mus[pos],
            "sigma_squared": side_var,
            "omega": omega,
            "delta": delta,
        }
        if weighted:
            gains = omega > 0.0 if strict_gain else omega >= 0.0
            weights = _normalized_weights([m.weight for m in sides[k]])
            factors = weights if gains else [1.0 / x for x in weights]
            terms["weight_factors"] = factors
        else:
            factors = [FULL_WEIGHT] * len(sides[k])
        new_side = []
        for (mu, sigma), f in zip(members[pos], factors, strict=True):
            share = sigma * sigma / side_var
            shrink = 1.0 - share * delta * f
            new_side.append(
                Gaussian(
                    mu + share * omega * f, sigma * math.sqrt(shrink if shrink > kappa else kappa)
                )
            )
        result[k] = tuple(new_side)
        side_terms[k] = terms
    return Update(tuple(result), tuple(side_terms), game)


def rate(config: WengLinConfig, sides: Sequence[Side], ranks: Sequence[int]) -> Ratings:
    """The new belief of every member after one game (:func:`update` without its terms)."""
    return update(config, sides, ranks).ratings


def win_probability(config: WengLinConfig, a: Side, b: Side) -> float:
    """SYSTEMS.md "Win probability": openskill's ``predict_win`` for two sides,
    Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 + sigma_b^2)) on side sums (no dynamics, no
    weights, whatever the model). p(a, b) + p(b, a) = 1."""
    mu_a = sum(m.rating.mu for m in a)
    mu_b = sum(m.rating.mu for m in b)
    var = (
        2.0 * config.beta**2 + sum(m.rating.sigma**2 for m in a) + sum(m.rating.sigma**2 for m in b)
    )
    return cdf((mu_a - mu_b) / math.sqrt(var))


@dataclass(frozen=True, slots=True)
class WengLinRater(GaussianRater[WengLinConfig]):
    """Weng-Lin configured with a ladder's parameters (match quality: None, module docstring)."""

    def update(self, sides: Sequence[Side], ranks: Sequence[int]) -> Update:
        return update(self.config, sides, ranks)

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        return win_probability(self.config, self.side(side), self.side(other))


SYSTEM = RatingSystem(info=INFO, config=WengLinConfig.from_params, rater=WengLinRater)
