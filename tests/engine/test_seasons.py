"""Seasons in the engine (SYSTEMS.md "Seasons"): a reset applied to a stored state as it is
read at a time, and as the starting state of the player's next game, with its sources'
numbers worked by hand in each test's comment."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.engine.errors import InvalidParameter
from app.engine.ranked import LAST_EVENT_AT, Reset, SeasonStart, Timed, parse_reset
from app.engine.registry import SYSTEMS
from app.engine.types import Game, Participant, PlayerKey, PlayerState, frozen

START = datetime(2027, 1, 1, tzinfo=UTC)


def _stamped(state: PlayerState, at: datetime) -> PlayerState:
    return PlayerState(
        state.rating, state.deviation, state.volatility, frozen({LAST_EVENT_AT: at.isoformat()})
    )


def _timed(system: str, *seasons: SeasonStart) -> Timed:
    rater = SYSTEMS[system].configure(None)
    initial = rater.initial_state(rater.initial_ladder_state())
    return Timed(rater, None, initial, None, seasons)


def test_parse_reset() -> None:
    assert parse_reset(None) == Reset()
    assert parse_reset({"kind": "hard"}) == Reset("hard")
    assert parse_reset({"kind": "soft", "fraction": 0.25}) == Reset("soft", fraction=0.25)
    assert parse_reset(
        {"kind": "uncertainty", "min": 5, "min_until_days": 30, "full_after_days": 360},
        PlayerState(25.0, 25 / 3),
    ) == Reset("uncertainty", minimum=5.0, min_until_days=30.0, full_after_days=360.0)


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"kind": "soft", "fraction": 1.5}, "reset.fraction"),
        ({"kind": "soft", "fraction": True}, "reset.fraction"),
        ({"kind": "soft"}, "reset"),
        ({"kind": "hard", "fraction": 0.5}, "reset"),
        ({"kind": "harsh"}, "reset.kind"),
        ("soft", "reset"),
        (
            {"kind": "uncertainty", "min": 5, "min_until_days": 30, "full_after_days": 30},
            "reset.full_after_days",
        ),
        (
            {"kind": "uncertainty", "min": 9, "min_until_days": 30, "full_after_days": 360},
            "reset.min",
        ),
    ],
)
def test_bad_resets_name_their_field(value: object, field: str) -> None:
    with pytest.raises(InvalidParameter) as caught:
        parse_reset(value, PlayerState(25.0, 25 / 3))
    assert caught.value.name == field


def test_uncertainty_needs_a_deviation() -> None:
    with pytest.raises(InvalidParameter):
        parse_reset(
            {"kind": "uncertainty", "min": 5, "min_until_days": 30, "full_after_days": 360},
            PlayerState(1500.0),
        )


def test_soft_reset_when_read_after_the_start() -> None:
    """FiveThirtyEight: 1500 + (1700 - 1500)(1 - 1/3) = 1633.33...; not before the start."""
    timed = _timed("elo", SeasonStart("s2", START, Reset("soft", fraction=1 / 3)))
    state = _stamped(PlayerState(1700.0), START - timedelta(days=10))
    assert timed.at(state, START - timedelta(seconds=1)).rating == 1700.0
    read = timed.at(state, START)
    assert read.rating == pytest.approx(1633.3333333333333, abs=1e-9)
    # The reset is an event of the player: its time is the season's start.
    assert read.extra[LAST_EVENT_AT] == START.isoformat()
    # A state already at the start (a game at that instant came after the reset): no reset.
    assert timed.at(_stamped(PlayerState(1700.0), START), START).rating == 1700.0


def test_two_seasons_idle_through_both() -> None:
    """1700 -> 1633.33... -> 1500 + 133.33... * 2/3 = 1588.888..."""
    timed = _timed(
        "elo",
        SeasonStart("s3", START + timedelta(days=90), Reset("soft", fraction=1 / 3)),
        SeasonStart("s2", START, Reset("soft", fraction=1 / 3)),
    )
    state = _stamped(PlayerState(1700.0), START - timedelta(days=1))
    read = timed.at(state, START + timedelta(days=200))
    assert read.rating == pytest.approx(1588.8888888888889, abs=1e-9)
    assert timed.resets(state, START + timedelta(days=200)) == timed.seasons


@pytest.mark.parametrize(
    ("idle_days", "sigma"),
    [
        (30, 5.0),  # clamp((30 - 30) / 330) = 0: m
        (60, 5.303030303030303),  # 5 + (25/3 - 5) * 30/330 = 5 + 10/33
        (360, 8.333333333333334),  # clamp(1) = 1: sigma0 = 25/3
    ],
)
def test_beyond_all_reasons_reset_through_the_rater(idle_days: int, sigma: float) -> None:
    """teiserver#539 on TrueSkill (sigma0 = 25/3): m 5, a 30, b 360, a settled player (mu 31,
    sigma 2) whose last game was ``idle_days`` before the season's start."""
    reset = Reset("uncertainty", minimum=5.0, min_until_days=30.0, full_after_days=360.0)
    timed = _timed("trueskill", SeasonStart("s2", START, reset))
    state = _stamped(PlayerState(31.0, 2.0), START - timedelta(days=idle_days))
    read = timed.at(state, START + timedelta(days=1))
    assert read.deviation == pytest.approx(sigma, abs=1e-9)
    assert read.rating == 31.0


def test_hard_reset_and_a_game_that_starts_from_it() -> None:
    """A hard reset puts the player back at 1500; its first game of the season against a new
    player (1500) is an even game: a win gains 32 * 0.5 = 16."""
    timed = _timed("elo", SeasonStart("s2", START, Reset("hard")))
    a, b = PlayerKey("a"), PlayerKey("b")
    stored = _stamped(PlayerState(1800.0), START - timedelta(days=3))
    game = Game(START, (Participant("a", 1), Participant("b", 2)))
    outcome = timed.rate_game(game, {a: stored, b: PlayerState(1500.0)}, {})
    after = {change.key: change for change in outcome.changes}
    assert after[a].after.rating == pytest.approx(1516.0)
    assert after[b].after.rating == pytest.approx(1484.0)
    assert after[a].details["season_reset"] == {
        "seasons": ["s2"],
        "rating": 1800.0,
        "deviation": None,
    }
    assert "season_reset" not in after[b].details


def test_none_resets_nothing() -> None:
    timed = _timed("elo", SeasonStart("s2", START, Reset()))
    state = _stamped(PlayerState(1700.0), START - timedelta(days=3))
    assert timed.at(state, START + timedelta(days=1)) == state
