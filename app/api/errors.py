"""Every error leaves as application/problem+json (RFC 9457), rendered here and only here."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from app.api.deps import authenticate_early, settle_claim
from app.api.middleware import logged_path
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


#: Pydantic's prefix on the message of a validator's ValueError; the rule reads better bare.
VALUE_ERROR_PREFIX = "Value error, "
#: What a body that FastAPI did not decode as JSON (no or another Content-Type) is told.
NOT_JSON = "must be JSON, sent with Content-Type: application/json; this request {given}"


def _json_error(document: object, error: dict[str, Any]) -> str:
    """``invalid JSON at line L column C: <reason>``, from the character offset FastAPI gives
    (lines and columns counted from 1, as :class:`json.JSONDecodeError` counts them)."""
    position = error["loc"][-1]
    reason = error.get("ctx", {}).get("error", "not JSON")
    text = document if isinstance(document, str) else ""
    line = text.count("\n", 0, position) + 1
    column = position - text.rfind("\n", 0, position)
    return f"invalid JSON at line {line} column {column}: {reason}"


#: Characters of a refused value an error repeats.
MAX_ECHO = 60


def _sent(value: object) -> str:
    """A value received, as an error names it: its JSON type, and a scalar's text
    (shortened)."""
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    name = (
        "the string"
        if isinstance(value, str)
        else "the boolean"
        if isinstance(value, bool)
        else "the number"
    )
    text = json.dumps(value, default=str)
    if len(text) > MAX_ECHO:
        text = text[: MAX_ECHO - 4] + '..."'
    return f"{name} {text}"


def _validation_errors(request: Request, exc: RequestValidationError) -> list[dict[str, Any]]:
    """Each error with the field's path and a rule a person can act on."""
    errors = []
    for error in exc.errors():
        loc = list(error.get("loc", ()))
        if loc[:1] == ["body"]:
            loc = loc[1:]
        if error["type"] == "json_invalid":
            loc, message = [], _json_error(exc.body, error)
        elif not loc and isinstance(error.get("input"), bytes):
            # FastAPI passes the raw bytes on when the Content-Type is not JSON.
            sent = request.headers.get("content-type")
            given = f"has Content-Type: {sent}" if sent else "has no Content-Type"
            message = NOT_JSON.format(given=given)
        else:
            message = str(error.get("msg", "invalid")).removeprefix(VALUE_ERROR_PREFIX)
            if str(error["type"]).endswith("_type") and "input" in error:
                # A wrong JSON type (strict bodies): say what was sent, "1" is not 1.
                message += f", got {_sent(error['input'])}"
            ctx = error.get("ctx") or {}
            if "loc" in ctx:
                # A check of the whole body names the part it refused (app/schemas/common.py).
                loc += list(ctx["loc"])
                message = str(ctx.get("rule", message))
        errors.append({"loc": loc, "msg": message})
    return errors


def _body_undecoded(exc: RequestValidationError) -> bool:
    """True when the body failed to decode: FastAPI raised before any dependency ran."""
    return any(error["type"] == "json_invalid" for error in exc.errors())


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


def _problem(exc: DomainError) -> JSONResponse:
    body = exc.problem()
    return problem_response(
        exc.status, exc.title, exc.detail, errors=body.get("errors"), headers=exc.headers
    )


def install_error_handlers(app: FastAPI) -> None:
    async def refused_caller(request: Request, *, undecoded: bool = False) -> JSONResponse | None:
        """The 401 / 403 / 429 of a refused request's caller, if it has one: the token is
        answered before anything else. A body that could not be decoded never reached the
        dependency that checks the token (``undecoded``); a write's key is verified in the
        write's own transaction, which a refusal rolled back (app.api.deps.settle_claim)."""
        try:
            if undecoded:
                await authenticate_early(request)
            await settle_claim(request)
        except DomainError as exc:
            return _problem(exc)
        return None

    @app.exception_handler(DomainError)
    async def domain_error(request: Request, exc: DomainError) -> JSONResponse:
        if (refused := await refused_caller(request)) is not None:
            return refused
        return _problem(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        refused = await refused_caller(request, undecoded=_body_undecoded(exc))
        if refused is not None:
            return refused
        errors = _validation_errors(request, exc)
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in errors
        )
        return problem_response(422, "Invalid request", detail, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == BAD_REQUEST:
            # A body that is not UTF-8 JSON: the same answer as malformed JSON (422), after
            # the token's.
            if (refused := await refused_caller(request, undecoded=True)) is not None:
                return refused
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
        log.exception("unhandled error", extra={"path": logged_path(request.scope)})
        return problem_response(500, "Internal error", "an unexpected error occurred")
