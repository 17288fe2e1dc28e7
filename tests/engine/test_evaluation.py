"""SYSTEMS.md "Evaluation": predictions before each game, and their scores.

The expected values are hand arithmetic (Elo's E from the ratings before each game, the
metrics' definitions written out), an independent replay (prefixes of the history through
``ledger.final_states``), or an independent exact implementation of the sums (fractions).
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import elo, glicko2, nadf
from app.engine.errors import NonFiniteResult
from app.engine.evaluation import (
    CLIP,
    COMPACT_AFTER,
    Pair,
    bin_of,
    predictions,
    score,
)
from app.engine.ledger import event_keys, final_states
from app.engine.protocols import GameRater
from app.engine.types import Adjustment, Game, LadderEvent, Participant, PlayerKey

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LN2 = math.log(2)


def at(hours: int) -> datetime:
    return START + timedelta(hours=hours)


def duel(hours: int, a: str, rank_a: int, b: str, rank_b: int, rated: bool = True) -> Game:
    return Game(at(hours), (Participant(a, rank_a), Participant(b, rank_b)), rated=rated)


def table(hours: int, ranks: dict[str, int]) -> Game:
    return Game(at(hours), tuple(Participant(p, r) for p, r in ranks.items()))


def logistic(r_a: float, r_b: float) -> float:
    """Elo's E with the default scale 400 (SYSTEMS.md "elo")."""
    return 1 / (1 + 10 ** ((r_b - r_a) / 400))


# --- Three Elo games by hand -----------------------------------------------------------------

#: a beats b; c beats a (a listed first); b and c draw. Elo defaults: 1500, K 32, scale 400.
THREE_GAMES = [duel(0, "a", 1, "b", 2), duel(1, "a", 2, "c", 1), duel(2, "b", 1, "c", 1)]


def three_game_probabilities() -> tuple[float, float, float]:
    """Each game's p from the ratings before it, by hand."""
    p1 = logistic(1500, 1500)  # = 1/2
    a, b = 1500 + 32 * (1 - p1), 1500 + 32 * (0 - (1 - p1))  # 1516, 1484
    p2 = logistic(a, 1500)  # a (1516) against the new c (1500)
    c = 1500 + 32 * (1 - (1 - p2))  # c won: S = 1, E = 1 - p2
    p3 = logistic(b, c)
    return p1, p2, p3


def test_three_elo_games_are_predicted_from_the_ratings_before_each() -> None:
    p1, p2, p3 = three_game_probabilities()
    assert p1 == 0.5
    got = list(predictions(elo.SYSTEM.info, elo.SYSTEM.configure(None), THREE_GAMES))
    assert got == [
        ((p1, 1.0),),
        ((pytest.approx(p2, rel=1e-15), 0.0),),
        ((pytest.approx(p3, rel=1e-15), 0.5),),
    ]


def test_three_elo_games_score_by_hand() -> None:
    _, p2, p3 = three_game_probabilities()
    scores = score(predictions(elo.SYSTEM.info, elo.SYSTEM.configure(None), THREE_GAMES))
    m = scores.candidate
    assert (m.games, m.pairs) == (3, 3)
    # Game 1: -ln(1/2); game 2: a lost (s = 0), -ln(1 - p2); game 3 drawn, -(ln p3 + ln(1 - p3))/2.
    log_loss = (math.log(2) - math.log(1 - p2) - (0.5 * math.log(p3) + 0.5 * math.log(1 - p3))) / 3
    assert m.log_loss == pytest.approx(log_loss, rel=1e-14)
    assert m.brier == pytest.approx(((0.5 - 1) ** 2 + p2**2 + (p3 - 0.5) ** 2) / 3, rel=1e-14)
    # Decisive games: 1 (p = 1/2: a half) and 2 (a favoured at 1516 against 1500, and lost: 0).
    assert p2 > 0.5
    assert m.accuracy == (0.5 + 0) / 2
    # Entries (p, s) and (1 - p, 1 - s): (.5, 1) (.5, 0) | (p2≈.523, 0) (1-p2≈.477, 1) |
    # (p3≈.453, .5) (1-p3≈.547, .5): bin [0.4, 0.5) holds 1 - p2 and p3, [0.5, 0.6) the rest.
    assert 0.4 <= 1 - p2 < 0.5
    assert 0.4 <= p3 < 0.5
    bins = {b.low: b for b in m.calibration}
    assert [b.count for b in m.calibration] == [0, 0, 0, 0, 2, 4, 0, 0, 0, 0]
    assert bins[0.4].predicted == pytest.approx(((1 - p2) + p3) / 2, rel=1e-15)
    assert bins[0.4].observed == (1 + 0.5) / 2
    assert bins[0.5].predicted == pytest.approx((0.5 + 0.5 + p2 + (1 - p3)) / 4, rel=1e-15)
    assert bins[0.5].observed == (1 + 0 + 0 + 0.5) / 4
    assert all(b.predicted is None and b.observed is None for b in m.calibration if not b.count)
    assert [(b.low, b.high) for b in m.calibration] == [(k / 10, (k + 1) / 10) for k in range(10)]
    # The baseline over the same pairs: ln 2 each; Brier 1/4 for the decisive games, 0 for
    # the draw; accuracy 1/2; all six entries at p = 1/2.
    base = scores.baseline
    assert base.log_loss == pytest.approx(LN2, rel=1e-15)
    assert base.brier == (0.25 + 0.25 + 0) / 3
    assert base.accuracy == 0.5
    assert [b.count for b in base.calibration] == [0, 0, 0, 0, 0, 6, 0, 0, 0, 0]


def test_a_table_and_a_team_game_count_pairs_of_sides_in_input_order() -> None:
    """A three-player table is three pairs (a-b, a-c, b-c); a 2-v-2 game one pair of sides,
    each side at its members' mean rating (SYSTEMS.md "Win probability", elo)."""
    rater = elo.SYSTEM.configure(None)
    team = Game(
        at(1),
        (
            Participant("a", 2, team="red"),
            Participant("d", 1, team="blue"),
            Participant("b", 2, team="red"),
            Participant("c", 1, team="blue"),
        ),
    )
    history = [table(0, {"a": 1, "b": 2, "c": 2}), team]
    got = list(predictions(elo.SYSTEM.info, rater, history))
    assert got[0] == ((0.5, 1.0), (0.5, 1.0), (0.5, 0.5))
    # After the table (K / (N - 1) = 16 per duel): a +16, b and c -8 each.
    a, b, c = 1500 + 16 * (0.5 + 0.5), 1500 + 16 * (-0.5 + 0), 1500 + 16 * (-0.5 + 0)
    red, blue = (a + b) / 2, (1500 + c) / 2  # d is new
    assert got[1] == ((pytest.approx(logistic(red, blue), rel=1e-15), 0.0),)


def test_min_games_counts_the_players_rated_games_before_this_one() -> None:
    history = [
        duel(0, "a", 1, "b", 2),
        duel(1, "a", 1, "c", 2, rated=False),  # unrated: neither scored nor counted
        table(2, {"a": 1, "b": 2, "c": 3}),  # c has no rated game: only a-b counts
        duel(3, "c", 1, "b", 2),  # c has 1 rated game now
    ]
    rater = elo.SYSTEM.configure(None)
    every = list(predictions(elo.SYSTEM.info, rater, history))
    assert [len(pairs) for pairs in every] == [1, 3, 1]
    counted = list(predictions(elo.SYSTEM.info, rater, history, min_games=1))
    assert counted == [(every[1][0],), every[2]]
    assert list(predictions(elo.SYSTEM.info, rater, history, min_games=2)) == []
    assert score([]).candidate.log_loss is None


def test_from_and_to_score_a_window_while_every_game_rates() -> None:
    rater = elo.SYSTEM.configure(None)
    every = list(predictions(elo.SYSTEM.info, rater, THREE_GAMES))
    window = list(predictions(elo.SYSTEM.info, rater, THREE_GAMES, start=at(1), end=at(1)))
    assert window == [every[1]]
    assert list(predictions(elo.SYSTEM.info, rater, THREE_GAMES, start=at(2))) == [every[2]]


def test_an_adjustment_is_replayed_before_the_next_prediction() -> None:
    history: list[LadderEvent] = [
        duel(0, "a", 1, "b", 2),
        Adjustment(PlayerKey("a"), at(1), 1900.0),
        duel(2, "a", 1, "b", 2),
    ]
    got = list(predictions(elo.SYSTEM.info, elo.SYSTEM.configure(None), history))
    assert got[1] == ((pytest.approx(logistic(1900, 1484), rel=1e-15), 1.0),)


def test_a_system_without_a_pair_probability_is_refused() -> None:
    game = Game(
        at(0),
        tuple(Participant(f"p{i}", i + 1, centres=[18, 8, 8, 0, 0, 0, 0][i]) for i in range(7)),
    )
    with pytest.raises(NonFiniteResult, match="no win probability"):
        list(predictions(nadf.SYSTEM.info, nadf.SYSTEM.configure(None), [game]))


# --- Against an independent replay -----------------------------------------------------------


def random_history(seed: int, games: int, players: int, size: int) -> list[Game]:
    """Games of ``size`` players drawn from ``players``, hours apart (ranks with ties)."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    return [
        Game(
            at(hour * 7),
            tuple(Participant(p, rng.randint(1, size)) for p in rng.sample(names, size)),
        )
        for hour in range(games)
    ]


@pytest.mark.parametrize(("system", "size"), [(elo, 2), (elo, 4), (glicko2, 4)])
def test_each_prediction_is_the_rater_on_the_states_before_the_game(
    system: object, size: int
) -> None:
    module = system
    info = module.SYSTEM.info  # type: ignore[attr-defined]
    rater: GameRater = module.SYSTEM.configure(None)  # type: ignore[attr-defined]
    history = random_history(7, 60, 9, size)
    got = list(predictions(info, rater, history))
    assert len(got) == len(history)
    initial = rater.initial_state(rater.initial_ladder_state())
    for index, game in enumerate(history):
        before = final_states(info, rater, history[:index])
        states = [before.get(key, initial) for key in event_keys(info, game)]
        ranks = [p.rank for p in game.participants]
        expected: list[Pair] = []
        for i in range(size):
            for j in range(i + 1, size):
                s = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                expected.append((rater.side_win_probability([states[i]], [states[j]]), s))  # type: ignore[arg-type]
        assert got[index] == tuple(expected)


# --- The sums: exact, whatever their order ---------------------------------------------------


def reference(
    games: list[list[Pair]],
) -> tuple[float, float, float | None, list[tuple[int, float | None, float | None]]]:
    """The metrics with exact rational sums, rounded where SYSTEMS.md's means are taken: a
    game's value is its pairs' mean, the metric the mean of the games' values."""

    def mean(values: list[float]) -> float:
        return float(sum((Fraction(v) for v in values), Fraction(0))) / len(values)

    def loss(p: float, s: float) -> float:
        q = min(max(p, CLIP), 1 - CLIP)
        return -(s * math.log(q) + (1 - s) * math.log(1 - q))

    log_loss = mean([mean([loss(p, s) for p, s in g]) for g in games])
    brier = mean([mean([(p - s) * (p - s) for p, s in g]) for g in games])
    decisive = [
        mean([0.5 if p == 0.5 else float((p > 0.5) == (s == 1.0)) for p, s in g if s != 0.5])
        for g in games
        if any(s != 0.5 for _, s in g)
    ]
    entries: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for g in games:
        for p, s in g:
            for q, t in ((p, s), (1 - p, 1 - s)):
                k = next(k for k in range(9, -1, -1) if q >= k / 10)
                entries[k].append((q, t))
    bins = [
        (len(e), mean([q for q, _ in e]) if e else None, mean([t for _, t in e]) if e else None)
        for e in entries
    ]
    return log_loss, brier, mean(decisive) if decisive else None, bins


def random_pairs(seed: int, games: int) -> list[list[Pair]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        out.append(
            [
                (
                    rng.choice([rng.random(), 0.5, 0.0, 1.0, 1e-9, 0.3, 0.7]),
                    rng.choice([0.0, 0.5, 1.0]),
                )
                for _ in range(rng.randint(1, 6))
            ]
        )
    return out


def test_the_metrics_equal_exact_sums_to_the_last_digit() -> None:
    # More entries than an exact sum keeps before compacting, so compaction is exercised.
    games = random_pairs(11, 3 * COMPACT_AFTER)
    m = score(games).candidate
    log_loss, brier, accuracy, bins = reference(games)
    assert (m.log_loss, m.brier, m.accuracy) == (log_loss, brier, accuracy)
    assert [(b.count, b.predicted, b.observed) for b in m.calibration] == bins


def test_the_order_of_the_games_changes_no_digit() -> None:
    games = random_pairs(12, 2_000)
    shuffled = games[:]
    random.Random(3).shuffle(shuffled)
    assert score(games) == score(shuffled)


def test_a_certain_prediction_that_fails_costs_the_clipped_loss() -> None:
    m = score([[(1.0, 0.0)], [(0.0, 1.0)]]).candidate
    # p = 1 is read as the double 1 - 1e-6, and 1 minus it is not quite 1e-6.
    assert m.log_loss == pytest.approx((-math.log(1 - (1 - CLIP)) - math.log(CLIP)) / 2, rel=1e-15)
    assert m.log_loss == pytest.approx(-math.log(1e-6), rel=1e-11)
    assert m.brier == 1.0
    assert m.accuracy == 0.0
    assert [b.count for b in m.calibration] == [2, 0, 0, 0, 0, 0, 0, 0, 0, 2]


def test_the_bins_bounds_belong_to_the_bin_above() -> None:
    assert [bin_of(k / 10) for k in range(11)] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9]
    assert bin_of(math.nextafter(0.3, 0)) == 2
    assert bin_of(0.3) == 3


# --- Properties over random histories --------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    size=st.integers(2, 5),
    system=st.sampled_from([elo, glicko2]),
    min_games=st.integers(0, 3),
)
def test_properties_of_any_history(seed: int, size: int, system: object, min_games: int) -> None:
    info = system.SYSTEM.info  # type: ignore[attr-defined]
    rater = system.SYSTEM.configure(None)  # type: ignore[attr-defined]
    history = random_history(seed, 30, 8, size)
    scores = score(predictions(info, rater, history, min_games=min_games))
    m, base = scores.candidate, scores.baseline
    assert sum(b.count for b in m.calibration) == 2 * m.pairs
    assert (base.games, base.pairs) == (m.games, m.pairs)
    if m.games:
        assert base.log_loss == pytest.approx(LN2, rel=1e-15)
        for b in m.calibration:
            if b.count:
                assert b.low <= b.predicted <= b.high  # type: ignore[operator]


def test_the_baseline_brier_is_a_quarter_without_draws() -> None:
    history = [
        g for g in random_history(5, 80, 6, 2) if g.participants[0].rank != g.participants[1].rank
    ]
    scores = score(predictions(elo.SYSTEM.info, elo.SYSTEM.configure(None), history))
    assert scores.baseline.brier == 0.25
    assert scores.baseline.accuracy == 0.5


def test_the_baseline_is_the_candidate_p_one_half_over_the_same_pairs() -> None:
    """The baseline is tallied per distinct outcomes; it equals p = ½ scored game by game."""
    games = random_pairs(13, 500)
    halves = [[(0.5, s) for _, s in g] for g in games]
    assert score(games).baseline == score(halves, baseline=False).candidate
    assert score(games, baseline=False).baseline is None
