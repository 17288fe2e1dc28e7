"""TrueSkill Through Time (SYSTEMS.md ``ttt``; Dangauthier et al. 2007; Landfried & Mocskos, JSS).

Expected values are the reference package's own test cases (glandfried/TrueSkillThroughTime.py,
``test/runtest.py``), written out with the tolerance of its assertions, where they map onto a
ladder: one prior for every player (the package's per-player priors do not), weights in (0, 1],
days as the time unit. The package computes Phi with an approximation of erfc good to ~1.2e-7
(Numerical Recipes' erfcc); this module uses the exact one, so its full-precision values (the
1v1's 29.20522074387697) agree to 1e-6, not to the last digit. The package's evidence cases
(the probability of a result under the prior, ``Game.evidence``) have no counterpart in the
protocol and are not mapped; a draw-free pair's evidence is the win probability checked below.
Then agreement with the package (``trueskillthroughtime`` 1.1, PyPI; a reference for the tests
only) on real ATP matches from ``../shared/data/atp``, read in place.
"""

from __future__ import annotations

import csv
import json
import math
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import trueskillthroughtime as reference

from app.engine import ttt
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.protocols import Fit
from app.engine.types import Game, Participant, PlayerKey, PlayerState

ATP = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "atp"
START = datetime(2020, 1, 1, tzinfo=UTC)
#: The package's TrueSkill parameters in most of its cases: mu 25, sigma 25/3, beta 25/6.
TS = {"mu": 25.0, "sigma": 25.0 / 3.0, "beta": 25.0 / 6.0, "gamma": 25.0 / 300.0}


def game(day: int, *players: tuple[str, int], weights: tuple[float, ...] = ()) -> Game:
    ws = weights or (1.0,) * len(players)
    return Game(
        START + timedelta(days=day),
        tuple(Participant(p, r, weight=w) for (p, r), w in zip(players, ws, strict=True)),
    )


def teams(day: int, *sides: tuple[tuple[str, ...], int]) -> Game:
    return Game(
        START + timedelta(days=day),
        tuple(
            Participant(p, rank, team=f"t{i}")
            for i, (names, rank) in enumerate(sides)
            for p in names
        ),
    )


def last(fit: Fit, player: str) -> tuple[float, float]:
    point = fit.curves[PlayerKey(player)][-1]
    return point.rating, point.deviation


def first(fit: Fit, player: str) -> tuple[float, float]:
    point = fit.curves[PlayerKey(player)][0]
    return point.rating, point.deviation


def close(got: tuple[float, float], mu: float, sigma: float, tol: float) -> None:
    assert got[0] == pytest.approx(mu, abs=tol)
    assert got[1] == pytest.approx(sigma, abs=tol)


def places(n: int) -> float:
    """unittest's assertAlmostEqual(places=n): |difference| rounds to 0 at n places."""
    return 0.5 * 10.0**-n


# --- the package's test cases (test/runtest.py) -----------------------------------------------


def test_1vs1() -> None:
    """test_1vs1: two new players (25, 25/3), beta 25/6; the second wins."""
    fit = ttt.SYSTEM.configure(TS).fit([game(0, ("a", 2), ("b", 1))])
    close(last(fit, "a"), 20.79477925612302, 7.194481422570443, 1e-6)
    close(last(fit, "b"), 29.20522074387697, 7.194481422570443, 1e-6)
    assert fit.converged


def test_1vs1vs1() -> None:
    """test_1vs1vs1: results [1, 2, 0] (higher is better): b first, a second, c last; then
    the same with p_draw 0.5."""
    fit = ttt.SYSTEM.configure(TS).fit([game(0, ("a", 2), ("b", 1), ("c", 3))])
    close(last(fit, "a"), 25.0, 6.238469796, places(5))
    close(last(fit, "b"), 31.3113582213, 6.69881865, places(5))
    assert last(fit, "c")[0] == pytest.approx(18.6886417787, abs=places(5))
    fit = ttt.SYSTEM.configure({**TS, "p_draw": 0.5}).fit([game(0, ("a", 2), ("b", 1), ("c", 3))])
    close(last(fit, "a"), 25.0, 6.093, places(3))
    close(last(fit, "b"), 33.379, 6.484, places(3))
    assert last(fit, "c")[0] == pytest.approx(16.621, abs=places(3))


def test_1vs1_draw() -> None:
    """test_1vs1_draw: two new players draw, p_draw 0.25."""
    fit = ttt.SYSTEM.configure({**TS, "p_draw": 0.25}).fit([game(0, ("a", 1), ("b", 1))])
    close(last(fit, "a"), 25.0, 6.469, places(2))
    close(last(fit, "b"), 25.0, 6.469, places(2))


def test_1vs1vs1_draw() -> None:
    """test_1vs1vs1_draw: three new players all draw, p_draw 0.25 (the chain in input order)."""
    fit = ttt.SYSTEM.configure({**TS, "p_draw": 0.25}).fit([game(0, ("a", 1), ("b", 1), ("c", 1))])
    close(last(fit, "a"), 25.0, 5.729, places(3))
    close(last(fit, "b"), 25.0, 5.707, places(3))


def test_one_event_each() -> None:
    """test_one_event_each: three independent games on one day."""
    fit = ttt.SYSTEM.configure(TS).fit(
        [game(0, ("a", 1), ("b", 2)), game(0, ("c", 2), ("d", 1)), game(0, ("e", 1), ("f", 2))]
    )
    close(last(fit, "a"), 29.205, 7.194, places(3))
    close(last(fit, "b"), 20.795, 7.194, places(3))
    close(last(fit, "c"), 20.795, 7.194, places(3))


def test_batch_same_strength() -> None:
    """test_batch_same_strength after convergence: a cycle of three games on one day."""
    fit = ttt.SYSTEM.configure(TS).fit(
        [game(2, ("a", 1), ("b", 2)), game(2, ("a", 2), ("c", 1)), game(2, ("b", 1), ("c", 2))]
    )
    for player in "abc":
        close(last(fit, player), 25.0, 5.419, places(3))
    assert fit.converged


def test_one_batch_history() -> None:
    """test_one_batch_history: the cycle aj > bj > cj > aj on one day (gamma 0.15 * 25/3),
    then on days 1, 2, 3 (gamma 25/300), both after convergence."""
    cycle = [("aj", "bj"), ("bj", "cj"), ("cj", "aj")]
    one_day = [game(1, (w, 1), (loser, 2)) for w, loser in cycle]
    fit = ttt.SYSTEM.configure({**TS, "gamma": 0.15 * 25.0 / 3.0}).fit(one_day)
    close(last(fit, "aj"), 25.0, 5.419, places(3))
    close(last(fit, "cj"), 25.0, 5.419, places(3))
    three_days = [game(d, (w, 1), (loser, 2)) for d, (w, loser) in enumerate(cycle, start=1)]
    fit = ttt.SYSTEM.configure(TS).fit(three_days)
    close(last(fit, "aj"), 24.999, 5.420, places(3))
    close(last(fit, "cj"), 25.001, 5.420, places(3))
    assert fit.converged


def test_learning_curve() -> None:
    """test_learning_curve: the same cycle on days 5, 6, 7; aj's curve spans days 5 to 7."""
    cycle = [("aj", "bj"), ("bj", "cj"), ("cj", "aj")]
    fit = ttt.SYSTEM.configure(TS).fit(
        [game(d, (w, 1), (loser, 2)) for d, (w, loser) in enumerate(cycle, start=5)]
    )
    curve = fit.curves[PlayerKey("aj")]
    assert [p.day for p in curve] == [(START + timedelta(days=d)).date() for d in (5, 7)]
    close(last(fit, "aj"), 24.999, 5.420, places(3))
    close(last(fit, "cj"), 25.001, 5.420, places(3))


def test_teams() -> None:
    """test_teams: three 2v2 games on consecutive days, mu 0, sigma 6, beta 1, gamma 0 (with
    no drift the days' spacing does not matter, so the package's untimed history maps)."""
    history = [
        teams(0, (("a", "b"), 1), (("c", "d"), 2)),
        teams(1, (("e", "f"), 2), (("b", "c"), 1)),
        teams(2, (("a", "d"), 1), (("e", "f"), 2)),
    ]
    fit = ttt.SYSTEM.configure({"gamma": 0.0}).fit(history)
    close(first(fit, "a"), 4.085, 5.107, places(3))
    close(first(fit, "c"), -0.533, 5.107, places(3))
    close(last(fit, "e"), -3.552, 5.155, places(3))
    for x, y in (("a", "b"), ("c", "d"), ("e", "f")):
        assert first(fit, x) == pytest.approx(first(fit, y), abs=places(3))


def test_1vs1_with_weights() -> None:
    """test_1vs1_with_weights, the case with weights in (0, 1]: 1.0 against 0.7, first wins."""
    fit = ttt.SYSTEM.configure({**TS, "gamma": 0.0}).fit(
        [game(0, ("a", 1), ("b", 2), weights=(1.0, 0.7))]
    )
    close(last(fit, "a"), 27.630080, 7.206676, 1e-4)
    close(last(fit, "b"), 23.158943, 7.801628, 1e-4)


def test_nvsn_with_weights() -> None:
    """test_NvsN_with_weights, first case: weights (0.4, 0.8) against (0.9, 0.6)."""
    g = Game(
        START,
        (
            Participant("a0", 1, team="A", weight=0.4),
            Participant("a1", 1, team="A", weight=0.8),
            Participant("b0", 2, team="B", weight=0.9),
            Participant("b1", 2, team="B", weight=0.6),
        ),
    )
    fit = ttt.SYSTEM.configure({**TS, "gamma": 0.0}).fit([g])
    close(last(fit, "a0"), 27.539023, 8.129639, 1e-4)
    close(last(fit, "a1"), 30.078046, 7.485372, 1e-4)
    close(last(fit, "b0"), 19.287197, 7.243465, 1e-4)
    close(last(fit, "b1"), 21.191465, 7.867608, 1e-4)


def test_one_game_by_hand_and_the_drift() -> None:
    """docs/systems/ttt.md, worked example, from the defaults (mu 0, sigma 6, beta 1): A beats
    B. c^2 = 36 + 36 + 2 = 74, t = 0, v = phi(0) / Phi(0) = sqrt(2 / pi) = 0.797885,
    w = v^2 = 2 / pi = 0.636620; A: mu = 36 / c * v = 3.339079, sigma^2 = 36 (1 - 36 / 74 w)
    = 24.850551, sigma = 4.985033 (the package's gamma test: 3.33907896, 4.98503276).
    Ten days on, A's forward prior has sigma^2 = 24.850551 + 0.03^2 * 10 = 24.859551."""
    v = math.sqrt(2.0 / math.pi)
    mu = 36.0 / math.sqrt(74.0) * v
    var = 36.0 * (1.0 - 36.0 / 74.0 * 2.0 / math.pi)
    assert mu == pytest.approx(3.33907896, abs=1e-6)  # the package's erfc: ~1e-7
    assert math.sqrt(var) == pytest.approx(4.98503276, abs=1e-6)
    rater = ttt.SYSTEM.configure({})
    fit = rater.fit([game(0, ("A", 1), ("B", 2))])
    close(last(fit, "A"), mu, math.sqrt(var), 1e-12)
    close(last(fit, "B"), -mu, math.sqrt(var), 1e-12)
    # The served state, and the win probability of A over B from it (SYSTEMS.md: TrueSkill's
    # on side sums): Phi(2 mu / sqrt(2 + 2 var)).
    a = rater.state_of(fit.curves[PlayerKey("A")][-1])
    b = rater.state_of(fit.curves[PlayerKey("B")][-1])
    p = rater.side_win_probability([a], [b])
    assert p == pytest.approx(0.5 * math.erfc(-2 * mu / math.sqrt(2 + 2 * var) / math.sqrt(2)))
    assert p == pytest.approx(0.8235, abs=1e-4)
    assert p + (rater.side_win_probability([b], [a]) or 0.0) == pytest.approx(1.0)


def test_the_page_shows_the_worked_example() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "systems" / "ttt.md").read_text()
    for number in ("0.797885", "0.636620", "3.339079", "24.850551", "4.985033", "24.859551",
                   "0.8235"):  # fmt: skip
        assert number in page, number


# --- real data: the package on ATP matches ----------------------------------------------------


def atp(n: int) -> list[dict[str, str]]:
    if not ATP.is_dir():
        pytest.skip(f"no ATP data at {ATP} (../shared/data, see its README)")
    rows: list[dict[str, str]] = []
    for path in sorted(ATP.glob("atp_matches_*.csv")):
        with path.open(newline="") as f:
            rows.extend(csv.DictReader(f))
        if len(rows) >= n:
            break
    rows.sort(key=lambda r: (r["tourney_date"], r["tourney_id"], int(r["match_num"])))
    return rows[:n]


def atp_games(rows: list[dict[str, str]]) -> list[Game]:
    return [
        Game(
            datetime.strptime(r["tourney_date"], "%Y%m%d").replace(tzinfo=UTC),
            (Participant(r["winner_id"], 1), Participant(r["loser_id"], 2)),
        )
        for r in rows
    ]


def test_agrees_with_the_package_on_atp_matches() -> None:
    """1,000 ATP matches of 2015 (an event's matches share its Monday, so they form one day's
    batch), the defaults, both converged: every point of every curve within 1e-4 (issue 38's
    tolerance). The package stops when a sweep moves no mean by more than 1e-6, which on these
    histories leaves it ~1e-5 from its fixed point (the sweeps shrink by ~0.9 each); its erfc
    is good to ~1e-7. Measured: 1.2e-6 on 1,500 matches."""
    rows = atp(1000)
    fit = ttt.SYSTEM.configure({}).fit(atp_games(rows))
    assert fit.converged
    history = reference.History(
        [[[r["winner_id"]], [r["loser_id"]]] for r in rows],
        [[1, 0]] * len(rows),
        [datetime.strptime(r["tourney_date"], "%Y%m%d").date().toordinal() for r in rows],
    )
    history.convergence(epsilon=1e-6, iterations=1000, verbose=False)
    theirs = history.learning_curves()
    assert len(theirs) == len(fit.curves)
    for key, points in fit.curves.items():
        assert len(points) == len(theirs[key.player])
        for point, (day, belief) in zip(points, theirs[key.player], strict=True):
            assert point.day == date.fromordinal(day)
            assert point.rating == pytest.approx(belief.mu, abs=1e-4)
            assert point.deviation == pytest.approx(belief.sigma, abs=1e-4)


def test_a_converged_fit_is_within_the_tolerance_of_its_fixed_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stopping rule and the extrapolation leave every mean within 1e-6 of the fixed point
    (here: the same sweeps run to 1e-11), on 1,500 ATP matches whose sweeps shrink by ~0.965;
    and the full 2015-2019 history (sweeps shrinking by 0.9913) converges well inside the
    1,000-sweep bound."""
    games = atp_games(atp(1500))
    rater = ttt.SYSTEM.configure({})
    fit = rater.fit(games)
    assert fit.converged
    monkeypatch.setattr(ttt, "TOLERANCE", 1e-11)
    tight = rater.fit(games)
    assert tight.converged
    assert_same_fit(fit, tight, 1e-6)
    monkeypatch.undo()
    whole = rater.fit(atp_games(atp(20_000)))
    assert whole.converged
    assert whole.sweeps < 200


# --- warm starts and add_game -------------------------------------------------------------------


def assert_same_fit(a: Fit, b: Fit, tol: float) -> None:
    assert a.curves.keys() == b.curves.keys()
    for key, points in a.curves.items():
        for p, q in zip(points, b.curves[key], strict=True):
            assert p.day == q.day
            assert p.rating == pytest.approx(q.rating, abs=tol)
            assert p.deviation == pytest.approx(q.deviation, abs=tol)


def test_a_warm_start_after_a_correction_reaches_the_cold_fixed_point() -> None:
    games = atp_games(atp(600))
    rater = ttt.SYSTEM.configure({})
    old = rater.fit(games)
    # A correction in the middle: game 300's result reversed.
    middle = games[300]
    corrected = [
        *games[:300],
        Game(middle.played_at, (middle.participants[1], middle.participants[0])),
        *games[301:],
    ]
    cold = rater.fit(corrected)
    warm = rater.fit(corrected, old)
    assert cold.converged
    assert warm.converged
    assert warm.sweeps < cold.sweeps
    assert_same_fit(warm, cold, 2e-6)
    # A removed game and a state that went through JSON seed as well.
    removed = [*games[:100], *games[101:]]
    through_json = Fit(old.curves, old.converged, old.sweeps, old.max_step,
                       json.loads(json.dumps(old.state)))  # fmt: skip
    assert_same_fit(rater.fit(removed, through_json), rater.fit(removed), 2e-6)


def test_a_warm_start_of_a_new_last_game_is_short_and_reaches_the_cold_fixed_point() -> None:
    """The service refits after each write warm from the stored fit (issue 38). A new game at
    the end moves little: the warm fit starts from the stored messages in both directions
    (forward and backward), so it takes a fraction of the cold fit's sweeps, and it reads
    the decay only once it has settled, so it stops at the cold fixed point, not at the
    end of the warm start's fast transient. The same history again stops at once."""
    games = atp_games(atp(1200))
    rater = ttt.SYSTEM.configure({})
    old = rater.fit(games[:-1])
    cold = rater.fit(games)
    warm = rater.fit(games, old)
    assert warm.converged
    assert warm.sweeps < cold.sweeps / 2
    assert_same_fit(warm, cold, 2e-6)
    assert rater.fit(games[:-1], old).sweeps <= 3


def test_add_game_moves_only_the_new_games_players() -> None:
    games = atp_games(atp(400))
    rater = ttt.SYSTEM.configure({})
    fit = rater.fit(games)
    a, b = games[0].participants[0].player, games[-1].participants[1].player
    new = Game(games[-1].played_at + timedelta(days=3), (Participant(b, 1), Participant(a, 2)))
    added = rater.add_game(fit, new)
    assert not added.converged
    for key, points in fit.curves.items():
        if key.player not in (a, b):
            assert added.curves[key] is points
    for player, won in ((b, True), (a, False)):
        before, after = fit.curves[PlayerKey(player)], added.curves[PlayerKey(player)]
        assert len(after) == len(before) + 1
        assert after[-1].day == new.played_at.date()
        assert (after[-1].rating > before[-1].rating) is won
    # Their earlier days moved too (max_step), and the background fit warm from this one is
    # the full fit of the new history.
    assert added.max_step > 0
    assert_same_fit(rater.fit([*games, new], added), rater.fit([*games, new]), 2e-6)
    json.dumps(added.state)


def test_add_game_of_new_players_and_a_late_result() -> None:
    rater = ttt.SYSTEM.configure(TS)
    history = [game(1, ("a", 1), ("b", 2)), game(5, ("b", 1), ("c", 2))]
    fit = rater.fit(history)
    late = game(3, ("c", 1), ("d", 2))  # d is new; c's day 3 comes before its day 5
    added = rater.add_game(fit, late)
    assert [p.day.day for p in added.curves[PlayerKey("c")]] == [4, 6]
    assert len(added.curves[PlayerKey("d")]) == 1
    assert added.curves[PlayerKey("a")] is fit.curves[PlayerKey("a")]
    assert_same_fit(rater.fit([*history, late], added), rater.fit([*history, late]), 1e-6)


def test_an_empty_history() -> None:
    fit = ttt.SYSTEM.configure({}).fit([])
    assert fit.curves == {}
    assert fit.converged
    json.dumps(fit.state)


# --- the rater's other parts ------------------------------------------------------------------


def test_states_and_standing() -> None:
    rater = ttt.SYSTEM.configure({})
    assert rater.initial_state({}) == PlayerState(0.0, 6.0)
    standing = rater.standing(PlayerState(1.5, 2.0))
    assert (standing.rating, standing.deviation) == (1.5, 2.0)
    with pytest.raises(InvalidEvent) as error:
        rater.adjusted_state(None, 1.0, None, None, START)
    assert error.value.loc == ("rating",)


def test_games_it_refuses() -> None:
    rater = ttt.SYSTEM.configure({})
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(game(0, ("a", 1)))
    assert error.value.loc == ("players",)
    with pytest.raises(InvalidEvent) as error:  # a draw at p_draw 0
        rater.validate_game(game(0, ("a", 1), ("b", 1)))
    assert error.value.loc == ("players", 1, "rank")
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(teams(0, (("a", "b"), 1), (("c",), 1)))
    assert error.value.loc == ("teams", 1, "rank")
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(game(0, ("a", 1), ("a", 2)))
    assert error.value.loc == ("players", 1)
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(game(0, ("a", 1), ("b", 2), weights=(1.0, 0.0)))
    assert error.value.loc == ("players", 1, "weight")
    draws = ttt.SYSTEM.configure({"p_draw": 0.1})
    draws.validate_game(game(0, ("a", 1), ("b", 1)))
    assert draws.rates_draws
    assert not rater.rates_draws


@pytest.mark.parametrize(
    "params", [{"p_draw": 1.0}, {"p_draw": -0.1}, {"sigma": 0.0}, {"beta": 0.0}, {"gamma": -1.0}]
)
def test_parameters_it_refuses(params: dict[str, float]) -> None:
    with pytest.raises(InvalidParameter) as error:
        ttt.SYSTEM.configure(params)
    assert error.value.name == next(iter(params))
