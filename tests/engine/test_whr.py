"""Whole-History Rating (SYSTEMS.md ``whr``; Coulom, CG 2008).

Expected values are the ``whr`` package's (wind23/whole_history_rating, C++): its README
example and its own tests written out, and the package itself run on real ATP matches
(``../shared/data/atp``, read in place), to 1e-6 — an independent implementation, never a
value this code printed.
"""

from __future__ import annotations

import csv
import json
import math
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import whr
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import whr as engine
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.protocols import Fit
from app.engine.types import Game, Participant, PlayerKey, PlayerState

ATP = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "atp"
#: Issue 38: agreement with the package on real data to 1e-6.
TOLERANCE = 1e-6
DAY0 = datetime(2020, 1, 1, 12, tzinfo=UTC)


def game(black: str, white: str, winner: str, day: int) -> Game:
    """A game as the package's ``create_game(black, white, winner, day)``: "B" black wins,
    "W" white wins, "D" a draw."""
    ranks = {"B": (1, 2), "W": (2, 1), "D": (1, 1)}[winner]
    return Game(
        played_at=DAY0 + timedelta(days=day),
        participants=(Participant(black, ranks[0]), Participant(white, ranks[1])),
    )


def curve(fit: Fit, player: str) -> list[tuple[int, float, float]]:
    """A player's curve as the package's ``ratings_for_player``: [day, elo, deviation]."""
    return [
        ((p.day - DAY0.date()).days, p.rating, p.deviation) for p in fit.curves[PlayerKey(player)]
    ]


def assert_curve(fit: Fit, player: str, expected: list[list[float]], tol: float) -> None:
    got = curve(fit, player)
    assert [d for d, _, _ in got] == [e[0] for e in expected]
    for (_, rating, deviation), (_, r, u) in zip(got, expected, strict=True):
        assert rating == pytest.approx(r, abs=tol)
        assert deviation == pytest.approx(u, abs=tol)


# -- the package's README example (w2 30) ---------------------------------------------------

README_GAMES = [
    game("Alice", "Carol", "D", 0),
    game("Bob", "Dave", "B", 10),
    game("Dave", "Alice", "W", 30),
    game("Bob", "Carol", "W", 60),
]
#: The README's output after ``base.iterate(50)``: [day, elo, deviation].
README = {
    "Alice": [
        [0, 78.50976252870765, 185.55230942797314],
        [30, 79.47183295485291, 187.12327376311526],
    ],
    "Bob": [
        [10, -15.262552175731392, 180.95086989932025],
        [60, -18.086030877782818, 183.0820052639819],
    ],
    "Carol": [
        [0, 103.91877749030998, 180.55812567296852],
        [60, 107.30695193277168, 183.1250043094528],
    ],
    "Dave": [
        [10, -176.67739359273045, 201.15282077913983],
        [30, -177.3187738768273, 202.03179750776144],
    ],
}


def package_rating(fit: Fit, player: str, day: int) -> float:
    """The package's ``Evaluate.get_rating``: a player's rating on ``day``, linear between
    its days, its first or last day's outside them."""
    points = curve(fit, player)
    before = [(d, r) for d, r, _ in points if d <= day]
    after = [(d, r) for d, r, _ in points if d >= day]
    if not before:
        return after[0][1]
    if not after:
        return before[-1][1]
    (d0, r0), (d1, r1) = before[-1], after[0]
    if d1 <= d0:
        return r1
    return ((d1 - day) * r0 + (day - d0) * r1) / (d1 - d0)


def average_log_likelihood(fit: Fit, games: list[list[object]]) -> float:
    """The package's ``Evaluate.evaluate_ave_log_likelihood_games``: a draw's likelihood is
    sqrt(p_black p_white)."""
    rater = engine.SYSTEM.configure()
    total = 0.0
    for black, white, winner, day in games:
        b = package_rating(fit, str(black), int(str(day)))
        w = package_rating(fit, str(white), int(str(day)))
        p = rater.side_win_probability([PlayerState(b)], [PlayerState(w)])
        assert p is not None
        total += math.log({"B": p, "W": 1.0 - p, "D": math.sqrt(p * (1.0 - p))}[str(winner)])
    return total / len(games)


def test_readme_example() -> None:
    fit = engine.SYSTEM.configure({"w2": 30}).fit(README_GAMES)
    assert fit.converged
    assert fit.max_step <= engine.TOLERANCE
    # The README's values are 50 sweeps of the package; the fit runs to the 1e-9 tolerance.
    for player, expected in README.items():
        assert_curve(fit, player, expected, 1e-8)
    likelihood = average_log_likelihood(
        fit,
        [
            ["Alice", "Bob", "B", 0],
            ["Bob", "Carol", "W", 20],
            ["Dave", "Bob", "D", 50],
            ["Alice", "Dave", "B", 70],
        ],
    )
    assert math.exp(likelihood) == pytest.approx(0.6274093351974668, abs=1e-9)


# -- the package's tests (tests/test_whr.py) ------------------------------------------------

SHUSAKU = [
    game("shusaku", "shusai", "B", 1),
    game("shusaku", "shusai", "W", 2),
    game("shusaku", "shusai", "W", 3),
    game("shusaku", "shusai", "W", 4),
    game("shusaku", "shusai", "W", 4),
]


def test_package_output() -> None:
    fit = engine.SYSTEM.configure().fit(SHUSAKU)
    rounded = {p: [[round(x) for x in row] for row in curve(fit, p)] for p in ("shusaku", "shusai")}
    assert rounded["shusaku"] == [[1, -92, 147], [2, -94, 147], [3, -95, 147], [4, -96, 147]]
    assert rounded["shusai"] == [[1, 92, 147], [2, 94, 147], [3, 95, 147], [4, 96, 147]]


def test_package_evaluate() -> None:
    fit = engine.SYSTEM.configure().fit(SHUSAKU)
    games: list[list[object]] = [["shusaku", "shusai", "B", 1], ["shusaku", "shusai", "W", 2]]
    games += [["shusaku", "shusai", "W", 3], ["shusaku", "shusai", "W", 4]] * 1
    games += [["shusaku", "shusai", "W", 4]]
    assert round(average_log_likelihood(fit, games) * 100000) == -50215


def test_game_order_independence() -> None:
    rater = engine.SYSTEM.configure()
    one = rater.fit([game("alice", "bob", "W", 1), game("alice", "bob", "B", 2)])
    two = rater.fit([game("alice", "bob", "B", 2), game("alice", "bob", "W", 1)])
    for player in ("alice", "bob"):
        for a, b in zip(curve(one, player), curve(two, player), strict=True):
            assert a == pytest.approx(b, abs=1e-12)


# -- real data: ATP matches against the package ---------------------------------------------


def atp(count: int) -> list[tuple[date, str, str]]:
    """The first ``count`` ATP matches of 2015-2019 in order: (the event's Monday, winner,
    loser); every match of an event is dated its Monday (the data's ``tourney_date``)."""
    if not ATP.is_dir():
        pytest.skip(f"no ATP data at {ATP} (../shared/data, see its README)")
    rows: list[tuple[str, str, int, str, str]] = []
    for path in sorted(ATP.glob("atp_matches_*.csv")):
        with path.open(newline="") as f:
            for row in csv.DictReader(f):
                rows.append(
                    (
                        row["tourney_date"],
                        row["tourney_id"],
                        int(row["match_num"]),
                        row["winner_id"],
                        row["loser_id"],
                    )
                )
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return [
        (datetime.strptime(d, "%Y%m%d").date(), winner, loser)
        for d, _, _, winner, loser in rows[:count]
    ]


def atp_games(matches: list[tuple[date, str, str]]) -> list[Game]:
    return [
        Game(
            played_at=datetime(d.year, d.month, d.day, tzinfo=UTC),
            participants=(Participant(w, 1), Participant(loser, 2)),
        )
        for d, w, loser in matches
    ]


def test_agrees_with_the_package_on_atp_matches() -> None:
    matches = atp(3000)
    fit = engine.SYSTEM.configure().fit(atp_games(matches))
    assert fit.converged
    base = whr.Base()
    first = matches[0][0]
    base.create_games([[w, loser, "B", (d - first).days] for d, w, loser in matches])
    base.iterate(1500)  # Gauss-Seidel sweeps, far past the 1e-9 tolerance for these games
    assert len(fit.curves) == len({w for _, w, _ in matches} | {lo for _, _, lo in matches})
    for key, points in fit.curves.items():
        expected = base.ratings_for_player(key.player)
        assert [(p.day - first).days for p in points] == [row[0] for row in expected]
        for p, (_, rating, deviation) in zip(points, expected, strict=True):
            assert p.rating == pytest.approx(rating, abs=TOLERANCE), key
            assert p.deviation == pytest.approx(deviation, abs=TOLERANCE), key


def test_other_parameters_agree_with_the_package() -> None:
    matches = atp(800)
    fit = engine.SYSTEM.configure({"w2": 30, "virtual_games": 5}).fit(atp_games(matches))
    base = whr.Base(config={"w2": 30, "virtual_games": 5})
    first = matches[0][0]
    base.create_games([[w, loser, "B", (d - first).days] for d, w, loser in matches])
    base.iterate(1000)
    for key, points in fit.curves.items():
        for p, (_, rating, deviation) in zip(
            points, base.ratings_for_player(key.player), strict=True
        ):
            assert p.rating == pytest.approx(rating, abs=TOLERANCE), key
            assert p.deviation == pytest.approx(deviation, abs=TOLERANCE), key


# -- warm starts and new games --------------------------------------------------------------


def max_difference(one: Fit, two: Fit) -> float:
    assert one.curves.keys() == two.curves.keys()
    worst = 0.0
    for key, points in one.curves.items():
        others = two.curves[key]
        assert [p.day for p in points] == [p.day for p in others]
        for p, q in zip(points, others, strict=True):
            worst = max(worst, abs(p.rating - q.rating), abs(p.deviation - q.deviation))
    return worst


def test_a_warm_start_reaches_the_cold_fit_after_a_correction() -> None:
    rater = engine.SYSTEM.configure()
    matches = atp(1500)
    games = atp_games(matches)
    before = rater.fit(games)
    # A correction in the middle: match 700's result reversed.
    d, w, loser = matches[700]
    corrected = [*games[:700], *atp_games([(d, loser, w)]), *games[701:]]
    cold = rater.fit(corrected)
    warm = rater.fit(corrected, warm=before)
    assert cold.converged
    assert warm.converged
    assert warm.sweeps < cold.sweeps
    assert max_difference(warm, cold) <= TOLERANCE
    # A history with a game removed and one added (new player, new days) warms as well.
    changed = [
        *games[:100],
        *games[101:],
        game("newcomer", games[5].participants[0].player, "B", 2000),
    ]
    assert max_difference(rater.fit(changed, warm=before), rater.fit(changed)) <= TOLERANCE


def test_add_game_moves_only_the_new_games_players() -> None:
    rater = engine.SYSTEM.configure()
    games = atp_games(atp(1200))
    fit = rater.fit(games[:-1])
    new = games[-1]
    pair = {PlayerKey(p.player) for p in new.participants}
    added = rater.add_game(fit, new)
    assert not added.converged
    for key, points in fit.curves.items():
        if key not in pair:
            assert added.curves[key] == points
    for key in pair:
        assert added.curves[key] != fit.curves.get(key)
        assert added.curves[key][-1].day == new.played_at.date()
    assert added.state["players"][new.participants[0].player][-1][1] == new.participants[1].player
    json.dumps(added.state)
    # Brought back to convergence from there, it is the cold fit of the new history.
    assert max_difference(rater.fit(games, warm=added), rater.fit(games)) <= TOLERANCE


def test_add_game_of_a_new_player_and_a_refused_history() -> None:
    rater = engine.SYSTEM.configure({"w2": 30})
    fit = rater.fit(README_GAMES[:3])
    added = rater.add_game(fit, README_GAMES[3])
    # Bob and Carol both played before: their new day starts from their last rating.
    assert [p.day for p in added.curves[PlayerKey("Bob")]] == [
        (DAY0 + timedelta(days=d)).date() for d in (10, 60)
    ]
    assert added.curves[PlayerKey("Alice")] == fit.curves[PlayerKey("Alice")]
    first = rater.add_game(rater.fit([]), README_GAMES[0])
    assert set(first.curves) == {PlayerKey("Alice"), PlayerKey("Carol")}
    # A fit stored by the engine before its state named each game's opponent is refitted.
    old = Fit(fit.curves, fit.converged, fit.sweeps, fit.max_step, {"games": 3, "players": {}})
    assert not rater.extends(old.state)
    with pytest.raises(ValueError, match="not in this engine's format"):
        rater.add_game(old, README_GAMES[3])


def test_max_sweeps_bounds_the_fit() -> None:
    fit = engine.SYSTEM.configure().fit(atp_games(atp(300)), max_sweeps=3)
    assert fit.sweeps == 3
    assert not fit.converged
    assert fit.max_step > engine.TOLERANCE
    none = engine.SYSTEM.configure().fit(README_GAMES, max_sweeps=0)
    assert none.sweeps == 0
    assert not none.converged
    assert none.curves[PlayerKey("Alice")][0].rating == 0.0
    empty = engine.SYSTEM.configure().fit([])
    assert empty.curves == {}
    assert empty.converged
    assert empty.sweeps == 0


def test_state_is_json() -> None:
    fit = engine.SYSTEM.configure().fit(README_GAMES)
    assert json.loads(json.dumps(fit.state)) == fit.state


# -- worked example (docs/systems/whr.md) ----------------------------------------------------


def test_worked_example() -> None:
    """docs/systems/whr.md: A beats B once, defaults. By symmetry r_B = -r_A = -r, and A's
    only day holds the win (p = 1 / (1 + e^(-2r))) and 2 virtual draws (q = 1 / (1 + e^(-r))):
    g = (1 - p) + 2 (1/2 - q) = 0. With x = e^(-r) this is 2x^3 + x - 1 = 0: x = 0.58975...,
    r = 0.528049, Elo 400 r / ln 10 = 91.7315; p = 0.741944, q = 0.629028, and the deviation
    (400 / ln 10) / sqrt(p (1 - p) + 2 q (1 - q) + 0.001) = 213.967."""
    fit = engine.SYSTEM.configure().fit([game("A", "B", "B", 0)])
    x = 0.5897545123014
    assert 2 * x**3 + x - 1 == pytest.approx(0.0, abs=1e-12)
    r = -math.log(x)
    p = 1.0 / (1.0 + math.exp(-2 * r))
    q = 1.0 / (1.0 + math.exp(-r))
    elo = 400.0 / math.log(10.0)
    (a,) = fit.curves[PlayerKey("A")]
    (b,) = fit.curves[PlayerKey("B")]
    assert a.rating == pytest.approx(91.7315, abs=1e-4)
    assert a.rating == pytest.approx(r * elo, abs=1e-9)
    assert b.rating == pytest.approx(-a.rating, abs=1e-9)
    assert a.deviation == pytest.approx(213.967, abs=1e-3)
    assert a.deviation == pytest.approx(elo / math.sqrt(p * (1 - p) + 2 * q * (1 - q) + 0.001))
    rater = engine.SYSTEM.configure()
    assert rater.side_win_probability([rater.state_of(a)], [rater.state_of(b)]) == pytest.approx(
        p, abs=1e-12
    )


# -- rules ----------------------------------------------------------------------------------


def test_win_probability_is_bradley_terry_on_the_elo_scale() -> None:
    rater = engine.SYSTEM.configure()
    assert rater.side_win_probability([PlayerState(400.0)], [PlayerState(0.0)]) == pytest.approx(
        10 / 11
    )
    assert rater.side_win_probability([PlayerState(-400.0)], [PlayerState(0.0)]) == pytest.approx(
        1 / 11
    )
    assert rater.side_win_probability([PlayerState(0.0)] * 2, [PlayerState(0.0)]) is None


def test_refused_games() -> None:
    rater = engine.SYSTEM.configure()
    three = Game(DAY0, (Participant("a", 1), Participant("b", 2), Participant("c", 3)))
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(three)
    assert error.value.loc == ("players",)
    assert "exactly 2" in error.value.message
    teams = Game(DAY0, (Participant("a", 1, team="x"), Participant("b", 2, team="y")))
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(teams)
    assert error.value.loc == ("teams",)
    weighted = Game(DAY0, (Participant("a", 1), Participant("b", 2, weight=0.5)))
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(weighted)
    assert error.value.loc == ("players", 1, "weight")
    same = Game(DAY0, (Participant("a", 1), Participant("a", 2)))
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(same)
    assert error.value.loc == ("players", 1, "player")
    rater.validate_game(game("a", "b", "D", 0))


@pytest.mark.parametrize(
    "params", [{"w2": 0}, {"w2": -1}, {"w2": 1e7}, {"virtual_games": 0}, {"virtual_games": 1.5}]
)
def test_refused_parameters(params: dict[str, float]) -> None:
    with pytest.raises(InvalidParameter) as error:
        engine.SYSTEM.configure(params)
    assert error.value.name == next(iter(params))


def test_states_and_adjustments() -> None:
    rater = engine.SYSTEM.configure()
    initial = rater.initial_state({})
    # Two virtual draws alone: 1 / sqrt(2/4 + 0.001) natural units.
    assert initial.rating == 0.0
    assert initial.deviation == pytest.approx(400 / math.log(10) / math.sqrt(0.501))
    standing = rater.standing(PlayerState(12.0, 34.0))
    assert (standing.rating, standing.deviation) == (12.0, 34.0)
    with pytest.raises(InvalidEvent) as error:
        rater.adjusted_state(None, 1500.0, None, None, DAY0)
    assert error.value.loc == ("rating",)


# -- properties -----------------------------------------------------------------------------

PLAYERS = ("a", "b", "c", "d", "e")
history = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.sampled_from(PLAYERS),
        st.sampled_from(("B", "W", "D")),
        st.integers(0, 40),
    ).filter(lambda g: g[0] != g[1]),
    min_size=1,
    max_size=14,
)


@settings(max_examples=60, deadline=None)
@given(history, history, st.sampled_from([{}, {"w2": 30, "virtual_games": 1}]))
def test_any_warm_start_reaches_the_cold_fit(
    games: list[tuple[str, str, str, int]],
    other: list[tuple[str, str, str, int]],
    params: dict[str, float],
) -> None:
    rater = engine.SYSTEM.configure(params)
    ours = [game(*g) for g in games]
    cold = rater.fit(ours)
    assert cold.converged
    warm = rater.fit(ours, warm=rater.fit([game(*g) for g in other]))
    assert warm.converged
    assert max_difference(warm, cold) <= TOLERANCE


@settings(max_examples=60, deadline=None)
@given(history)
def test_reversed_results_negate_every_rating(games: list[tuple[str, str, str, int]]) -> None:
    """The model is symmetric about the anchor's rating 0."""
    rater = engine.SYSTEM.configure()
    flip = {"B": "W", "W": "B", "D": "D"}
    one = rater.fit([game(*g) for g in games])
    two = rater.fit([game(b, w, flip[x], d) for b, w, x, d in games])
    for key, points in one.curves.items():
        for p, q in zip(points, two.curves[key], strict=True):
            assert p.rating == pytest.approx(-q.rating, abs=1e-7)
            assert p.deviation == pytest.approx(q.deviation, abs=1e-7)
