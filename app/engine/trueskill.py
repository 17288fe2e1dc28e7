"""TrueSkill (SYSTEMS.md ``trueskill``; R. Herbrich, T. Minka, T. Graepel, "TrueSkill(TM): A
Bayesian Skill Rating System", NIPS 2006): the arithmetic only, as pure functions.

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
truncation message changes by more than :data:`EP_TOLERANCE` (at most :data:`EP_MAX_ITERATIONS`
rounds, a bound on a loop and not a tuning knob); then the messages go up to every skill. The
factor updates are those of the paper's Table 1, with the truncation functions

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
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.engine.errors import InvalidParameter, NonFiniteResult
from app.engine.gaussian import Gaussian, Ratings, Side, cdf, check_game, pdf, ppf, rank_order

#: Herbrich et al. / SYSTEMS.md defaults: mu 25, sigma = mu / 3, beta = sigma / 2,
#: tau = sigma / 100, p_draw 10 %.
MU = 25.0
SIGMA = MU / 3.0
BETA = SIGMA / 2.0
TAU = SIGMA / 100.0
DRAW_PROBABILITY = 0.10
#: SYSTEMS.md ``trueskill``: ``ranking_value`` = mu - 3 sigma.
RANKING_MULTIPLIER = 3.0
#: SYSTEMS.md: the schedule stops when no truncation message moves by more than this (in the
#: precision-adjusted mean tau and sqrt of the precision pi, as the reference package measures).
EP_TOLERANCE = 1e-4
#: SYSTEMS.md: the schedule runs at most this many rounds (a bound, not a tuning knob; real
#: games converge in a handful).
EP_MAX_ITERATIONS = 100
#: A weight below this counts as this: the sum factor divides by the weight, so a vanishing
#: weight would give an infinite variance. It is the reference package's floor.
MIN_WEIGHT = 1e-4
#: Below -MILLS_SWITCH the truncation functions use Mills' ratio instead of phi / Phi; from 6
#: on, MILLS_TERMS terms of its continued fraction agree with the quotient to 1e-14.
MILLS_SWITCH = 6.0
MILLS_TERMS = 20


@dataclass(frozen=True, slots=True)
class TrueSkillConfig:
    """The parameters of SYSTEMS.md ``trueskill`` (ranges checked here)."""

    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    tau: float = TAU
    draw_probability: float = DRAW_PROBABILITY

    def __post_init__(self) -> None:
        for name in ("mu", "sigma", "beta", "tau", "draw_probability"):
            if not math.isfinite(getattr(self, name)):
                raise InvalidParameter(name, "must be a finite number")
        if self.sigma <= 0.0:
            raise InvalidParameter("sigma", "must be > 0")
        if self.beta <= 0.0:
            raise InvalidParameter("beta", "must be > 0")
        if self.tau < 0.0:
            raise InvalidParameter("tau", "must be >= 0")
        if not 0.0 < self.draw_probability < 1.0:
            # 0 would make a draw impossible (a drawn game could not be rated), 1 every game.
            raise InvalidParameter("draw_probability", "must be in (0, 1)")

    def initial(self) -> Gaussian:
        """A new player's belief N(mu, sigma^2)."""
        return Gaussian(self.mu, self.sigma)


# --- truncation functions (paper, Table 1) ----------------------------------------------------


def _mills_tail(z: float) -> float:
    """G(z) = 1 / (z + 2 / (z + 3 / (z + ...))), so that phi(z) / (1 - Phi(z)) = z + G(z)
    (the continued fraction of Mills' ratio), for z >= MILLS_SWITCH."""
    f = z
    for k in range(MILLS_TERMS, 1, -1):
        f = z + k / f
    return 1.0 / f


def _win_terms(t: float, e: float) -> tuple[float, float]:
    """(v, w) of a win (Table 1): v = phi(x) / Phi(x), w = v (v + x) with x = t - e; in the far
    tail v = z + G(z), w = (z + G(z)) G(z) with z = -x, which avoids the cancellation in v + x."""
    x = t - e
    if x < -MILLS_SWITCH:
        g = _mills_tail(-x)
        return g - x, (g - x) * g
    v = pdf(x) / cdf(x)
    return v, v * (v + x)


def _draw_terms(t: float, e: float) -> tuple[float, float]:
    """(v~, w~) of a draw (Table 1), with a = e - |t|, b = -e - |t|:
    v~ = sign(t) (phi(b) - phi(a)) / (Phi(a) - Phi(b)),
    w~ = v~^2 + (a phi(a) - b phi(b)) / (Phi(a) - Phi(b)). In the far tail (a < -6) both are
    divided through by phi(a), with Phi(x) = phi(x) / (-x + G(-x)) and
    phi(b) / phi(a) = e^(-2 e |t|)."""
    s = abs(t)
    a, b = e - s, -e - s
    if a < -MILLS_SWITCH:
        ratio = math.exp(-2.0 * e * s)
        denom = 1.0 / (_mills_tail(-a) - a) - ratio / (_mills_tail(-b) - b)
        v = (ratio - 1.0) / denom
        w = v * v + (a - b * ratio) / denom
    else:
        denom = cdf(a) - cdf(b)
        v = (pdf(b) - pdf(a)) / denom
        w = v * v + (a * pdf(a) - b * pdf(b)) / denom
    return (-v if t < 0 else v), w


def v_win(t: float, e: float) -> float:
    """v(t, e) = phi(t - e) / Phi(t - e): the mean shift of a win (Table 1)."""
    return _win_terms(t, e)[0]


def w_win(t: float, e: float) -> float:
    """w(t, e) = v (v + t - e): the variance shrink of a win, in [0, 1) (Table 1)."""
    return _win_terms(t, e)[1]


def v_draw(t: float, e: float) -> float:
    """v~(t, e), odd in t (Table 1)."""
    return _draw_terms(t, e)[0]


def w_draw(t: float, e: float) -> float:
    """w~(t, e), even in t, in (0, 1) (Table 1)."""
    return _draw_terms(t, e)[1]


def _truncation(t: float, e: float, draw: bool) -> tuple[float, float]:
    """(v, w) of the observed outcome, refused when the arithmetic has left its range."""
    v, w = _draw_terms(t, e) if draw else _win_terms(t, e)
    if not (math.isfinite(v) and 0.0 <= w < 1.0):
        raise NonFiniteResult(
            ("teams",), "the sides' ratings are too far apart for TrueSkill's arithmetic"
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


def _chain(
    means: list[float], variances: list[float], margins: list[float], draws: list[bool]
) -> tuple[list[float], list[float]]:
    """The difference layer of the factor graph for three sides or more: side performances
    t_0..t_{K-1} (best first) with priors N(means, variances), differences d_k = t_k - t_{k+1}
    truncated by ``margins`` (``draws``: |d_k| <= eps, else d_k > eps). Runs the paper's
    schedule and returns, per side, the message (pi, tau) the differences send to t_k.
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
        far d_k's marginal moved (in tau and sqrt(pi), the reference package's measure)."""
        a_pi = pr_pi[k] + lf_pi[k]
        b_pi = pr_pi[k + 1] + rt_pi[k + 1]
        var = 1.0 / a_pi + 1.0 / b_pi
        div_pi = 1.0 / var
        div_tau = ((pr_tau[k] + lf_tau[k]) / a_pi - (pr_tau[k + 1] + rt_tau[k + 1]) / b_pi) / var
        sqrt_pi = math.sqrt(div_pi)
        v, w = _truncation(div_tau / sqrt_pi, margins[k] * sqrt_pi, draws[k])
        new_pi, new_tau = div_pi / (1.0 - w), (div_tau + sqrt_pi * v) / (1.0 - w)
        delta = max(abs(new_tau - div_tau - tr_tau[k]), math.sqrt(abs(new_pi - div_pi - tr_pi[k])))
        tr_pi[k], tr_tau[k] = new_pi - div_pi, new_tau - div_tau
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
    for _ in range(EP_MAX_ITERATIONS):
        delta = 0.0
        for k in range(last):
            delta = max(delta, down_and_truncate(k))
            up_right(k)
        for k in range(last, 0, -1):
            delta = max(delta, down_and_truncate(k))
            up_left(k)
        if delta <= EP_TOLERANCE:
            break
    up_left(0)
    up_right(last)
    return (
        [lf + rt for lf, rt in zip(lf_pi, rt_pi, strict=True)],
        [lf + rt for lf, rt in zip(lf_tau, rt_tau, strict=True)],
    )


def rate(config: TrueSkillConfig, sides: Sequence[Side], ranks: Sequence[int]) -> Ratings:
    """The new belief of every member after one game (sides with ranks, 1 best, equal = draw).

    Returns the sides and members in the input's order; every member's sigma includes the
    dynamics tau of this game.
    """
    check_game(sides, ranks)
    order = rank_order(sides, ranks)
    beta2 = config.beta * config.beta
    tau2 = config.tau * config.tau
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
    quantile = ppf((config.draw_probability + 1.0) / 2.0)
    margins = [
        quantile * math.sqrt(len(sides[a]) + len(sides[b])) * config.beta
        for a, b in pairwise(order)
    ]
    draws = [ranks[a] == ranks[b] for a, b in pairwise(order)]

    if len(order) == 2:
        # One truncation: the schedule is exact after one round, the closed form of the
        # module docstring (c^2 the variance of d = t_0 - t_1).
        c = math.sqrt(variances[0] + variances[1])
        v, w = _truncation((means[0] - means[1]) / c, margins[0] / c, draws[0])
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
        return (rated[0], rated[1]) if order[0] == 0 else (rated[1], rated[0])

    cav_pi, cav_tau = _chain(means, variances, margins, draws)
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
    return tuple(result)


def _side_sums(config: TrueSkillConfig, side: Side) -> tuple[float, float]:
    """A side's performance without dynamics: mean sum w mu and variance sum w^2 (sigma^2 +
    beta^2) (the paper's weighted team performance)."""
    beta2 = config.beta * config.beta
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
    beta2 = config.beta * config.beta
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
