"""uvicorn's HTTP/1.1 protocol (httptools), with the header read timeout uvicorn lacks.

uvicorn times a connection out only while it idles between requests (``timeout_keep_alive``):
one that opens and sends nothing, or sends its headers a byte at a time, is kept for as long
as its client likes (4,000 such connections were held for 40 s, issue 23). Here a request's
headers must be complete within ``header_timeout`` seconds of the connection's opening, or of
the first byte of each later request on it; a slower connection is closed. The body's time is
bounded by :class:`app.api.middleware.BodyLimit`.

``ratings serve`` runs uvicorn with ``http="app.protocol:HeaderTimeoutProtocol"``.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.core.settings import get_settings


class HeaderTimeoutProtocol(HttpToolsProtocol):
    #: Seconds to complete a request's headers; None: the ``header_timeout`` setting.
    header_timeout: float | None = None
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:  # a later request: its own time from its first byte
            self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        seconds = self.header_timeout
        if seconds is None:
            seconds = get_settings().header_timeout
        self._header_timer = self.loop.call_later(seconds, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()
