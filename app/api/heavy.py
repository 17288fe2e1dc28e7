"""Where heavy reads run: a few slots per process, shared fairly between callers, abandoned
with their client.

A heavy read computes for up to seconds. Run in the request thread pool without a bound, a
few of them took every thread and pooled connection of a worker, and ``/readyz`` answered 503.
Here each runs in a worker thread only once it holds one of the process's
``RATINGS_HEAVY_CONCURRENCY`` slots (others wait for a slot without a thread), while the event
loop watches the client: when it disconnects, the computation is told to stop (``Cancel``) and
the wait for a slot ends.

The slots are shared by caller (an API key, the admin, an address reading without a key): a
freed slot goes to the waiting caller holding the fewest slots, the longest waiting first
among equals, so a caller that queued a hundred requests is served in turn with one that
queued one, which waits for at most one running request (issue 39: one key's evaluation
loops made another's predictions wait 17 s). With two slots or more, one caller holds at most
all but one, so another's request finds a slot at once. The slots are per process, as the
CPU they guard is: each worker computes in one interpreter.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

from app.services.heavy import Abandoned, Cancel

T = TypeVar("T")

#: How often the event loop asks whether the client of a heavy read is still there (seconds):
#: an abandoned computation stops within this, plus the time between two of its checks.
DISCONNECT_POLL_SECONDS = 0.1


@dataclass(slots=True)
class _Settled(Generic[T]):
    value: T | None = None
    error: BaseException | None = None
    #: How long the work computed (seconds, in its thread: the wait for a slot excluded).
    seconds: float = 0.0


def _settle(work: Callable[[Cancel], T], cancel: Cancel) -> _Settled[T]:
    # The result or the error, so that neither crosses the task group as an exception group.
    started = time.perf_counter()
    try:
        settled = _Settled[T](value=work(cancel))
    except Exception as exc:  # re-raised in the request below
        settled = _Settled(error=exc)
    settled.seconds = time.perf_counter() - started
    return settled


@dataclass(slots=True)
class _Waiter:
    granted: bool = False
    event: anyio.Event = field(default_factory=anyio.Event)


class FairSlots:
    """``slots`` slots shared between callers (see the module's docstring). Used from one
    event loop only: no lock, since nothing awaits between a decision and its bookkeeping."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        #: The most slots one caller holds: all but one when there are several.
        self.per_caller = max(1, slots - 1)
        self.held: dict[str, int] = {}
        self.waiting: dict[str, deque[_Waiter]] = {}
        #: When each active caller (holding or waiting) was last given a slot.
        self.last_served: dict[str, int] = {}
        self._served = itertools.count()

    @property
    def busy(self) -> int:
        return sum(self.held.values())

    def _take(self, caller: str) -> None:
        self.held[caller] = self.held.get(caller, 0) + 1
        self.last_served[caller] = next(self._served)

    def _forget(self, caller: str) -> None:
        if caller not in self.held and caller not in self.waiting:
            self.last_served.pop(caller, None)

    def _release(self, caller: str) -> None:
        self.held[caller] -= 1
        if not self.held[caller]:
            del self.held[caller]
        self._forget(caller)
        self._grant()

    def _order(self, caller: str) -> tuple[int, int]:
        """Who goes first: the fewest slots held, then the longest since last served."""
        return self.held.get(caller, 0), self.last_served.get(caller, -1)

    def _grant(self) -> None:
        """Hand free slots to the waiting callers in :meth:`_order`, each its oldest first."""
        while self.busy < self.slots:
            eligible = [c for c in self.waiting if self.held.get(c, 0) < self.per_caller]
            if not eligible:
                return
            caller = min(eligible, key=self._order)
            queue = self.waiting[caller]
            waiter = queue.popleft()
            if not queue:
                del self.waiting[caller]
            waiter.granted = True
            self._take(caller)
            waiter.event.set()

    async def acquire(self, caller: str) -> None:
        """A slot for ``caller``, once the fair order gives it one (cancellable while waiting)."""
        if self.busy < self.slots and self.held.get(caller, 0) < self.per_caller:
            self._take(caller)
            return
        waiter = _Waiter()
        self.waiting.setdefault(caller, deque()).append(waiter)
        try:
            await waiter.event.wait()
        except BaseException:
            if waiter.granted:  # granted as it was cancelled: hand it on
                self._release(caller)
            else:
                queue = self.waiting[caller]
                queue.remove(waiter)
                if not queue:
                    del self.waiting[caller]
                self._forget(caller)
            raise

    def release(self, caller: str) -> None:
        self._release(caller)


class HeavySlots:
    """The process's slots for heavy reads (one per app)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.fair = FairSlots(slots)

    async def run(self, request: Request, work: Callable[[Cancel], T], caller: str = "") -> T:
        """``work(cancel)`` in a worker thread once a slot is free; Abandoned when the client
        disconnects first (the thread is told to stop and the slot is held until it has)."""
        value, _seconds = await self.run_timed(request, work, caller)
        return value

    async def run_timed(
        self, request: Request, work: Callable[[Cancel], T], caller: str
    ) -> tuple[T, float]:
        """As :meth:`run` for ``caller``, with how long the work computed (seconds, its wait
        for a slot excluded)."""
        cancel = Cancel()
        settled: list[_Settled[T]] = []
        finished = anyio.Event()

        async def compute() -> None:
            try:
                await self.fair.acquire(caller)
                try:
                    settled.append(await anyio.to_thread.run_sync(_settle, work, cancel))
                finally:
                    self.fair.release(caller)
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
        return outcome.value, outcome.seconds  # type: ignore[return-value]
