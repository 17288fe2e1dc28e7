"""Where heavy reads run: a few slots per process, abandoned with their client.

A heavy read computes for up to seconds. Run in the request thread pool without a bound, a
few of them took every thread and pooled connection of a worker, and ``/readyz`` answered 503.
Here each runs in a worker thread only once it holds one of the process's
``RATINGS_HEAVY_CONCURRENCY`` slots (others wait for a slot without a thread), while the event
loop watches the client: when it disconnects, the computation is told to stop (``Cancel``) and
the wait for a slot ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
