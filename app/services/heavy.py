"""Heavy reads (predictions, matchmaking, what-if): their caps, their weight in the rate
limit, and the signal that tells a computation its client has gone (``Cancel``). Where they
run, in a few slots per process watched for disconnects, is the web layer's:
``app/api/heavy.py``.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

from app.core.database import Database
from app.core.errors import Invalid
from app.core.settings import Settings
from app.repositories.events import EventRepository
from app.schemas.predictions import PredictionIn

#: A prediction counts as one request per this many amounts it shows (players times
#: opponents or placements): up to a 10-player table is one request, 100 players are 100.
AMOUNTS_PER_REQUEST = 100
#: The amounts of a two-player prediction (players times players).
PAIR_AMOUNTS = 2 * 2
#: A what-if counts as one request per this many events it replays.
EVENTS_PER_REQUEST = 1_000


class Abandoned(Exception):
    """The client of a heavy read went away; nothing is left to answer."""


@dataclass(slots=True)
class Cancel:
    """Set by the event loop when the client disconnects; checked by the computation."""

    event: threading.Event = field(default_factory=threading.Event)

    def set(self) -> None:
        self.event.set()

    def check(self) -> None:
        """Raise Abandoned once the client has gone."""
        if self.event.is_set():
            raise Abandoned


def prediction_weight(players: int, placements: int | None) -> int:
    """What a prediction counts for in the rate limit: its amounts (each player against
    every other, or at every placement) per :data:`AMOUNTS_PER_REQUEST`, at least 1."""
    amounts = players * (placements if placements is not None else players)
    return max(1, math.ceil(amounts / AMOUNTS_PER_REQUEST))


def balance_weight(players: int) -> int:
    """What a balance counts for: as a prediction of its players (each split scored is a
    table of them; 16 players are 3 requests, 100 players 100)."""
    return prediction_weight(players, None)


def opponents_weight(limit: int) -> int:
    """What an opponents search counts for: ``limit`` two-player predictions, each of 2 x 2
    amounts as :func:`prediction_weight` counts them, at least 1 (100 opponents are 4)."""
    return max(1, math.ceil(limit * PAIR_AMOUNTS / AMOUNTS_PER_REQUEST))


def whatif_weight(events: int) -> int:
    """What a what-if counts for: the events it replays per :data:`EVENTS_PER_REQUEST`."""
    return max(1, math.ceil(events / EVENTS_PER_REQUEST))


def rerate_weight(recomputed: int) -> int:
    """What a write counts for beyond its own request: one per whole
    :data:`EVENTS_PER_REQUEST` stored events it re-rated (a far-back result, a correction, a
    void, new parameters), as a what-if's replay counts. Rounded down: a late game that re-rates
    a few events costs about what any write does, and its own request covers it."""
    return recomputed // EVENTS_PER_REQUEST


def live_events(db: Database, ladder_id: str) -> int:
    """How many events a replay of the ladder reads (its live, not voided, events)."""

    return db.run(lambda session: EventRepository(session).count_live(ladder_id), write=False)


def _instead(setting: str) -> str:
    """What to do instead of an over-cap request: a private instance with the cap raised."""
    return (
        f"or run it on an instance of your own started with a higher limit, e.g. "
        f"`{setting}=<limit> ratings serve` against the same database"
    )


def check_prediction(settings: Settings, body: PredictionIn) -> None:
    """The caps on what one prediction may cost (422 naming the setting)."""
    players = body.player_count
    if players > settings.max_prediction_players:
        raise Invalid.at(
            ("teams" if body.teams is not None else "players",),
            f"at most {settings.max_prediction_players} players per prediction "
            f"(RATINGS_MAX_PREDICTION_PLAYERS), got {players}: predict a smaller table, "
            + _instead("RATINGS_MAX_PREDICTION_PLAYERS"),
        )
    if body.size is not None and body.size > settings.max_standings:
        raise Invalid.at(
            ("size",),
            f"at most {settings.max_standings}, the most standings a tournament may have "
            f"(RATINGS_MAX_STANDINGS), got {body.size}",
        )
    if body.placements is not None:
        amounts = players * len(body.placements)
        if amounts > settings.max_prediction_placements:
            raise Invalid.at(
                ("placements",),
                f"at most {settings.max_prediction_placements} players times placements per "
                f"prediction (RATINGS_MAX_PREDICTION_PLACEMENTS), got {players} x "
                f"{len(body.placements)} = {amounts}: ask for fewer placements or players, "
                + _instead("RATINGS_MAX_PREDICTION_PLACEMENTS"),
            )


def check_whatif(settings: Settings, events: int) -> None:
    """The cap on the history one what-if may replay (422 naming the setting)."""
    if events > settings.max_whatif_events:
        raise Invalid.at(
            ("ladder",),
            f"a what-if replays at most {settings.max_whatif_events} events "
            f"(RATINGS_MAX_WHATIF_EVENTS); this ladder holds {events}: "
            + _instead("RATINGS_MAX_WHATIF_EVENTS"),
        )
