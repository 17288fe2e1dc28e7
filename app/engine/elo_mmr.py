"""Elo-MMR (Ebtekar & Liu, "Elo-MMR: A Rating System for Massive Multiplayer Competitions",
WWW 2021; SYSTEMS.md "elo-mmr"), logistic model, as EbTech/Elo-MMR's ``mmr`` system.

A round (a game of any size, or a contest's standings) is rated in three steps for every
player i, whose belief before the round is N(mu_i, sigma_i^2):

1. **Diffusion** (the paper's section 3.3, "pseudodiffusion"; the reference's
   ``add_noise_best`` with transfer speed 1). With the round's weight w = ``weight_limit``::

       sigma_drift^2 = w sig_limit^2 + drift_per_day * days since the player's last round
       sigma'        = sqrt(sigma^2 + sigma_drift^2),   kappa = (sigma / sigma')^2

   The player's history is a Gaussian factor N(mu_G, sigma_G^2) and logistic factors (one per
   past round: a centre p_k, a scale w_arg,k and a weight w_out,k). Each factor keeps the share
   kappa of its weight, and the share 1 - kappa moves into the Gaussian at the current mean::

       W_old  = kappa sigma_G^-2,   W_moved = (1 - kappa) (sigma_G^-2 + sum_k L_k)
       mu_G  <- (W_old mu_G + W_moved mu) / (W_old + W_moved)
       sigma_G <- (kappa (W_old + W_moved))^-1/2,   w_out,k <- kappa^2 w_out,k

   where L_k = 2 w_arg,k w_out,k / T^2 is factor k's weight and T = pi / sqrt(3).

2. **Performance** (section 3.2, equation (4) in its logistic form). With the performance
   deviation ``sigma_perf = sqrt((1 + 1/w) sig_limit^2 + drift_per_day / w)`` every player j
   is a term of scale ``s_j = sqrt(sigma_j'^2 + sigma_perf^2)``, ``c_j = T / s_j``, and player
   i's performance p_i is the root of the decreasing function::

       sum_{j beat i}  -c_j (tanh((p - mu_j) c_j / 2) + 1)
     + sum_{i beat j}  -c_j (tanh((p - mu_j) c_j / 2) - 1)
     + sum_{j tied i}  -2 c_j tanh((p - mu_j) c_j / 2)       (i itself included)

   With ``split_ties`` a tie counts half a win and half a loss (its term is halved).

3. **Update** (section 3.3, equation (6)). The round adds the logistic factor
   (p_i, w_arg = c/2, w_out = c) with c = T / sigma_perf; the new mean is the root of the
   increasing function::

       sigma_G^-2 (mu - mu_G) + sum_k w_out,k tanh((mu - p_k) w_arg,k)

   over all the player's factors, and the new deviation is
   ``(sigma'^-2 + sigma_perf^-2)^-1/2``. With ``max_history`` (not a source's parameter; the
   reference's bound on the history, tied there to its opponent subsampling) the oldest
   factors past it first fold into the Gaussian, their weight kept.

``rating`` is mu, ``deviation`` sigma, and the leaderboard ranks by ``ranking_value`` =
mu - 3 (sigma - sig_limit), the reference's display rating (with sig_limit 80).

A round where every player ties tells nothing and changes nothing (the reference skips it).
Roots are found by Newton's method kept inside a bracket that is known to hold the root
(bisection where a step would leave it), to full precision; the reference's own bracket
(-6000, 9000) would cut off ladders on other scales. The O(n^2) performance sums of a large
field are computed with numpy over all players at once (a 16,783-player round is 2.8e8 terms a
Newton step); players with the same belief are summed as one term with a count, which changes
no value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from app.engine.base import (
    RATING_LIMIT,
    BaseRater,
    RatingSystem,
    require_finite,
    require_player_count,
)
from app.engine.errors import InvalidEvent, IterationLimit
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.types import (
    Change,
    Details,
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
    Standing,
)

Vector = npt.NDArray[np.float64]

#: SYSTEMS.md "elo-mmr": defaults as EbTech/Elo-MMR's ``mmr`` system (its ``EloMMR::default``
#: and the binary's newcomer rating): mu_0 1500, sigma_0 350, weight_limit 0.2, sig_limit 80,
#: drift per day 0, ties not split.
MU = 1500.0
SIGMA = 350.0
WEIGHT_LIMIT = 0.2
SIG_LIMIT = 80.0
DRIFT_PER_DAY = 0.0
#: The reference's display rating: mu - 3 (sigma - sig_limit) ("3 is a conservative number of
#: stdevs", EbTech/Elo-MMR ``PlayerEvent::get_display_rating``).
DISPLAY_STDEVS = 3.0
#: pi / sqrt(3): the logistic distribution of standard deviation s has scale s / T.
T = math.pi / math.sqrt(3.0)
#: A round needs at least two players.
MIN_PLAYERS = 2
#: Not from the sources: the smallest deviation (initial, sig_limit, adjusted) a ladder may
#: set, a thousandth of a point; every reciprocal and square stays far from underflow.
DEVIATION_MIN = 1e-3
#: Not from the sources: the largest drift per day, in rating points squared (a deviation of
#: 1,000 points a day); larger makes every belief meaningless after one day.
DRIFT_MAX = 1e6
#: Not from the sources: the largest history bound, far past any player's rounds (a bound of
#: 0 keeps every performance).
MAX_HISTORY = 100_000
#: Newton's method converges quadratically: a step below this fraction of max(1, |x|) leaves
#: the root known to about its square; 100 steps bound the loop (bisection alone would need
#: about 60 to reach float precision on any bracket below 10^6 points wide).
ROOT_TOLERANCE = 1e-12
ROOT_STEPS = 100
#: Past this |z| every tanh is exactly +-1 in double precision (tanh(20) = 1 - 8.5e-18), so the
#: sign of the performance function at the bracket's ends is certain.
SATURATED_Z = 20.0
#: Rows x terms of one numpy block of the performance sums (32 MiB of doubles a block).
BLOCK_CELLS = 1 << 22

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "mu",
        "number",
        MU,
        "A new player's mean rating mu_0.",
        minimum=-SCALE_LIMIT,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "sigma",
        "number",
        SIGMA,
        "A new player's deviation sigma_0.",
        minimum=DEVIATION_MIN,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "weight_limit",
        "number",
        WEIGHT_LIMIT,
        "The weight w of a round, 0 < w <= 1: a long-standing player's deviation tends to "
        "sig_limit and a round moves it by about w of its performance's surprise.",
        minimum=0.0,
        maximum=1.0,
        exclusive_minimum=True,
    ),
    ParamSpec(
        "sig_limit",
        "number",
        SIG_LIMIT,
        "The deviation a regular player's rating tends to (also the display rating's offset).",
        minimum=DEVIATION_MIN,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "drift_per_day",
        "number",
        DRIFT_PER_DAY,
        "Variance (points squared) a rating gains per day between a player's rounds.",
        minimum=0.0,
        maximum=DRIFT_MAX,
    ),
    ParamSpec(
        "max_history",
        "integer",
        0,
        "The most performances a player's history keeps (0: all, the reference's default); "
        "older ones fold into its Gaussian factor, so its state stays bounded.",
        minimum=0,
        maximum=MAX_HISTORY,
    ),
    ParamSpec(
        "split_ties",
        "boolean",
        False,
        "Count a tie as half a win and half a loss (false: as a win and a loss, the "
        "reference's default).",
    ),
)

INFO = SystemInfo(
    id="elo-mmr",
    title="Elo-MMR",
    kind="game",
    description=(
        "Ebtekar and Liu's rating system for massive multiplayer rounds: each player's "
        "performance in a round is estimated against every other player (logistic model, ties "
        "as shared ranks), then its rating is the posterior mode over its own history of "
        "performances, older ones decaying toward a Gaussian. Any field size; leaderboards "
        "rank by mu - 3 (sigma - sig_limit)."
    ),
    sources=(
        "A. Ebtekar, P. Liu, Elo-MMR: A Rating System for Massive Multiplayer Competitions "
        "(The Web Conference, WWW 2021)",
        "EbTech/Elo-MMR, its mmr system (Rust), through its Python binding elo-mmr-py",
        "SYSTEMS.md: elo-mmr",
    ),
    params=PARAMS,
    rank_by="ranking_value",
    large_fields=True,
)


@dataclass(frozen=True, slots=True)
class EloMmrConfig:
    """A ladder's Elo-MMR parameters, checked and typed, with the round's constants."""

    mu: float = MU
    sigma: float = SIGMA
    weight_limit: float = WEIGHT_LIMIT
    sig_limit: float = SIG_LIMIT
    drift_per_day: float = DRIFT_PER_DAY
    split_ties: bool = False
    max_history: int = 0
    #: sigma_perf = sqrt((1 + 1/w) sig_limit^2 + drift_per_day / w).
    sigma_perf: float = 0.0
    #: w sig_limit^2, the part of sigma_drift^2 that every round adds.
    round_drift: float = 0.0

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> EloMmrConfig:
        w = float(params["weight_limit"])
        limit = float(params["sig_limit"])
        drift = float(params["drift_per_day"])
        return cls(
            mu=float(params["mu"]),
            sigma=float(params["sigma"]),
            weight_limit=w,
            sig_limit=limit,
            drift_per_day=drift,
            split_ties=bool(params["split_ties"]),
            max_history=int(params["max_history"]),
            sigma_perf=math.sqrt((1.0 + 1.0 / w) * limit * limit + drift / w),
            round_drift=w * limit * limit,
        )


@dataclass(frozen=True, slots=True)
class History:
    """A player's factors: the Gaussian N(mu_G, sigma_G^2) and one logistic factor per round
    (centre, w_arg, w_out), oldest first; ``at`` is the time of its last round (seconds since
    the epoch), None before the first."""

    mu: float
    sigma: float
    normal_mu: float
    normal_sigma: float
    centres: tuple[float, ...] = ()
    w_arg: tuple[float, ...] = ()
    w_out: tuple[float, ...] = ()
    at: float | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """One round rated: each player's performance, belief after diffusion and new history."""

    performance: tuple[float, ...]
    sigma_diffused: tuple[float, ...]
    after: tuple[History, ...]


def _solve(
    f: Callable[[Vector, npt.NDArray[np.intp]], tuple[Vector, Vector]],
    lo: Vector,
    hi: Vector,
    start: Vector,
) -> Vector:
    """The roots of increasing functions, one per row, each bracketed by [lo, hi]: Newton's
    method from ``start``, a bisection wherever a step would leave the shrinking bracket.
    ``f(x, rows)`` gives the values and derivatives at x of the functions of ``rows``."""
    lo = lo.copy()
    hi = hi.copy()
    x = np.clip(start, lo, hi)
    rows = np.arange(len(x))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for _ in range(ROOT_STEPS):
            xs = x[rows]
            value, slope = f(xs, rows)
            above = value > 0.0
            hi[rows] = np.where(above, xs, hi[rows])
            lo[rows] = np.where(value < 0.0, xs, lo[rows])
            step = xs - value / slope
            scale = np.maximum(1.0, np.abs(xs))
            # A step past an end by less than the tolerance lands on it (that end is then
            # within the tolerance of the root): bisecting there would crawl to the root.
            slack = ROOT_TOLERANCE * scale
            outside = ~((step >= lo[rows] - slack) & (step <= hi[rows] + slack))
            step = np.where(outside, 0.5 * (lo[rows] + hi[rows]), np.clip(step, lo[rows], hi[rows]))
            moved = np.abs(step - xs)
            done = (value == 0.0) | (moved <= ROOT_TOLERANCE * scale)
            x[rows] = np.where(value == 0.0, xs, step)
            rows = rows[~done]
            if not len(rows):
                break
        else:
            raise IterationLimit(f"Elo-MMR's root finding ran past {ROOT_STEPS} steps")
    if not np.all(np.isfinite(x)):
        raise ArithmeticError("Elo-MMR's root is not finite")
    return x


def _tanh_sums(x: Vector, centres: Vector, scale: Vector, out: Vector) -> tuple[Vector, Vector]:
    """sum_j out_j tanh((x_i - centre_j) scale_j) and its derivative in x_i, for every x_i,
    in blocks of at most :data:`BLOCK_CELLS` cells."""
    n = len(x)
    value = np.empty(n)
    slope = np.empty(n)
    block = max(1, BLOCK_CELLS // max(1, len(centres)))
    out_scale = out * scale
    for start in range(0, n, block):
        t = np.tanh((x[start : start + block, None] - centres) * scale)
        value[start : start + block] = t @ out
        slope[start : start + block] = (1.0 - t * t) @ out_scale
    return value, slope


def _ranged_tanh_sums(
    x: Vector,
    begin: npt.NDArray[np.intp],
    length: npt.NDArray[np.intp],
    centres: Vector,
    scale: Vector,
    out: Vector,
) -> tuple[Vector, Vector]:
    """As :func:`_tanh_sums`, each x_i over its own terms ``begin[i] : begin[i] + length[i]``
    only, in blocks of rows holding at most :data:`BLOCK_CELLS` terms (or one row)."""
    n = len(x)
    value = np.empty(n)
    slope = np.empty(n)
    ends = np.cumsum(length)
    start = 0
    while start < n:
        done = int(ends[start - 1]) if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, done + BLOCK_CELLS, side="right")))
        lengths = length[start:stop]
        row = np.repeat(np.arange(stop - start), lengths)
        first = np.cumsum(lengths) - lengths
        col = np.repeat(begin[start:stop] - first, lengths) + np.arange(len(row))
        arg = scale[col]
        t = np.tanh((x[start:stop][row] - centres[col]) * arg)
        weight = out[col]
        value[start:stop] = np.bincount(row, weight * t, minlength=stop - start)
        slope[start:stop] = np.bincount(row, weight * arg * (1.0 - t * t), minlength=stop - start)
        start = stop
    return value, slope


def rate_round(
    config: EloMmrConfig, players: Sequence[History], lows: Sequence[int], times: float
) -> Round:
    """One round (module docstring): ``players`` in any order, ``lows[i]`` the number of
    players who finished ahead of player i (its rank range's zero-based low end), ``times``
    the round's time in seconds since the epoch."""
    n = len(players)
    sig_perf = config.sigma_perf
    low = np.asarray(lows, dtype=np.int64)

    # 1. Diffusion of every player's belief and factors.
    mu = np.array([p.mu for p in players])
    sigma = np.array([p.sigma for p in players])
    elapsed_days = np.array(
        [0.0 if p.at is None else max(0.0, times - p.at) / 86_400.0 for p in players]
    )
    drift2 = config.round_drift + config.drift_per_day * elapsed_days
    sigma_new = np.sqrt(sigma * sigma + drift2)
    kappa = (sigma / sigma_new) ** 2
    counts = np.array([len(p.centres) for p in players], dtype=np.intp)
    width = int(counts.max()) + 1
    # Every player's factors in a row (its new one last), padded with weight 0.
    centres = np.zeros((n, width))
    w_arg = np.ones((n, width))
    w_out = np.zeros((n, width))
    for i, p in enumerate(players):
        k = counts[i]
        if k:
            centres[i, :k] = p.centres
            w_arg[i, :k] = p.w_arg
            w_out[i, :k] = p.w_out
    normal_w = np.array([p.normal_sigma for p in players]) ** -2.0
    normal_mu = np.array([p.normal_mu for p in players])
    logistic_w = (2.0 / (T * T)) * np.sum(w_arg * w_out, axis=1)
    kept = kappa * normal_w
    moved = (1.0 - kappa) * (normal_w + logistic_w)
    total = kept + moved
    normal_mu = (kept * normal_mu + moved * mu) / total
    normal_w = kappa * total
    w_out *= (kappa * kappa)[:, None]

    # 2. Performances: every player a term (mu_j, s_j) against every other.
    s = np.sqrt(sigma_new * sigma_new + sig_perf * sig_perf)
    c = T / s
    # Players with the same belief are one term with a count (exact: the same summand).
    pairs, multiplicity = np.unique(np.stack([mu, s]), axis=1, return_counts=True)
    term_mu, term_c = pairs[0], T / pairs[1]
    term_out = term_c * multiplicity
    # The constant part: +c_j for each player i beat, -c_j for each player who beat i.
    order = np.argsort(low, kind="stable")
    sorted_low = low[order]
    prefix = np.concatenate(([0.0], np.cumsum(c[order])))
    first = np.searchsorted(sorted_low, low, side="left")
    past = np.searchsorted(sorted_low, low, side="right")
    constant = (prefix[-1] - prefix[past]) - prefix[first]
    # Tied players (a player ties itself) count twice without split_ties: the same terms
    # again, grouped by (low end, belief) so each player's are one contiguous range.
    tie_factor = 0.0 if config.split_ties else 1.0
    ties, tie_multiplicity = np.unique(np.stack([low, mu, s]), axis=1, return_counts=True)
    tie_mu, tie_c = ties[1], T / ties[2]
    tie_out = tie_c * tie_multiplicity
    tie_begin = np.searchsorted(ties[0], low, side="left")
    tie_length = np.searchsorted(ties[0], low, side="right") - tie_begin

    def performance(x: Vector, rows: npt.NDArray[np.intp]) -> tuple[Vector, Vector]:
        value, slope = _tanh_sums(x, term_mu, term_c / 2.0, term_out)
        if tie_factor:
            tie_value, tie_slope = _ranged_tanh_sums(
                x, tie_begin[rows], tie_length[rows], tie_mu, tie_c / 2.0, tie_out
            )
            value += tie_value
            slope += tie_slope
        # Negated: the performance function decreases in x, _solve wants it increasing.
        return value - constant[rows], slope

    reach = SATURATED_Z * 2.0 / float(term_c.min())
    lo = np.full(n, float(mu.min()) - reach)
    hi = np.full(n, float(mu.max()) + reach)
    perf = _solve(performance, lo, hi, mu.copy())

    # 3. The new factor and the posterior mode over all the player's factors. With
    # max_history, the oldest factors past it first fold into the Gaussian, their weight kept
    # (the reference's update_rating_with_logistic with a bounded history).
    limit = config.max_history
    for _ in range(width if limit else 0):  # a row sheds at most the factors it has
        full = np.flatnonzero(counts >= limit)
        if not len(full):
            break
        weight = (2.0 / (T * T)) * w_arg[full, 0] * w_out[full, 0]
        normal_mu[full] = (normal_w[full] * normal_mu[full] + weight * centres[full, 0]) / (
            normal_w[full] + weight
        )
        normal_w[full] += weight
        for table, padding in ((centres, 0.0), (w_arg, 1.0), (w_out, 0.0)):
            table[full, :-1] = table[full, 1:]
            table[full, -1] = padding
        counts[full] -= 1
    c_perf = T / sig_perf
    rows_all = np.arange(n)
    centres[rows_all, counts] = perf
    w_arg[rows_all, counts] = c_perf / 2.0
    w_out[rows_all, counts] = c_perf
    used = np.arange(width)[None, :] <= counts[:, None]

    def posterior(x: Vector, rows: npt.NDArray[np.intp]) -> tuple[Vector, Vector]:
        t = np.tanh((x[:, None] - centres[rows]) * w_arg[rows])
        out = w_out[rows]
        value = normal_w[rows] * (x - normal_mu[rows]) + np.sum(out * t, axis=1)
        slope = normal_w[rows] + np.sum(out * w_arg[rows] * (1.0 - t * t), axis=1)
        return value, slope

    lowest = np.minimum(normal_mu, np.min(np.where(used, centres, np.inf), axis=1))
    highest = np.maximum(normal_mu, np.max(np.where(used, centres, -np.inf), axis=1))
    new_mu = _solve(posterior, lowest, highest, mu.copy())
    new_sigma = (sigma_new**-2.0 + sig_perf**-2.0) ** -0.5
    normal_sigma = normal_w**-0.5

    after = tuple(
        History(
            mu=float(new_mu[i]),
            sigma=float(new_sigma[i]),
            normal_mu=float(normal_mu[i]),
            normal_sigma=float(normal_sigma[i]),
            centres=tuple(centres[i, : counts[i] + 1].tolist()),
            w_arg=tuple(w_arg[i, : counts[i] + 1].tolist()),
            w_out=tuple(w_out[i, : counts[i] + 1].tolist()),
            at=times,
        )
        for i in range(n)
    )
    return Round(tuple(perf.tolist()), tuple(sigma_new.tolist()), after)


def ranking_value(mu: float, sigma: float, sig_limit: float) -> float:
    """SYSTEMS.md "elo-mmr": the display rating mu - 3 (sigma - sig_limit)."""
    return mu - DISPLAY_STDEVS * (sigma - sig_limit)


def history_of(state: PlayerState, config: EloMmrConfig) -> History:
    """The factors a state holds; a state without them (a new player's, an adjusted one) is
    the Gaussian N(rating, deviation^2) alone."""
    sigma = config.sigma if state.deviation is None else state.deviation
    extra = state.extra
    at = extra.get("at")
    normal = extra.get("normal")
    if normal is None:
        return History(state.rating, sigma, state.rating, sigma, at=at)
    return History(
        mu=state.rating,
        sigma=sigma,
        normal_mu=float(normal[0]),
        normal_sigma=float(normal[1]),
        centres=tuple(extra["centres"]),
        w_arg=tuple(extra["w_arg"]),
        w_out=tuple(extra["w_out"]),
        at=at,
    )


def state_of(history: History) -> PlayerState:
    """The stored state of a history: mu and sigma, the factors in ``extra`` (JSON lists)."""
    extra: dict[str, Json] = {
        "normal": [history.normal_mu, history.normal_sigma],
        "centres": list(history.centres),
        "w_arg": list(history.w_arg),
        "w_out": list(history.w_out),
        "at": history.at,
    }
    return PlayerState(rating=history.mu, deviation=history.sigma, extra=extra)


def low_ends(ranks: Sequence[int]) -> list[int]:
    """Each rank's zero-based low end: how many players have a better (smaller) rank."""
    ordered = sorted(ranks)
    better: dict[int, int] = {}
    for index, rank in enumerate(ordered):
        better.setdefault(rank, index)
    return [better[rank] for rank in ranks]


def _render(
    low: int,
    perf: float,
    sigma_perf: float,
    before: History,
    sigma_diffused: float,
    after: History,
    sig_limit: float,
) -> dict[str, Json]:
    return {
        "place": low + 1,
        "performance": perf,
        "sigma_perf": sigma_perf,
        "mu_before": before.mu,
        "sigma_before": before.sigma,
        "sigma_diffused": sigma_diffused,
        "mu_after": after.mu,
        "sigma_after": after.sigma,
        "ranking_value_before": ranking_value(before.mu, before.sigma, sig_limit),
        "ranking_value_after": ranking_value(after.mu, after.sigma, sig_limit),
        "factors": len(after.centres),
    }


@dataclass(frozen=True, slots=True)
class EloMmrRater(BaseRater[EloMmrConfig]):
    """Elo-MMR configured with a ladder's parameters."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=self.config.mu, deviation=self.config.sigma)

    def sigma(self, state: PlayerState) -> float:
        """A state's deviation (without one: the initial sigma)."""
        return self.config.sigma if state.deviation is None else state.deviation

    def standing(self, state: PlayerState) -> Standing:
        sigma = self.sigma(state)
        return Standing(
            rating=state.rating,
            deviation=sigma,
            ranking_value=ranking_value(state.rating, sigma, self.config.sig_limit),
        )

    def validate_game(self, game: Game) -> None:
        """Two players or more, any number (the ladder's field limit is the service's)."""
        require_player_count(game.participants, MIN_PLAYERS, None)

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        """Not from the sources (the paper rates rounds, it predicts no pair): p(a ahead of
        b) = 1 / (1 + exp(-T (mu_a - mu_b) / sqrt(s_a^2 + s_b^2))) with
        s^2 = sigma^2 + sigma_perf^2, the logistic of the two performance terms' combined
        deviation (the model's own terms, SYSTEMS.md "elo-mmr"). Individuals only."""
        if len(side) != 1 or len(other) != 1:
            return None
        a, b = side[0], other[0]
        perf2 = self.config.sigma_perf**2
        spread = math.sqrt(self.sigma(a) ** 2 + self.sigma(b) ** 2 + 2.0 * perf2)
        z = T * (a.rating - b.rating) / spread
        if z < 0.0:
            e = math.exp(z)
            return e / (1.0 + e)
        return 1.0 / (1.0 + math.exp(-z))

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        """One change per participant in input order (``details``: docs/systems/elo-mmr.md)."""
        config = self.config
        parts = game.participants
        keys = [PlayerKey(p.player) for p in parts]
        states = [before[key] for key in keys]
        ranks = [p.rank for p in parts]
        if len(set(ranks)) == 1:
            # Everyone tied: the round tells nothing (the reference skips it).
            skipped: Mapping[str, Json] = {"skipped": "every player tied"}
            return Outcome(
                changes=tuple(
                    Change(key, state, state, skipped)
                    for key, state in zip(keys, states, strict=True)
                )
            )
        histories = [history_of(state, config) for state in states]
        lows = low_ends(ranks)
        result = rate_round(config, histories, lows, game.played_at.timestamp())
        changes = tuple(
            Change(
                key,
                state,
                state_of(after),
                Details(
                    _render,
                    low,
                    perf,
                    config.sigma_perf,
                    prior,
                    diffused,
                    after,
                    config.sig_limit,
                ),
            )
            for key, state, prior, low, perf, diffused, after in zip(
                keys,
                states,
                histories,
                lows,
                result.performance,
                result.sigma_diffused,
                result.after,
                strict=True,
            )
        )
        return Outcome(changes=changes)

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """An administrator's mu (within +-:data:`RATING_LIMIT`) and sigma (within the
        ``sigma`` parameter's range; omitted: the previous or initial one). The player's
        history of performances is replaced by the Gaussian N(mu, sigma^2), as a new player
        with that belief. There is no volatility."""
        require_finite(("rating",), rating)
        if abs(rating) > RATING_LIMIT:
            raise InvalidEvent(
                ("rating",),
                f"must be between {-RATING_LIMIT:g} and {RATING_LIMIT:g}, got {rating:g}",
            )
        if volatility is not None:
            raise InvalidEvent(("volatility",), "this system has no volatility")
        if deviation is None:
            deviation = self.config.sigma if previous is None else self.sigma(previous)
        require_finite(("deviation",), deviation)
        if not DEVIATION_MIN <= deviation <= SCALE_LIMIT:
            raise InvalidEvent(
                ("deviation",),
                f"must be between {DEVIATION_MIN:g} and {SCALE_LIMIT:g}, got {deviation:g}",
            )
        extra: dict[str, Any] = {}
        if previous is not None and previous.extra.get("at") is not None:
            extra["at"] = previous.extra["at"]
        return PlayerState(rating=rating, deviation=deviation, extra=extra)


SYSTEM = RatingSystem(info=INFO, config=EloMmrConfig.from_params, rater=EloMmrRater)
