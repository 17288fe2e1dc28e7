"""Pure ASGI middleware: request ids, JSON access log and metrics, security headers, body limits.

The outermost layer also turns any unhandled exception into a problem+json 500, so even those
responses carry the request id and the security headers.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core import metrics
from app.core.logging import start_request_fields
from app.core.shutdown import CURRENT, IN_FLIGHT, InFlight

log = logging.getLogger("ratings.access")

REQUEST_ID_HEADER = "x-request-id"
#: A client's request id is reused only when it is short and plain (it ends up in logs).
CLIENT_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
PROBLEM_JSON = b"application/problem+json"
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "strict-transport-security": "max-age=63072000; includeSubDomains",
}
#: API responses are data, never pages: nothing may run or be framed from them.
API_CSP = "default-src 'none'; frame-ancestors 'none'"
UNMATCHED_ROUTE = "unmatched"
#: The status logged for a request that got no answer because its connection closed first
#: (the client left, or was too slow and was cut off): nginx's "client closed request".
NO_ANSWER = 499
#: The same headers as raw (name, value) pairs, added to every response as it starts.
_REQUEST_ID_RAW = REQUEST_ID_HEADER.encode()
SECURITY_RAW = tuple((name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items())
_API_RAW = ((b"content-security-policy", API_CSP.encode()), (b"cache-control", b"no-store"))
#: The bits of a random 128-bit number that make it a version-4 UUID (RFC 9562).
_UUID_CLEAR = ~((0xF000 << 64) | (0xC000 << 48))
_UUID_SET = (0x4000 << 64) | (0x8000 << 48)


def problem_body(status: int, title: str, detail: str) -> bytes:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    return json.dumps(body).encode()


async def _send_problem(
    send: Send,
    status: int,
    title: str,
    detail: str,
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    body = problem_body(status, title, detail)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", PROBLEM_JSON),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _new_request_id() -> str:
    """``uuid.uuid4().hex``, without building a UUID object for every request."""
    value = int.from_bytes(os.urandom(16), "big") & _UUID_CLEAR | _UUID_SET
    return f"{value:032x}"


def _rate_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """RateLimit-Limit, -Remaining and -Reset for a rate-limited caller: its window as last
    counted (a key's, in the request's claim; an address's for public reads)."""
    state = scope.get("state") or {}
    rate = state.get("rate_limit")
    claim = state.get("claim")
    if claim is not None and claim.rate is not None:
        rate = claim.rate if rate is None or claim.rate[1] < rate[1] else rate
    if rate is None:
        return []
    limit, remaining, reset = rate
    return [
        (b"ratelimit-limit", str(limit).encode()),
        (b"ratelimit-remaining", str(remaining).encode()),
        (b"ratelimit-reset", str(reset).encode()),
    ]


def _add_headers(message: Message, request_id: str, api: bool) -> None:
    """The request id, and the security headers the response does not set itself."""
    raw = message["headers"] = [
        (name, value)
        for name, value in message.get("headers", ())
        if name.lower() != _REQUEST_ID_RAW
    ]
    present = {name.lower() for name, _ in raw}
    raw.append((_REQUEST_ID_RAW, request_id.encode("latin-1")))
    for pairs in (SECURITY_RAW, _API_RAW) if api else (SECURITY_RAW,):
        for name, value in pairs:
            if name not in present:
                raw.append((name, value))


#: Routes whose path is logged as the route: an erasure's path names the id it erases, which
#: must then appear nowhere (API.md "Communities"; docs/players-data.md).
REDACTED_PATHS = frozenset({("DELETE", "/players/{player}")})


def logged_path(scope: Scope) -> str:
    """The request's path as its log lines show it (the route, for a redacted one)."""
    route = getattr(scope.get("route"), "path", UNMATCHED_ROUTE)
    path: str = route if (scope["method"], route) in REDACTED_PATHS else scope["path"]
    return path


class RequestContext:
    """Request id, one JSON log line per request, request metrics, security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        given = dict(scope["headers"]).get(REQUEST_ID_HEADER.encode(), b"").decode("latin-1")
        request_id = given if CLIENT_REQUEST_ID.match(given) else _new_request_id()
        fields = start_request_fields()
        status = 500
        response_started = False

        async def deliver(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                status = message["status"]
                response_started = flight.started = True
                _add_headers(message, request_id, not scope["path"].startswith("/dashboard"))
                message["headers"].extend(_rate_headers(scope))
            await send(message)

        async def send_wrapper(message: Message) -> None:
            if flight.is_cut:  # answered 503 at shutdown (app/core/shutdown.py): too late
                return
            await deliver(message)

        flight = InFlight(request_id, deliver)
        IN_FLIGHT.add(flight)
        current = CURRENT.set(flight)
        try:
            await self.app(scope, receive, send_wrapper)
        except Exception:
            if flight.is_cut:
                # Its work failed after its answer (a refused commit, a disposed pool).
                log.info("request cut at shutdown ended", extra={"request_id": request_id})
            else:
                log.exception("unhandled error", extra={"request_id": request_id})
            if not response_started:
                await _send_problem(
                    send_wrapper, 500, "Internal error", "an unexpected error occurred"
                )
        else:
            if not response_started:
                status = NO_ANSWER
        finally:
            IN_FLIGHT.discard(flight)
            CURRENT.reset(current)
            elapsed = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", UNMATCHED_ROUTE)
            method = scope["method"]
            metrics.observe_request(method, route, status, elapsed)
            log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": method,
                    "route": route,
                    "path": logged_path(scope),
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 3),
                    **fields,
                },
            )


#: Content-Length values of a request without a body (none, or zero) unless it is chunked.
_NO_BODY = (None, b"0")
_CLOSE = (b"connection", b"close")


def _declared_length(headers: dict[bytes, bytes]) -> int | None:
    declared = headers.get(b"content-length")
    return int(declared) if declared is not None and declared.isdigit() else None


class BodyLimit:
    """Reads each request body before the app sees it: 413 for one over its route's limit.
    (How long the body may take to arrive is bounded in front of the service: nginx's
    ``client_body_timeout``, docs/deploy.md.)

    Of a body over the limit the rest is read and thrown away, up to ``discard`` more bytes,
    before the 413: a client that sends its whole body before it reads (Python's urllib, many
    HTTP/1.1 clients) finds the connection reset otherwise, as the server closes it with data
    unread. A body declared larger than that, or whose client waits for ``100 Continue``, gets
    the 413 at once. Either answer closes the connection.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        *,
        route_limits: Mapping[tuple[str, str], int] | None = None,
        discard: int = 0,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        #: (method, path): a limit of its own (POST /games/batch).
        self.route_limits = dict(route_limits or {})
        self.discard = discard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if headers.get(b"content-length") in _NO_BODY and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        declared = _declared_length(headers)
        limit = self.route_limits.get((scope["method"], scope["path"]), self.max_bytes)
        waits_to_send = headers.get(b"expect", b"").lower() == b"100-continue"
        if (
            declared is not None
            and declared > limit
            and (waits_to_send or declared > limit + self.discard)
        ):
            await self._too_large(send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size <= limit:
                chunks.append(chunk)
            elif size > limit + self.discard:
                break  # cut off: the client may see a reset
            else:
                chunks.clear()  # over the limit: read only to throw away
            more = message.get("more_body", False)
        if size > limit:
            await self._too_large(send, limit)
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send, limit: int) -> None:
        detail = f"the request body is over the limit of {limit} bytes"
        await _send_problem(send, 413, "Payload too large", detail, (_CLOSE,))
