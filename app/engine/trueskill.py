"""TrueSkill (SYSTEMS.md ``trueskill``; R. Herbrich, T. Minka, T. Graepel, "TrueSkill(TM): A
Bayesian Skill Rating System", NIPS 2006): the system, and its arithmetic as pure functions.

The model: member i of a side has skill s_i ~ N(mu_i, sigma_i^2 + tau^2) (the dynamics tau
are added before the game), performance p_i ~ N(s_i, beta^2); the side's
performance is the weighted sum t = sum_i w_i p_i (partial play: w_i in (0, 1]); sides sorted by
rank, and for each pair of neighbouring sides the difference d = t_a - t_b is observed to be
> eps (a win) or |d| <= eps (a draw), with the draw margin

    eps = Phi^-1((p_draw + 1) / 2) * sqrt(n_a + n_b) * beta

for sides of n_a and n_b players (the paper's draw probability p_draw between two sides).

Inference is the paper's message passing on its factor graph (Figure 1): the prior, likelihood
and weighted-sum factors send their messages down once; on the chain of differences the paper's
schedule is iterated - down and up from the best pair to the worst, then back - until no
truncation message changes by more than :data:`EP_TOLERANCE` or, where rounding keeps very
precise messages moving, by more than :data:`EP_ROUNDING` of itself (at most
:data:`EP_MAX_ITERATIONS` rounds, a bound on a loop and not a tuning knob: ``IterationLimit``
past it); then the messages
go up to every skill. The factor updates are those of the paper's Table 1, with the truncation
functions

    win:  v(t, e) = phi(t - e) / Phi(t - e),  w(t, e) = v (v + t - e)
    draw: v~(t, e) = (phi(-e - t) - phi(e - t)) / (Phi(e - t) - Phi(-e - t)),
          w~(t, e) = v~^2 + ((e - t) phi(e - t) + (e + t) phi(e + t)) / (Phi(e - t) - Phi(-e - t))

(written for t >= 0; v~ is odd in t and w~ even). For two sides the schedule is exact after one
round: it is the well-known closed form mu_i += +-w_i s_i / c * v, sigma_i^2 = s_i (1 - w_i^2
s_i / c^2 * w) with s_i = sigma_i^2 + tau^2, c^2 = sum_j w_j^2 (s_j + beta^2) over both sides
and v, w taken at t = (sum w mu_a - sum w mu_b) / c, e = eps / c.

Match quality (the paper's matchmaking criterion, the draw probability relative to that of
equal sides, in the matrix form of J. Moser's "The Math Behind TrueSkill"):
with A the members-by-(sides - 1) matrix of weighted neighbour differences, Sigma the diagonal of
sigma_i^2 and mu the vector of means,

    q = sqrt(det(beta^2 A^T A) / det(beta^2 A^T A + A^T Sigma A))
        * exp(-1/2 mu^T A (beta^2 A^T A + A^T Sigma A)^-1 A^T mu);

both matrices are tridiagonal, so their determinants and the solve take one pass. Two new
players: q = sqrt(beta^2 / (beta^2 + sigma^2)) = sqrt(1/5) = 0.447.

The implementation follows the schedule, stopping rule and weight floor of the reference
package ``trueskill`` (H. Lee, used by the tests as an independent check) but keeps every
message as two floats; beyond 6 c into the losing tail the truncation functions use the
continued fraction of Mills' ratio, where phi / Phi would lose precision and, past ~38 c,
underflow (the reference package then falls back to v = -x or fails). Tied sides are taken in
a content order (:func:`app.engine.gaussian.rank_order`) rather than the listing's, since the
chain - and so the result, from three sides on - depends on their order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from app.engine.base import RatingSystem
from app.engine.errors import IterationLimit
from app.engine.gaussian import (
    BETA,
    SIGMA,
    TAU,
    Gaussian,
    GaussianConfig,
    GaussianRater,
    Ratings,
    Side,
    Update,
    cdf,
    check_game,
    draw_terms,
    mu_param,
    ppf,
    rank_order,
    ranking_multiplier_param,
    spread_param,
    tau_param,
    win_terms,
)
from app.engine.params import ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.types import Json, PlayerState

#: Herbrich et al. / SYSTEMS.md: draw probability 10 % (mu 25, sigma 25/3, beta 25/6 and tau
#: 25/300 are the defaults :mod:`app.engine.gaussian` shares with Weng-Lin).
DRAW_PROBABILITY = 0.10
#: Not from the sources: p_draw lies within a millionth of 0 and 1. Within (0, 1) Phi^-1 is
#: finite; at 0 the draw margin vanishes and a drawn game could not be rated (and at 1 every
#: game would be a draw). A millionth keeps the margin's window wide enough to compute.
DRAW_PROBABILITY_MIN = 1e-6
DRAW_PROBABILITY_MAX = 1.0 - DRAW_PROBABILITY_MIN
#: SYSTEMS.md: the schedule stops when no truncation message moves by more than this (in the
#: precision-adjusted mean tau and sqrt of the precision pi, as the reference package measures).
EP_TOLERANCE = 1e-4
#: Not from the sources: a message term that moves by no more than this fraction of itself
#: counts as unmoved. The tolerance above is absolute, and a truncation that is nearly certain
#: (w near 1: a draw or an upset of sides many beta apart, sides of members weighted near 0)
#: multiplies its message's precision by 1 / (1 - w) and the rounding of every message before
#: it as much: such a chain cycles at its fixed point, its sqrt(pi) moving by more than 1e-4
#: each round, and would never stop (about 1 game in 7,000 of 3 to 10 sides 24 beta apart
#: with ties). Messages of ordinary games are far below 1e4 in |tau| and pi, where a move
#: within this fraction is within the tolerance anyway, so they stop when the reference
#: package's rule says (the tests agree with it to 1e-6).
EP_ROUNDING = 1e-8
#: SYSTEMS.md: the schedule runs at most this many rounds (a bound, not a tuning knob; real
#: games converge in a handful). Past it: IterationLimit, which refuses the game (seen only
#: for chains of sides thousands of beta apart).
EP_MAX_ITERATIONS = 100
#: A weight below this counts as this: the sum factor divides by the weight, so a vanishing
#: weight would give an infinite variance. It is the reference package's floor.
MIN_WEIGHT = 1e-4

PARAMS: tuple[ParamSpec, ...] = (
    mu_param("mu: the mean skill of a player before its first game."),
    spread_param("sigma", SIGMA, "sigma: the deviation (uncertainty) of a new player's skill."),
    spread_param(
        "beta",
        BETA,
        "beta: the performance noise; a skill gap of beta gives the better of two certain "
        "players about 76 % to win.",
    ),
    tau_param(TAU, "tau: the dynamics; every player's sigma^2 grows by tau^2 before each game."),
    ParamSpec(
        "draw_probability",
        "number",
        DRAW_PROBABILITY,
        "p_draw: the probability that two equal sides draw; it sets the draw margin "
        "eps = Phi^-1((p_draw + 1) / 2) sqrt(n_a + n_b) beta.",
        minimum=DRAW_PROBABILITY_MIN,
        maximum=DRAW_PROBABILITY_MAX,
    ),
    ranking_multiplier_param(),
)

INFO = SystemInfo(
    id="trueskill",
    title="TrueSkill",
    kind="game",
    description=(
        "TrueSkill: each player's skill is a belief N(mu, sigma^2); a side's performance is the "
        "weighted sum of its members' performances (skill + N(0, beta^2)), and the sides' "
        "order by rank (equal ranks draw) is observed by message passing on the paper's "
        "factor graph (exact for two sides, iterated for more). sigma^2 grows by tau^2 "
        "before each game; leaderboards rank by mu - 3 sigma. Teams, free-for-alls and "
        "partial play (weights)."
    ),
    sources=(
        "R. Herbrich, T. Minka, T. Graepel, TrueSkill(TM): A Bayesian Skill Rating System "
        "(NIPS 2006)",
        "J. Moser, Computing Your Skill and The Math Behind TrueSkill (2010), and the test "
        "cases of his C# Skills",
        "SYSTEMS.md: Teams, trueskill, Win probability of one side over another",
    ),
    params=PARAMS,
    rank_by="ranking_value",
    sides=True,
    weights=True,
)


@dataclass(frozen=True, slots=True)
class TrueSkillConfig(GaussianConfig):
    """A ladder's TrueSkill parameters, checked and typed, with what every game reuses."""

    draw_probability: float = DRAW_PROBABILITY
    beta2: float = field(init=False)
    tau2: float = field(init=False)
    #: Phi^-1((p_draw + 1) / 2): the draw margin of two sides of one player, over sqrt(2) beta.
    draw_quantile: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "beta2", self.beta * self.beta)
        object.__setattr__(self, "tau2", self.tau * self.tau)
        object.__setattr__(self, "draw_quantile", ppf((self.draw_probability + 1.0) / 2.0))

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> TrueSkillConfig:
        return cls(
            mu=float(params["mu"]),
            sigma=float(params["sigma"]),
            beta=float(params["beta"]),
            tau=float(params["tau"]),
            draw_probability=float(params["draw_probability"]),
            ranking_multiplier=float(params["ranking_multiplier"]),
        )


# --- truncation functions (paper, Table 1; their arithmetic is in app/engine/gaussian.py) ---


def v_win(t: float, e: float) -> float:
    """v(t, e) = phi(t - e) / Phi(t - e): the mean shift of a win (Table 1)."""
    return win_terms(t, e)[0]


def w_win(t: float, e: float) -> float:
    """w(t, e) = v (v + t - e): the variance shrink of a win, in [0, 1) (Table 1)."""
    return win_terms(t, e)[1]


def v_draw(t: float, e: float) -> float:
    """v~(t, e), odd in t (Table 1)."""
    return draw_terms(t, e)[0]


def w_draw(t: float, e: float) -> float:
    """w~(t, e), even in t, in (0, 1) (Table 1)."""
    return draw_terms(t, e)[1]


def _truncation(t: float, e: float, draw: bool) -> tuple[float, float]:
    """(v, w) of the observed outcome; an ArithmeticError (the game refused, as an overflow
    would be) when the arithmetic has left its range: w must lie in [0, 1) for a variance to
    shrink and stay positive."""
    v, w = draw_terms(t, e) if draw else win_terms(t, e)
    if not (math.isfinite(v) and 0.0 <= w < 1.0):
        raise ArithmeticError(
            f"the sides' ratings are too far apart for TrueSkill's arithmetic (v {v!r}, w {w!r})"
        )
    return v, w


# --- message passing --------------------------------------------------------------------------
# Messages are (pi, tau) = (1 / variance, mean / variance); (0, 0) is the uniform message.


def _message(mean: float, variance: float) -> tuple[float, float]:
    return (0.0, 0.0) if math.isinf(variance) else (1.0 / variance, mean / variance)


def _variance(pi: float) -> float:
    return math.inf if pi == 0.0 else 1.0 / pi


def _mean(pi: float, tau: float) -> float:
    return 0.0 if pi == 0.0 else tau / pi


def _moved(new: float, old: float) -> float:
    """|new - old|, or 0 when that is within :data:`EP_ROUNDING` of their size: rounding, not
    a step of the schedule."""
    moved = abs(new - old)
    return 0.0 if moved <= EP_ROUNDING * max(abs(new), abs(old)) else moved


def _chain(
    means: list[float], variances: list[float], margins: list[float], draws: list[bool]
) -> tuple[list[float], list[float], int]:
    """The difference layer of the factor graph for three sides or more: side performances
    t_0..t_{K-1} (best first) with priors N(means, variances), differences d_k = t_k - t_{k+1}
    truncated by ``margins`` (``draws``: |d_k| <= eps, else d_k > eps). Runs the paper's
    schedule and returns, per side, the message (pi, tau) the differences send to t_k, and
    the number of rounds it took (IterationLimit past :data:`EP_MAX_ITERATIONS`).
    """
    n = len(means)
    pr_pi = [1.0 / v for v in variances]
    pr_tau = [m / v for m, v in zip(means, variances, strict=True)]
    # Messages into t_k from the difference on its left (d_{k-1}) and on its right (d_k),
    # and into d_k from its truncation factor.
    lf_pi, lf_tau = [0.0] * n, [0.0] * n
    rt_pi, rt_tau = [0.0] * n, [0.0] * n
    tr_pi, tr_tau = [0.0] * (n - 1), [0.0] * (n - 1)

    def down_and_truncate(k: int) -> float:
        """Sum factor d_k = t_k - t_{k+1} down to d_k, then its truncation factor; returns how
        far its message moved (in tau and sqrt(pi), the reference package's measure)."""
        a_pi = pr_pi[k] + lf_pi[k]
        b_pi = pr_pi[k + 1] + rt_pi[k + 1]
        var = 1.0 / a_pi + 1.0 / b_pi
        div_pi = 1.0 / var
        div_tau = ((pr_tau[k] + lf_tau[k]) / a_pi - (pr_tau[k + 1] + rt_tau[k + 1]) / b_pi) / var
        sqrt_pi = math.sqrt(div_pi)
        v, w = _truncation(div_tau / sqrt_pi, margins[k] * sqrt_pi, draws[k])
        new_pi, new_tau = div_pi / (1.0 - w), (div_tau + sqrt_pi * v) / (1.0 - w)
        msg_pi, msg_tau = new_pi - div_pi, new_tau - div_tau
        delta = max(_moved(msg_tau, tr_tau[k]), math.sqrt(_moved(msg_pi, tr_pi[k])))
        tr_pi[k], tr_tau[k] = msg_pi, msg_tau
        return delta

    def up_left(k: int) -> None:
        """Sum factor of d_k up to t_k = d_k + t_{k+1}."""
        b_pi = pr_pi[k + 1] + rt_pi[k + 1]
        mean = _mean(tr_pi[k], tr_tau[k]) + (pr_tau[k + 1] + rt_tau[k + 1]) / b_pi
        rt_pi[k], rt_tau[k] = _message(mean, _variance(tr_pi[k]) + 1.0 / b_pi)

    def up_right(k: int) -> None:
        """Sum factor of d_k up to t_{k+1} = t_k - d_k."""
        a_pi = pr_pi[k] + lf_pi[k]
        mean = (pr_tau[k] + lf_tau[k]) / a_pi - _mean(tr_pi[k], tr_tau[k])
        lf_pi[k + 1], lf_tau[k + 1] = _message(mean, 1.0 / a_pi + _variance(tr_pi[k]))

    last = n - 2
    rounds = 0
    delta = math.inf
    while delta > EP_TOLERANCE:
        if rounds == EP_MAX_ITERATIONS:
            raise IterationLimit(
                f"TrueSkill's message passing did not converge in {EP_MAX_ITERATIONS} rounds"
            )
        rounds += 1
        delta = 0.0
        for k in range(last):
            delta = max(delta, down_and_truncate(k))
            up_right(k)
        for k in range(last, 0, -1):
            delta = max(delta, down_and_truncate(k))
            up_left(k)
    up_left(0)
    up_right(last)
    return (
        [lf + rt for lf, rt in zip(lf_pi, rt_pi, strict=True)],
        [lf + rt for lf, rt in zip(lf_tau, rt_tau, strict=True)],
        rounds,
    )


def update(config: TrueSkillConfig, sides: Sequence[Side], ranks: Sequence[int]) -> Update:
    """The new belief of every member after one game (sides with ranks, 1 best, equal = draw),
    sides and members in the input's order (every sigma includes this game's dynamics tau),
    with the formula's terms: each side's performance prior (``performance_mean`` sum w mu,
    ``performance_variance`` sum w^2 (sigma^2 + tau^2 + beta^2)); for two sides the closed
    form's ``c``, ``draw_margin`` eps, ``t``, ``v`` and ``w`` (t from the view of the side
    first in rank order), for more the neighbours' ``draw_margins`` in rank order and the
    ``iterations`` of the schedule.
    """
    check_game(sides, ranks)
    order = rank_order(sides, ranks)
    beta2 = config.beta2
    tau2 = config.tau2
    # Per sorted side: members' (weight, mean, variance incl. tau^2), and the side's
    # performance prior N(sum w mu, sum w^2 (sigma^2 + tau^2 + beta^2)) (the sum factor down).
    members: list[list[tuple[float, float, float]]] = []
    means: list[float] = []
    variances: list[float] = []
    for k in order:
        row = []
        mean = var = 0.0
        for m in sides[k]:
            w = max(MIN_WEIGHT, m.weight)
            s2 = m.rating.sigma * m.rating.sigma + tau2
            row.append((w, m.rating.mu, s2))
            mean += w * m.rating.mu
            var += w * w * (s2 + beta2)
        members.append(row)
        means.append(mean)
        variances.append(var)
    quantile = config.draw_quantile
    margins = [
        quantile * math.sqrt(len(sides[a]) + len(sides[b])) * config.beta
        for a, b in pairwise(order)
    ]
    draws = [ranks[a] == ranks[b] for a, b in pairwise(order)]
    side_terms: list[Mapping[str, Json]] = [{}] * len(sides)
    for pos, k in enumerate(order):
        side_terms[k] = {"performance_mean": means[pos], "performance_variance": variances[pos]}

    if len(order) == 2:
        # One truncation: the schedule is exact after one round, the closed form of the
        # module docstring (c^2 the variance of d = t_0 - t_1).
        c = math.sqrt(variances[0] + variances[1])
        t = (means[0] - means[1]) / c
        v, w = _truncation(t, margins[0] / c, draws[0])
        rated = []
        for sign, row in ((1.0, members[0]), (-1.0, members[1])):
            rated.append(
                tuple(
                    Gaussian(
                        mu + sign * weight * s2 / c * v,
                        math.sqrt(s2 * (1.0 - weight * weight * s2 / (c * c) * w)),
                    )
                    for weight, mu, s2 in row
                )
            )
        ratings = (rated[0], rated[1]) if order[0] == 0 else (rated[1], rated[0])
        game: Mapping[str, Json] = {"c": c, "draw_margin": margins[0], "t": t, "v": v, "w": w}
        return Update(ratings, tuple(side_terms), game)

    cav_pi, cav_tau, rounds = _chain(means, variances, margins, draws)
    result: list[tuple[Gaussian, ...]] = [()] * len(sides)
    for pos, k in enumerate(order):
        # What the rest of the graph says about this side's performance (its cavity).
        side_var = _variance(cav_pi[pos])
        side_mean = _mean(cav_pi[pos], cav_tau[pos])
        new_side = []
        for w, mu, s2 in members[pos]:
            # Weighted-sum factor up to p_i = (t - sum_{j != i} w_j p_j) / w_i, likelihood
            # factor to s_i (variance + beta^2), times the prior N(mu_i, s2_i).
            others_mean = means[pos] - w * mu
            others_var = variances[pos] - w * w * (s2 + beta2)
            var = (side_var + others_var) / (w * w) + beta2
            pi, tau = 1.0 / s2, mu / s2
            if not math.isinf(var):
                pi += 1.0 / var
                tau += (side_mean - others_mean) / w / var
            new_side.append(Gaussian(tau / pi, math.sqrt(1.0 / pi)))
        result[k] = tuple(new_side)
    game = {"draw_margins": margins, "iterations": rounds}
    return Update(tuple(result), tuple(side_terms), game)


def rate(config: TrueSkillConfig, sides: Sequence[Side], ranks: Sequence[int]) -> Ratings:
    """The new belief of every member after one game (:func:`update` without its terms)."""
    return update(config, sides, ranks).ratings


def _side_sums(config: TrueSkillConfig, side: Side) -> tuple[float, float]:
    """A side's performance without dynamics: mean sum w mu and variance sum w^2 (sigma^2 +
    beta^2) (the paper's weighted team performance)."""
    beta2 = config.beta2
    mean = sum(m.weight * m.rating.mu for m in side)
    var = sum(m.weight * m.weight * (m.rating.sigma**2 + beta2) for m in side)
    return mean, var


def win_probability(config: TrueSkillConfig, a: Side, b: Side) -> float:
    """SYSTEMS.md "Win probability": P(side a performs better than side b) =
    Phi((mu_a - mu_b) / sqrt((n_a + n_b) beta^2 + sigma_a^2 + sigma_b^2)) on side sums; with
    weights, the weighted sums of the model (sum w mu and sum w^2 (sigma^2 + beta^2)), which is
    the same for weights 1. p(a, b) + p(b, a) = 1."""
    mean_a, var_a = _side_sums(config, a)
    mean_b, var_b = _side_sums(config, b)
    return cdf((mean_a - mean_b) / math.sqrt(var_a + var_b))


def quality(config: TrueSkillConfig, sides: Sequence[Side]) -> float:
    """Match quality q in (0, 1] (module docstring): the draw probability of the proposed
    match relative to that of a match of equal sides; 1 is perfectly even.

    The neighbour-difference matrices are tridiagonal, with S_k = sum w^2 (beta^2 + sigma^2)
    and B_k = beta^2 sum w^2 per side: M = beta^2 A^T A + A^T Sigma A has diagonal S_r + S_{r+1}
    and off-diagonal -S_{r+1}, likewise beta^2 A^T A with B. Their LDL^T factorisations,
    d_r = S_{r+1} + e_r with e_0 = S_0 and e_r = 1 / (1 / S_r + 1 / e_{r-1}) (the usual
    d_r = diag_r - off_r^2 / d_{r-1}, rearranged so that only positive terms are added: no
    cancellation, whatever the weights), give the log-determinants, and forward substitution
    z_r = x_r + S_r / d_{r-1} z_{r-1} the quadratic form sum z_r^2 / d_r; q is computed in logs
    so that many sides cannot overflow a determinant.
    """
    check_game(sides, [0] * len(sides))
    beta2 = config.beta2
    s_terms = [sum(m.weight**2 * (beta2 + m.rating.sigma**2) for m in side) for side in sides]
    b_terms = [beta2 * sum(m.weight**2 for m in side) for side in sides]
    means = [sum(m.weight * m.rating.mu for m in side) for side in sides]
    log_det_m = log_det_b = quad = 0.0
    e_m, e_b = s_terms[0], b_terms[0]
    d_m = z = 0.0
    for r in range(len(sides) - 1):
        x = means[r] - means[r + 1]
        if r > 0:
            z = x + s_terms[r] / d_m * z
            e_m = 1.0 / (1.0 / s_terms[r] + 1.0 / e_m)
            e_b = 1.0 / (1.0 / b_terms[r] + 1.0 / e_b)
        else:
            z = x
        d_m = s_terms[r + 1] + e_m
        d_b = b_terms[r + 1] + e_b
        log_det_m += math.log(d_m)
        log_det_b += math.log(d_b)
        quad += z * z / d_m
    return math.exp(0.5 * (log_det_b - log_det_m) - 0.5 * quad)


@dataclass(frozen=True, slots=True)
class TrueSkillRater(GaussianRater[TrueSkillConfig]):
    """TrueSkill configured with a ladder's parameters."""

    def update(self, sides: Sequence[Side], ranks: Sequence[int]) -> Update:
        return update(self.config, sides, ranks)

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        return win_probability(self.config, self.side(side), self.side(other))

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None:
        return quality(self.config, [self.side(states) for states in sides])


SYSTEM = RatingSystem(info=INFO, config=TrueSkillConfig.from_params, rater=TrueSkillRater)
