"""Tests of ``app.engine.ledger.rate_event``'s guard: a non-finite result is an error.

Inputs are refused when not finite, so only a fault in a system could make one; storing it
would write NaN (or, through orjson, ``null``) into a rating. Infinite starting ratings are
the simplest way to provoke one: Elo's E = 1 / (1 + 10^((R_b - R_a) / 400)) is NaN for
R_a = R_b = ∞ (∞ - ∞).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from app.engine.elo import SYSTEM
from app.engine.ledger import rate_event
from app.engine.types import Game, Participant, PlayerKey, PlayerState

PLAYED_AT = datetime(2026, 1, 1, 12, 0)
GAME = Game(PLAYED_AT, (Participant("a", 1), Participant("b", 2)))


def test_a_non_finite_rating_is_an_error() -> None:
    rater = SYSTEM.configure(None)
    infinite = {
        PlayerKey("a"): PlayerState(float("inf")),
        PlayerKey("b"): PlayerState(float("inf")),
    }
    with pytest.raises(FloatingPointError, match="nan"):
        rate_event(SYSTEM.info, rater, GAME, infinite, {})


def test_finite_ratings_pass_the_guard() -> None:
    rater = SYSTEM.configure(None)
    outcome = rate_event(SYSTEM.info, rater, GAME, {}, {})
    # Two new players at 1500 with K 32: the winner gains K (1 - 1/2) = 16.
    assert [c.after.rating for c in outcome.changes] == [1500 + 32 / 2, 1500 - 32 / 2]
