"""Shared building blocks for system modules (kept small: no system logic lives here).

A system module declares its parameters (:class:`~app.engine.params.ParamSpec`), a frozen
``XConfig`` dataclass built once from a ladder's checked parameters, and a rater holding both;
:class:`RatingSystem` ties them together (docs/systems/README.md, "Adding a system").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from app.engine.errors import InvalidEvent
from app.engine.params import resolve
from app.engine.protocols import SystemInfo
from app.engine.types import (
    EMPTY,
    Change,
    Details,
    Json,
    Participant,
    PlayerKey,
    PlayerState,
    Standing,
    frozen,
)

#: Scores of a duel: S = 1 for a win, 1/2 for a draw, 0 for a loss.
WIN = 1.0
DRAW = 0.5
LOSS = 0.0

#: Not from the sources: the largest magnitude of a rating an administrator may set (the
#: Glicko family has its own, narrower bound). A billion times the largest parameter of
#: :data:`~app.engine.params.SCALE_LIMIT` scale, it keeps every sum of a table's ratings and
#: every product with a parameter (NADF's pot and LA / WA, Elo's R + K (S - E)) hundreds of
#: orders of magnitude below float overflow, where a rating near 1.8e308 made them infinite.
RATING_LIMIT = 1e15


#: A system's typed configuration (its ``XConfig``).
ConfigT = TypeVar("ConfigT")


@dataclass(frozen=True, slots=True)
class BaseRater(Generic[ConfigT]):
    """Defaults for the parts of a rater most systems share.

    ``params`` are the ladder's complete parameters as stored and shown (defaults filled in);
    ``config`` the same parameters checked once and typed, which is all the formulas read.
    """

    params: Mapping[str, Json]
    config: ConfigT

    @property
    def rates_draws(self) -> bool:
        """Whether a game whose best rank is shared changes ratings (Fundox: by its
        ``draw_policy``; every other system: yes)."""
        return True

    def initial_ladder_state(self) -> Mapping[str, Json]:
        return EMPTY

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        return None

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None:
        return None

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
        """Plain systems keep only the rating; deviation and volatility are refused.

        The rating must be finite, at most :data:`RATING_LIMIT` in magnitude, and pass
        :meth:`check_adjusted_rating`; the state is then :meth:`adjusted_rating`'s.
        """
        require_finite(("rating",), rating)
        if abs(rating) > RATING_LIMIT:
            raise InvalidEvent(
                ("rating",),
                f"must be between {-RATING_LIMIT:g} and {RATING_LIMIT:g}, got {rating:g}",
            )
        self.check_adjusted_rating(rating)
        if deviation is not None:
            raise InvalidEvent(("deviation",), "this system has no rating deviation")
        if volatility is not None:
            raise InvalidEvent(("volatility",), "this system has no volatility")
        return self.adjusted_rating(previous, rating, at)

    def check_adjusted_rating(self, rating: float) -> None:
        """Raise InvalidEvent on ``rating`` when the system refuses it (no rule by default)."""

    def adjusted_rating(
        self, previous: PlayerState | None, rating: float, at: datetime
    ) -> PlayerState:
        """The state an adjustment to a checked ``rating`` at ``at`` sets: by default the
        rating, with the previous state's ``extra`` kept."""
        extra = previous.extra if previous is not None else EMPTY
        return PlayerState(rating=rating, extra=extra)


RaterT = TypeVar("RaterT", bound=BaseRater[Any])


@dataclass(frozen=True, slots=True)
class RatingSystem(Generic[ConfigT, RaterT]):
    """A system (:class:`app.engine.protocols.System`): its description, how a ladder's
    parameters become its typed configuration, and the rater class built from both.

    ``config`` (the system's ``XConfig.from_params``) receives parameters already checked one by
    one against ``info.params`` and raises InvalidParameter for the rules that tie several
    together (for example every classification needing a table).
    """

    info: SystemInfo
    config: Callable[[Mapping[str, Json]], ConfigT]
    rater: Callable[[Mapping[str, Json], ConfigT], RaterT]

    def configure(self, params: Mapping[str, Json] | None = None) -> RaterT:
        """Validate ``params`` (InvalidParameter naming the parameter), build the typed
        configuration once, and the rater holding it."""
        resolved = resolve(self.info.params, params)
        return self.rater(resolved, self.config(resolved))


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


def rated_change(
    key: PlayerKey, before: PlayerState, rating: float, details: Mapping[str, Json]
) -> Change:
    """The change of a system that moves only the rating: ``before`` with the new rating."""
    # PlayerState(...) rather than dataclasses.replace: the same value, built without
    # replace()'s generic field walk (this runs for every player of every replayed game).
    after = PlayerState(rating, before.deviation, before.volatility, before.extra)
    # Lazy details are read-only already; a dict is copied into a read-only view.
    kept = details if isinstance(details, Details) else frozen(details)
    return Change(key=key, before=before, after=after, details=kept)
