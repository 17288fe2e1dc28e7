"""The app the browser tests serve: ``granian --interface asgi tests.browser.server:app``.

It migrates the database named by RATINGS_DATABASE_URL, then builds the real app and adds the
dashboard router when app.main does not include it yet.
"""

from __future__ import annotations

from fastapi import FastAPI

from app.api.routes import dashboard
from app.cli import migrate
from app.core.settings import get_settings
from app.main import create_app


def build() -> FastAPI:
    settings = get_settings()
    migrate(settings.database_url)
    application = create_app(settings)
    if not any(getattr(route, "path", None) == "/dashboard" for route in application.routes):
        application.include_router(dashboard.router)
    return application


app = build()
