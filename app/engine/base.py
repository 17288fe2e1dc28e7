"""Shared building blocks for system modules (kept small: no system logic lives here)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from app.engine.errors import InvalidEvent
from app.engine.types import EMPTY, Json, Participant, PlayerState, Standing

#: Scores of a duel: S = 1 for a win, 1/2 for a draw, 0 for a loss.
WIN = 1.0
DRAW = 0.5
LOSS = 0.0


@dataclass(frozen=True, slots=True)
class BaseRater:
    """Defaults for the parts of a rater most systems share."""

    params: Mapping[str, Json]

    def initial_ladder_state(self) -> Mapping[str, Json]:
        return EMPTY

    def standing(self, state: PlayerState) -> Standing:
        return Standing(rating=state.rating)

    def rating_floor(self, ladder_state: Mapping[str, Json]) -> float | None:
        return None

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """Plain systems keep only the rating; deviation and volatility are refused."""
        require_finite(("rating",), rating)
        if deviation is not None:
            raise InvalidEvent(("deviation",), "this system has no rating deviation")
        if volatility is not None:
            raise InvalidEvent(("volatility",), "this system has no volatility")
        extra = previous.extra if previous is not None else EMPTY
        return PlayerState(rating=rating, extra=extra)


def require_finite(loc: tuple[str | int, ...], value: float) -> None:
    if not math.isfinite(value):
        raise InvalidEvent(loc, "must be a finite number")


def duel_score(me: Participant, opponent: Participant) -> float:
    """S of a virtual duel decided by ranks (lower rank wins, equal ranks draw)."""
    if me.rank < opponent.rank:
        return WIN
    if me.rank > opponent.rank:
        return LOSS
    return DRAW


def require_player_count(
    participants: tuple[Participant, ...], minimum: int, maximum: int | None
) -> None:
    """Raise InvalidEvent on ``players`` when the table size is outside [minimum, maximum]."""
    count = len(participants)
    if count < minimum or (maximum is not None and count > maximum):
        if maximum is None:
            rule = f"at least {minimum}"
        elif minimum == maximum:
            rule = f"exactly {minimum}"
        else:
            rule = f"{minimum} to {maximum}"
        raise InvalidEvent(("players",), f"this system needs {rule} players, got {count}")
