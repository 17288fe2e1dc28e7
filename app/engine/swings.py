"""What a table is worth to each player, without rating the table once per player and outcome.

The lobby (API.md "Predictions") shows, for each player of a table of N, its change if it wins
alone, if each other player wins alone, and if everyone draws: N + 1 outcomes of the table.
Rating each outcome through ``rate_game`` costs N^2 duels each, N^3 in all, and most of it is
the details a stored change keeps. Where a system's update of one player is a sum over its
opponents (SYSTEMS.md "elo", "glicko", "glicko2": multiplayer tables are pairwise by rank),
the terms that do not depend on the result (Elo's expected scores, Glicko's g, E and d^2,
Glicko-2's g, E and v) are computed once per player, and each outcome only re-adds the scores.

The head-to-head amounts of every pair of the table (:func:`pair_swings`, N (N - 1) two-player
games) take the same per-player terms from one preparation of the table (its period starts,
in the Glicko family), and equal inputs are computed once: a rating period whose score sum is
the same float gives the same rating, and two players at the same period-start values against
the same opponent values get the same amounts (a lobby of newcomers is all one pair).

Every number is the one ``rate_game`` gives: the same functions of the system's module, the
same operands in the same order, so the same floats (tests/api/test_prediction_amounts.py
compares them with ``rate_game`` over random tables). A system without a shortcut here gives
None, and the caller rates each outcome with ``rate_game``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from app.engine import glicko, glicko2
from app.engine.base import DRAW, LOSS, WIN
from app.engine.elo import EloRater
from app.engine.elo_family import duel_delta, logistic_expected_score
from app.engine.errors import NonFiniteResult, arithmetic_refused
from app.engine.glicko_family import GlickoFamilyRater
from app.engine.ledger import PLAYERS
from app.engine.periods import PeriodResult, Position, locate, period_index
from app.engine.protocols import GameRater
from app.engine.types import Game, PlayerKey, PlayerState


@dataclass(frozen=True, slots=True)
class Swings:
    """Each player's rating change (after minus before) in each outcome of a table.

    ``win[i]``: i wins alone. ``loss[i][j]``: j wins alone (``loss[i][i]`` is 0.0, unused).
    ``draw[i]``: every player shares the first place.
    """

    win: tuple[float, ...]
    loss: tuple[tuple[float, ...], ...]
    draw: tuple[float, ...]


def has_shortcut(rater: GameRater) -> bool:
    """Whether :func:`table_swings` computes ``rater``'s swings (rather than giving None).

    Its swings of a two-player table do not depend on the order of the two: each player's
    sum holds the one opponent's term, after the period's earlier results.
    """
    return type(rater) is EloRater or isinstance(rater, glicko.GlickoRater | glicko2.Glicko2Rater)


def table_swings(
    rater: GameRater, game: Game, before: Mapping[PlayerKey, PlayerState]
) -> Swings | None:
    """The swings of ``game``'s table (its ranks are ignored), or None when ``rater``'s system
    has no shortcut here. ``before`` holds each participant's state under ``PlayerKey(player)``.

    Raises NonFiniteResult (on ``players``) where ``rate_game`` would give a non-finite rating.
    """
    if not has_shortcut(rater):
        return None
    with arithmetic_refused(PLAYERS):
        if isinstance(rater, EloRater):
            return _elo(rater, game, before)
        return _glicko_family(cast(glicko.GlickoRater | glicko2.Glicko2Rater, rater), game, before)


#: A player's change in a two-player game if it wins, draws, loses.
PairAmounts = tuple[float, float, float]


def pair_swings(
    rater: GameRater, game: Game, before: Mapping[PlayerKey, PlayerState]
) -> dict[tuple[int, int], PairAmounts] | None:
    """For every ordered pair (i, j) of ``game``'s participants, i's change in a game of the two
    alone (as ``rate_game`` rates it; the two-player table of a shortcut system does not depend
    on the order of the two), or None when ``rater``'s system has no shortcut here.

    Raises NonFiniteResult (on ``players``) where ``rate_game`` would give a non-finite rating.
    """
    if not has_shortcut(rater):
        return None
    n = len(game.participants)
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    with arithmetic_refused(PLAYERS):
        if isinstance(rater, EloRater):
            R = [before[PlayerKey(p.player)].rating for p in game.participants]
            k_per_duel = rater.config.k / (PAIR_PLAYERS - 1)
            return {
                (i, j): _elo_amounts(game, R, i, [j], k_per_duel, rater.config.scale, PAIR_PLAYERS)
                for i, j in pairs
            }
        family = cast(glicko.GlickoRater | glicko2.Glicko2Rater, rater)
        prepared = _prepare(family, game, before)
        computed: dict[tuple[object, ...], tuple[float, list[float], float]] = {}
        result: dict[tuple[int, int], PairAmounts] = {}
        for i, j in pairs:
            # Everything the pair's period of player i is computed from.
            key = (*prepared.period_key(i), prepared.start_values[j])
            if key not in computed:
                computed[key] = _glicko_player(family, prepared, i, [j])
            won, (lost,), drawn = computed[key]
            rating = prepared.states[i].rating
            for after in (won, drawn, lost):
                _require_finite(game.participants[i].player, after)
            result[i, j] = (won - rating, drawn - rating, lost - rating)
        return result


#: A head-to-head is a table of two.
PAIR_PLAYERS = 2


def _elo(rater: EloRater, game: Game, before: Mapping[PlayerKey, PlayerState]) -> Swings:
    """R'_i = R_i + K / (N - 1) * (sum_j S_ij - sum_j E_ij) (app/engine/elo.py): the sum of
    expected scores is the player's own, whatever the outcome."""
    players = game.participants
    n = len(players)
    k_per_duel = rater.config.k / (n - 1)
    R = [before[PlayerKey(p.player)].rating for p in players]
    win, loss, draw = [], [], []
    for i in range(n):
        opponents = [j for j in range(n) if j != i]
        won, drawn, lost = _elo_amounts(game, R, i, opponents, k_per_duel, rater.config.scale, n)
        win.append(won)
        loss.append(tuple(0.0 if j == i else lost for j in range(n)))
        draw.append(drawn)
    return Swings(tuple(win), tuple(loss), tuple(draw))


def _elo_amounts(
    game: Game,
    R: Sequence[float],
    i: int,
    opponents: Sequence[int],
    k_per_duel: float,
    scale: float,
    n: int,
) -> PairAmounts:
    """Player i's change at a table of ``n`` against ``opponents`` if it wins alone, if all
    draw, if one other player wins alone (the same for each: its S sum is the same)."""
    # Sums of 1s and 1/2s below 2^53 are exact, so any order gives rate_game's S sum.
    S_win, S_loss, S_draw = WIN * (n - 1), LOSS + DRAW * (n - 2), DRAW * (n - 1)
    E_sum = 0.0
    for j in opponents:
        E_sum += logistic_expected_score(R[i], R[j], scale)

    def delta(S_sum: float) -> float:
        after = R[i] + duel_delta(k_per_duel, S_sum, E_sum)
        _require_finite(game.participants[i].player, after)
        return after - R[i]

    return delta(S_win), delta(S_draw), delta(S_loss)


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A table's per-player values for the Glicko family, computed once: each player's state,
    its position in the game's period, its period-start state (after idle growth) and the
    period-start (r, RD) its opponents rate it at."""

    states: list[PlayerState]
    positions: list[Position]
    starts: list[PlayerState]
    start_values: list[tuple[float, float]]
    rater: GlickoFamilyRater[Any]

    def period_key(self, i: int) -> tuple[object, ...]:
        """What player i's period is computed from, besides its opponents: its period-start
        rating, RD and volatility and its period's earlier results."""
        start = self.starts[i]
        return (
            start.rating,
            _deviation(self.rater, start),
            self.rater._sigma(start),
            self.positions[i].results,
        )


def _prepare(
    rater: glicko.GlickoRater | glicko2.Glicko2Rater,
    game: Game,
    before: Mapping[PlayerKey, PlayerState],
) -> _Prepared:
    period = period_index(game.played_at, rater.config.period)
    states = [before[PlayerKey(p.player)] for p in game.participants]
    positions = [locate(state, period) for state in states]
    starts = [rater.period_start(position)[0] for position in positions]
    start_values = [(base.rating, _deviation(rater, base)) for base in starts]
    return _Prepared(states, positions, starts, start_values, rater)


def _glicko_player(
    rater: glicko.GlickoRater | glicko2.Glicko2Rater,
    prepared: _Prepared,
    i: int,
    opponents: Sequence[int],
) -> tuple[float, list[float], float]:
    """Player i's period rated as ``GlickoFamilyRater.rate_game`` rates it: its period's
    earlier results, then one result per opponent (in table order) at the opponent's
    period-start values; its new rating after winning every duel, after losing duel q (and
    drawing the others) for each q, and after drawing every duel."""
    earlier = prepared.positions[i].results
    start_values = prepared.start_values
    results = (
        *earlier,
        *(PeriodResult(start_values[j][0], start_values[j][1], DRAW) for j in opponents),
    )
    period_of = (
        _glicko2_period(rater, prepared.starts[i], results)
        if isinstance(rater, glicko2.Glicko2Rater)
        else _glicko_period(rater, prepared.starts[i], results)
    )
    return _outcomes(period_of, [r.score for r in earlier], len(opponents))


def _glicko_family(
    rater: glicko.GlickoRater | glicko2.Glicko2Rater,
    game: Game,
    before: Mapping[PlayerKey, PlayerState],
) -> Swings:
    """Each player's period (:func:`_glicko_player`) against every other player."""
    players = game.participants
    n = len(players)
    prepared = _prepare(rater, game, before)
    win, loss, draw = [], [], []
    for i in range(n):
        opponents = [j for j in range(n) if j != i]
        won, lost, drawn = _glicko_player(rater, prepared, i, opponents)
        rating = prepared.states[i].rating
        for after in (won, drawn, *lost):
            _require_finite(players[i].player, after)
        win.append(won - rating)
        draw.append(drawn - rating)
        by_winner = dict(zip(opponents, lost, strict=True))
        loss.append(tuple(by_winner[j] - rating if j in by_winner else 0.0 for j in range(n)))
    return Swings(tuple(win), tuple(loss), tuple(draw))


def _outcomes(
    period_of: _Period, earlier: Sequence[float], duels: int
) -> tuple[float, list[float], float]:
    """The new rating after winning every duel, after losing duel q (and drawing the others)
    for each q, and after drawing every duel; ``earlier`` are the scores already in the
    period. A score sum met twice (opponents at the same values) is rated once."""
    first = len(earlier)
    prior = [period_of.term(k, s) for k, s in enumerate(earlier)]
    won = prior + [period_of.term(first + q, WIN) for q in range(duels)]
    drawn = prior + [period_of.term(first + q, DRAW) for q in range(duels)]
    lost = []
    for q in range(duels):
        terms = drawn.copy()
        terms[first + q] = period_of.term(first + q, LOSS)
        lost.append(terms)
    rated: dict[float, float] = {}

    def rating(terms: list[float]) -> float:
        # sum() of the terms in result order, as the systems' score sums add them.
        total = sum(terms)
        if total not in rated:
            rated[total] = period_of.rating(total)
        return rated[total]

    return rating(won), [rating(terms) for terms in lost], rating(drawn)


@dataclass(frozen=True, slots=True)
class _Period:
    """One player's rating period with its results fixed and the scores left open: ``term(k,
    s)`` is result k's term g_k (s - E_k) of the score sum, ``rating(total)`` the new rating
    for a score sum."""

    term: Callable[[int, float], float]
    rating: Callable[[float], float]


def _deviation(rater: GlickoFamilyRater[Any], state: PlayerState) -> float:
    """The RD the family rates ``state`` with (its own, or the initial RD)."""
    return rater._RD(state)


def _glicko_period(
    rater: glicko.GlickoRater, base: PlayerState, results: Sequence[PeriodResult]
) -> _Period:
    """Glicko-1 step 2 (``glicko.rate_period``): g, E and d^2 do not depend on the scores;
    r' = r + q / (1 / RD^2 + 1 / d^2) sum_j g(RD_j) (s_j - E_j)."""
    r = base.rating
    RD = _deviation(rater, base)
    opponents = [
        glicko.Opponent(res.opponent_rating, res.opponent_deviation, res.score) for res in results
    ]
    g_j = [glicko.g(o.RD_j) for o in opponents]
    E_j = [glicko.E(r, o.r_j, o.RD_j) for o in opponents]
    factor = glicko.Q / (1.0 / RD**2 + 1.0 / glicko.d_squared(r, opponents))
    return _Period(term=lambda k, s: g_j[k] * (s - E_j[k]), rating=lambda total: r + factor * total)


def _glicko2_period(
    rater: glicko2.Glicko2Rater, base: PlayerState, results: Sequence[PeriodResult]
) -> _Period:
    """Glicko-2 steps 3-8 (``glicko2.rate_period_of`` as ``Glicko2Rater.rate_results`` calls
    it): g, E and v do not depend on the scores; Delta, sigma', phi*, phi' and mu' do."""
    mu = glicko2.to_mu(base.rating)
    phi = glicko2.to_phi(_deviation(rater, base))
    sigma = rater._sigma(base)
    phi_max = glicko2.to_phi(rater.config.initial_deviation)
    tau = rater.config.tau
    mu_j = [glicko2.to_mu(res.opponent_rating) for res in results]
    g_j = tuple(map(glicko2.g, (glicko2.to_phi(res.opponent_deviation) for res in results)))
    x_j = [g * (mu - m) for g, m in zip(g_j, mu_j, strict=True)]
    E_j = tuple(map(glicko2._logistic, x_j))
    total = 0.0
    for g, x, E in zip(g_j, x_j, E_j, strict=True):
        total += g**2 * E * glicko2._logistic(-x)
    v = 1.0 / total

    def rating(scores: float) -> float:
        sigma_new = glicko2.sigma_prime(phi, sigma, v, v * scores, tau, glicko2.EPSILON)
        phi_new = glicko2.phi_prime(min(glicko2.phi_star(phi, sigma_new), phi_max), v)
        # Step 8 as Glicko2Rater.rate_results writes it: r + 173.7178 (mu' - mu).
        return base.rating + glicko2.SCALE * (mu + phi_new**2 * scores - mu)

    return _Period(term=lambda k, s: g_j[k] * (s - E_j[k]), rating=rating)


def _require_finite(player: str, rating: float) -> None:
    """As ``app.engine.ledger`` refuses a non-finite result of ``rate_game``."""
    if not math.isfinite(rating):
        raise NonFiniteResult(
            ("players",),
            f"rating {player!r} gives {rating!r}: the ratings or the ladder's parameters "
            "involved are too large for the system",
        )
