"""Team rules of ``elo``, ``glicko`` and ``glicko2`` and the side win probabilities of the Elo
and Glicko families (SYSTEMS.md "Teams" and "Win probability of one side over another").

Expected values are hand arithmetic from the rules: Elo's E = 1 / (1 + 10^((R_b - R_a)/400))
on the sides' mean ratings with K / (N - 1) per duel of sides; Glickman's formulas written out
here (Glicko-1) or the paper's published numbers (both papers' example, played as one team
game whose sides' means are the paper's opponents). The numbers docs/systems/elo.md,
glicko.md and glicko2.md show in their "Teams" and "Win probability" sections are checked
here, and :func:`test_docs_show_the_numbers_checked_here` reads them from the pages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import elo, fundox, glicko, glicko2, nadf, naf
from app.engine.errors import InvalidEvent
from app.engine.ledger import validate_game
from app.engine.protocols import GameRater, SystemInfo
from app.engine.types import EMPTY, Game, Outcome, Participant, PlayerKey, PlayerState

DAY = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "systems"

#: A member of a side: (player, rating, deviation, weight).
Member = tuple[str, float, float, float]
#: A side: (label, rank, members).
SideSpec = tuple[str, int, Sequence[Member]]

#: Sums of the same floats in another order differ in the last bits only: relative 1e-12 is
#: a thousand times a double's rounding over the few terms of a table.
REORDERED = 1e-12
#: Glicko-2's step 5 stops once the bracket is narrower than epsilon = 1e-6 (of ln sigma'^2);
#: results entered in another order change f in its last bits, which can end the iteration
#: one step earlier or later, so sigma' (hence r' and RD') agrees to that tolerance only.
ILLINOIS = 1e-6


def team_game(sides: Sequence[SideSpec], at: datetime = DAY) -> Game:
    return Game(
        played_at=at,
        participants=tuple(
            Participant(player, rank, team=label, weight=weight)
            for label, rank, members in sides
            for player, _, _, weight in members
        ),
    )


def states_of(
    sides: Sequence[SideSpec], volatility: float | None = None
) -> dict[PlayerKey, PlayerState]:
    return {
        PlayerKey(player): PlayerState(rating, deviation, volatility)
        for _, _, members in sides
        for player, rating, deviation, _ in members
    }


def rate(
    rater: GameRater, info: SystemInfo, sides: Sequence[SideSpec], volatility: float | None = None
) -> dict[str, PlayerState]:
    game = team_game(sides)
    validate_game(info, rater, game)
    outcome = rater.rate_game(game, states_of(sides, volatility), EMPTY)
    return {change.key.player: change.after for change in outcome.changes}


def deltas(outcome: Outcome) -> dict[str, float]:
    return {change.key.player: change.delta for change in outcome.changes}


def m(player: str, rating: float, deviation: float = 350.0, weight: float = 1.0) -> Member:
    return (player, rating, deviation, weight)


ELO = elo.SYSTEM.configure()
GLICKO = glicko.SYSTEM.configure()
GLICKO2 = glicko2.SYSTEM.configure()


def elo_rate(sides: Sequence[SideSpec]) -> dict[str, float]:
    game = team_game(sides)
    validate_game(elo.INFO, ELO, game)
    return deltas(ELO.rate_game(game, states_of(sides), EMPTY))


# --- elo: sides at their mean rating -----------------------------------------------------------

#: The issue's example: team means 1500 and 1550.
A = ("a", 1, [m("ann", 1450.0), m("art", 1550.0)])
B = ("b", 2, [m("bob", 1500.0), m("bea", 1600.0)])
ISSUE_E = 1 / (1 + 10 ** (50 / 400))


def test_elo_issue_example_two_against_two() -> None:
    gain = 32 * (1 - ISSUE_E)
    assert elo_rate([A, B]) == pytest.approx(
        {"ann": gain, "art": gain, "bob": -gain, "bea": -gain}, abs=1e-12
    )
    # The numbers docs/systems/elo.md shows:
    assert round(ISSUE_E, 4) == 0.4285
    assert gain == pytest.approx(18.29, abs=5e-3)


def test_elo_member_of_weight_half_gets_half_its_sides_change() -> None:
    gain = 32 * (1 - ISSUE_E)  # the mean (1500) is unweighted: the same E as above
    half = ("a", 1, [m("ann", 1450.0), m("art", 1550.0, weight=0.5)])
    out = elo_rate([half, B])
    assert out == pytest.approx(
        {"ann": gain, "art": gain / 2, "bob": -gain, "bea": -gain}, abs=1e-12
    )
    # Not zero-sum: the sides' total weights differ (1.5 against 2).
    assert sum(out.values()) == pytest.approx(-gain / 2, abs=1e-12)
    assert gain / 2 == pytest.approx(9.14, abs=5e-3)


def test_elo_three_sides_by_hand() -> None:
    # Means 1500, 1550, 1400 finishing 2nd, 1st, 3rd; K / (N - 1) = 16 with N = 3 sides.
    sides = [
        ("x", 2, [m("x1", 1400.0), m("x2", 1600.0)]),
        ("y", 1, [m("y1", 1550.0)]),
        ("z", 3, [m("z1", 1300.0), m("z2", 1450.0), m("z3", 1450.0)]),
    ]

    def E(a: float, b: float) -> float:
        return 1 / (1 + 10 ** ((b - a) / 400))

    x = 16 * ((0 - E(1500, 1550)) + (1 - E(1500, 1400)))
    y = 16 * ((1 - E(1550, 1500)) + (1 - E(1550, 1400)))
    z = 16 * ((0 - E(1400, 1500)) + (0 - E(1400, 1550)))
    expected = {"x1": x, "x2": x, "y1": y, "z1": z, "z2": z, "z3": z}
    assert elo_rate(sides) == pytest.approx(expected, abs=1e-12)
    assert (round(x, 2), round(y, 2), round(z, 2)) == (-1.10, 11.60, -10.50)


def test_elo_draw_of_two_sides() -> None:
    drawn = ("b", 1, B[2])
    gain = 32 * (0.5 - ISSUE_E)  # the lower side gains what the higher one loses
    assert elo_rate([A, drawn]) == pytest.approx(
        {"ann": gain, "art": gain, "bob": -gain, "bea": -gain}, abs=1e-12
    )
    assert gain == pytest.approx(2.29, abs=5e-3)


def test_elo_details_name_the_sides() -> None:
    game = team_game([A, B])
    change = ELO.rate_game(game, states_of([A, B]), EMPTY).changes[0]
    details = dict(change.details)
    assert details["side_rating"] == 1500.0
    assert details["weight"] == 1.0
    assert details["side_change"] == pytest.approx(32 * (1 - ISSUE_E), abs=1e-12)
    (duel,) = details["duels"]
    assert duel["opponent"] == "b"
    assert duel["opponent_players"] == ["bob", "bea"]
    assert duel["opponent_rating"] == 1550.0
    assert duel["expected_score"] == pytest.approx(ISSUE_E, abs=1e-15)


def test_elo_weights_in_a_free_for_all() -> None:
    # The players form may carry weights too: each player is a side of one.
    game = Game(DAY, (Participant("p", 1, weight=0.25), Participant("q", 2)))
    before = {PlayerKey("p"): PlayerState(1500.0), PlayerKey("q"): PlayerState(1500.0)}
    validate_game(elo.INFO, ELO, game)
    assert deltas(ELO.rate_game(game, before, EMPTY)) == pytest.approx(
        {"p": 16 * 0.25, "q": -16.0}, abs=1e-12
    )


def test_a_team_game_needs_two_sides() -> None:
    game = team_game([("a", 1, [m("p", 1500.0), m("q", 1500.0)])])
    for rater in (ELO, GLICKO, GLICKO2):
        with pytest.raises(InvalidEvent) as refused:
            rater.validate_game(game)
        assert refused.value.loc == ("teams",)


# --- glicko, glicko2: the composite opponent ---------------------------------------------------

#: Both papers' example as one team game: "me" (1500 / 200, volatility 0.06) with a teammate,
#: sides whose means are the paper's opponents 1400 / 30 (beaten), 1550 / 100 and 1700 / 300
#: (lost to; they share the first place).
ME = ("me", 2, [m("me", 1500.0, 200.0), m("mate", 1620.0, 80.0)])
PAPER_SIDES = [
    ME,
    ("x", 3, [m("x1", 1350.0, 20.0), m("x2", 1450.0, 40.0)]),
    ("y", 1, [m("y1", 1500.0, 50.0), m("y2", 1600.0, 150.0)]),
    ("z", 1, [m("z1", 1650.0, 250.0), m("z2", 1750.0, 350.0)]),
]


def glicko1_by_hand(
    r: float, rd_own: float, opponents: Sequence[tuple[float, float, float]]
) -> tuple[float, float]:
    """Glickman, "The Glicko system", step 2, written out independently of app.engine."""
    q = math.log(10) / 400

    def g(rd: float) -> float:
        return 1 / math.sqrt(1 + 3 * q**2 * rd**2 / math.pi**2)

    E = [1 / (1 + 10 ** (-g(rd) * (r - rj) / 400)) for rj, rd, _ in opponents]
    d2 = 1 / (
        q**2 * sum(g(rd) ** 2 * e * (1 - e) for (_, rd, _), e in zip(opponents, E, strict=True))
    )
    total = sum(g(rd) * (s - e) for (_, rd, s), e in zip(opponents, E, strict=True))
    return r + q / (1 / rd_own**2 + 1 / d2) * total, math.sqrt(1 / (1 / rd_own**2 + 1 / d2))


def test_glicko_member_against_a_side_by_hand() -> None:
    # One member against a side of two whose mean is 1400 / 30: the member's update is one
    # result against 1400 / 30 (g = 0.9955, E = 0.639 in the paper).
    sides = [("me", 1, [m("me", 1500.0, 200.0)]), PAPER_SIDES[1]]
    after = rate(GLICKO, glicko.INFO, sides)["me"]
    r, RD = glicko1_by_hand(1500.0, 200.0, [(1400.0, 30.0, 1.0)])
    assert after.rating == pytest.approx(r, abs=1e-9)
    assert after.deviation == pytest.approx(RD, abs=1e-9)
    # The side's members each play "me" as one opponent (1500 / 200): the same E for both.
    x1 = rate(GLICKO, glicko.INFO, sides)["x1"]
    r1, RD1 = glicko1_by_hand(1350.0, 20.0, [(1500.0, 200.0, 0.0)])
    assert (x1.rating, x1.deviation) == pytest.approx((r1, RD1), abs=1e-9)


def test_glicko_the_papers_example_as_one_team_game() -> None:
    after = rate(GLICKO, glicko.INFO, PAPER_SIDES)
    assert after["me"].rating == pytest.approx(1464.0, abs=0.5)  # the paper: r' = 1464
    assert after["me"].deviation == pytest.approx(151.4, abs=0.05)  # RD' = 151.4
    r, RD = glicko1_by_hand(
        1500.0, 200.0, [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]
    )
    assert (after["me"].rating, after["me"].deviation) == pytest.approx((r, RD), abs=1e-9)
    # The teammate meets the same composites from its own state; teammates never meet.
    r, RD = glicko1_by_hand(
        1620.0, 80.0, [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]
    )
    assert (after["mate"].rating, after["mate"].deviation) == pytest.approx((r, RD), abs=1e-9)
    # y's members drew with z (the shared first place) and beat me's and x's sides.
    r, RD = glicko1_by_hand(
        1500.0, 50.0, [(1560.0, 140.0, 1.0), (1400.0, 30.0, 1.0), (1700.0, 300.0, 0.5)]
    )
    assert (after["y1"].rating, after["y1"].deviation) == pytest.approx((r, RD), abs=1e-9)


def test_glicko2_the_papers_example_as_one_team_game() -> None:
    after = rate(GLICKO2, glicko2.INFO, PAPER_SIDES, volatility=0.06)["me"]
    # Glickman (2013): r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko_details_show_each_composite() -> None:
    game = team_game(PAPER_SIDES)
    outcome = GLICKO.rate_game(game, states_of(PAPER_SIDES), EMPTY)
    opponents = dict(outcome.changes[0].details)["opponents"]
    assert [
        (o["opponent"], o["players"], o["rating"], o["deviation"], o["score"]) for o in opponents
    ] == [
        ("x", ["x1", "x2"], 1400.0, 30.0, 1.0),
        ("y", ["y1", "y2"], 1550.0, 100.0, 0.0),
        ("z", ["z1", "z2"], 1700.0, 300.0, 0.0),
    ]
    assert [o["g"] for o in opponents] == pytest.approx([0.9955, 0.9531, 0.7242], abs=5e-5)
    assert [o["E"] for o in opponents] == pytest.approx([0.639, 0.432, 0.303], abs=5e-4)


def test_glicko2_day_mode_batches_team_results_with_individual_games() -> None:
    # Day mode: the team game's result against x's composite (1400 / 30) joins "me"'s batch,
    # then two individual games the same day complete the paper's period.
    rater = glicko2.SYSTEM.configure({"period": "day"})
    states: dict[PlayerKey, PlayerState] = {
        key: rater.initial_state(EMPTY) for key in map(PlayerKey, ["y1", "z1"])
    }
    sides = [("me", 1, [m("me", 1500.0, 200.0)]), PAPER_SIDES[1]]
    states.update(states_of(sides, volatility=0.06))
    states[PlayerKey("y1")] = PlayerState(1550.0, 100.0, 0.06)
    states[PlayerKey("z1")] = PlayerState(1700.0, 300.0, 0.06)
    games = [
        team_game(sides, DAY),
        Game(DAY + timedelta(hours=1), (Participant("y1", 1), Participant("me", 2))),
        Game(DAY + timedelta(hours=2), (Participant("z1", 1), Participant("me", 2))),
    ]
    for game in games:
        validate_game(glicko2.INFO, rater, game)
        for change in rater.rate_game(game, states, EMPTY).changes:
            states[change.key] = change.after
    me = states[PlayerKey("me")]
    assert me.rating == pytest.approx(1464.06, abs=0.01)
    assert me.deviation == pytest.approx(151.52, abs=0.01)
    assert me.volatility == pytest.approx(0.05999, abs=1e-5)
    # The open period holds the composite as one result, like an individual opponent.
    assert me.extra["results"][0] == pytest.approx([1400.0, 30.0, 1.0])


def test_glicko_composite_takes_opponents_period_start_state() -> None:
    # x1 played earlier the same day: its current rating moved, but like any opponent it
    # enters the composite with its period-start values (app/engine/periods.py).
    rater = glicko.SYSTEM.configure({"period": "day"})
    states = {
        PlayerKey("x1"): PlayerState(1350.0, 20.0),
        PlayerKey("w"): PlayerState(1500.0, 350.0),
    }
    early = Game(DAY, (Participant("w", 1), Participant("x1", 2)))
    for change in rater.rate_game(early, states, EMPTY).changes:
        states[change.key] = change.after
    assert states[PlayerKey("x1")].rating != 1350.0
    sides = [("me", 1, [m("me", 1500.0, 200.0)]), PAPER_SIDES[1]]
    states[PlayerKey("me")] = PlayerState(1500.0, 200.0)
    states[PlayerKey("x2")] = PlayerState(1450.0, 40.0)
    game = team_game(sides, DAY + timedelta(hours=1))
    outcome = rater.rate_game(game, states, EMPTY)
    (opponent,) = dict(outcome.changes[0].details)["opponents"]
    assert (opponent["rating"], opponent["deviation"]) == (1400.0, 30.0)
    r, _ = glicko1_by_hand(1500.0, 200.0, [(1400.0, 30.0, 1.0)])
    assert outcome.changes[0].after.rating == pytest.approx(r, abs=1e-9)


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("info", "rater"), [(glicko.INFO, GLICKO), (glicko2.INFO, GLICKO2)], ids=["glicko", "glicko2"]
)
def test_glicko_refuses_weights(info: SystemInfo, rater: GameRater) -> None:
    assert (info.sides, info.weights) == (True, False)
    game = team_game([A, ("b", 2, [m("bob", 1500.0), m("bea", 1600.0, weight=0.5)])])
    with pytest.raises(InvalidEvent) as refused:
        validate_game(info, rater, game)
    assert refused.value.loc == ("teams", 1, "players", 1, "weight")


@pytest.mark.parametrize(
    ("info", "rater"),
    [(fundox.INFO, fundox.SYSTEM.configure()), (naf.INFO, naf.SYSTEM.configure())],
    ids=["fundox", "naf"],
)
def test_individual_systems_refuse_sides_and_weights(info: SystemInfo, rater: GameRater) -> None:
    assert (info.sides, info.weights) == (False, False)
    with pytest.raises(InvalidEvent) as refused:
        validate_game(info, rater, team_game([("a", 1, [m("p", 0.0)]), B]))
    assert refused.value.loc == ("teams", 1)
    weighted = Game(DAY, (Participant("p", 1, weight=0.5), Participant("q", 2)))
    with pytest.raises(InvalidEvent) as refused:
        validate_game(info, rater, weighted)
    assert refused.value.loc == ("players", 0, "weight")


def test_elo_takes_sides_and_weights() -> None:
    assert (elo.INFO.sides, elo.INFO.weights) == (True, True)


# --- properties --------------------------------------------------------------------------------

ratings = st.floats(1000.0, 2000.0)
deviations = st.floats(30.0, 350.0)
volatilities = st.floats(0.03, 0.09)
ranks = st.integers(1, 3)  # ties likely
RATERS = [(ELO, elo.INFO), (GLICKO, glicko.INFO), (GLICKO2, glicko2.INFO)]
RATER_IDS = ["elo", "glicko", "glicko2"]


@st.composite
def tables(draw: st.DrawFn, max_sides: int = 5, max_members: int = 3) -> list[SideSpec]:
    count = draw(st.integers(2, max_sides))
    sides: list[SideSpec] = []
    for s in range(count):
        size = draw(st.integers(1, max_members))
        members = [(f"s{s}m{i}", draw(ratings), draw(deviations), 1.0) for i in range(size)]
        sides.append((f"side{s}", draw(ranks), members))
    return sides


def before_of(sides: Sequence[SideSpec], volatility: float) -> Mapping[PlayerKey, PlayerState]:
    return states_of(sides, volatility)


@pytest.mark.parametrize(("rater", "info"), RATERS, ids=RATER_IDS)
@settings(max_examples=60, deadline=None)
@given(sides=tables(max_members=1), volatility=volatilities)
def test_property_sides_of_one_are_the_free_for_all(
    rater: GameRater, info: SystemInfo, sides: list[SideSpec], volatility: float
) -> None:
    """Exact: a mean of one value is that value, and the sums run in the same order."""
    before = before_of(sides, volatility)
    team = team_game(sides)
    ffa = Game(DAY, tuple(Participant(p.player, p.rank) for p in team.participants))
    validate_game(info, rater, team)
    as_sides = rater.rate_game(team, before, EMPTY)
    as_ffa = rater.rate_game(ffa, before, EMPTY)
    assert [c.after for c in as_sides.changes] == [c.after for c in as_ffa.changes]


@pytest.mark.parametrize(("rater", "info"), RATERS, ids=RATER_IDS)
@settings(max_examples=60, deadline=None)
@given(sides=tables(), volatility=volatilities, data=st.data())
def test_property_order_of_sides_and_members_changes_no_result(
    rater: GameRater,
    info: SystemInfo,
    sides: list[SideSpec],
    volatility: float,
    data: st.DataObject,
) -> None:
    """Members' order: exact (means are math.fsum sums, correctly rounded whatever the order).
    Sides' order: the sums over the other sides run in another order, so equal to the
    rounding of a sum (:data:`REORDERED`; Glicko-2: :data:`ILLINOIS`)."""
    before = before_of(sides, volatility)
    base = {c.key: c.after for c in rater.rate_game(team_game(sides), before, EMPTY).changes}
    members_moved = [(label, rank, data.draw(st.permutations(ms))) for label, rank, ms in sides]
    moved = rater.rate_game(team_game(members_moved), before, EMPTY)
    assert {c.key: c.after for c in moved.changes} == base
    sides_moved = data.draw(st.permutations(members_moved))
    tolerance = ILLINOIS if rater is GLICKO2 else REORDERED
    for change in rater.rate_game(team_game(sides_moved), before, EMPTY).changes:
        expected = base[change.key]
        assert change.after.rating == pytest.approx(expected.rating, rel=tolerance)
        assert change.after.deviation == pytest.approx(expected.deviation, rel=tolerance)
        if expected.volatility is None:  # Glicko-1 and Elo have none
            assert change.after.volatility is None
        else:
            assert change.after.volatility == pytest.approx(expected.volatility, rel=tolerance)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(1, 3), data=st.data())
def test_property_elo_zero_sum_for_sides_of_equal_size(size: int, data: st.DataObject) -> None:
    sides = data.draw(tables(max_members=size).filter(lambda t: all(len(s[2]) == size for s in t)))
    assert sum(elo_rate(sides).values()) == pytest.approx(0.0, abs=1e-9)


# --- win probability of one side over another --------------------------------------------------

PROBABILITY_RATERS: list[tuple[GameRater, str]] = [
    (ELO, "elo"),
    (fundox.SYSTEM.configure(), "fundox"),
    (naf.SYSTEM.configure(), "naf"),
    (GLICKO, "glicko"),
    (GLICKO2, "glicko2"),
]

side_states = st.lists(
    st.builds(PlayerState, st.floats(-3000.0, 6000.0), deviations, volatilities),
    min_size=1,
    max_size=4,
)


@pytest.mark.parametrize(
    "rater", [r for r, _ in PROBABILITY_RATERS], ids=[i for _, i in PROBABILITY_RATERS]
)
@settings(max_examples=100, deadline=None)
@given(a=side_states, b=side_states)
def test_property_pair_probabilities_sum_to_one(
    rater: GameRater, a: list[PlayerState], b: list[PlayerState]
) -> None:
    """Exactly 1 but for the rounding of the two divisions (the exponents are negatives)."""
    p, q = rater.side_win_probability(a, b), rater.side_win_probability(b, a)
    assert p is not None
    assert q is not None
    assert 0.0 <= p <= 1.0
    assert p + q == pytest.approx(1.0, abs=1e-15)


def test_elo_family_probability_on_mean_ratings() -> None:
    a = [PlayerState(1450.0), PlayerState(1550.0)]
    b = [PlayerState(1500.0), PlayerState(1600.0)]
    assert ELO.side_win_probability(a, b) == pytest.approx(ISSUE_E, abs=1e-15)
    # Fundox's scale 800: 2000 against 1600 wins with 1 / (1 + 10^(-1/2)) (its pair amount
    # 16 (1 - E) is the seed's 3.84).
    fundox_p = fundox.SYSTEM.configure().side_win_probability(
        [PlayerState(2000.0)], [PlayerState(1600.0)]
    )
    assert fundox_p == pytest.approx(1 / (1 + 10 ** (-400 / 800)), abs=1e-15)
    assert 16 * (1 - fundox_p) == pytest.approx(3.84, abs=5e-3)
    # NAF: 1 / (10^((R_b - R_a)/150) + 1).
    naf_p = naf.SYSTEM.configure().side_win_probability([PlayerState(180.0)], [PlayerState(150.0)])
    assert naf_p == pytest.approx(1 / (10 ** ((150 - 180) / 150) + 1), abs=1e-15)


def glicko_prediction_by_hand(r_a: float, rd_a: float, r_b: float, rd_b: float) -> float:
    """Glickman (1995): 1 / (1 + 10^(-g(sqrt(RD_a^2 + RD_b^2)) (r_a - r_b) / 400))."""
    q = math.log(10) / 400
    rd = math.sqrt(rd_a**2 + rd_b**2)
    g = 1 / math.sqrt(1 + 3 * q**2 * rd**2 / math.pi**2)
    return 1 / (1 + 10 ** (-g * (r_a - r_b) / 400))


def test_glicko_probability_by_hand() -> None:
    expected = glicko_prediction_by_hand(1500.0, 200.0, 1400.0, 30.0)
    # The number docs/systems/glicko.md and glicko2.md show: sqrt(200^2 + 30^2) = 202.24,
    # g = 0.8416, p = 0.6188 (the update's E against 1400 / 30, 0.639, is not this).
    assert math.sqrt(200.0**2 + 30.0**2) == pytest.approx(202.24, abs=5e-3)
    assert expected == pytest.approx(0.6188, abs=5e-5)
    a, b = [PlayerState(1500.0, 200.0, 0.06)], [PlayerState(1400.0, 30.0, 0.06)]
    for rater in (GLICKO, GLICKO2):
        assert rater.side_win_probability(a, b) == pytest.approx(expected, abs=1e-15)
        assert rater.side_win_probability(a, a) == 0.5
    # Sides as composites: means 1500 / 200 and 1400 / 30.
    side = [PlayerState(1450.0, 180.0, 0.06), PlayerState(1550.0, 220.0, 0.06)]
    other = [PlayerState(1350.0, 20.0, 0.06), PlayerState(1450.0, 40.0, 0.06)]
    assert GLICKO.side_win_probability(side, other) == pytest.approx(expected, abs=1e-15)


def test_systems_without_a_pair_probability_give_none() -> None:
    assert (
        nadf.SYSTEM.configure().side_win_probability([PlayerState(1000.0)], [PlayerState(1000.0)])
        is None
    )


# --- the docs show these numbers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "shown"),
    [
        ("elo.md", ["0.4285", "18.29", "9.14", "2.29", "−1.10", "11.60", "−10.50"]),
        ("glicko.md", ["1400 / 30", "1464", "151.4", "202.24", "0.8416", "0.6188"]),
        ("glicko2.md", ["1400 / 30", "1464.06", "151.52", "0.05999", "0.6188"]),
    ],
)
def test_docs_show_the_numbers_checked_here(page: str, shown: list[str]) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    start = text.index("## Teams")
    end = text.index("\n## ", text.index("## Win probability"))
    teams = text[start:end]
    for number in shown:
        assert number in teams, f"docs/systems/{page} 'Teams' or 'Win probability' lacks {number}"
