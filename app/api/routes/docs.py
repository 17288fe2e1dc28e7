"""The interactive API documentation: Swagger UI at /docs, ReDoc at /redoc.

FastAPI's own pages load their scripts from a CDN, which the service's Content-Security-Policy
blocks (and which fails offline). These pages load Swagger UI and ReDoc from the files the
``fastapi-offline`` package ships, served here, and start them without inline script, so
their policy allows this origin's files and nothing else.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, Response

from app.core.errors import NotFound

router = APIRouter(include_in_schema=False)

PAGES_DIR = Path(__file__).resolve().parent.parent / "docs_pages"
#: The package whose static/ folder holds Swagger UI's and ReDoc's browser builds.
VENDOR_PACKAGE = "fastapi_offline"
VENDOR_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
OWN_FILES = ("swagger-init.js",)
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
}
#: Where the pages name their assets; replaced by the versioned asset URL (relative, so the
#: pages also work behind a proxy that adds a path prefix).
ASSETS_PLACEHOLDER = "{{assets}}"
#: Asset URLs carry a digest of the assets, so browsers may keep them for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
#: What both pages may do: this origin's scripts, style sheets and requests; images from it
#: and data: URLs (Swagger UI's style sheet draws its icons so); nothing may frame them.
_CSP_COMMON = (
    "default-src 'none'; script-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SWAGGER_CSP = f"{_CSP_COMMON}; style-src 'self'"
#: ReDoc builds its styles at run time (inline style elements), and runs its search in a
#: worker it creates from a blob: URL. Its sidebar's "API docs by Redocly" logo, which it
#: loads from redoc.ly, is refused (the link shows without it).
REDOC_CSP = f"{_CSP_COMMON}; style-src 'self' 'unsafe-inline'; worker-src blob:"


@cache
def assets() -> dict[str, bytes]:
    vendor = resources.files(VENDOR_PACKAGE) / "static"
    found = {name: (vendor / name).read_bytes() for name in VENDOR_FILES}
    found.update({name: (PAGES_DIR / name).read_bytes() for name in OWN_FILES})
    return found


@cache
def version() -> str:
    digest = hashlib.sha256()
    for name, body in sorted(assets().items()):
        digest.update(name.encode() + b"\0" + body + b"\0")
    return digest.hexdigest()[:12]


@cache
def page(name: str) -> bytes:
    html = (PAGES_DIR / name).read_text(encoding="utf-8")
    return html.replace(ASSETS_PLACEHOLDER, f"docs/static/{version()}").encode("utf-8")


def _page(name: str, policy: str) -> Response:
    headers = {"Content-Security-Policy": policy}
    return Response(page(name), media_type="text/html; charset=utf-8", headers=headers)


@router.get("/docs")
async def swagger_ui() -> Response:
    """Swagger UI: the OpenAPI document, with requests to try."""
    return _page("swagger.html", SWAGGER_CSP)


@router.get("/redoc")
async def redoc() -> Response:
    """ReDoc: the OpenAPI document as a reference."""
    return _page("redoc.html", REDOC_CSP)


@router.get("/docs/static/{asset_version}/{name}")
async def asset(asset_version: str, name: str) -> Response:
    """A script, style sheet or icon of the pages (cached for good under today's version;
    a page from before an upgrade names another, and gets today's file, uncached)."""
    body = assets().get(name)
    if body is None:
        raise NotFound(f"no documentation asset {name!r}")
    cache_control = IMMUTABLE if asset_version == version() else "no-cache"
    media_type = MEDIA_TYPES[Path(name).suffix]
    return Response(body, media_type=media_type, headers={"Cache-Control": cache_control})
