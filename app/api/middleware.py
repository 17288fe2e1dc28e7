"""Pure ASGI middleware: request ids, JSON access log and metrics, security headers, body limit.

The outermost layer also turns any unhandled exception into a problem+json 500, so even those
responses carry the request id and the security headers.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core import metrics
from app.core.logging import start_request_fields

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
#: The same headers as raw (name, value) pairs, added to every response as it starts.
_REQUEST_ID_RAW = REQUEST_ID_HEADER.encode()
_SECURITY_RAW = tuple((name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items())
_API_RAW = ((b"content-security-policy", API_CSP.encode()), (b"cache-control", b"no-store"))
#: The bits of a random 128-bit number that make it a version-4 UUID (RFC 9562).
_UUID_CLEAR = ~((0xF000 << 64) | (0xC000 << 48))
_UUID_SET = (0x4000 << 64) | (0x8000 << 48)


def _problem(status: int, title: str, detail: str) -> bytes:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    return json.dumps(body).encode()


async def _send_problem(send: Send, status: int, title: str, detail: str) -> None:
    body = _problem(status, title, detail)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", PROBLEM_JSON),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _new_request_id() -> str:
    """``uuid.uuid4().hex``, without building a UUID object for every request."""
    value = int.from_bytes(os.urandom(16), "big") & _UUID_CLEAR | _UUID_SET
    return f"{value:032x}"


def _add_headers(message: Message, request_id: str, api: bool) -> None:
    """The request id, and the security headers the response does not set itself."""
    raw = message["headers"] = [
        (name, value)
        for name, value in message.get("headers", ())
        if name.lower() != _REQUEST_ID_RAW
    ]
    present = {name.lower() for name, _ in raw}
    raw.append((_REQUEST_ID_RAW, request_id.encode("latin-1")))
    for pairs in (_SECURITY_RAW, _API_RAW) if api else (_SECURITY_RAW,):
        for name, value in pairs:
            if name not in present:
                raw.append((name, value))


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

        async def send_wrapper(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                status = message["status"]
                response_started = True
                _add_headers(message, request_id, not scope["path"].startswith("/dashboard"))
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        except Exception:
            log.exception("unhandled error", extra={"request_id": request_id})
            if not response_started:
                await _send_problem(
                    send_wrapper, 500, "Internal error", "an unexpected error occurred"
                )
        finally:
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
                    "path": scope["path"],
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 3),
                    **fields,
                },
            )


class BodyLimit:
    """413 for request bodies over the limit, before any of it reaches the app."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_large(send)
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
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        await _send_problem(
            send,
            413,
            "Payload too large",
            f"the request body is over the limit of {self.max_bytes} bytes",
        )
