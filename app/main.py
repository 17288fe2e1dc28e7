"""The ASGI application."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from app.api.errors import install_error_handlers
from app.api.middleware import BodyLimit, RequestContext
from app.api.routes import dashboard, events, health, keys, ladders, players, systems
from app.core.database import Database
from app.core.logging import configure_logging
from app.core.settings import Settings, get_settings

DESCRIPTION = (
    "Ratings for competitive game communities: Elo, Fundox, NAF, Glicko-1/2 and the "
    "Diplomacy hobby systems, with full history and recomputation."
)


def create_app(settings: Settings | None = None, database: Database | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The engine belongs to the process's lifespan: created once, disposed at shutdown.
        owned = database is None
        app.state.db = database or Database(
            settings.database_url,
            pool_size=settings.pool_size,
            max_overflow=settings.pool_overflow,
            busy_timeout=settings.sqlite_busy_timeout,
            retries=settings.write_retries,
        )
        try:
            yield
        finally:
            if owned:
                app.state.db.dispose()

    configure_logging(settings.log_level)
    app = FastAPI(title="Ratings", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
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
            allow_headers=["Authorization", "Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID", "Retry-After"],
            max_age=600,
        )
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RequestContext)
    for module in (health, systems, ladders, events, players, keys, dashboard):
        app.include_router(module.router)
    return app
