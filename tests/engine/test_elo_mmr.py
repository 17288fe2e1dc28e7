"""Elo-MMR (SYSTEMS.md ``elo-mmr``; Ebtekar & Liu, WWW 2021).

Expected values are hand arithmetic from the paper's formulas (docs/systems/elo-mmr.md's worked
example, written out below) and the Rust reference, EbTech/Elo-MMR through its binding
``elo-mmr-py``, on real Codeforces rounds (``../shared/data/codeforces``, read in place), ties
included, to 1e-6: it is an independent implementation, never a value this code printed.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import elo_mmr_py
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import elo_mmr
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.ledger import check_sides
from app.engine.types import Game, Participant, PlayerKey, PlayerState

CODEFORCES = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "codeforces"
#: SYSTEMS.md: agreement with the reference to 1e-6.
TOLERANCE = 1e-6
T = math.pi / math.sqrt(3.0)
START = datetime(2020, 1, 1, tzinfo=UTC)


def rounds(ids: list[int]) -> list[dict[str, Any]]:
    if not CODEFORCES.is_dir():
        pytest.skip(f"no Codeforces data at {CODEFORCES} (../shared/data, see its README)")
    return [json.loads((CODEFORCES / f"{i}.json").read_text()) for i in ids]


def replay(
    contests: list[dict[str, Any]], params: dict[str, Any] | None = None
) -> dict[str, PlayerState]:
    """The rounds through the rater, as the service rates games: rank = low end + 1."""
    rater = elo_mmr.SYSTEM.configure(params or {})
    states: dict[str, PlayerState] = {}
    for contest in contests:
        game = Game(
            played_at=datetime.fromtimestamp(contest["time_seconds"], UTC),
            participants=tuple(Participant(h, lo + 1) for h, lo, _ in contest["standings"]),
        )
        rater.validate_game(game)
        before = {
            PlayerKey(h): states.get(h) or rater.initial_state({})
            for h, _, _ in contest["standings"]
        }
        for change in rater.rate_game(game, before, {}).changes:
            states[change.key.player] = change.after
    return states


def reference(
    contests: list[dict[str, Any]], config: elo_mmr_py.EloMmrConfig | None = None
) -> dict[str, elo_mmr_py.PlayerRating]:
    return elo_mmr_py.rate_latest(
        [
            elo_mmr_py.Contest([tuple(s) for s in c["standings"]], c["name"], c["time_seconds"])
            for c in contests
        ],
        config or elo_mmr_py.EloMmrConfig(),
    )


def assert_agree(ours: dict[str, PlayerState], theirs: dict[str, Any]) -> None:
    assert ours.keys() == theirs.keys()
    for name, rating in theirs.items():
        assert ours[name].rating == pytest.approx(rating.mu, abs=TOLERANCE), name
        assert ours[name].deviation == pytest.approx(rating.sig, abs=TOLERANCE), name


ROUNDS_2010 = [*range(1, 14), 14, *range(16, 20), *range(22, 39), *range(40, 44)]


def test_the_2010_rounds_agree_with_the_reference() -> None:
    """Rounds 1-43 (39 files, 66-690 players, ties in most), one after the other."""
    contests = rounds(ROUNDS_2010)
    assert_agree(replay(contests), reference(contests))


def test_the_16783_player_round_agrees_with_the_reference() -> None:
    """Codeforces Round #634 (Div. 3): 16,783 players, 16,525 of them in shared ranks, rated
    after the 2010 rounds so that returning players carry their histories."""
    contests = rounds([*ROUNDS_2010, 1335])
    ours = replay(contests)
    assert len(ours) == len(reference(contests[-1:]).keys() | reference(contests[:-1]).keys())
    assert_agree(ours, reference(contests))


@pytest.mark.parametrize(
    ("params", "config"),
    [
        ({"split_ties": True}, elo_mmr_py.EloMmrConfig(split_ties=True)),
        (
            {"weight_limit": 0.5, "sig_limit": 120.0},
            elo_mmr_py.EloMmrConfig(weight_limit=0.5, sig_limit=120.0),
        ),
        # Rounds 1-10 span two months: every gap adds drift_per_day per day.
        ({"drift_per_day": 50.0}, elo_mmr_py.EloMmrConfig(drift_per_day=50.0)),
    ],
    ids=["split_ties", "weight_and_limit", "drift"],
)
def test_other_parameters_agree_with_the_reference(
    params: dict[str, Any], config: elo_mmr_py.EloMmrConfig
) -> None:
    contests = rounds(list(range(1, 11)))
    assert_agree(replay(contests, params), reference(contests, config))


def test_initial_rating_agrees_with_the_reference() -> None:
    contests = rounds([1, 2, 3])
    theirs = elo_mmr_py.rate_latest(
        [elo_mmr_py.Contest([tuple(s) for s in c["standings"]]) for c in contests],
        mu_noob=2000.0,
        sig_noob=200.0,
    )
    assert_agree(replay(contests, {"mu": 2000.0, "sigma": 200.0}), theirs)


def game(*ranks: int, at: datetime = START) -> Game:
    return Game(at, tuple(Participant(f"p{i}", r) for i, r in enumerate(ranks)))


def test_two_new_players_by_hand() -> None:
    """docs/systems/elo-mmr.md, worked example: two new players (1500, 350), A ahead of B.

    w = 0.2: sigma_drift^2 = 0.2 * 80^2 = 1,280, sigma'^2 = 350^2 + 1,280 = 123,780;
    sigma_perf^2 = (1 + 1/0.2) * 80^2 = 38,400; s^2 = 123,780 + 38,400 = 162,180, c = T / s.
    A's performance: B's term -c (tanh(z) - 1), its own tie term -2c tanh(z), z = (p - 1500) c/2:
    -3c tanh(z) + c = 0, tanh(z) = 1/3, z = ln(2)/2, so p = 1500 + ln(2) / c = 1500 + 153.899.
    The new deviation: (1/123,780 + 1/38,400)^-1/2 = 171.195. The Gaussian factor keeps
    N(1500, 123,780) (kappa = 122,500/123,780 of 1/350^2, the rest moved at mu 1500), so the
    new mean solves (mu - 1500) / 123,780 + c_p tanh((mu - p) c_p / 2) = 0, c_p = T / sqrt(38,400):
    1,629.391 by bisection on a calculator (60 halvings of [1500, p]); B's is 1,370.609.
    """
    s = math.sqrt(162_180.0)
    c = T / s
    performance = math.log(2.0) / c
    assert performance == pytest.approx(153.8987, abs=1e-4)  # ln 2 * sqrt(3) / pi * s
    sigma_after = (1 / 123_780 + 1 / 38_400) ** -0.5
    assert sigma_after == pytest.approx(171.1954, abs=1e-4)
    c_p = T / math.sqrt(38_400.0)

    rater = elo_mmr.SYSTEM.configure({})
    new = rater.initial_state({})
    out = rater.rate_game(game(1, 2), {PlayerKey("p0"): new, PlayerKey("p1"): new}, {})
    a, b = out.changes
    assert a.details["performance"] == pytest.approx(1500 + performance, abs=1e-9)
    assert b.details["performance"] == pytest.approx(1500 - performance, abs=1e-9)
    assert a.details["sigma_diffused"] == pytest.approx(math.sqrt(123_780), abs=1e-9)
    assert a.details["sigma_perf"] == pytest.approx(math.sqrt(38_400), abs=1e-9)
    for change, p in ((a, 1500 + performance), (b, 1500 - performance)):
        mu = change.after.rating
        residual = (mu - 1500) / 123_780 + c_p * math.tanh((mu - p) * c_p / 2)
        assert residual == pytest.approx(0.0, abs=1e-12)
        assert change.after.deviation == pytest.approx(sigma_after, abs=1e-9)
    # Symmetric about 1500; the page shows 1,629.391 and 1,370.609.
    assert a.after.rating - 1500 == pytest.approx(1500 - b.after.rating, abs=1e-9)
    assert a.after.rating == pytest.approx(1629.3914, abs=1e-4)
    # Display rating mu - 3 (sigma - 80).
    assert a.details["ranking_value_after"] == pytest.approx(
        a.after.rating - 3 * (sigma_after - 80), abs=1e-9
    )


def test_the_page_shows_the_worked_example() -> None:
    """docs/systems/elo-mmr.md shows the numbers test_two_new_players_by_hand checks."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "systems" / "elo-mmr.md").read_text()
    for number in ("123,780", "38,400", "162,180", "1653.899", "1346.101", "1,629.391",
                   "1,370.609", "171.195", "1,355.805"):  # fmt: skip
        assert number in page, number


def test_everyone_tied_changes_nothing() -> None:
    rater = elo_mmr.SYSTEM.configure({})
    new = rater.initial_state({})
    out = rater.rate_game(game(1, 1, 1), {PlayerKey(f"p{i}"): new for i in range(3)}, {})
    assert all(c.after == c.before for c in out.changes)


def test_a_game_needs_two_players_and_no_teams() -> None:
    rater = elo_mmr.SYSTEM.configure({})
    with pytest.raises(InvalidEvent) as error:
        rater.validate_game(game(1))
    assert error.value.loc == ("players",)
    teams = Game(
        START,
        (Participant("a", 1, team="x"), Participant("b", 1, team="x"), Participant("c", 2)),
    )
    with pytest.raises(InvalidEvent) as error:
        check_sides(elo_mmr.INFO, teams)
    assert error.value.loc == ("teams", 0)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("weight_limit", 0.0),
        ("weight_limit", 1.5),
        ("sig_limit", 0.0),
        ("sigma", -1.0),
        ("drift_per_day", -1.0),
        ("mu", 2e6),
        ("split_ties", 1),
        ("max_history", -1),
        ("max_history", 1.5),
    ],
)
def test_parameters_out_of_range_are_refused(name: str, value: object) -> None:
    with pytest.raises(InvalidParameter) as error:
        elo_mmr.SYSTEM.configure({name: value})
    assert error.value.name == name


def test_adjustment_resets_the_history_to_a_gaussian() -> None:
    rater = elo_mmr.SYSTEM.configure({})
    new = rater.initial_state({})
    played = rater.rate_game(game(1, 2), {PlayerKey("p0"): new, PlayerKey("p1"): new}, {})
    state = rater.adjusted_state(played.changes[0].after, 1800.0, 100.0, None, START)
    assert (state.rating, state.deviation) == (1800.0, 100.0)
    assert "centres" not in state.extra
    with pytest.raises(InvalidEvent) as error:
        rater.adjusted_state(None, 1800.0, 0.0, None, START)
    assert error.value.loc == ("deviation",)
    with pytest.raises(InvalidEvent) as error:
        rater.adjusted_state(None, 1800.0, None, 0.06, START)
    assert error.value.loc == ("volatility",)


def test_win_probability_is_complementary_and_even_between_equals() -> None:
    rater = elo_mmr.SYSTEM.configure({})
    a = PlayerState(1700.0, 100.0)
    b = PlayerState(1500.0, 200.0)
    p = rater.side_win_probability([a], [b])
    q = rater.side_win_probability([b], [a])
    assert p is not None
    assert q is not None
    assert p + q == pytest.approx(1.0, abs=1e-15)
    spread = math.sqrt(100**2 + 200**2 + 2 * 38_400)
    assert p == pytest.approx(1 / (1 + math.exp(-T * 200 / spread)), abs=1e-15)
    assert rater.side_win_probability([a], [a]) == 0.5


@settings(max_examples=40, deadline=None)
@given(
    ranks=st.lists(st.integers(1, 5), min_size=2, max_size=8).filter(lambda r: len(set(r)) > 1),
    ratings=st.lists(st.floats(1000, 2500), min_size=8, max_size=8),
    shift=st.integers(0, 7),
)
def test_order_of_the_players_does_not_matter_and_better_ranks_perform_better(
    ranks: list[int], ratings: list[float], shift: int
) -> None:
    rater = elo_mmr.SYSTEM.configure({})
    n = len(ranks)
    states = {PlayerKey(f"p{i}"): PlayerState(ratings[i], 150.0 + 10 * i) for i in range(n)}
    out = rater.rate_game(game(*ranks), states, {})
    order = [(i + shift) % n for i in range(n)]
    shuffled = Game(START, tuple(Participant(f"p{i}", ranks[i]) for i in order))
    again = {c.key: c.after for c in rater.rate_game(shuffled, states, {}).changes}
    for change in out.changes:
        assert again[change.key].rating == pytest.approx(change.after.rating, abs=TOLERANCE)
    # With equal beliefs, the better rank has the higher performance.
    same = {PlayerKey(f"p{i}"): PlayerState(1500.0, 200.0) for i in range(n)}
    perf = [c.details["performance"] for c in rater.rate_game(game(*ranks), same, {}).changes]
    for i in range(n):
        for j in range(n):
            if ranks[i] < ranks[j]:
                assert perf[i] > perf[j]


def test_time_between_rounds_widens_the_deviation_only_with_drift() -> None:
    later = START + timedelta(days=10)
    for drift, widened in ((0.0, False), (100.0, True)):
        rater = elo_mmr.SYSTEM.configure({"drift_per_day": drift})
        new = rater.initial_state({})
        first = rater.rate_game(game(1, 2), {PlayerKey("p0"): new, PlayerKey("p1"): new}, {})
        after = {c.key: c.after for c in first.changes}
        second = rater.rate_game(game(1, 2, at=later), after, {}).changes[0]
        sigma = after[PlayerKey("p0")].deviation
        assert sigma is not None
        expected = math.sqrt(sigma**2 + 0.2 * 80**2 + drift * 10)
        assert second.details["sigma_diffused"] == pytest.approx(expected, abs=1e-9)
        assert (second.details["sigma_diffused"] > math.sqrt(sigma**2 + 1280)) is widened


def test_max_history_folds_the_oldest_performance_into_the_gaussian() -> None:
    """With max_history 1, A's second round first ages its history (the diffusion of the
    module's step 1) and then folds round 1's factor into the Gaussian, its weight
    L = 2 w_arg w_out / T^2 kept: mu_G <- (w_G mu_G + L p_1) / (w_G + L), w_G <- w_G + L."""
    later = START + timedelta(days=1)
    kept_all = elo_mmr.SYSTEM.configure({})
    bounded = elo_mmr.SYSTEM.configure({"max_history": 1})
    new = bounded.initial_state({})
    first = bounded.rate_game(game(1, 2), {PlayerKey("p0"): new, PlayerKey("p1"): new}, {})
    after = {c.key: c.after for c in first.changes}
    a1 = after[PlayerKey("p0")]
    assert len(a1.extra["centres"]) == 1
    second = bounded.rate_game(game(1, 2, at=later), after, {}).changes[0]
    unbounded = kept_all.rate_game(game(1, 2, at=later), after, {}).changes[0]
    assert len(unbounded.after.extra["centres"]) == 2
    assert len(second.after.extra["centres"]) == 1
    assert second.after.extra["centres"][0] == second.details["performance"]

    # By hand, from A's state after round 1.
    sigma1 = a1.deviation
    assert sigma1 is not None
    mu_g, sigma_g = a1.extra["normal"]
    (p1,), (w_arg,), (w_out,) = a1.extra["centres"], a1.extra["w_arg"], a1.extra["w_out"]
    diffused2 = sigma1**2 + 0.2 * 80**2
    kappa = sigma1**2 / diffused2
    weight = 2 * w_arg * w_out / T**2
    w_old = kappa / sigma_g**2
    w_moved = (1 - kappa) * (1 / sigma_g**2 + weight)
    mu_g = (w_old * mu_g + w_moved * a1.rating) / (w_old + w_moved)
    w_g = kappa * (w_old + w_moved)
    folded = 2 * w_arg * (kappa**2 * w_out) / T**2
    mu_g = (w_g * mu_g + folded * p1) / (w_g + folded)
    w_g += folded
    normal = second.after.extra["normal"]
    assert normal[0] == pytest.approx(mu_g, abs=1e-9)
    assert normal[1] == pytest.approx(w_g**-0.5, abs=1e-9)
    # The new mean is the mode over the Gaussian and round 2's factor alone.
    c_p = T / math.sqrt(38_400)
    mu = second.after.rating
    residual = w_g * (mu - mu_g) + c_p * math.tanh((mu - second.details["performance"]) * c_p / 2)
    assert residual == pytest.approx(0.0, abs=1e-12)
    assert second.after.deviation == pytest.approx((1 / diffused2 + 1 / 38_400) ** -0.5, abs=1e-9)
