"""Tests of ``app.engine.ledger.rate_event``'s guard: a non-finite result is an error.

Inputs are refused when not finite, so only a fault in a system could make one; storing it
would write NaN (or, through orjson, ``null``) into a rating. Infinite starting ratings are
the simplest way to provoke one: Elo's E = 1 / (1 + 10^((R_b - R_a) / 400)) is NaN for
R_a = R_b = ∞ (∞ - ∞).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

import pytest

from app.engine.elo import SYSTEM
from app.engine.errors import NonFiniteResult
from app.engine.ledger import rate_event
from app.engine.types import (
    Change,
    Game,
    Json,
    Outcome,
    Participant,
    Placement,
    PlayerKey,
    PlayerState,
    Tournament,
)

PLAYED_AT = datetime(2026, 1, 1, 12, 0)
GAME = Game(PLAYED_AT, (Participant("a", 1), Participant("b", 2)))


def test_a_non_finite_rating_is_an_error() -> None:
    rater = SYSTEM.configure(None)
    infinite = {
        PlayerKey("a"): PlayerState(float("inf")),
        PlayerKey("b"): PlayerState(float("inf")),
    }
    with pytest.raises(NonFiniteResult, match="nan") as raised:
        rate_event(SYSTEM.info, rater, GAME, infinite, {})
    assert raised.value.loc == ("players",)


def test_finite_ratings_pass_the_guard() -> None:
    rater = SYSTEM.configure(None)
    outcome = rate_event(SYSTEM.info, rater, GAME, {}, {})
    # Two new players at 1500 with K 32: the winner gains K (1 - 1/2) = 16.
    assert [c.after.rating for c in outcome.changes] == [1500 + 32 / 2, 1500 - 32 / 2]


class _FaultyTournamentRater:
    """A tournament system with a fault: its new deviation is NaN (0 / 0 written as NaN)."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(0.0)

    def rate_tournament(
        self,
        event: Tournament,
        states: Mapping[str, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        return Outcome(
            tuple(
                Change(PlayerKey(p.player), states[p.player], PlayerState(1.0, float("nan")))
                for p in event.standings
            )
        )


def test_a_non_finite_result_of_a_tournament_is_an_error() -> None:
    tournament = Tournament(date(2026, 1, 1), 3, (Placement("a", 1), Placement("b", 2)))
    with pytest.raises(NonFiniteResult, match="nan") as raised:
        rate_event(SYSTEM.info, _FaultyTournamentRater(), tournament, {}, {})  # type: ignore[arg-type]
    assert raised.value.loc == ("standings",)
