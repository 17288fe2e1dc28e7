"""The dashboard's HTTP side without a browser: the page, its assets and cache headers."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.api.routes import dashboard
from tests.conftest import make_settings


def _app() -> FastAPI:
    from app.main import create_app

    app = create_app(make_settings(database_url="sqlite://"))
    if not any(getattr(route, "path", None) == "/dashboard" for route in app.routes):
        app.include_router(dashboard.router)
    return app


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://ratings.test") as client:
        yield client


@pytest.mark.anyio
async def test_page_is_public_and_names_versioned_assets(http: httpx.AsyncClient) -> None:
    response = await http.get("/dashboard")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in response.headers["content-security-policy"]
    names = re.findall(r'(?:href|src)="(dashboard/static/[^"]+)"', response.text)
    assert f"dashboard/static/{dashboard.BUNDLE.version}/app.js" in names
    for name in names:
        asset = await http.get(f"/{name}")
        assert asset.status_code == 200, name
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"


@pytest.mark.anyio
async def test_revalidation_and_media_types(http: httpx.AsyncClient) -> None:
    page = await http.get("/dashboard")
    again = await http.get("/dashboard", headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""
    script = await http.get("/dashboard/static/app.js")  # unversioned: revalidated
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"
    stale = await http.get("/dashboard/static/0123456789ab/style.css")  # an older release's page
    assert stale.status_code == 200
    assert stale.headers["content-type"].startswith("text/css")
    assert stale.headers["cache-control"] == "no-cache"


@pytest.mark.anyio
@pytest.mark.parametrize(
    "path",
    ["missing.js", "../__init__.py", "..%2F__init__.py", "index.html", "pages/../../__init__.py"],
)
async def test_only_shipped_assets_are_served(http: httpx.AsyncClient, path: str) -> None:
    response = await http.get(f"/dashboard/static/{path}")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"


@pytest.mark.anyio
async def test_dashboard_is_not_in_the_api_description(http: httpx.AsyncClient) -> None:
    paths = (await http.get("/openapi.json")).json()["paths"]
    assert not [path for path in paths if path.startswith("/dashboard")]
