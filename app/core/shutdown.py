"""What a worker does with the requests still running when its shutdown grace runs out.

granian stops a worker on SIGTERM by letting its in-flight requests finish; one still
running ``RATINGS_SHUTDOWN_GRACE_SECONDS`` later is killed with the process, and its client
is left with a closed connection (or worse). So a little before that (:func:`cut_at`) the
worker itself answers each such request 503 with Retry-After, after making sure its work
cannot be applied:

- :data:`COMMITS` is closed: a transaction that has not begun committing never will (it is
  rolled back with :class:`~app.core.errors.Unavailable`), and those committing are waited
  for;
- a request whose write has committed (:meth:`InFlight.wrote`) is left to answer as usual;
  every other one is answered 503 (:meth:`InFlight.cut`), and whatever it sends later is
  dropped.

A request is :class:`InFlight` from the moment the outermost middleware sees it until it has
answered; the current one is in :data:`CURRENT`, which follows it into the worker threads its
work runs in (Starlette copies the context) and is set by the group committer for the
requests whose games it writes.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from app.core.errors import Unavailable

#: Seconds before granian's kill at which the worker answers what is still running: enough
#: to wait for the commits in progress and to send the answers.
MAX_MARGIN_SECONDS = 2.0
#: Of a grace shorter than 4 × MAX_MARGIN_SECONDS, the share kept as the margin.
MARGIN_SHARE = 0.25
#: What a request cut at shutdown is told.
CUT_DETAIL = "the server is shutting down; the request was not applied; retry"


def cut_at(grace_seconds: float) -> float:
    """Seconds after the shutdown signal at which running requests are answered 503."""
    return grace_seconds - min(MAX_MARGIN_SECONDS, grace_seconds * MARGIN_SHARE)


class CommitGate:
    """Whether this process may still commit: closed once at shutdown, never reopened."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._committing = 0

    @contextmanager
    def commit(self) -> Iterator[None]:
        """Around a commit: Unavailable once the gate is closed (the caller rolls back)."""
        with self._lock:
            if self._closed:
                raise Unavailable(CUT_DETAIL)
            self._committing += 1
        try:
            yield
        finally:
            with self._lock:
                self._committing -= 1

    def close(self) -> None:
        """No commit may begin from now on (those in progress go on: :attr:`committing`)."""
        with self._lock:
            self._closed = True

    @property
    def committing(self) -> int:
        """Commits in progress."""
        return self._committing

    @property
    def closed(self) -> bool:
        return self._closed


#: The process's gate (one per worker process; a test process never closes it).
COMMITS = CommitGate()


class InFlight:
    """One request not yet answered. ``deliver`` sends an ASGI message to the client (through
    the middleware that adds the request id and the security headers)."""

    __slots__ = ("_cut", "_wrote", "deliver", "request_id", "started")

    def __init__(self, request_id: str, deliver: Callable[[Any], Awaitable[None]]) -> None:
        self.request_id = request_id
        self.deliver = deliver
        self.started = False
        self._wrote = False
        self._cut = False

    @property
    def wrote(self) -> bool:
        return self._wrote

    @property
    def is_cut(self) -> bool:
        return self._cut

    def mark_written(self) -> None:
        """A write of this request committed: it must be answered as usual."""
        self._wrote = True

    def cut(self) -> bool:
        """Take over the answer (True), unless the request has started answering or its
        write committed."""
        if self.started or self._wrote:
            return False
        self._cut = True
        return True


class Fanout:
    """The requests one transaction writes for (a group commit's waiters)."""

    __slots__ = ("requests",)

    def __init__(self, requests: Iterable[InFlight | None]) -> None:
        self.requests = [r for r in requests if r is not None]

    def mark_written(self) -> None:
        for request in self.requests:
            request.mark_written()


#: The request (or requests) the current code works for; None outside a request.
CURRENT: contextvars.ContextVar[InFlight | Fanout | None] = contextvars.ContextVar(
    "ratings_request", default=None
)
#: Every request of this process not yet answered.
IN_FLIGHT: set[InFlight] = set()


def written() -> None:
    """Called inside the commit gate once a write transaction committed."""
    current = CURRENT.get()
    if current is not None:
        current.mark_written()
