"""Heavy reads (predictions, what-if): bounded per process, abandoned with their client.

A heavy read computes for up to seconds. Run in the request thread pool without a bound, a
few of them took every thread and pooled connection of a worker, and ``/readyz`` answered 503
(issue 23). Here each runs in a worker thread only once it holds one of the process's
``RATINGS_HEAVY_CONCURRENCY`` slots (others wait for a slot without a thread), while the event
loop watches the client: when it disconnects, the computation is told to stop (``Cancel``) and
the wait for a slot ends.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import anyio
import anyio.to_thread
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.requests import Request

from app.core.database import Database
from app.core.errors import Invalid
from app.core.settings import Settings
from app.models import Event
from app.schemas.predictions import PredictionIn

T = TypeVar("T")

#: How often the event loop asks whether the client of a heavy read is still there (seconds):
#: an abandoned computation stops within this, plus the time between two of its checks.
DISCONNECT_POLL_SECONDS = 0.1
#: A prediction counts as one request per this many amounts it shows (players times
#: opponents or placements): up to a 10-player table is one request, 100 players are 100.
AMOUNTS_PER_REQUEST = 100
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


@dataclass(slots=True)
class _Settled(Generic[T]):
    value: T | None = None
    error: BaseException | None = None


def _settle(work: Callable[[Cancel], T], cancel: Cancel) -> _Settled[T]:
    # The result or the error, so that neither crosses the task group as an exception group.
    try:
        return _Settled(value=work(cancel))
    except Exception as exc:  # re-raised in the request below
        return _Settled(error=exc)


class HeavySlots:
    """The process's slots for heavy reads (one per app; created on first use, inside the
    event loop that owns it)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._semaphore: anyio.Semaphore | None = None

    @property
    def semaphore(self) -> anyio.Semaphore:
        if self._semaphore is None:
            self._semaphore = anyio.Semaphore(self.slots)
        return self._semaphore

    async def run(self, request: Request, work: Callable[[Cancel], T]) -> T:
        """``work(cancel)`` in a worker thread once a slot is free; Abandoned when the client
        disconnects first (the thread is told to stop and the slot is held until it has)."""
        cancel = Cancel()
        settled: list[_Settled[T]] = []
        finished = anyio.Event()

        async def compute() -> None:
            try:
                async with self.semaphore:
                    settled.append(await anyio.to_thread.run_sync(_settle, work, cancel))
            finally:
                finished.set()

        async with anyio.create_task_group() as group:
            group.start_soon(compute)
            while not finished.is_set():
                with anyio.move_on_after(DISCONNECT_POLL_SECONDS):
                    await finished.wait()
                if not finished.is_set() and await request.is_disconnected():
                    cancel.set()
                    # Ends a wait for a slot; a running thread is waited for (it stops at
                    # its next check).
                    group.cancel_scope.cancel()
                    break
        if not settled:
            raise Abandoned
        outcome = settled[0]
        if outcome.error is not None:
            raise outcome.error
        return outcome.value  # type: ignore[return-value]


def prediction_weight(players: int, placements: int | None) -> int:
    """What a prediction counts for in the rate limit: its amounts (each player against
    every other, or at every placement) per :data:`AMOUNTS_PER_REQUEST`, at least 1."""
    amounts = players * (placements if placements is not None else players)
    return max(1, math.ceil(amounts / AMOUNTS_PER_REQUEST))


def whatif_weight(events: int) -> int:
    """What a what-if counts for: the events it replays per :data:`EVENTS_PER_REQUEST`."""
    return max(1, math.ceil(events / EVENTS_PER_REQUEST))


def live_events(db: Database, ladder_id: str) -> int:
    """How many events a replay of the ladder reads (its live, not voided, events)."""

    def work(session: Session) -> int:
        statement = select(func.count(Event.seq)).where(
            Event.ladder_id == ladder_id, Event.voided_at.is_(None)
        )
        return int(session.scalar(statement) or 0)

    return db.run(work, write=False)


def _instead(setting: str) -> str:
    """What to do instead of an over-cap request: a private instance with the cap raised."""
    return (
        f"or run it on an instance of your own started with a higher limit, e.g. "
        f"`{setting}=<limit> ratings serve` against the same database"
    )


def check_prediction(settings: Settings, body: PredictionIn) -> None:
    """The caps on what one prediction may cost (422 naming the setting)."""
    players = len(body.players)
    if players > settings.max_prediction_players:
        raise Invalid.at(
            ("players",),
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
