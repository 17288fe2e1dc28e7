"""Whole-History Rating (Coulom, "Whole-History Rating: A Bayesian Rating System for Players of
Time-Varying Strength", Computers and Games 2008; SYSTEMS.md "whr"), as the ``whr`` package
(PyPI, wind23/whole_history_rating, after GoShrine's Ruby code).

Model (the paper's section 2, in natural units r = ln(gamma), Elo = r * 400 / ln 10):

* Bradley-Terry: p(i beats j) = gamma_i / (gamma_i + gamma_j) = 1 / (1 + exp(r_j - r_i)),
  with i's and j's ratings of the game's UTC day; a draw counts as half a win and half a loss.
* Each player's ratings on the days it played follow a Wiener process: between consecutive days
  t_1 < t_2, r_2 - r_1 ~ N(0, w^2 (t_2 - t_1)), with w^2 = ``w2`` (Elo^2 a day) (ln 10/400)^2.
* On its first day each player also draws ``virtual_games`` virtual games against a player of
  rating 0 (the prior that keeps a player who only wins finite).

The ratings are the maximum a posteriori of the whole history. The paper's section 3.2 (and
the package): Newton's method on one player's days at a time, its opponents held fixed; the
Hessian of a player's days is tridiagonal (a day is tied only to its neighbours by the Wiener
prior), so a step solves one tridiagonal system::

    g_t = sum_games (s - p) + [first day] V (1/2 - q) - sum_neighbours (r_t - r_u) / sigma2_tu
    A_tt = sum_games p (1 - p) + [first day] V q (1 - q) + sum_neighbours 1 / sigma2_tu + 0.001
    A_tu = -1 / sigma2_tu                          r <- r + A^-1 g

where q = 1 / (1 + exp(-r_t)) is the virtual games' p and ``A`` the negated Hessian. The 0.001
on the diagonal is the reference's (Ruby and C++ alike): it damps a step and changes no fixed
point (g = 0 there), but it is part of the reference's deviation, so it is kept. A day's
deviation is sqrt((A^-1)_tt) * 400 / ln 10 at the fit.

Two readings of the paper's algorithm, neither changing the maximum reached:

* **Every player at once.** The package sweeps players one after another (Gauss-Seidel), one
  block Newton step each, opponents fixed; far from the anchors (a player's ratings are pinned
  only by two virtual draws against hundreds of games) that converges slowly: 819 sweeps to
  the tolerance on ATP 2015-2019. A sweep here is one Newton step of the whole history: the
  full negated Hessian (the players' tridiagonal blocks above and, between players, -p(1-p)
  for each game's two days) solved by conjugate gradients whose preconditioner is exactly the
  players' block steps, every player's tridiagonal system solved at once by cyclic reduction
  in numpy. The same ATP history takes 17 sweeps. A step that would lower the posterior is
  halved (never seen on real data; it makes the iteration safe from any warm start).
* **Tolerance.** A fit stops after the first sweep that moves no rating by more than 1e-9 Elo
  (SYSTEMS.md), or after ``max_sweeps``; the package runs a given number of sweeps instead.

A new game (``add_game``, Zero-K's recipe): Newton steps on the new game's two players only,
one after the other, every other player held fixed, until neither moves by more than the
tolerance (at most :data:`ADD_GAME_ROUNDS` rounds); the result is not converged.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from app.engine.base import BaseRater, RatingSystem, require_player_count
from app.engine.errors import InvalidEvent
from app.engine.params import ParamSpec
from app.engine.protocols import CurvePoint, Fit, SystemInfo, key_for, sorted_keys
from app.engine.types import FULL_WEIGHT, Game, Json, PlayerKey, PlayerState, Standing

Vector = npt.NDArray[np.float64]
Index = npt.NDArray[np.int64]

#: SYSTEMS.md "whr": defaults as the ``whr`` package's ``Base(w2=300, virtual_games=2)``.
W2 = 300.0
VIRTUAL_GAMES = 2
#: Elo points per natural unit of r = ln(gamma): Elo = r * 400 / ln 10.
ELO = 400.0 / math.log(10.0)
#: The reference's ridge on the Hessian's diagonal (``Player::hessian``: ``... - 0.001``).
RIDGE = 0.001
#: SYSTEMS.md "whr": a fit has converged when no rating moved by more than this (Elo) in a sweep.
TOLERANCE = 1e-9
#: Not from the sources: the most rounds of Newton steps on a new game's two players. Each
#: round is one step per player; from the previous fit a handful reach the tolerance, and the
#: bound keeps a new game's cost independent of the ladder's size.
ADD_GAME_ROUNDS = 20
#: The state's format (``add_game`` extends only a fit stored in it).
STATE_FORMAT = "whr/2"
#: Not from the sources: a sweep's linear system is solved by conjugate gradients until the
#: residual's preconditioned norm falls to this share of the gradient's, or for at most
#: INNER_STEPS steps. Inexact Newton: a loose share costs a few more sweeps and far fewer steps
#: (ATP 2015-2019: 17 sweeps either way, 241 steps at 1e-2 against 603 at 1e-8); the fixed
#: point does not depend on it, and the last sweeps' steps are below the tolerance.
INNER_TOLERANCE = 1e-2
INNER_STEPS = 1000
#: Not from the sources: the most halvings of a sweep's step that would lower the posterior.
HALVINGS = 60
#: Not from the sources: the largest w2 (Elo^2 a day): a rating's spread of 1,000 points a day,
#: past which a day tells nothing of the next.
W2_MAX = 1e6
#: Not from the sources: the most virtual games (the package takes any count; past a thousand
#: draws the anchor holds every rating at 0).
VIRTUAL_GAMES_MAX = 1000
#: Scores of the first-listed player: win, draw, loss.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "w2",
        "number",
        W2,
        "Variance of a rating's Wiener process, in Elo points squared per day.",
        minimum=0.0,
        maximum=W2_MAX,
        exclusive_minimum=True,
    ),
    ParamSpec(
        "virtual_games",
        "integer",
        VIRTUAL_GAMES,
        "Virtual draws against a player of rating 0 on each player's first day (the prior).",
        minimum=1,
        maximum=VIRTUAL_GAMES_MAX,
    ),
)

INFO = SystemInfo(
    id="whr",
    title="Whole-History Rating",
    kind="game",
    description=(
        "Coulom's Whole-History Rating: two-player games and draws, each player's strength a "
        "Wiener process in time (w2 Elo^2 a day), Bradley-Terry on the Elo scale, anchored by "
        "virtual draws on a player's first day. Ratings are the maximum a posteriori of the "
        "whole history, every day re-estimated by later games; the deviation is the Laplace "
        "approximation's."
    ),
    sources=(
        "R. Coulom, Whole-History Rating: A Bayesian Rating System for Players of "
        "Time-Varying Strength (Computers and Games, 2008)",
        "wind23/whole_history_rating, the whr package (C++ with a Python binding)",
        "SYSTEMS.md: whr",
    ),
    params=PARAMS,
    ladder_scoped=True,
    whole_history=True,
)


@dataclass(frozen=True, slots=True)
class WhrConfig:
    """A ladder's WHR parameters, checked and typed."""

    w2: float = W2
    virtual_games: int = VIRTUAL_GAMES
    #: w^2 in natural units a day: w2 (ln 10 / 400)^2.
    w2_natural: float = W2 / ELO**2

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> WhrConfig:
        w2 = float(params["w2"])
        return cls(w2=w2, virtual_games=int(params["virtual_games"]), w2_natural=w2 / ELO**2)


def utc_day(at: datetime) -> int:
    """The proleptic ordinal of ``at``'s UTC day (a naive time is read as UTC)."""
    if at.tzinfo is not None:
        at = at.astimezone(UTC)
    return at.toordinal()


def score(game: Game) -> float:
    """The first-listed player's score: 1 a win (lower rank), 1/2 a draw, 0 a loss."""
    a, b = game.participants
    if a.rank < b.rank:
        return WIN
    if a.rank > b.rank:
        return LOSS
    return DRAW


def _sigmoid(x: Vector) -> Vector:
    """1 / (1 + exp(-x)), without overflow for large |x|."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e))


def _counts(index: Index, weights: Vector, n: int) -> Vector:
    """The sums of ``weights`` by ``index``, for indices 0 .. n - 1."""
    return np.asarray(np.bincount(index, weights, n), dtype=np.float64)


def _dot(x: Vector, y: Vector) -> float:
    """x . y without BLAS: numpy's dot may hand a long vector to BLAS threads, whose start
    costs more than the sum on a busy machine."""
    return float(np.einsum("i,i->", x, y))


def solve_tridiagonal(lower: Vector, diag: Vector, upper: Vector, rhs: Vector) -> Vector:
    """x with lower_i x_(i-1) + diag_i x_i + upper_i x_(i+1) = rhs_i (lower_0 = upper_(n-1) = 0),
    by cyclic reduction: each level eliminates the odd rows, halving the system.

    Stable for the symmetric positive definite, diagonally dominant systems of this module (the
    negated Hessians); zero couplings between players make one system of all of them.
    """
    n = diag.size
    if n == 1:
        return rhs / diag
    lo_e, d_e, up_e, r_e = lower[0::2], diag[0::2], upper[0::2], rhs[0::2]
    lo_o, d_o, up_o, r_o = lower[1::2], diag[1::2], upper[1::2], rhs[1::2]
    ne, no = d_e.size, d_o.size
    # Even row k is coupled to odd rows k - 1 (left, k >= 1) and k (right, k < no).
    left = -lo_e[1:] / d_o[: ne - 1]
    right = -up_e[:no] / d_o
    new_lower = np.zeros(ne)
    new_upper = np.zeros(ne)
    new_diag = d_e.copy()
    new_rhs = r_e.copy()
    new_lower[1:] = left * lo_o[: ne - 1]
    new_diag[1:] += left * up_o[: ne - 1]
    new_rhs[1:] += left * r_o[: ne - 1]
    new_upper[:no] = right * up_o
    new_diag[:no] += right * lo_o
    new_rhs[:no] += right * r_o
    x_e = solve_tridiagonal(new_lower, new_diag, new_upper, new_rhs)
    x = np.empty(n)
    x[0::2] = x_e
    following = x_e[1:] if ne > no else np.append(x_e[1:], 0.0)
    x[1::2] = (r_o - lo_o * x_e[:no] - up_o * following) / d_o
    return x


def inverse_diagonal(diag: Sequence[float], off: Sequence[float]) -> list[float]:
    """The diagonal of the inverse of the symmetric tridiagonal matrix with ``diag`` and
    ``off`` (off_i couples i and i + 1; 0 between players): 1 / (f_i + b_i - diag_i), with f
    and b the pivots of elimination from the front and from the back."""
    n = len(diag)
    front = [0.0] * n
    back = [0.0] * n
    previous = 0.0
    for i in range(n):
        c = off[i - 1] if i else 0.0
        previous = diag[i] - (c * c / previous if c else 0.0)
        front[i] = previous
    following = 0.0
    for i in range(n - 1, -1, -1):
        c = off[i] if i < n - 1 else 0.0
        following = diag[i] - (c * c / following if c else 0.0)
        back[i] = following
    return [1.0 / (front[i] + back[i] - diag[i]) for i in range(n)]


@dataclass(slots=True)
class _Problem:
    """One Newton problem: the variables (player-days, grouped by player in day order) and
    the game terms that tie them. A game side whose opponent is held fixed (``add_game``) has
    ``b == -1`` and the opponent's rating in ``fixed``."""

    a: Index
    b: Index
    s: Vector
    fixed: Vector
    first: Index
    #: inverse of sigma2 between variable i and i + 1 (0 between players).
    coupling: Vector
    virtual: float

    def gradient_and_matrix(self, r: Vector) -> tuple[Vector, Vector]:
        """The gradient g of the log posterior at r and the negated Hessian's diagonal."""
        n = r.size
        both = self.b >= 0
        opponent = np.where(both, r[np.maximum(self.b, 0)], self.fixed)
        p = _sigmoid(r[self.a] - opponent)
        w = p * (1.0 - p)
        g = _counts(self.a, self.s - p, n)
        h = _counts(self.a, w, n)
        if self.b.size and both.any():
            bb = self.b[both]
            g -= _counts(bb, (self.s - p)[both], n)
            h += _counts(bb, w[both], n)
        q = _sigmoid(r[self.first])
        g[self.first] += self.virtual * (0.5 - q)
        h[self.first] += self.virtual * q * (1.0 - q)
        pull = (r[1:] - r[:-1]) * self.coupling
        g[:-1] += pull
        g[1:] -= pull
        h[:-1] += self.coupling
        h[1:] += self.coupling
        return g, h + RIDGE

    def step(self, r: Vector) -> Vector:
        """The Newton step of every variable block at once (each block's opponents fixed)."""
        g, diag = self.gradient_and_matrix(r)
        off = -self.coupling
        lower = np.concatenate(([0.0], off))
        upper = np.concatenate((off, [0.0]))
        return solve_tridiagonal(lower, diag, upper, g)

    def log_posterior(self, r: Vector) -> float:
        """The log posterior at r, up to a constant: the games' and the virtual draws' log
        likelihoods and the Wiener prior's -(r_t - r_u)^2 / (2 sigma2_tu)."""
        both = self.b >= 0
        opponent = np.where(both, r[np.maximum(self.b, 0)], self.fixed)
        x = r[self.a] - opponent
        # log p = -log(1 + e^-x), log(1 - p) = -log(1 + e^x).
        games = -(self.s * np.logaddexp(0.0, -x) + (1.0 - self.s) * np.logaddexp(0.0, x))
        first = r[self.first]
        virtual = -0.5 * (np.logaddexp(0.0, -first) + np.logaddexp(0.0, first))
        diff = r[1:] - r[:-1]
        prior = 0.5 * diff * diff * self.coupling
        return float(games.sum() + self.virtual * virtual.sum() - prior.sum())

    def newton_step(self, r: Vector) -> Vector:
        """The Newton step of the whole history: A d = g with A the negated Hessian of every
        day (the players' tridiagonal blocks and the games' couplings between players),
        solved by conjugate gradients preconditioned by the blocks (one block Newton step of
        every player, :meth:`step`'s arithmetic) to :data:`INNER_TOLERANCE` of the gradient's
        preconditioned norm, or :data:`INNER_STEPS` steps. Any iterate is an ascent direction;
        the step is halved while it lowers the posterior (at most :data:`HALVINGS` times)."""
        n = r.size
        g, diag = self.gradient_and_matrix(r)
        off = -self.coupling
        lower = np.concatenate(([0.0], off))
        upper = np.concatenate((off, [0.0]))
        both = self.b >= 0
        a, b = self.a[both], self.b[both]
        p = _sigmoid(r[a] - r[b])
        w = p * (1.0 - p)

        def times(v: Vector) -> Vector:
            out = diag * v
            out[1:] += off * v[:-1]
            out[:-1] += off * v[1:]
            return out - _counts(a, w * v[b], n) - _counts(b, w * v[a], n)

        x = np.zeros(n)
        residual = g.copy()
        z = solve_tridiagonal(lower, diag, upper, residual)
        direction = z.copy()
        rz = _dot(residual, z)
        goal = INNER_TOLERANCE * math.sqrt(max(rz, 0.0))
        for _ in range(INNER_STEPS):
            if math.sqrt(max(rz, 0.0)) <= goal:
                break
            product = times(direction)
            alpha = rz / _dot(direction, product)
            x += alpha * direction
            residual -= alpha * product
            z = solve_tridiagonal(lower, diag, upper, residual)
            following = _dot(residual, z)
            direction = z + (following / rz) * direction
            rz = following
        start = self.log_posterior(r)
        # Below this the posteriors' difference is rounding, not a worse point.
        slack = 1e-12 * (1.0 + abs(start))
        for _ in range(HALVINGS):
            if self.log_posterior(r + x) >= start - slack:
                break
            x *= 0.5
        return x

    def deviations(self, r: Vector) -> list[float]:
        """Each variable's sqrt((A^-1)_tt), in natural units."""
        _, diag = self.gradient_and_matrix(r)
        inverse = inverse_diagonal(diag.tolist(), (-self.coupling).tolist())
        return [math.sqrt(v) for v in inverse]


@dataclass(frozen=True, slots=True)
class _Index:
    """The history's players and their days: ``keys`` in a fixed order, each player's days
    (ordinals, ascending) at ``start[k]:start[k + 1]`` of ``days``."""

    keys: list[PlayerKey]
    days: list[int]
    start: list[int]


def _pair(game: Game) -> tuple[PlayerKey, PlayerKey]:
    a, b = game.participants
    return (key_for(INFO, a.player, a.faction), key_for(INFO, b.player, b.faction))


@dataclass(frozen=True, slots=True)
class WhrRater(BaseRater[WhrConfig]):
    """A ladder's configured Whole-History Rating (a whole-history system)."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        """Rating 0 (the virtual opponent's), and the deviation of the virtual draws alone:
        the fit of a first day whose only games are the virtual ones."""
        variance = 1.0 / (self.config.virtual_games * 0.25 + RIDGE)
        return PlayerState(rating=0.0, deviation=math.sqrt(variance) * ELO)

    def standing(self, state: PlayerState) -> Standing:
        return Standing(rating=state.rating, deviation=state.deviation)

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """Refused: a whole-history rating is the fit of every game, re-estimated by later
        ones, so a rating set by hand has no place in the model to be kept."""
        raise InvalidEvent(
            ("rating",),
            "whr ratings are fitted from the whole history of games and cannot be set",
        )

    def validate_game(self, game: Game) -> None:
        """Exactly two players, as individuals, each playing the whole game (SYSTEMS.md "whr":
        two-player games)."""
        if game.has_teams:
            raise InvalidEvent(("teams",), "whr rates two-player games, not teams")
        require_player_count(game.participants, 2, 2)
        for index, p in enumerate(game.participants):
            if p.weight != FULL_WEIGHT:
                raise InvalidEvent(
                    (*game.where(index), "weight"), "whr rates whole games only (weight 1)"
                )
        a, b = _pair(game)
        if a == b:
            raise InvalidEvent(("players", 1, "player"), "must differ from the other player")

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        """Bradley-Terry on the Elo scale: 1 / (1 + 10^((R_b - R_a) / 400)) (the paper's
        section 2.1; its draws are half a win). Individuals only."""
        if len(side) != 1 or len(other) != 1:
            return None
        x = (side[0].rating - other[0].rating) / ELO
        if x < 0.0:
            e = math.exp(x)
            return e / (1.0 + e)
        return 1.0 / (1.0 + math.exp(-x))

    def state_of(self, point: CurvePoint) -> PlayerState:
        return PlayerState(rating=point.rating, deviation=point.deviation)

    # -- the fit -------------------------------------------------------------------------

    def _index(self, games: Sequence[Game]) -> tuple[_Index, Index, Index, Vector]:
        """Players, their days, and each game's two variables and first player's score."""
        n = len(games)
        ids: dict[PlayerKey, int] = {}
        pa = np.empty(n, dtype=np.int64)
        pb = np.empty(n, dtype=np.int64)
        day = np.empty(n, dtype=np.int64)
        s = np.empty(n)
        for i, game in enumerate(games):
            ka, kb = _pair(game)
            pa[i] = ids.setdefault(ka, len(ids))
            pb[i] = ids.setdefault(kb, len(ids))
            day[i] = utc_day(game.played_at)
            s[i] = score(game)
        keys = sorted_keys(list(ids))
        rank = np.empty(len(keys), dtype=np.int64)
        for order, key in enumerate(keys):
            rank[ids[key]] = order
        # (player, day) as one integer: ordinals stay below 2^22, so the player's order in
        # the high bits sorts player-days by player, then day.
        both = np.concatenate((rank[pa] << 22, rank[pb] << 22)) + np.concatenate((day, day))
        unique, inverse = np.unique(both, return_inverse=True)
        players = unique >> 22
        start = np.searchsorted(players, np.arange(len(keys) + 1)).tolist()
        days = (unique & ((1 << 22) - 1)).tolist()
        return _Index(keys, days, start), inverse[:n], inverse[n:], s

    def _problem(self, index: _Index, a: Index, b: Index, s: Vector) -> _Problem:
        days = np.asarray(index.days, dtype=np.float64)
        gaps = days[1:] - days[:-1]
        coupling = np.zeros(max(len(index.days) - 1, 0))
        same = np.ones(len(index.days), dtype=bool)
        same[np.asarray(index.start[:-1], dtype=np.int64)] = False
        linked = same[1:]
        coupling[linked] = 1.0 / (gaps[linked] * self.config.w2_natural)
        return _Problem(
            a=a,
            b=b,
            s=s,
            fixed=np.zeros(a.size),
            first=np.asarray(index.start[:-1], dtype=np.int64),
            coupling=coupling,
            virtual=float(self.config.virtual_games),
        )

    def fit(self, games: Sequence[Game], warm: Fit | None = None, *, max_sweeps: int = 1000) -> Fit:
        """The MAP of the whole history ``games``, by Newton sweeps until no rating moves by
        more than :data:`TOLERANCE` Elo or ``max_sweeps`` sweeps. ``warm`` seeds each player's
        days with its curve's rating on that day (a day it lacks: its curve's last earlier
        day, or 0); the maximum reached is the same (the posterior is strictly concave)."""
        if not games:
            return Fit(curves={}, converged=True, sweeps=0, max_step=0.0, state=_state([], []))
        index, a, b, s = self._index(games)
        problem = self._problem(index, a, b, s)
        r = np.asarray(self._seed(index, warm))
        sweeps = 0
        step = math.inf
        while sweeps < max_sweeps:
            x = problem.newton_step(r)
            r = r + x
            sweeps += 1
            step = float(np.max(np.abs(x))) * ELO
            if step <= TOLERANCE:
                break
        if (sweeps and not math.isfinite(step)) or not np.all(np.isfinite(r)):
            # Not seen within the parameters' ranges; the ledger reports it as a
            # NonFiniteResult rather than storing a fit that is no number.
            raise ArithmeticError("whr: the Newton iteration left the finite numbers")
        ratings = (r * ELO).tolist()
        deviations = problem.deviations(r)
        curves: dict[PlayerKey, tuple[CurvePoint, ...]] = {}
        for k, key in enumerate(index.keys):
            curves[key] = tuple(
                CurvePoint(date.fromordinal(index.days[i]), ratings[i], deviations[i] * ELO)
                for i in range(index.start[k], index.start[k + 1])
            )
        return Fit(
            curves=curves,
            converged=step <= TOLERANCE,
            sweeps=sweeps,
            # No sweep (max_sweeps 0): nothing moved yet, and nothing says it has converged.
            max_step=0.0 if sweeps == 0 else step,
            state=_state(games, index.keys),
        )

    def _seed(self, index: _Index, warm: Fit | None) -> list[float]:
        """The starting ratings (natural units): 0, or ``warm``'s by player and day."""
        if warm is None:
            return [0.0] * len(index.days)
        seed: list[float] = []
        for k, key in enumerate(index.keys):
            curve = warm.curves.get(key, ())
            known = [p.day.toordinal() for p in curve]
            for i in range(index.start[k], index.start[k + 1]):
                at = bisect_left(known, index.days[i] + 1) - 1
                seed.append(curve[at].rating / ELO if at >= 0 else 0.0)
        return seed

    # -- a new game ----------------------------------------------------------------------

    def extends(self, state: Mapping[str, Json]) -> bool:
        """Whether :meth:`add_game` can extend a fit whose ladder-wide state is ``state`` (a
        fit stored in an older format is refitted instead)."""
        return state.get("format") == STATE_FORMAT

    def add_game_reads(self, fit: Fit, game: Game) -> set[PlayerKey]:
        """The curves :meth:`add_game` reads besides the game's players': their opponents'
        (held fixed at their ratings of the days they met)."""
        players: Mapping[str, Any] = fit.state.get("players", {})
        pair = _pair(game)
        return {
            PlayerKey(str(entry[1]))
            for key in pair
            for entry in players.get(_name(key), ())
            if PlayerKey(str(entry[1])) not in pair
        }

    def add_game(self, fit: Fit, game: Game) -> Fit:
        """``fit`` with ``game`` added to its history: Newton steps on its two players only,
        in turn, every other player held at ``fit``'s ratings, until neither moves by more
        than the tolerance or :data:`ADD_GAME_ROUNDS` rounds. The two players' games (day,
        opponent, score) come from ``fit.state`` and their opponents' ratings from
        ``fit.curves`` (only those of :meth:`add_game_reads` are read), so the cost is that of
        their own histories, not the ladder's. ``converged`` is False, ``sweeps`` 0."""
        state = fit.state
        if not self.extends(state):
            raise ValueError("add_game: the fit's state is not in this engine's format")
        first, second = _pair(game)
        played: Mapping[str, list[list[Any]]] = state["players"]
        day = utc_day(game.played_at)
        s = score(game)
        lists = {
            first: [*played.get(_name(first), ()), [day, second.player, s]],
            second: [*played.get(_name(second), ()), [day, first.player, 1.0 - s]],
        }
        local = {
            key: self._local(key, other, lists[key], fit.curves)
            for key, other in ((first, second), (second, first))
        }
        # Where each player's games against the other read the other's ratings.
        against = {
            key: np.asarray(
                [local[other].position[d] for d in local[key].versus_days], dtype=np.int64
            )
            for key, other in ((first, second), (second, first))
        }
        step = 0.0
        for _ in range(ADD_GAME_ROUNDS):
            step = 0.0
            for key, other in ((first, second), (second, first)):
                mine = local[key]
                mine.problem.fixed[mine.versus] = local[other].r[against[key]]
                x = mine.problem.step(mine.r)
                mine.r = mine.r + x
                step = max(step, float(np.max(np.abs(x))) * ELO)
            if step <= TOLERANCE:
                break
        curves = dict(fit.curves)
        for key, other in ((first, second), (second, first)):
            mine = local[key]
            mine.problem.fixed[mine.versus] = local[other].r[against[key]]
            deviations = mine.problem.deviations(mine.r)
            curves[key] = tuple(
                CurvePoint(date.fromordinal(d), v * ELO, dev * ELO)
                for d, v, dev in zip(mine.days, mine.r.tolist(), deviations, strict=True)
            )
        players = dict(played)
        for key in (first, second):
            players[_name(key)] = lists[key]
        return Fit(
            curves=curves,
            converged=False,
            sweeps=0,
            max_step=step,
            state={"format": STATE_FORMAT, "players": players},
        )

    def _local(
        self,
        key: PlayerKey,
        other: PlayerKey,
        entries_in: Sequence[Sequence[Any]],
        curves: Mapping[PlayerKey, Sequence[CurvePoint]],
    ) -> _Local:
        """One player's Newton problem over its days, every opponent held at its curve's
        rating that day (the ``other`` mover's games are marked, to be read afresh), its
        days seeded from its curve (a new day: its last earlier point, else 0).
        ``entries_in``: its games, each (day ordinal, opponent, its score)."""
        entries: list[tuple[int, float, float]] = []
        versus: list[int] = []
        for day_in, opponent, s_in in entries_in:
            day, s = int(day_in), float(s_in)
            kb = PlayerKey(str(opponent))
            if kb == other:
                versus.append(len(entries))
            entries.append((day, s, _rating_on(curves.get(kb, ()), day)))
        days = sorted({d for d, _, _ in entries})
        position = {d: i for i, d in enumerate(days)}
        points = curves.get(key, ())
        r = np.asarray([_rating_on(points, d) for d in days])
        gaps = np.diff(np.asarray(days, dtype=np.float64))
        problem = _Problem(
            a=np.asarray([position[d] for d, _, _ in entries], dtype=np.int64),
            b=np.full(len(entries), -1, dtype=np.int64),
            s=np.asarray([s for _, s, _ in entries]),
            fixed=np.asarray([o for _, _, o in entries]),
            first=np.zeros(1, dtype=np.int64),
            coupling=1.0 / (gaps * self.config.w2_natural),
            virtual=float(self.config.virtual_games),
        )
        return _Local(
            days=days,
            position=position,
            r=r,
            problem=problem,
            versus=np.asarray(versus, dtype=np.int64),
            versus_days=[entries[i][0] for i in versus],
        )


@dataclass(slots=True)
class _Local:
    """One of a new game's two players in ``add_game``: its days, their positions, its
    ratings (natural units) and Newton problem, and which of its games are against the other
    player (entry indices and days)."""

    days: list[int]
    position: dict[int, int]
    r: Vector
    problem: _Problem
    versus: Index
    versus_days: list[int]


def _rating_on(curve: Sequence[CurvePoint], day: int) -> float:
    """A curve's rating (natural units) on ``day``: its last point on or before it, else 0."""
    at = bisect_left(curve, day + 1, key=_ordinal) - 1
    return curve[at].rating / ELO if at >= 0 else 0.0


def _ordinal(point: CurvePoint) -> int:
    return point.day.toordinal()


def _name(key: PlayerKey) -> str:
    """A key's name in the state's JSON (whr ladders are not per faction: the player)."""
    return key.player


def _state(games: Sequence[Game], keys: Sequence[PlayerKey]) -> dict[str, Any]:
    """What ``add_game`` needs besides the curves: each player's games, in history order, as
    (day ordinal, opponent, its score), so a new game's players are extended without the
    history (their opponents' ratings are read from the curves)."""
    players: dict[str, list[list[Any]]] = {_name(k): [] for k in keys}
    for game in games:
        day, s = utc_day(game.played_at), score(game)
        ka, kb = _pair(game)
        players[_name(ka)].append([day, kb.player, s])
        players[_name(kb)].append([day, ka.player, 1.0 - s])
    return {"format": STATE_FORMAT, "players": players}


SYSTEM = RatingSystem(info=INFO, config=WhrConfig.from_params, rater=WhrRater)
