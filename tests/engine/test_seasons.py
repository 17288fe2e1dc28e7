"""Seasons in the engine (SYSTEMS.md "Seasons"): a reset applied to a stored state as it is
read at a time, and as the starting state of the player's next game, with its sources'
numbers worked by hand in each test's comment."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from app.engine import schedule
from app.engine.errors import InvalidParameter
from app.engine.ranked import LAST_EVENT_AT, Reset, SeasonStart, Timed, parse_reset
from app.engine.registry import SYSTEMS
from app.engine.schedule import Repeat, add_months, expand, nth, occurrences, started
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


# -- recurring schedules (app/engine/schedule.py) ------------------------------------------


def _utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def test_months_end_on_the_last_day_when_shorter_counted_from_the_anchor() -> None:
    """Anchored on 31 January, noon: 28 Feb (2027 is not a leap year), 31 Mar, 30 Apr, 31 May;
    each from the anchor, so March is the 31st again, not the 28th."""
    anchor, monthly = _utc(2027, 1, 31, 12), Repeat(1, "months")
    assert [nth(anchor, monthly, n) for n in range(5)] == [
        _utc(2027, 1, 31, 12), _utc(2027, 2, 28, 12), _utc(2027, 3, 31, 12),
        _utc(2027, 4, 30, 12), _utc(2027, 5, 31, 12),
    ]  # fmt: skip
    # 2028 is a leap year: 29 February; every two months across a year's end.
    assert add_months(_utc(2028, 1, 31), 1) == _utc(2028, 2, 29)
    assert [nth(_utc(2027, 11, 30), Repeat(2, "months"), n) for n in range(3)] == [
        _utc(2027, 11, 30), _utc(2028, 1, 30), _utc(2028, 3, 30)
    ]  # fmt: skip


def test_started_counts_the_starts_at_or_before_a_time() -> None:
    """Every 2 weeks from Monday 4 January 2027: 4 Jan, 18 Jan, 1 Feb, …"""
    anchor, fortnightly = _utc(2027, 1, 4), Repeat(2, "weeks")
    assert started(anchor, fortnightly, _utc(2027, 1, 3)) == 0
    assert started(anchor, fortnightly, _utc(2027, 1, 4)) == 1
    assert started(anchor, fortnightly, _utc(2027, 1, 31, 23, 59)) == 2
    assert started(anchor, fortnightly, _utc(2027, 2, 1)) == 3
    # Months: 28 Feb at noon is the second start; a minute before it, only the anchor.
    anchor, monthly = _utc(2027, 1, 31, 12), Repeat(1, "months")
    assert started(anchor, monthly, _utc(2027, 2, 28, 11, 59)) == 1
    assert started(anchor, monthly, _utc(2027, 2, 28, 12)) == 2
    assert started(anchor, monthly, _utc(2027, 3, 30)) == 2
    assert started(anchor, monthly, _utc(2028, 1, 31, 12)) == 13
    # Before the anchor the schedule lists its first season only; after, the next one too.
    assert occurrences(anchor, monthly, _utc(2026, 6, 1)) == [anchor]
    assert occurrences(_utc(2027, 1, 1), Repeat(10, "days"), _utc(2027, 1, 15)) == [
        _utc(2027, 1, 1), _utc(2027, 1, 11), _utc(2027, 1, 21)
    ]  # fmt: skip


def test_parse_repeat_names_the_field() -> None:
    assert schedule.parse_repeat({"every": 3, "unit": "days"}) == Repeat(3, "days")
    for value, name in [
        ({"every": 1}, "repeat"),
        ({"every": 1, "unit": "years"}, "repeat.unit"),
        ({"every": 0, "unit": "days"}, "repeat.every"),
        ({"every": 1.5, "unit": "days"}, "repeat.every"),
        ({"every": True, "unit": "days"}, "repeat.every"),
    ]:
        with pytest.raises(InvalidParameter) as caught:
            schedule.parse_repeat(value)
        assert caught.value.name == name


def _schedule(
    anchor: datetime, every: int, unit: str, reset: dict[str, object]
) -> dict[str, object]:
    return {
        "id": "m",
        "name": "Monthly",
        "starts_at": anchor.isoformat(),
        "reset": reset,
        "best_of": None,
        "repeat": {"every": every, "unit": unit},
    }


def test_a_schedule_expands_to_plain_seasons_an_explicit_one_replacing_one() -> None:
    stored = [
        _schedule(_utc(2027, 1, 1), 1, "months", {"kind": "hard"}),
        {"id": "feb", "name": "February", "starts_at": _utc(2027, 2, 1).isoformat(),
         "reset": {"kind": "none"}, "best_of": None},
    ]  # fmt: skip
    seasons = expand(stored, _utc(2027, 3, 15))
    assert [(s["id"], s["starts_at"], s["reset"], s.get("schedule")) for s in seasons] == [
        ("m-2027-01-01", "2027-01-01T00:00:00+00:00", {"kind": "hard"}, "m"),
        ("feb", "2027-02-01T00:00:00+00:00", {"kind": "none"}, None),
        ("m-2027-03-01", "2027-03-01T00:00:00+00:00", {"kind": "hard"}, "m"),
        ("m-2027-04-01", "2027-04-01T00:00:00+00:00", {"kind": "hard"}, "m"),
    ]
    assert seasons[0]["name"] == "Monthly 2027-01-01"
    # The same seasons at any time from the latest start to the next one (the cache key).
    assert schedule.horizon(stored, _utc(2027, 3, 15)) == _utc(2027, 3, 1)
    assert expand(stored, _utc(2027, 3, 1)) == seasons
    assert expand(stored, _utc(2027, 3, 31, 23)) == seasons


def test_a_scheduled_soft_reset_is_read_through_each_start() -> None:
    """Elo, initial 1500; a soft reset of one half every month from 1 January. A player last
    rated on 10 January at 1600 reads, on 5 March, 1500 + 100·½ = 1550 after 1 February, then
    1500 + 50·½ = 1525 after 1 March; on 20 January, still 1600."""
    stored = [_schedule(_utc(2027, 1, 1), 1, "months", {"kind": "soft", "fraction": 0.5})]
    read_at = _utc(2027, 3, 5)
    starts = [
        SeasonStart(s["id"], datetime.fromisoformat(s["starts_at"]), parse_reset(s["reset"]))
        for s in expand(stored, read_at)
    ]
    timed = _timed("elo", *starts)
    state = _stamped(PlayerState(1600.0), _utc(2027, 1, 10))
    assert timed.at(state, read_at).rating == pytest.approx(1525.0, abs=1e-12)
    assert timed.at(state, _utc(2027, 1, 20)).rating == 1600.0
    assert [s.season for s in timed.resets(state, read_at)] == ["m-2027-02-01", "m-2027-03-01"]


# -- evaluation replays the resets (SYSTEMS.md "Evaluation", "Seasons") ---------------------


def test_evaluation_predicts_from_the_reset_states() -> None:
    """Elo (1500, K 32, scale 400): a beats b on 1 and again on 3 January. Without seasons the
    second game is predicted from 1516 / 1484: p = 1 / (1 + 10^(−32/400)), so log loss
    (ln 2 − ln p)/2, Brier (¼ + (1 − p)²)/2 and accuracy (½ + 1)/2. A hard reset on
    2 January puts both back at 1500: p = ½ twice, log loss ln 2, Brier ¼, accuracy ½."""
    from app.engine.evaluation import predictions, score

    games = [
        Game(_utc(2027, 1, 1), (Participant("a", 1), Participant("b", 2))),
        Game(_utc(2027, 1, 3), (Participant("a", 1), Participant("b", 2))),
    ]
    info = SYSTEMS["elo"].info
    plain = SYSTEMS["elo"].configure(None)
    p = 1 / (1 + 10 ** (-32 / 400))
    without = score(predictions(info, plain, games)).candidate
    assert without.log_loss == pytest.approx((math.log(2) - math.log(p)) / 2, abs=1e-15)
    assert without.brier == pytest.approx((0.25 + (1 - p) ** 2) / 2, abs=1e-15)
    assert without.accuracy == 0.75
    hard = _timed("elo", SeasonStart("s2", _utc(2027, 1, 2), Reset("hard")))
    with_reset = score(predictions(info, hard, games)).candidate
    assert with_reset.log_loss == pytest.approx(math.log(2), abs=1e-15)
    assert with_reset.brier == 0.25
    assert with_reset.accuracy == 0.5
