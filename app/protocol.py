"""uvicorn's HTTP/1.1 protocol (httptools), with the read timeouts uvicorn lacks.

uvicorn times a connection out only while it idles between requests (``timeout_keep_alive``):
one that opens and sends nothing, or sends its headers or its body a byte at a time, is kept
for as long as its client likes (4,000 such connections were held for 40 s, issue 23). Here a
request's headers must be complete within ``header_timeout`` seconds of the connection's
opening or of the request's first byte, and its body within ``body_timeout`` seconds of its
headers. A connection whose headers are late is closed; one whose body is late is answered
408 (unless the app has answered already) and closed.

A timer is armed only when a read leaves a request incomplete: most requests arrive whole in
one read and never need one (a cancel scope around every body read cost about 30 µs a
request on the shared two-core test machine, against 2 µs without).

``ratings serve`` runs uvicorn with ``http="app.protocol:TimedProtocol"``.
"""

from __future__ import annotations

import asyncio
import logging
from enum import Enum

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.api.middleware import PROBLEM_JSON, SECURITY_RAW, problem_body
from app.core.settings import get_settings

log = logging.getLogger(__name__)


class Awaiting(Enum):
    """What the request being read still lacks."""

    HEADERS = "headers"
    BODY = "body"


def _late_body_response(seconds: float) -> bytes:
    body = problem_body(
        408, "Request timeout", f"the request body did not arrive within {seconds:g} seconds"
    )
    head = [
        b"HTTP/1.1 408 Request Timeout",
        b"content-type: " + PROBLEM_JSON,
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
        *(name + b": " + value for name, value in SECURITY_RAW),
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class TimedProtocol(HttpToolsProtocol):
    #: Seconds to complete a request's headers, and its body; None: the settings
    #: ``header_timeout`` and ``body_timeout``.
    header_timeout: float | None = None
    body_timeout: float | None = None
    _awaiting: Awaiting | None = None
    _timer: asyncio.TimerHandle | None = None
    _timed: Awaiting | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._awaiting = Awaiting.HEADERS
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._awaiting = Awaiting.HEADERS

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._awaiting = Awaiting.BODY

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._awaiting = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def _seconds(self, awaiting: Awaiting) -> float:
        settings = get_settings()
        if awaiting is Awaiting.HEADERS:
            return settings.header_timeout if self.header_timeout is None else self.header_timeout
        return settings.body_timeout if self.body_timeout is None else self.body_timeout

    def _watch(self) -> None:
        """Time what the request still lacks; a part already timed keeps its deadline."""
        if self._timed is self._awaiting:
            return
        self._stop_timer()
        if self._awaiting is not None and not self.transport.is_closing():
            self._timed = self._awaiting
            self._timer = self.loop.call_later(self._seconds(self._timed), self._too_slow)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timed = None

    def _too_slow(self) -> None:
        late = self._timed
        self._timer = self._timed = None
        if late is None or self.transport.is_closing():
            return
        # A warning: a client this slow is stalled, badly connected or holding connections
        # on purpose, and a connection closed under a client is worth finding in the log.
        seconds = self._seconds(late)
        log.warning(
            "closed a connection: its request %s did not arrive within %g seconds",
            late.value,
            seconds,
            extra={"client": _address(self.client), "awaiting": late.value, "seconds": seconds},
        )
        if late is Awaiting.BODY and self.cycle is not None and not self.cycle.response_started:
            self.transport.write(_late_body_response(seconds))
        self.transport.close()


def _address(client: tuple[str, int] | None) -> str | None:
    return None if client is None else f"{client[0]}:{client[1]}"
