"""What the two Bayesian team systems share: a skill belief N(mu, sigma^2), a side of weighted
members, and the standard normal distribution (SYSTEMS.md "Teams", ``trueskill``, ``weng-lin``).

Both TrueSkill (Herbrich, Minka, Graepel, NIPS 2006) and Weng-Lin (JMLR 12, 2011) hold a
player's skill as a Gaussian belief: mean mu (the rating) and standard deviation sigma (the
deviation). A game is a list of sides (a free-for-all is sides of one member); each member carries
a weight in (0, 1], the share of the game it played (SYSTEMS.md "Teams"; default 1). Ranks are
per side, 1 is best, equal ranks draw.

Everything here is immutable and pure; the standard normal functions are those of the papers
(phi the density, Phi the distribution function, Phi^-1 its inverse), from :mod:`math` and
:class:`statistics.NormalDist`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from app.engine.errors import InvalidEvent

#: 1 / sqrt(2 pi), the standard normal density at 0.
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT2 = math.sqrt(2.0)
_STANDARD_NORMAL = NormalDist()
#: A side needs at least one member and a game at least two sides (SYSTEMS.md "Teams").
MIN_SIDES = 2
#: SYSTEMS.md "Teams": a weight is in (0, 1]; 1 is the whole game.
FULL_WEIGHT = 1.0


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


def ranking_value(rating: Gaussian, multiplier: float) -> float:
    """SYSTEMS.md ``trueskill``/``weng-lin``: ``ranking_value`` = mu - multiplier * sigma
    (multiplier 3 by default: the skill is above it with probability Phi(3) = 99.87 %)."""
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
