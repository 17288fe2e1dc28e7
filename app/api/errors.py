"""Every error leaves as application/problem+json (RFC 9457), rendered here and only here."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from app.core.errors import DomainError

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"


def problem_response(
    status: int,
    title: str,
    detail: str,
    *,
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = errors
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _validation_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    errors = []
    for error in exc.errors():
        loc = [part for part in error.get("loc", ()) if part != "body"]
        message = str(error.get("msg", "invalid"))
        errors.append({"loc": loc, "msg": message})
    return errors


BAD_REQUEST = 400
METHOD_NOT_ALLOWED = 405


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route offers for this path (Starlette names only the first route's)."""
    probe = {**request.scope, "method": "\x00"}  # matches no route's methods: PARTIAL at best
    methods: set[str] = set()
    pending: list[Any] = list(request.app.routes)
    while pending:
        route = pending.pop()
        if isinstance(route, Route):
            match, _ = route.matches(probe)
            if match is not Match.NONE and route.methods:
                methods |= set(route.methods)
        else:
            # Included routers (FastAPI wraps them; ours have no prefix) hold routes too.
            inner = getattr(route, "original_router", route)
            pending.extend(getattr(inner, "routes", ()))
    return sorted(methods)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_request: Request, exc: DomainError) -> JSONResponse:
        body = exc.problem()
        return problem_response(
            exc.status, exc.title, exc.detail, errors=body.get("errors"), headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = _validation_errors(exc)
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in errors
        )
        return problem_response(422, "Invalid request", detail, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == BAD_REQUEST:
            # A body that is not UTF-8 JSON: the same answer as malformed JSON (422).
            return problem_response(
                422,
                "Invalid request",
                f"body: {exc.detail}",
                errors=[{"loc": ["body"], "msg": "the body is not valid UTF-8 JSON"}],
            )
        title = {404: "Not found", 405: "Method not allowed", 413: "Payload too large"}.get(
            exc.status_code, "Error"
        )
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == METHOD_NOT_ALLOWED:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return problem_response(exc.status_code, title, str(exc.detail), headers=headers)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", extra={"path": request.url.path})
        return problem_response(500, "Internal error", "an unexpected error occurred")
