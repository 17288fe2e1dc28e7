"""TrueSkill Through Time (SYSTEMS.md ``ttt``; P. Dangauthier, R. Herbrich, T. Minka, T. Graepel,
"TrueSkill Through Time: Revisiting the History of Chess", NIPS 2007; G. Landfried, E. Mocskos,
"TrueSkill Through Time: reliable initial skill estimates and historical comparability with
Julia, Python and R", Journal of Statistical Software): one Bayesian network over a ladder's
whole history, solved by expectation propagation.

The model. Player i has one skill variable per UTC day on which it plays, s_i(d_1), s_i(d_2),
... (the games of one day form one batch and share the day's skill):

    s_i(d_1) ~ N(mu, sigma^2)                               (a new player's prior)
    s_i(d_k) ~ N(s_i(d_{k-1}), gamma^2 (d_k - d_{k-1}))     (drift, days elapsed)

and every game is TrueSkill's game (Herbrich et al. 2006; :mod:`app.engine.trueskill`): a
member's performance p = s + N(0, beta^2), a side's performance t = sum_i w_i p_i (weights in
(0, 1]), sides sorted by rank, and for neighbours a, b the difference d = t_a - t_b observed
d > eps (a win) or |d| <= eps (a draw), eps = Phi^-1((p_draw + 1) / 2) sqrt(n_a + n_b) beta.

Inference (the papers' section on the forward-backward algorithm). Every skill variable's
belief is the product of three messages, in natural parameters (pi = 1 / variance, tau =
mean / variance): the *forward* message from the player's previous day (its prior for the
first day), the *backward* message from its next day, and the *likelihood*, the product of
the messages of that day's games. Along a player's days the messages drift:

    forward(d_k)  = forget(forward(d_{k-1}) * likelihood(d_{k-1}), d_k - d_{k-1})
    backward(d_k) = forget(likelihood(d_{k+1}) * backward(d_{k+1}), d_{k+1} - d_k)
    forget(N(m, v), t) = N(m, v + gamma^2 t)

and a game's message to a member is TrueSkill's update of the member's *cavity* (its belief
without this game's own message): for two sides the closed form, with c^2 = sum_j w_j^2
(v_j + beta^2) over both sides, t = (sum w m_a - sum w m_b) / c, e = eps / c and TrueSkill's
truncation functions v, w (win or draw, :func:`app.engine.gaussian.win_terms`):

    message to member i of the side ahead (+) or behind (-):
        variance (c^2 / w - w_i^2 v_i) / w_i^2,   mean m_i +- c v / (w w_i)

and for three sides or more the paper's message schedule on the chain of differences,
iterated to its fixed point within the game. A *sweep* runs forward through the days (new
forward messages, then every game of the day once) and back (new backward messages, then every
game again); sweeps repeat until no posterior mean moves by more than :data:`TOLERANCE` in a
sweep, and the moves still to come (the sweeps converge geometrically; see :func:`_remaining`)
add up to no more than that either, at most ``max_sweeps`` (:data:`MAX_SWEEPS`) times; once
the sweeps shrink by a steady ratio they are extrapolated to their limit (see
:func:`_extrapolate`), which the sweeps after it correct. The first sweep from nothing is
TrueSkill's filtering (each day sees only the past); the fixed
point is the smoothed estimate that every later sweep leaves as it is.

``rating`` is a player's posterior mean at its last day, ``deviation`` that posterior's sigma;
the curve holds the same for every day it played. Defaults as the reference package
``trueskillthroughtime`` (Landfried; PyPI): mu 0, sigma 6, beta 1, gamma 0.03, p_draw 0.

A fit's ``state`` is every game's message to each of its players, by player and day: a warm
start seeds the sweeps with them (a game's own stale message is divided out before its first
update, so a seed only saves sweeps and never moves the fixed point), and :meth:`TttRater.add_game`
updates a new game's players from them alone: their cavities from their own days, the game's
message, and one forward-backward pass over each of those players' days.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from itertools import pairwise

from app.engine.base import BaseRater, RatingSystem, require_player_count
from app.engine.errors import InvalidEvent
from app.engine.gaussian import (
    DEVIATION_MIN,
    MILLS_SWITCH,
    MIN_SIDES,
    cdf,
    draw_terms,
    ppf,
    win_terms,
)
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.protocols import CurvePoint, Fit, SystemInfo
from app.engine.types import FULL_WEIGHT, Game, Json, PlayerKey, PlayerState, Standing

#: The reference package's defaults (``trueskillthroughtime``: MU, SIGMA = 6 BETA, BETA,
#: GAMMA = 0.03 BETA, P_DRAW), SYSTEMS.md ``ttt``. gamma is per day here (the package's time
#: unit is the caller's; the ladder's is the UTC day).
MU = 0.0
SIGMA = 6.0
BETA = 1.0
GAMMA = 0.03
P_DRAW = 0.0
#: Not from the sources: p_draw stays a millionth below 1 (at 1 the margin is infinite and every
#: game a draw; the package refuses p_draw >= 1 too).
P_DRAW_MAX = 1.0 - 1e-6
#: SYSTEMS.md: sweeps stop when no posterior mean moves by more than this in a sweep (the
#: package's EPSILON).
TOLERANCE = 1e-6
#: SYSTEMS.md: at most this many sweeps, a bound and not a knob (real histories converge in
#: tens); past it the fit is returned with ``converged`` false.
MAX_SWEEPS = 1000
#: The schedule within a game of three sides or more stops when no truncation message moves by
#: more than this fraction of its size (plus this, absolutely), or after
#: :data:`GAME_MAX_ROUNDS` rounds. Not from the sources (the package: 1e-6 and 10 rounds); a
#: tighter stop costs a few rounds of a rare game and keeps the game's message a function of
#: its cavities to ~1e-10, so the history's fixed point is the one of exact game messages.
GAME_TOLERANCE = 1e-10
#: Not from the sources: the bound on those rounds. Past it the game's messages are the last
#: round's (an approximation, as the package's after its 10 rounds), not an error: the fit of
#: the whole history must not fail on one game, and the sweeps' own bound still holds.
GAME_MAX_ROUNDS = 100
#: Not from the sources: the sweeps are extrapolated (:func:`_extrapolate`) once this many
#: sweeps in a row moved the means by a ratio that held within this fraction of 1 - ratio.
#: The slow mode of a whole history is the level of groups of players against each other,
#: anchored only by the priors: on the ATP matches of 2015-2019 the sweeps shrink by 0.9913
#: each, steady to 1e-6, and 1,000 sweeps did not converge without it.
EXTRAPOLATION_RUN = 3
EXTRAPOLATION_STEADY = 0.01
#: The state's format, checked before a warm start reads it.
STATE_FORMAT = "ttt/1"

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "mu",
        "number",
        MU,
        "mu: the mean skill of a player before its first game.",
        minimum=-SCALE_LIMIT,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "sigma",
        "number",
        SIGMA,
        "sigma: the deviation of a new player's skill.",
        minimum=DEVIATION_MIN,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "beta",
        "number",
        BETA,
        "beta: the performance noise; a skill gap of beta gives the better of two certain "
        "players about 76 % to win.",
        minimum=DEVIATION_MIN,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "gamma",
        "number",
        GAMMA,
        "gamma: the skill drift; between two days a player plays, its skill's variance grows "
        "by gamma^2 per day elapsed.",
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "p_draw",
        "number",
        P_DRAW,
        "p_draw: the probability that two equal sides draw; it sets the draw margin "
        "eps = Phi^-1((p_draw + 1) / 2) sqrt(n_a + n_b) beta. At 0 a draw cannot be rated and "
        "is refused.",
        minimum=0.0,
        maximum=P_DRAW_MAX,
    ),
)

INFO = SystemInfo(
    id="ttt",
    title="TrueSkill Through Time",
    kind="game",
    description=(
        "TrueSkill Through Time: one Bayesian network over the ladder's whole history. Each "
        "player has a skill per day it plays, drifting by gamma^2 per day between them; every "
        "game is TrueSkill's game (sides, ranks, draws, partial play). Expectation propagation "
        "forward and backward through time re-estimates every day's skill from all the games; "
        "rating is the posterior mean at the player's last day, deviation its sigma."
    ),
    sources=(
        "P. Dangauthier, R. Herbrich, T. Minka, T. Graepel, TrueSkill Through Time: Revisiting "
        "the History of Chess (NIPS 2007)",
        "G. Landfried, E. Mocskos, TrueSkill Through Time: reliable initial skill estimates and "
        "historical comparability with Julia, Python and R (Journal of Statistical Software), "
        "and its package trueskillthroughtime",
        "R. Herbrich, T. Minka, T. Graepel, TrueSkill(TM): A Bayesian Skill Rating System "
        "(NIPS 2006)",
        "SYSTEMS.md: ttt, Teams, Win probability of one side over another",
    ),
    params=PARAMS,
    sides=True,
    weights=True,
    ladder_scoped=True,
    whole_history=True,
)


@dataclass(frozen=True, slots=True)
class TttConfig:
    """A ladder's TrueSkill Through Time parameters, checked and typed."""

    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    gamma: float = GAMMA
    p_draw: float = P_DRAW
    beta2: float = field(init=False)
    gamma2: float = field(init=False)
    #: Phi^-1((p_draw + 1) / 2) beta: the draw margin over sqrt(n_a + n_b) (0 without draws).
    margin_unit: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "beta2", self.beta * self.beta)
        object.__setattr__(self, "gamma2", self.gamma * self.gamma)
        unit = ppf((self.p_draw + 1.0) / 2.0) * self.beta if self.p_draw > 0.0 else 0.0
        object.__setattr__(self, "margin_unit", unit)

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> TttConfig:
        return cls(
            mu=float(params["mu"]),
            sigma=float(params["sigma"]),
            beta=float(params["beta"]),
            gamma=float(params["gamma"]),
            p_draw=float(params["p_draw"]),
        )


def utc_day(at: datetime) -> date:
    """The UTC day of a game (a time without a zone is read as UTC)."""
    return at.astimezone(UTC).date() if at.tzinfo is not None else at.date()


# --- one game ---


@dataclass(frozen=True, slots=True)
class _Plan:
    """A game's shape: its sides in rank order (ties in input order, as the package keeps
    them), each a tuple of participant indices; every participant's weight; and for each pair of
    neighbouring sides its draw margin and whether it is a draw."""

    sides: tuple[tuple[int, ...], ...]
    weights: tuple[float, ...]
    margins: tuple[float, ...]
    draws: tuple[bool, ...]


def _plan(game: Game, config: TttConfig) -> _Plan:
    sides = sorted(game.sides, key=lambda s: s.rank)  # stable: ties keep the input order
    pairs = list(pairwise(sides))
    return _Plan(
        sides=tuple(s.indices for s in sides),
        weights=tuple(p.weight for p in game.participants),
        margins=tuple(
            config.margin_unit * math.sqrt(len(a.members) + len(b.members)) for a, b in pairs
        ),
        draws=tuple(a.rank == b.rank for a, b in pairs),
    )


def _terms(t: float, e: float, draw: bool) -> tuple[float, float]:
    """TrueSkill's (v, w) of the observed outcome at standardised mean t and margin e; an
    ArithmeticError when the arithmetic has left its range (w must lie in [0, 1))."""
    v, w = draw_terms(t, e) if draw else win_terms(t, e)
    if not (math.isfinite(v) and 0.0 <= w < 1.0):
        raise ArithmeticError(f"the sides are too far apart for the game's arithmetic (w {w!r})")
    return v, w


def _chain(
    means: Sequence[float],
    variances: Sequence[float],
    margins: Sequence[float],
    draws: Sequence[bool],
) -> list[tuple[float, float]]:
    """The message (pi, tau) the differences send to each side's performance, sides in rank
    order with performance priors N(means, variances): the paper's schedule on the chain of
    differences d_k = t_k - t_{k+1}, down and back up until no truncation message moves
    (:data:`GAME_TOLERANCE`, at most :data:`GAME_MAX_ROUNDS` rounds). Two sides: one visit."""
    n = len(means) - 1
    pr_pi = [1.0 / v for v in variances]
    pr_tau = [m / v for m, v in zip(means, variances, strict=True)]
    # From d_k to t_k (up) and to t_{k+1} (down); and from d_k's truncation to d_k.
    up_pi, up_tau = [0.0] * n, [0.0] * n
    dn_pi, dn_tau = [0.0] * n, [0.0] * n
    tr_pi, tr_tau = [0.0] * n, [0.0] * n

    def visit(k: int) -> float:
        a_pi, a_tau = pr_pi[k], pr_tau[k]
        if k > 0:
            a_pi += dn_pi[k - 1]
            a_tau += dn_tau[k - 1]
        b_pi, b_tau = pr_pi[k + 1], pr_tau[k + 1]
        if k + 1 < n:
            b_pi += up_pi[k + 1]
            b_tau += up_tau[k + 1]
        mean = a_tau / a_pi - b_tau / b_pi
        c2 = 1.0 / a_pi + 1.0 / b_pi
        c = math.sqrt(c2)
        v, w = _terms(mean / c, margins[k] / c, draws[k])
        scale = c2 * (1.0 - w)
        t_pi, t_tau = w / scale, (w * mean + c * v) / scale
        moved = max(abs(t_pi - tr_pi[k]), abs(t_tau - tr_tau[k]))
        moved /= 1.0 + abs(t_pi) + abs(t_tau)
        tr_pi[k], tr_tau[k] = t_pi, t_tau
        if t_pi == 0.0:
            up_pi[k] = up_tau[k] = dn_pi[k] = dn_tau[k] = 0.0
        else:
            # t_k = d_k + t_{k+1} and t_{k+1} = t_k - d_k (the sum factors, Table 1).
            up_pi[k] = t_pi * b_pi / (t_pi + b_pi)
            up_tau[k] = (t_tau * b_pi + t_pi * b_tau) / (t_pi + b_pi)
            dn_pi[k] = t_pi * a_pi / (t_pi + a_pi)
            dn_tau[k] = (t_pi * a_tau - t_tau * a_pi) / (t_pi + a_pi)
        return moved

    if n == 1:
        visit(0)
    else:
        for _ in range(GAME_MAX_ROUNDS):
            moved = 0.0
            for k in range(n):
                moved = max(moved, visit(k))
            for k in range(n - 1, -1, -1):
                moved = max(moved, visit(k))
            if moved <= GAME_TOLERANCE:
                break
    out = []
    for k in range(n + 1):
        pi = (up_pi[k] if k < n else 0.0) + (dn_pi[k - 1] if k > 0 else 0.0)
        tau = (up_tau[k] if k < n else 0.0) + (dn_tau[k - 1] if k > 0 else 0.0)
        out.append((pi, tau))
    return out


def _messages(
    plan: _Plan, means: Sequence[float], variances: Sequence[float], beta2: float
) -> list[tuple[float, float]]:
    """The game's message (pi, tau) to every participant's skill, given every participant's
    cavity N(means, variances) (participants in input order).

    A side's performance prior is N(sum w m, sum w^2 (v + beta^2)); the chain's message
    N(M, V) = (P, T) to it goes down the sum factor to member i as
    N((M - sum_{j != i} w_j m_j) / w_i, (V + sum_{j != i} w_j^2 (v_j + beta^2)) / w_i^2 + beta^2),
    i.e. with r = side variance - w_i^2 v_i: pi = w_i^2 P / (1 + P r),
    tau = w_i (T - P (side mean - w_i m_i)) / (1 + P r).
    """
    w = plan.weights
    side_means = [math.fsum(w[i] * means[i] for i in side) for side in plan.sides]
    side_vars = [sum(w[i] * w[i] * (variances[i] + beta2) for i in side) for side in plan.sides]
    to_sides = _chain(side_means, side_vars, plan.margins, plan.draws)
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(means)
    for side, (big_p, big_t), s_mean, s_var in zip(
        plan.sides, to_sides, side_means, side_vars, strict=True
    ):
        for i in side:
            wi = w[i]
            den = 1.0 + big_p * (s_var - wi * wi * variances[i])
            out[i] = (wi * wi * big_p / den, wi * (big_t - big_p * (s_mean - wi * means[i])) / den)
    return out


# --- the whole history ---


@dataclass(slots=True)
class _Graph:
    """The network of one history, as flat lists (node = one player on one day; slot = one
    participant of one game). Built and iterated inside :func:`fit` only; never shared."""

    keys: list[PlayerKey]
    days: list[int]  # distinct day ordinals, ascending
    day_nodes: list[list[int]] = field(default_factory=list)
    day_games: list[list[int]] = field(default_factory=list)
    node_player: list[int] = field(default_factory=list)
    node_day: list[int] = field(default_factory=list)
    prev: list[int] = field(default_factory=list)
    next: list[int] = field(default_factory=list)
    #: gamma^2 * days since the player's previous node (0 for its first).
    drift: list[float] = field(default_factory=list)
    node_slots: list[list[int]] = field(default_factory=list)
    slot_node: list[int] = field(default_factory=list)
    game_slots: list[tuple[int, ...]] = field(default_factory=list)
    plans: list[_Plan] = field(default_factory=list)
    #: 1v1 games without weights or draws: (winner slot, loser slot), else None.
    simple: list[tuple[int, int] | None] = field(default_factory=list)
    fwd_pi: list[float] = field(default_factory=list)
    fwd_tau: list[float] = field(default_factory=list)
    bwd_pi: list[float] = field(default_factory=list)
    bwd_tau: list[float] = field(default_factory=list)
    lik_pi: list[float] = field(default_factory=list)
    lik_tau: list[float] = field(default_factory=list)
    msg_pi: list[float] = field(default_factory=list)
    msg_tau: list[float] = field(default_factory=list)


def _build(games: Sequence[Game], config: TttConfig) -> _Graph:
    by_day: dict[int, list[int]] = {}
    for index, game in enumerate(games):
        by_day.setdefault(utc_day(game.played_at).toordinal(), []).append(index)
    days = sorted(by_day)
    player_of: dict[str, int] = {}
    keys: list[PlayerKey] = []
    last_node: list[int] = []
    g = _Graph(keys, days)
    prior_pi = 1.0 / (config.sigma * config.sigma)
    prior_tau = config.mu * prior_pi
    for day in days:
        nodes: list[int] = []
        here: dict[int, int] = {}
        game_ids: list[int] = []
        for index in by_day[day]:
            game = games[index]
            slots = []
            for p in game.participants:
                player = player_of.get(p.player)
                if player is None:
                    player = player_of[p.player] = len(keys)
                    keys.append(PlayerKey(p.player))
                    last_node.append(-1)
                node = here.get(player)
                if node is None:
                    node = here[player] = len(g.node_player)
                    prev = last_node[player]
                    g.node_player.append(player)
                    g.node_day.append(day)
                    g.prev.append(prev)
                    g.next.append(-1)
                    g.node_slots.append([])
                    if prev >= 0:
                        g.next[prev] = node
                        g.drift.append(config.gamma2 * (day - g.node_day[prev]))
                        g.fwd_pi.append(0.0)
                        g.fwd_tau.append(0.0)
                    else:
                        g.drift.append(0.0)
                        g.fwd_pi.append(prior_pi)
                        g.fwd_tau.append(prior_tau)
                    g.bwd_pi.append(0.0)
                    g.bwd_tau.append(0.0)
                    g.lik_pi.append(0.0)
                    g.lik_tau.append(0.0)
                    last_node[player] = node
                    nodes.append(node)
                slot = len(g.slot_node)
                g.slot_node.append(node)
                g.node_slots[node].append(slot)
                g.msg_pi.append(0.0)
                g.msg_tau.append(0.0)
                slots.append(slot)
            plan = _plan(game, config)
            g.game_slots.append(tuple(slots))
            g.plans.append(plan)
            one_each = len(plan.sides) == 2 and all(len(s) == 1 for s in plan.sides)
            plain = one_each and not plan.draws[0] and plan.margins[0] == 0.0
            plain = plain and all(w == FULL_WEIGHT for w in plan.weights)
            g.simple.append((slots[plan.sides[0][0]], slots[plan.sides[1][0]]) if plain else None)
            game_ids.append(len(g.game_slots) - 1)
        g.day_nodes.append(nodes)
        g.day_games.append(game_ids)
    return g


def _seed(g: _Graph, warm: Fit) -> None:
    """A warm start: every game's message to a player on a day, from ``warm``'s state by player
    and day, the i-th game of a player on a day getting the i-th message (a game whose seed is
    stale - corrected, moved, new - has it divided out before its first update)."""
    players = _state_players(warm.state)
    if not players:
        return
    cache: dict[int, dict[int, list[float]]] = {}
    for node, player in enumerate(g.node_player):
        by_day = cache.get(player)
        if by_day is None:
            rows = players.get(g.keys[player].player, [])
            by_day = cache[player] = {int(row[0]): row for row in rows}
        row = by_day.get(g.node_day[node])
        if row is None:
            continue
        for n, slot in enumerate(g.node_slots[node]):
            if 2 * n + 2 < len(row):
                g.msg_pi[slot] = float(row[2 * n + 1])
                g.msg_tau[slot] = float(row[2 * n + 2])
    _resum(g)
    # The backward messages of the seeded likelihoods, before the first sweep: without them
    # its forward pass would update every game from its past alone, undoing the seed (a
    # warm fit of the same history took 871 sweeps of the cold one's 932 on 5,883 ATP
    # matches). The fixed point is the same; only the start moves.
    prev_next, drift = g.next, g.drift
    bwd_pi, bwd_tau, lik_pi, lik_tau = g.bwd_pi, g.bwd_tau, g.lik_pi, g.lik_tau
    for nodes in reversed(g.day_nodes):
        for n in nodes:
            x = prev_next[n]
            if x >= 0:
                pi = bwd_pi[x] + lik_pi[x]
                k = 1.0 + pi * drift[x]
                bwd_pi[n] = pi / k
                bwd_tau[n] = (bwd_tau[x] + lik_tau[x]) / k


def _resum(g: _Graph) -> None:
    """Every node's likelihood, summed afresh from its games' messages (the sweeps update it by
    differences; summing once a sweep keeps rounding from accumulating)."""
    msg_pi, msg_tau = g.msg_pi, g.msg_tau
    for node, slots in enumerate(g.node_slots):
        g.lik_pi[node] = math.fsum(msg_pi[s] for s in slots)
        g.lik_tau[node] = math.fsum(msg_tau[s] for s in slots)


def _state_players(state: Json) -> dict[str, list[list[float]]]:
    """The per-player rows of a state this module wrote, or nothing for any other JSON."""
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        return {}
    players = state.get("players")
    return players if isinstance(players, dict) else {}


def _sweep(g: _Graph, beta2: float) -> None:
    """One forward and one backward pass over the days, every game updated in each."""
    fwd_pi, fwd_tau, bwd_pi, bwd_tau = g.fwd_pi, g.fwd_tau, g.bwd_pi, g.bwd_tau
    lik_pi, lik_tau, msg_pi, msg_tau = g.lik_pi, g.lik_tau, g.msg_pi, g.msg_tau
    prev, nxt, drift, slot_node = g.prev, g.next, g.drift, g.slot_node
    simple, plans, game_slots = g.simple, g.plans, g.game_slots
    two_beta2 = 2.0 * beta2
    sqrt, erfc, exp = math.sqrt, math.erfc, math.exp

    def games(ids: list[int]) -> None:
        for gid in ids:
            pair = simple[gid]
            if pair is not None:
                # A 1v1 win without draws or weights: the closed form of the module docstring.
                sa, sb = pair
                na, nb = slot_node[sa], slot_node[sb]
                pa = fwd_pi[na] + bwd_pi[na] + lik_pi[na] - msg_pi[sa]
                ta = fwd_tau[na] + bwd_tau[na] + lik_tau[na] - msg_tau[sa]
                pb = fwd_pi[nb] + bwd_pi[nb] + lik_pi[nb] - msg_pi[sb]
                tb = fwd_tau[nb] + bwd_tau[nb] + lik_tau[nb] - msg_tau[sb]
                va, vb = 1.0 / pa, 1.0 / pb
                ma, mb = ta * va, tb * vb
                c2 = va + vb + two_beta2
                c = sqrt(c2)
                x = (ma - mb) / c
                if x > -MILLS_SWITCH:
                    v = _INV_SQRT_2PI * exp(-0.5 * x * x) / (0.5 * erfc(-x * _INV_SQRT2))
                    w = v * (v + x)
                else:
                    v, w = _terms(x, 0.0, False)
                da = c2 - w * va
                db = c2 - w * vb
                npa, nta = w / da, (w * ma + c * v) / da
                npb, ntb = w / db, (w * mb - c * v) / db
                lik_pi[na] += npa - msg_pi[sa]
                lik_tau[na] += nta - msg_tau[sa]
                lik_pi[nb] += npb - msg_pi[sb]
                lik_tau[nb] += ntb - msg_tau[sb]
                msg_pi[sa], msg_tau[sa], msg_pi[sb], msg_tau[sb] = npa, nta, npb, ntb
                continue
            slots = game_slots[gid]
            means, variances = [], []
            for s in slots:
                n = slot_node[s]
                pi = fwd_pi[n] + bwd_pi[n] + lik_pi[n] - msg_pi[s]
                variances.append(1.0 / pi)
                means.append((fwd_tau[n] + bwd_tau[n] + lik_tau[n] - msg_tau[s]) / pi)
            for s, (pi, tau) in zip(
                slots, _messages(plans[gid], means, variances, beta2), strict=True
            ):
                n = slot_node[s]
                lik_pi[n] += pi - msg_pi[s]
                lik_tau[n] += tau - msg_tau[s]
                msg_pi[s], msg_tau[s] = pi, tau

    for nodes, ids in zip(g.day_nodes, g.day_games, strict=True):
        for n in nodes:
            p = prev[n]
            if p >= 0:
                pi = fwd_pi[p] + lik_pi[p]
                k = 1.0 + pi * drift[n]
                fwd_pi[n] = pi / k
                fwd_tau[n] = (fwd_tau[p] + lik_tau[p]) / k
        games(ids)
    for nodes, ids in zip(reversed(g.day_nodes), reversed(g.day_games), strict=True):
        for n in nodes:
            x = nxt[n]
            if x >= 0:
                pi = bwd_pi[x] + lik_pi[x]
                k = 1.0 + pi * drift[x]
                bwd_pi[n] = pi / k
                bwd_tau[n] = (bwd_tau[x] + lik_tau[x]) / k
        games(ids)
    _resum(g)


def _means(g: _Graph) -> list[float]:
    return [
        (ft + bt + lt) / (fp + bp + lp)
        for fp, ft, bp, bt, lp, lt in zip(
            g.fwd_pi, g.fwd_tau, g.bwd_pi, g.bwd_tau, g.lik_pi, g.lik_tau, strict=True
        )
    ]


def _remaining(step: float, last: float, slow: float) -> float:
    """How far the means may still be from the fixed point after a sweep that moved them by
    ``step`` (the one before by ``last``). The sweeps converge geometrically, by a ratio
    rho = step / last (on the ATP matches 0.96-0.99): the moves still to come sum to
    step rho / (1 - rho). ``slow`` is the slowest steady ratio seen in this fit: after an
    extrapolation the fast modes set the ratio for a while, but what is left of the slow one
    still shrinks by ``slow``, so rho is at least that. A fit stops when both the last move
    (SYSTEMS.md's rule) and that sum are within :data:`TOLERANCE`, so that two fits stopping at
    different sweeps (cold, and warm from another history) agree to it as well."""
    if step > TOLERANCE or step <= TOLERANCE * 1e-3:
        return step  # not there yet; or so small that rounding, not the decay, sets the ratio
    if step >= last:
        return 2.0 * TOLERANCE  # not decaying yet: one more sweep
    rho = max(step / last, slow)
    return max(step, step * rho / (1.0 - rho))


def _extrapolate(g: _Graph, taus: tuple[list[float], list[float]], rho: float) -> None:
    """Skip the slow tail of the sweeps. When the last sweeps shrank by a steady ratio rho,
    their error is one geometric mode, e_k = C rho^k, and the fixed point of every number of
    the iteration's state x (the games' messages, and the backward messages the next forward
    pass reads) is x + (x - x_last) rho / (1 - rho) (Aitken's extrapolation, on the vector).
    Only the means' part tau moves (a moved precision pi could turn negative); the sweeps that
    follow correct what the extrapolation missed, so the fixed point is the sweeps' own."""
    factor = rho / (1.0 - rho)
    for now, old in ((g.msg_tau, taus[0]), (g.bwd_tau, taus[1])):
        for i, x in enumerate(old):
            now[i] += (now[i] - x) * factor
    _resum(g)


def _fit(config: TttConfig, games: Sequence[Game], warm: Fit | None, max_sweeps: int) -> Fit:
    g = _build(games, config)
    if warm is not None:
        _seed(g, warm)
    # The first sweep has nothing to be compared with (a node's forward message is only made
    # by it): a fit takes two sweeps at least.
    before: list[float] | None = None
    sweeps, step, remaining = 0, math.inf, math.inf
    rho_last, clean, slow = math.nan, 0, 0.0
    taus = (list(g.msg_tau), list(g.bwd_tau))
    while sweeps < max_sweeps and remaining > TOLERANCE:
        _sweep(g, config.beta2)
        sweeps += 1
        after = _means(g)
        if before is not None:
            last = step
            step = max((abs(a - b) for a, b in zip(after, before, strict=True)), default=0.0)
            clean += 1
            # After an extrapolation the first move includes its jump: two sweeps at least.
            remaining = _remaining(step, last, slow) if clean >= 2 else math.inf
            rho = step / last if 0.0 < step < last else math.nan
            steady = abs(rho - rho_last) <= EXTRAPOLATION_STEADY * (1.0 - rho)
            if steady:
                slow = max(slow, rho)
            if steady and clean >= EXTRAPOLATION_RUN and remaining > TOLERANCE:
                _extrapolate(g, taus, rho)
                clean, rho, remaining = 0, math.nan, math.inf
            rho_last = rho
        before = after
        taus = (list(g.msg_tau), list(g.bwd_tau))
    if not g.node_player:
        step = remaining = 0.0
    curves: dict[PlayerKey, list[CurvePoint]] = {}
    rows: dict[str, list[Json]] = {}
    for node, player in enumerate(g.node_player):
        pi = g.fwd_pi[node] + g.bwd_pi[node] + g.lik_pi[node]
        tau = g.fwd_tau[node] + g.bwd_tau[node] + g.lik_tau[node]
        key = g.keys[player]
        day = g.node_day[node]
        curves.setdefault(key, []).append(
            CurvePoint(date.fromordinal(day), tau / pi, math.sqrt(1.0 / pi))
        )
        row: list[Json] = [day]
        for slot in g.node_slots[node]:
            row.append(g.msg_pi[slot])
            row.append(g.msg_tau[slot])
        rows.setdefault(key.player, []).append(row)
    return Fit(
        curves={key: tuple(points) for key, points in curves.items()},
        converged=remaining <= TOLERANCE,
        sweeps=sweeps,
        max_step=step if math.isfinite(step) else 0.0,
        state={"format": STATE_FORMAT, "players": rows},
    )


# --- one player's days (add_game) ---


def _chain_posteriors(
    config: TttConfig, days: Sequence[int], lik: Sequence[tuple[float, float]]
) -> list[tuple[float, float]]:
    """The posterior (pi, tau) of every day of one player, from its days' likelihoods: one
    forward and one backward pass over its own days."""
    n = len(days)
    g2 = config.gamma2
    f_pi = [0.0] * n
    f_tau = [0.0] * n
    f_pi[0] = 1.0 / (config.sigma * config.sigma)
    f_tau[0] = config.mu * f_pi[0]
    for k in range(1, n):
        pi = f_pi[k - 1] + lik[k - 1][0]
        div = 1.0 + pi * g2 * (days[k] - days[k - 1])
        f_pi[k] = pi / div
        f_tau[k] = (f_tau[k - 1] + lik[k - 1][1]) / div
    out = [(0.0, 0.0)] * n
    b_pi = b_tau = 0.0
    for k in range(n - 1, -1, -1):
        if k < n - 1:
            pi = b_pi + lik[k + 1][0]
            div = 1.0 + pi * g2 * (days[k + 1] - days[k])
            b_pi, b_tau = pi / div, (b_tau + lik[k + 1][1]) / div
        out[k] = (f_pi[k] + b_pi + lik[k][0], f_tau[k] + b_tau + lik[k][1])
    return out


def _row_lik(row: Sequence[float]) -> tuple[float, float]:
    return math.fsum(row[1::2]), math.fsum(row[2::2])


# --- the rater ---


@dataclass(frozen=True, slots=True)
class TttRater(BaseRater[TttConfig]):
    """TrueSkill Through Time configured with a ladder's parameters
    (:class:`app.engine.protocols.WholeHistoryRater`)."""

    @property
    def rates_draws(self) -> bool:
        """A draw is rated only with p_draw > 0 (at 0 it is refused)."""
        return self.config.p_draw > 0.0

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=self.config.mu, deviation=self.config.sigma)

    def standing(self, state: PlayerState) -> Standing:
        sigma = self.config.sigma if state.deviation is None else state.deviation
        return Standing(rating=state.rating, deviation=sigma)

    def state_of(self, point: CurvePoint) -> PlayerState:
        return PlayerState(rating=point.rating, deviation=point.deviation)

    def validate_game(self, game: Game) -> None:
        """Two sides or more (a free-for-all: two players or more), a player at most once,
        weights in (0, 1], and a draw (a shared rank) only when p_draw > 0: at p_draw 0 the
        draw margin is 0 and a draw has probability 0 (the package refuses it too)."""
        if not game.has_teams:
            require_player_count(game.participants, MIN_SIDES, None)
        sides = game.sides
        if len(sides) < MIN_SIDES:
            raise InvalidEvent(
                ("teams",), f"this system needs at least {MIN_SIDES} sides, got {len(sides)}"
            )
        seen: set[str] = set()
        for index, p in enumerate(game.participants):
            if p.player in seen:
                raise InvalidEvent(game.where(index), "a player can play only once in a game")
            seen.add(p.player)
            if not 0.0 < p.weight <= FULL_WEIGHT:
                raise InvalidEvent(
                    (*game.where(index), "weight"), f"must be in (0, 1], got {p.weight!r}"
                )
        if self.config.p_draw == 0.0:
            ranks: set[int] = set()
            for side_index, side in enumerate(sides):
                if side.rank in ranks:
                    loc: tuple[str | int, ...] = (
                        ("teams", side_index, "rank")
                        if game.has_teams
                        else ("players", side.indices[0], "rank")
                    )
                    raise InvalidEvent(
                        loc, "a draw (a shared rank) needs the ladder's p_draw above 0"
                    )
                ranks.add(side.rank)

    def fit(
        self, games: Sequence[Game], warm: Fit | None = None, *, max_sweeps: int = MAX_SWEEPS
    ) -> Fit:
        """The converged fit of ``games`` (module docstring); ``warm`` seeds the messages."""
        return _fit(self.config, games, warm, max(0, min(max_sweeps, MAX_SWEEPS)))

    def extends(self, state: Mapping[str, Json]) -> bool:
        """Whether :meth:`add_game` can extend a fit whose ladder-wide state is ``state``."""
        return state.get("format") == STATE_FORMAT

    def add_game_reads(self, fit: Fit, game: Game) -> set[PlayerKey]:
        """Nothing besides the game's players' own part of the fit (:meth:`add_game`)."""
        return set()

    def add_game(self, fit: Fit, game: Game) -> Fit:
        """``game`` added to ``fit``'s history: for each of its players the cavity at the
        game's day from the player's own days (the stored messages of its other games), the
        game's messages, then one forward-backward pass over each player's days for its curve.
        Nothing else is read: the cost grows with those players' days, not with the ladder."""
        config = self.config
        day = utc_day(game.played_at).toordinal()
        players = _state_players(fit.state)
        rows: list[list[list[float]]] = []
        at: list[int] = []
        means: list[float] = []
        variances: list[float] = []
        for p in game.participants:
            old = players.get(p.player, [])
            days = [int(r[0]) for r in old]
            k = next((i for i, d in enumerate(days) if d >= day), len(days))
            row_list = [list(r) for r in old]
            if k == len(days) or days[k] != day:
                row_list.insert(k, [day])
                days.insert(k, day)
            # The cavity: every message but this game's (which has none yet).
            post = _chain_posteriors(config, days, [_row_lik(r) for r in row_list])
            pi, tau = post[k]
            rows.append(row_list)
            at.append(k)
            means.append(tau / pi)
            variances.append(1.0 / pi)
        messages = _messages(_plan(game, config), means, variances, config.beta2)
        curves = dict(fit.curves)
        new_players = dict(players)
        step = 0.0
        for p, row_list, k, (m_pi, m_tau) in zip(
            game.participants, rows, at, messages, strict=True
        ):
            row_list[k] = [*row_list[k], m_pi, m_tau]
            days = [int(r[0]) for r in row_list]
            post = _chain_posteriors(config, days, [_row_lik(r) for r in row_list])
            key = PlayerKey(p.player)
            points = tuple(
                CurvePoint(date.fromordinal(d), tau / pi, math.sqrt(1.0 / pi))
                for d, (pi, tau) in zip(days, post, strict=True)
            )
            old_points = {pt.day: pt.rating for pt in fit.curves.get(key, ())}
            for pt in points:
                if pt.day in old_points:
                    step = max(step, abs(pt.rating - old_points[pt.day]))
            curves[key] = points
            new_players[p.player] = row_list
        return Fit(
            curves=curves,
            converged=False,
            sweeps=0,
            max_step=step,
            state={"format": STATE_FORMAT, "players": new_players},
        )

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        """SYSTEMS.md "Win probability": TrueSkill's Phi((mu_a - mu_b) / sqrt((n_a + n_b)
        beta^2 + sigma_a^2 + sigma_b^2)) on side sums of the players' served states (the
        drift to the day of a future game is not added: its day is not known)."""
        sigma0 = self.config.sigma
        mean = math.fsum(s.rating for s in side) - math.fsum(s.rating for s in other)
        var = (len(side) + len(other)) * self.config.beta2 + sum(
            (sigma0 if s.deviation is None else s.deviation) ** 2 for s in (*side, *other)
        )
        return cdf(mean / math.sqrt(var))

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """Refused: a rating of this system is the fit of the whole history, re-estimated by
        every game before and after; an administrator's value at one instant has no place in
        the network (the model has no such factor), so it is not defined."""
        raise InvalidEvent(
            ("rating",),
            "ttt ratings are a fit of the whole history; an adjustment is not defined for them",
        )


SYSTEM = RatingSystem(info=INFO, config=TttConfig.from_params, rater=TttRater)
