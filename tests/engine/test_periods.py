"""Rating-period machinery shared by the Glicko family (app/engine/periods.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from app.engine.periods import (
    PERIOD_CHOICES,
    OpenPeriod,
    PeriodResult,
    adjusted_extra,
    extra_for,
    game_mode_extra,
    locate,
    open_period_extra,
    pairwise_scores,
    period_index,
    read_open_period,
)
from app.engine.types import Participant, PlayerState


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def json_round_trip(extra: object) -> dict[str, object]:
    """What the database hands back: plain dicts and lists."""
    loaded: dict[str, object] = json.loads(json.dumps(dict(extra)))  # type: ignore[call-overload]
    return loaded


# --- period_index ------------------------------------------------------------------------------


def test_period_choices() -> None:
    assert PERIOD_CHOICES == ("game", "day", "week", "month")


def test_game_mode_has_no_index() -> None:
    assert period_index(utc(2026, 11, 29, 10), "game") is None


def test_day_boundaries_are_utc_midnight() -> None:
    late = period_index(utc(2026, 11, 29, 23, 59, 59), "day")
    early = period_index(utc(2026, 11, 29, 0, 0), "day")
    next_day = period_index(utc(2026, 11, 30, 0, 0), "day")
    assert late == early
    assert next_day == early + 1  # type: ignore[operator]


def test_day_index_counts_days() -> None:
    a = period_index(utc(2026, 1, 1), "day")
    b = period_index(utc(2026, 3, 1), "day")
    assert b - a == 31 + 28  # type: ignore[operator]


def test_timezone_is_converted_to_utc() -> None:
    # 01:00 on the 30th at UTC+2 is 23:00 UTC on the 29th.
    plus_two = timezone(timedelta(hours=2))
    local = datetime(2026, 11, 30, 1, 0, tzinfo=plus_two)
    assert period_index(local, "day") == period_index(utc(2026, 11, 29, 12), "day")


def test_naive_datetime_is_taken_as_utc() -> None:
    assert period_index(datetime(2026, 11, 29, 23, 0), "day") == period_index(
        utc(2026, 11, 29, 23, 0), "day"
    )


def test_weeks_start_on_monday() -> None:
    # 2026-11-29 is a Sunday, 2026-11-30 a Monday, 2026-11-23 the Monday before.
    sunday = period_index(utc(2026, 11, 29, 23, 59), "week")
    monday_before = period_index(utc(2026, 11, 23, 0, 0), "week")
    monday = period_index(utc(2026, 11, 30, 0, 0), "week")
    assert sunday == monday_before
    assert monday == sunday + 1  # type: ignore[operator]


def test_iso_week_across_new_year() -> None:
    # ISO week 53 of 2020 runs from Monday 2020-12-28 to Sunday 2021-01-03.
    thursday = period_index(utc(2020, 12, 31), "week")
    assert period_index(utc(2020, 12, 28), "week") == thursday
    assert period_index(utc(2021, 1, 3, 23), "week") == thursday
    assert period_index(utc(2021, 1, 4), "week") == thursday + 1  # type: ignore[operator]


def test_weeks_matches_isocalendar_spacing() -> None:
    start = utc(2024, 1, 1)  # a Monday
    for weeks in range(0, 60):
        at = start + timedelta(weeks=weeks, days=3)
        assert period_index(at, "week") - period_index(start, "week") == weeks  # type: ignore[operator]


def test_months_are_calendar_months() -> None:
    jan = period_index(utc(2026, 1, 31, 23, 59), "month")
    assert period_index(utc(2026, 1, 1), "month") == jan
    assert period_index(utc(2026, 2, 1), "month") == jan + 1  # type: ignore[operator]
    assert period_index(utc(2027, 1, 1), "month") == jan + 12  # type: ignore[operator]
    dec = period_index(utc(2025, 12, 15), "month")
    assert jan == dec + 1  # type: ignore[operator]


def test_unknown_period_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rating period"):
        period_index(utc(2026, 1, 1), "fortnight")


# --- open period storage -----------------------------------------------------------------------


def test_open_period_round_trips_through_json() -> None:
    open_period = OpenPeriod(
        period=740000,
        base=PlayerState(1500.0, 200.0, 0.06),
        results=(PeriodResult(1400.0, 30.0, 1.0), PeriodResult(1550.0, 100.0, 0.0)),
    )
    extra = json_round_trip(open_period_extra(open_period))
    assert extra == {
        "period": 740000,
        "base": {"rating": 1500.0, "deviation": 200.0, "volatility": 0.06},
        "results": [[1400.0, 30.0, 1.0], [1550.0, 100.0, 0.0]],
    }
    assert read_open_period(extra) == open_period


def test_read_open_period_accepts_ints_and_missing_volatility() -> None:
    extra = {"period": 3, "base": {"rating": 1500, "deviation": 350}, "results": [(1400, 30, 1)]}
    read = read_open_period(extra)
    assert read == OpenPeriod(3, PlayerState(1500.0, 350.0, None), (PeriodResult(1400, 30, 1),))


def test_no_open_period() -> None:
    assert read_open_period({}) is None
    assert read_open_period(game_mode_extra()) is None


def test_extra_for_game_mode_is_the_played_marker() -> None:
    assert dict(extra_for(None, PlayerState(1500.0, 350.0), [])) == {"played": True}


def test_adjusted_extra() -> None:
    state = PlayerState(1700.0, 80.0, 0.05)
    assert dict(adjusted_extra(None, state)) == {}
    assert json_round_trip(adjusted_extra(12, state)) == {
        "period": 12,
        "base": {"rating": 1700.0, "deviation": 80.0, "volatility": 0.05},
        "results": [],
    }


# --- locate ------------------------------------------------------------------------------------


def test_locate_new_player() -> None:
    state = PlayerState(1500.0, 350.0, 0.06)
    position = locate(state, 100)
    assert (position.state, position.results, position.elapsed, position.rated) == (
        state,
        (),
        0,
        False,
    )


def test_locate_same_period_uses_base_and_results() -> None:
    base = PlayerState(1500.0, 200.0, 0.06)
    results = (PeriodResult(1400.0, 30.0, 1.0),)
    state = PlayerState(1563.0, 175.0, 0.06, extra=open_period_extra(OpenPeriod(7, base, results)))
    position = locate(state, 7)
    assert position.state == base
    assert position.results == results
    assert position.elapsed == 0


def test_locate_later_period_counts_boundaries() -> None:
    base = PlayerState(1500.0, 200.0, 0.06)
    results = (PeriodResult(1400.0, 30.0, 1.0),)
    state = PlayerState(1563.0, 175.0, 0.06, extra=open_period_extra(OpenPeriod(7, base, results)))
    position = locate(state, 10)
    assert position.state == state
    assert position.results == ()
    assert position.elapsed == 3
    assert position.rated is True


def test_locate_after_adjustment_is_not_rated() -> None:
    state = PlayerState(1700.0, 80.0, 0.05)
    adjusted = PlayerState(1700.0, 80.0, 0.05, extra=adjusted_extra(7, state))
    assert locate(adjusted, 7).elapsed == 0
    later = locate(adjusted, 9)
    assert (later.elapsed, later.rated) == (2, False)


def test_locate_earlier_period_starts_fresh_without_growth() -> None:
    base = PlayerState(1500.0, 200.0, 0.06)
    state = PlayerState(1563.0, 175.0, 0.06, extra=open_period_extra(OpenPeriod(7, base, ())))
    position = locate(state, 5)
    assert (position.state, position.results, position.elapsed) == (state, (), 0)


def test_locate_game_mode() -> None:
    fresh = locate(PlayerState(1500.0, 350.0), None)
    assert (fresh.elapsed, fresh.rated) == (0, False)
    played = locate(PlayerState(1500.0, 300.0, extra=game_mode_extra()), None)
    assert (played.elapsed, played.rated) == (1, True)


# --- pairwise scores ---------------------------------------------------------------------------


def test_pairwise_scores_by_rank() -> None:
    players = (
        Participant("a", 2),
        Participant("b", 1),
        Participant("c", 2),
        Participant("d", 3),
    )
    assert pairwise_scores(players) == (
        ((1, 0.0), (2, 0.5), (3, 1.0)),
        ((0, 1.0), (2, 1.0), (3, 1.0)),
        ((0, 0.5), (1, 0.0), (3, 1.0)),
        ((0, 0.0), (1, 0.0), (2, 0.0)),
    )
