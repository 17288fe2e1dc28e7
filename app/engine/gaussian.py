"""What the two Bayesian team systems share (SYSTEMS.md "Teams", ``trueskill``, ``weng-lin``): a
skill belief N(mu, sigma^2), a side of weighted members, the standard normal distribution, the
parameters both take, and the rater both are.

Both TrueSkill (Herbrich, Minka, Graepel, NIPS 2006) and Weng-Lin (JMLR 12, 2011) hold a
player's skill as a Gaussian belief: mean mu (the rating) and standard deviation sigma (the
deviation). A game is a list of sides (a free-for-all is sides of one member); each member carries
a weight in (0, 1], the share of the game it played (SYSTEMS.md "Teams"; default 1). Ranks are
per side, 1 is best, equal ranks draw. Before each game every member's sigma^2 grows by tau^2
(the dynamics), and the leaderboard ranks by mu - ranking_multiplier * sigma.

Everything here is immutable and pure; the standard normal functions are those of the papers
(phi the density, Phi the distribution function, Phi^-1 its inverse), from :mod:`math` and
:class:`statistics.NormalDist`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import NormalDist
from typing import TypeVar

from app.engine.base import RATING_LIMIT, BaseRater, require_finite, require_player_count
from app.engine.errors import InvalidEvent
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.types import (
    FULL_WEIGHT,
    Change,
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
    Standing,
    frozen,
)

#: 1 / sqrt(2 pi), the standard normal density at 0.
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT2 = math.sqrt(2.0)
_STANDARD_NORMAL = NormalDist()
#: A side needs at least one member and a game at least two sides (SYSTEMS.md "Teams").
MIN_SIDES = 2

#: The defaults of both sources (Herbrich et al.; openskill, after Weng & Lin), SYSTEMS.md: a
#: new player's mean 25 and deviation a third of it, the performance noise beta half of that,
#: the dynamics tau a hundredth of the deviation. Herbrich et al. write tau = sigma / 100 and
#: openskill 25 / 300, one unit in the last place apart: each system keeps its source's.
MU = 25.0
SIGMA = MU / 3.0
BETA = SIGMA / 2.0
TAU = SIGMA / 100.0
#: SYSTEMS.md ``trueskill``/``weng-lin``: ``ranking_value`` = mu - 3 sigma (the skill is above it
#: with probability Phi(3) = 99.87 %; openskill's ``ordinal``).
RANKING_MULTIPLIER = 3.0
#: Not from the sources: the leaderboard's mu - m sigma needs no more than ten deviations (the
#: Glicko family's bound, for the same reason).
RANKING_MULTIPLIER_MAX = 10.0
#: Not from the sources: the smallest sigma (a new player's, or an adjusted one) and beta a
#: ladder may set, a thousandth of a point (1/8,333 of the default sigma). The papers only need
#: them positive; this floor keeps sigma^2, beta^2 and their reciprocals, and the draw margin
#: (a multiple of beta), far from float underflow and overflow, so every division is finite.
DEVIATION_MIN = 1e-3
#: Below -MILLS_SWITCH the truncation functions use Mills' ratio instead of phi / Phi; from 6
#: on, MILLS_TERMS terms of its continued fraction agree with the quotient to 1e-14.
MILLS_SWITCH = 6.0
MILLS_TERMS = 20


def mu_param(description: str) -> ParamSpec:
    """``mu``, a new player's mean (25), on a rating's scale: within +-:data:`SCALE_LIMIT`."""
    return ParamSpec("mu", "number", MU, description, minimum=-SCALE_LIMIT, maximum=SCALE_LIMIT)


def spread_param(name: str, default: float, description: str) -> ParamSpec:
    """``sigma`` or ``beta``: from :data:`DEVIATION_MIN` to :data:`SCALE_LIMIT`."""
    return ParamSpec(
        name, "number", default, description, minimum=DEVIATION_MIN, maximum=SCALE_LIMIT
    )


def tau_param(default: float, description: str) -> ParamSpec:
    """``tau``, the dynamics (25/300): from 0 (none) to :data:`SCALE_LIMIT`. sigma^2 grows by at
    most tau^2 a game, so even the largest tau needs some 10^280 games to overflow it."""
    return ParamSpec("tau", "number", default, description, minimum=0.0, maximum=SCALE_LIMIT)


def ranking_multiplier_param() -> ParamSpec:
    """``ranking_multiplier`` (3), from 0 to :data:`RANKING_MULTIPLIER_MAX`."""
    return ParamSpec(
        "ranking_multiplier",
        "number",
        RANKING_MULTIPLIER,
        "The leaderboard's ranking_value is mu - ranking_multiplier * sigma (3: the skill is "
        "above it with probability 99.87 %).",
        minimum=0.0,
        maximum=RANKING_MULTIPLIER_MAX,
    )


@dataclass(frozen=True, slots=True)
class Gaussian:
    """A skill belief N(mu, sigma^2): ``mu`` is the rating, ``sigma`` the deviation."""

    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class Member:
    """One player of a side: its belief before the game and the share of the game it played."""

    rating: Gaussian
    weight: float = FULL_WEIGHT


#: A side (team) of one or more members; a free-for-all is sides of one member each.
Side = tuple[Member, ...]
#: The new belief of every member, side by side and member by member in the input's order.
Ratings = tuple[tuple[Gaussian, ...], ...]


@dataclass(frozen=True, slots=True)
class Update:
    """One game rated: every member's new belief, and the formula's terms the changes show
    (JSON numbers): each side's (input order) and the game's."""

    ratings: Ratings
    sides: tuple[Mapping[str, Json], ...]
    game: Mapping[str, Json]


@dataclass(frozen=True, slots=True)
class GaussianConfig:
    """The parameters both systems take, checked and typed."""

    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    tau: float = TAU
    ranking_multiplier: float = RANKING_MULTIPLIER

    def initial(self) -> Gaussian:
        """A new player's belief N(mu, sigma^2)."""
        return Gaussian(self.mu, self.sigma)


def pdf(x: float) -> float:
    """phi(x), the standard normal density."""
    return _INV_SQRT_2PI * math.exp(-0.5 * x * x)


def cdf(x: float) -> float:
    """Phi(x), the standard normal distribution function (erfc keeps the lower tail's relative
    precision, which the truncation functions divide by)."""
    return 0.5 * math.erfc(-x / _SQRT2)


def ppf(p: float) -> float:
    """Phi^-1(p), the standard normal quantile, for 0 < p < 1."""
    return _STANDARD_NORMAL.inv_cdf(p)


# --- truncation functions (Herbrich et al., Table 1), shared by TrueSkill and TTT -----------


def mills_tail(z: float) -> float:
    """G(z) = 1 / (z + 2 / (z + 3 / (z + ...))), so that phi(z) / (1 - Phi(z)) = z + G(z)
    (the continued fraction of Mills' ratio), for z >= MILLS_SWITCH."""
    f = z
    for k in range(MILLS_TERMS, 1, -1):
        f = z + k / f
    return 1.0 / f


def win_terms(t: float, e: float) -> tuple[float, float]:
    """(v, w) of a win (Table 1): v = phi(x) / Phi(x), w = v (v + x) with x = t - e; in the far
    tail v = z + G(z), w = (z + G(z)) G(z) with z = -x, which avoids the cancellation in v + x."""
    x = t - e
    if x < -MILLS_SWITCH:
        g = mills_tail(-x)
        return g - x, (g - x) * g
    v = pdf(x) / cdf(x)
    return v, v * (v + x)


def draw_terms(t: float, e: float) -> tuple[float, float]:
    """(v~, w~) of a draw (Table 1), with a = e - |t|, b = -e - |t|:
    v~ = sign(t) (phi(b) - phi(a)) / (Phi(a) - Phi(b)),
    w~ = v~^2 + (a phi(a) - b phi(b)) / (Phi(a) - Phi(b)). In the far tail (a < -6) both are
    divided through by phi(a), with Phi(x) = phi(x) / (-x + G(-x)) and
    phi(b) / phi(a) = e^(-2 e |t|)."""
    s = abs(t)
    a, b = e - s, -e - s
    if a < -MILLS_SWITCH:
        ratio = math.exp(-2.0 * e * s)
        denom = 1.0 / (mills_tail(-a) - a) - ratio / (mills_tail(-b) - b)
        v = (ratio - 1.0) / denom
        w = v * v + (a - b * ratio) / denom
    else:
        denom = cdf(a) - cdf(b)
        v = (pdf(b) - pdf(a)) / denom
        w = v * v + (a * pdf(a) - b * pdf(b)) / denom
    return (-v if t < 0 else v), w


def ranking_value(rating: Gaussian, multiplier: float) -> float:
    """SYSTEMS.md ``trueskill``/``weng-lin``: ``ranking_value`` = mu - multiplier * sigma."""
    return rating.mu - multiplier * rating.sigma


def check_game(sides: Sequence[Side], ranks: Sequence[int]) -> None:
    """The shape rules of SYSTEMS.md "Teams" that both systems rely on: two sides or more, no
    empty side, one rank per side, weights in (0, 1], finite beliefs with sigma > 0.

    ``loc`` names the side and member as the request body does (``teams[i].players[j]``).
    """
    if len(sides) < MIN_SIDES:
        raise InvalidEvent(("teams",), f"a game needs at least {MIN_SIDES} sides")
    if len(ranks) != len(sides):
        raise InvalidEvent(("teams",), "every side needs exactly one rank")
    for i, side in enumerate(sides):
        if not side:
            raise InvalidEvent(("teams", i, "players"), "a side needs at least one player")
        for j, member in enumerate(side):
            if not 0.0 < member.weight <= FULL_WEIGHT:
                raise InvalidEvent(
                    ("teams", i, "players", j, "weight"), "a weight must be in (0, 1]"
                )
            if not (math.isfinite(member.rating.mu) and math.isfinite(member.rating.sigma)):
                raise InvalidEvent(("teams", i, "players", j), "rating must be finite")
            if member.rating.sigma <= 0.0:
                raise InvalidEvent(("teams", i, "players", j), "deviation must be positive")


def rank_order(sides: Sequence[Side], ranks: Sequence[int]) -> list[int]:
    """Indices of the sides from best to worst rank.

    Among equal ranks the order is canonical, a function of the sides' contents only: the
    smaller sum of mu first, then the smaller sum of sigma^2, then the members as sorted
    (mu, sigma, weight) - a fixed choice (it is the order of the published 2 vs 4 vs 2 TrueSkill
    case). The papers compare neighbours in rank order and leave the order of tied sides open;
    TrueSkill's chain and the partial-pairing windows depend on it, so a canonical order makes
    the result independent of how the sides are listed (the reference packages keep the input
    order instead). Tied sides with identical contents are interchangeable: which of them gets
    which result follows the listing.
    """
    n = len(ranks)
    if len(set(ranks)) == n:
        return sorted(range(n), key=ranks.__getitem__)

    def key(k: int) -> tuple[int, float, float, tuple[tuple[float, float, float], ...]]:
        side = sides[k]
        return (
            ranks[k],
            math.fsum(m.rating.mu for m in side),  # fsum: exact, so member order cannot matter
            math.fsum(m.rating.sigma**2 for m in side),
            tuple(sorted((m.rating.mu, m.rating.sigma, m.weight) for m in side)),
        )

    return sorted(range(n), key=key)


ConfigT = TypeVar("ConfigT", bound=GaussianConfig)


@dataclass(frozen=True, slots=True)
class GaussianRater(BaseRater[ConfigT]):
    """A Bayesian team system configured with a ladder's parameters: a state is a belief
    (``rating`` = mu, ``deviation`` = sigma), a game is its sides (``Game.sides``), and a
    subclass supplies the system's :meth:`update` and win probability."""

    def belief(self, state: PlayerState) -> Gaussian:
        """The belief a state holds (a state without a deviation: the initial sigma)."""
        sigma = self.config.sigma if state.deviation is None else state.deviation
        return Gaussian(state.rating, sigma)

    def side(self, states: Sequence[PlayerState]) -> Side:
        """A side of full members with these states (a proposed side: no weights)."""
        return tuple(Member(self.belief(state)) for state in states)

    def update(self, sides: Sequence[Side], ranks: Sequence[int]) -> Update:
        """The system's rating of one game (its module's ``update``)."""
        raise NotImplementedError

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(rating=self.config.mu, deviation=self.config.sigma)

    def ranking_value(self, state: PlayerState) -> float:
        return ranking_value(self.belief(state), self.config.ranking_multiplier)

    def standing(self, state: PlayerState) -> Standing:
        belief = self.belief(state)
        return Standing(
            rating=belief.mu,
            deviation=belief.sigma,
            ranking_value=ranking_value(belief, self.config.ranking_multiplier),
        )

    def validate_game(self, game: Game) -> None:
        """Two sides or more (a free-for-all: two players or more) and weights in (0, 1]."""
        if not game.has_teams:
            require_player_count(game.participants, MIN_SIDES, None)
        sides = len(game.sides)
        if sides < MIN_SIDES:
            raise InvalidEvent(
                ("teams",), f"this system needs at least {MIN_SIDES} sides, got {sides}"
            )
        for index, p in enumerate(game.participants):
            if not 0.0 < p.weight <= FULL_WEIGHT:
                raise InvalidEvent(
                    (*game.where(index), "weight"), f"must be in (0, 1], got {p.weight!r}"
                )

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        """One change per participant in input order; ``details`` hold the member's terms
        (weight, mu and sigma before and after, sigma with the dynamics, ranking values), its
        side's (``side``) and the game's (the system's page lists them)."""
        players = game.participants
        keys = [PlayerKey(p.player) for p in players]
        states = [before[key] for key in keys]
        beliefs = [self.belief(state) for state in states]
        sides = game.sides
        result = self.update(
            [tuple(Member(beliefs[i], players[i].weight) for i in s.indices) for s in sides],
            [s.rank for s in sides],
        )
        tau2 = self.config.tau * self.config.tau
        multiplier = self.config.ranking_multiplier
        changes: dict[int, Change] = {}
        for s, new, side_terms in zip(sides, result.ratings, result.sides, strict=True):
            for i, after in zip(s.indices, new, strict=True):
                prior = beliefs[i]
                details: dict[str, Json] = {
                    "weight": players[i].weight,
                    "mu_before": prior.mu,
                    "sigma_before": prior.sigma,
                    "sigma_dynamics": math.sqrt(prior.sigma * prior.sigma + tau2),
                    "mu_after": after.mu,
                    "sigma_after": after.sigma,
                    "ranking_value_before": ranking_value(prior, multiplier),
                    "ranking_value_after": ranking_value(after, multiplier),
                    "side": side_terms,
                    **result.game,
                }
                state = PlayerState(rating=after.mu, deviation=after.sigma)
                changes[i] = Change(keys[i], states[i], state, frozen(details))
        return Outcome(changes=tuple(changes[i] for i in range(len(players))))

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """An administrator's mu (within +-:data:`RATING_LIMIT`, as for plain systems) and
        sigma (within the ``sigma`` parameter's range; omitted: the previous or initial one).
        There is no volatility."""
        require_finite(("rating",), rating)
        if abs(rating) > RATING_LIMIT:
            raise InvalidEvent(
                ("rating",),
                f"must be between {-RATING_LIMIT:g} and {RATING_LIMIT:g}, got {rating:g}",
            )
        if volatility is not None:
            raise InvalidEvent(("volatility",), "this system has no volatility")
        if deviation is None:
            deviation = self.config.sigma if previous is None else self.belief(previous).sigma
        require_finite(("deviation",), deviation)
        if not DEVIATION_MIN <= deviation <= SCALE_LIMIT:
            raise InvalidEvent(
                ("deviation",),
                f"must be between {DEVIATION_MIN:g} and {SCALE_LIMIT:g}, got {deviation:g}",
            )
        return PlayerState(rating=rating, deviation=deviation)
