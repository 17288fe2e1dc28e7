"""The ASGI application."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from starlette.middleware.cors import CORSMiddleware

from app.api.errors import install_error_handlers
from app.api.middleware import BodyLimit, RequestContext
from app.api.routes import (
    dashboard,
    docs,
    evaluation,
    events,
    feed,
    health,
    keys,
    ladders,
    matchmaking,
    players,
    seasons,
    systems,
    webhooks,
)
from app.core.database import Database
from app.core.logging import configure_logging
from app.core.settings import Settings, get_settings
from app.schemas.common import Problem
from app.services.convergence import Converger
from app.services.delivery import Dispatcher
from app.services.ladders import list_systems

#: The API's version (``info.version``); docs/api.md "Versions and compatibility" says what
#: a change of each part means.
API_VERSION = "0.1.0"


def api_description() -> str:
    """The OpenAPI description: what the service is, every system of the registry (so it
    cannot fall behind it), and the compatibility policy in brief."""
    systems = list_systems()

    def listed(kind: str) -> str:
        return "\n".join(f"- `{s.id}`: {s.title}" for s in systems if s.kind == kind)

    return (
        "Ratings for competitive game communities, with the full history of results kept: a "
        "corrected, voided or late result recomputes what it can change.\n\n"
        f"Systems rating games (`POST /games`):\n\n{listed('game')}\n\n"
        f"Systems rating tournaments (`POST /tournaments`):\n\n{listed('tournament')}\n\n"
        f"API version {API_VERSION}. Paths, methods, field names and types, status codes and "
        "the problem+json error format change only with a new major version; new endpoints, "
        "optional request fields, response fields, headers, systems and parameters may be "
        "added at any time, so clients must ignore what they do not know. The whole policy: "
        'docs/reference/contract.md, "Versions and compatibility".'
    )


#: Allocations between young-generation collections. The default (700) runs the collector
#: every request or two, though reference counting frees almost all of a request's garbage.
GC_YOUNG_THRESHOLD = 10_000
#: Young collections per middle one, and middle ones per full one (the defaults are 10, 10).
GC_MIDDLE_THRESHOLD = 50
GC_OLD_THRESHOLD = 100


def _settle_heap() -> None:
    """Keep the collector away from what startup built (modules, routes, mappers, caches).

    Measured under POST /games load (bench/README.md): with the defaults a worker ran a full
    collection every couple of seconds, each pausing it for 190-280 ms, which set the p99;
    frozen, with these thresholds, no full collection ran during a 10-second run.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD)


def operation_id(route: APIRoute) -> str:
    """A route's operationId: its function's name in camelCase (``create_game`` →
    ``createGame``). Generated clients name their methods by it, so it is part of the
    contract: a route function is renamed only with a new major version."""
    first, *rest = route.name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def create_app(settings: Settings | None = None, database: Database | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The engine belongs to the process's lifespan: created once, disposed at shutdown.
        owned = database is None
        _settle_heap()
        app.state.db = database or Database(
            settings.database_url,
            pool_size=settings.pool_size,
            max_overflow=settings.pool_overflow,
            busy_timeout=settings.sqlite_busy_timeout,
            retries=settings.write_retries,
            read_url=settings.read_database_url,
        )
        # The change feed's deliveries (webhooks, brokers) run in every server process.
        dispatcher = Dispatcher(app.state.db, settings)
        delivering = asyncio.create_task(dispatcher.run())
        # Whole-history fits left unconverged by new games are refitted in every process too.
        converging = asyncio.create_task(Converger(app.state.db, settings).run())
        try:
            yield
        finally:
            for task in (delivering, converging):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if owned:
                app.state.db.dispose()

    configure_logging(settings.log_level)
    app = FastAPI(
        title="Ratings",
        version=API_VERSION,
        description=api_description(),
        lifespan=lifespan,
        # FastAPI's pages load their scripts from a CDN: app/api/routes/docs.py serves its own.
        docs_url=None,
        redoc_url=None,
        generate_unique_id_function=operation_id,
    )
    app.state.settings = settings
    if database is not None:
        app.state.db = database
    install_error_handlers(app)
    origins = [o.strip() for o in settings.cors_origins.split(",") if o.strip()]
    if origins:
        # Bearer tokens, not cookies: credentials are never allowed, so "*" is never paired
        # with them.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_credentials=False,
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "X-Request-ID", "If-Match"],
            # A page reads its rate limit too (docs/api.md "Calling from a browser").
            expose_headers=[
                "X-Request-ID",
                "Retry-After",
                "ETag",
                "RateLimit-Limit",
                "RateLimit-Remaining",
                "RateLimit-Reset",
            ],
            max_age=600,
        )
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        # The largest batch allowed must fit (Settings.batch_body_limit).
        route_limits={
            ("POST", "/games/batch"): settings.batch_body_limit,
            ("POST", "/tournaments/batch"): settings.batch_body_limit,
        },
        discard=settings.max_discard_bytes,
    )
    app.add_middleware(RequestContext)
    for module in (
        health,
        systems,
        ladders,
        evaluation,
        events,
        feed,
        players,
        seasons,
        matchmaking,
        keys,
        webhooks,
        dashboard,
        docs,
    ):
        app.include_router(module.router)
    app.openapi = lambda: _openapi_with_problems(app)  # type: ignore[method-assign]
    return app


#: Error statuses any operation may answer, each as problem+json (API.md "Conventions").
PROBLEM_STATUSES = {
    "401": "No valid bearer token",
    "403": "The token lacks the scope",
    "404": "Not found (or not visible to this key)",
    "409": "Conflicts with what is stored",
    "413": "Request body too large",
    "422": "Invalid request: errors name each field and rule",
    "429": "Rate limit reached; see Retry-After",
    "503": "Database unavailable; see Retry-After",
}
PRECONDITION_FAILED = "If-Match names another version: the result changed since it was read"
OPEN_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


def _openapi_with_problems(app: FastAPI) -> dict[str, Any]:
    """The generated document, with every error response declared as problem+json."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    document = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    components = document.setdefault("components", {}).setdefault("schemas", {})
    components["Problem"] = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    problem = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, operations in document.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            statuses = {"503"} if path in OPEN_PATHS else PROBLEM_STATUSES.keys()
            for status in statuses:
                responses[status] = {"description": PROBLEM_STATUSES[status], "content": problem}
            headers = {
                p["name"].lower() for p in operation.get("parameters", ()) if p["in"] == "header"
            }
            if "if-match" in headers:
                responses["412"] = {"description": PRECONDITION_FAILED, "content": problem}
    app.openapi_schema = document
    return document
