"""The worker's side of a graceful shutdown: what still runs near the end of the grace is
answered 503 with Retry-After, its work rolled back (app/core/shutdown.py says how).

granian passes SIGTERM (and SIGINT) on to each worker, whose event loop handles it; the
handler this wrapper adds at the worker's startup chains to that one, and starts the clock.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from types import FrameType
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.middleware import problem_body
from app.core.errors import Unavailable
from app.core.shutdown import COMMITS, CUT_DETAIL, IN_FLIGHT, cut_at

log = logging.getLogger("ratings.shutdown")

#: How often the cut looks again whether the commits in progress have ended (seconds).
COMMIT_POLL_SECONDS = 0.01
SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Drain:
    """Wraps the served application (``ratings serve`` only: a process of its own)."""

    def __init__(self, app: ASGIApp, grace_seconds: float) -> None:
        self.app = app
        self.grace_seconds = grace_seconds
        self._installed = False
        self._signalled = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" and not self._installed:
            self._install(asyncio.get_running_loop())
        await self.app(scope, receive, send)

    def _install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._installed = True
        if threading.current_thread() is not threading.main_thread():
            return  # signal handlers belong to the main thread (granian's worker runs there)
        for number in SIGNALS:
            previous = signal.getsignal(number)

            def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
                # The event loop's own handler (granian's) still runs: asyncio learns of the
                # signal through its wake-up descriptor, whatever the Python handler is.
                loop.call_soon_threadsafe(self._start, loop)
                if callable(previous):
                    previous(signum, frame)

            signal.signal(number, handler)

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._signalled:  # the group's signal and granian's, or a second Ctrl-C
            return
        self._signalled = True
        delay = cut_at(self.grace_seconds)
        log.info("stopping: requests still running in %.1f s will be answered 503", delay)
        loop.call_later(delay, lambda: loop.create_task(self.cut()))

    async def cut(self) -> None:
        """Close the commit gate, let the commits in progress end (within the margin left),
        then answer 503 every request that has neither started its answer nor written."""
        COMMITS.close()
        loop = asyncio.get_running_loop()
        until = loop.time() + (self.grace_seconds - cut_at(self.grace_seconds)) / 2
        while COMMITS.committing and loop.time() < until:
            await asyncio.sleep(COMMIT_POLL_SECONDS)
        body = problem_body(503, Unavailable.title, CUT_DETAIL)
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(Unavailable.retry_after_seconds).encode()),
            (b"connection", b"close"),
        ]
        cut = 0
        for flight in list(IN_FLIGHT):
            if not flight.cut():
                continue
            cut += 1
            try:
                await flight.deliver(
                    {"type": "http.response.start", "status": 503, "headers": list(headers)}
                )
                await flight.deliver({"type": "http.response.body", "body": body})
            except Exception as exc:  # the client has gone: nothing to answer
                log.info("could not answer at shutdown", extra={"error": repr(exc)})
            log.warning(
                "answered 503: still running at the end of the shutdown grace",
                extra={"request_id": flight.request_id},
            )
        log.info("shutdown: %d request(s) answered 503", cut, extra={"cut": cut})
