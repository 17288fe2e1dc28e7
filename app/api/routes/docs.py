"""The interactive API documentation: Swagger UI at /docs, ReDoc at /redoc.

FastAPI's own pages load their scripts from a CDN, which the service's Content-Security-Policy
blocks (and which fails offline). These pages load Swagger UI and ReDoc from the files the
``fastapi-offline`` package ships, served here, and start them without inline script, so
their policy allows this origin's files and nothing else.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, Request, Response

from app.api.static import REVALIDATE, Asset, Bundle

router = APIRouter(include_in_schema=False)

PAGES_DIR = Path(__file__).resolve().parent.parent / "docs_pages"
#: The package whose static/ folder holds Swagger UI's and ReDoc's browser builds.
VENDOR_PACKAGE = "fastapi_offline"
VENDOR_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
OWN_FILES = ("swagger-init.js",)
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


def _files() -> dict[str, bytes]:
    vendor = resources.files(VENDOR_PACKAGE) / "static"
    found = {name: (vendor / name).read_bytes() for name in VENDOR_FILES}
    found.update({name: (PAGES_DIR / name).read_bytes() for name in OWN_FILES})
    return found


BUNDLE = Bundle("docs/static", _files)


@cache
def page(name: str) -> Asset:
    return BUNDLE.page((PAGES_DIR / name).read_text(encoding="utf-8"))


def _page(request: Request, name: str, policy: str) -> Response:
    return BUNDLE.send(request, page(name), REVALIDATE, {"Content-Security-Policy": policy})


@router.get("/docs")
async def swagger_ui(request: Request) -> Response:
    """Swagger UI: the OpenAPI document, with requests to try."""
    return _page(request, "swagger.html", SWAGGER_CSP)


@router.get("/redoc")
async def redoc(request: Request) -> Response:
    """ReDoc: the OpenAPI document as a reference."""
    return _page(request, "redoc.html", REDOC_CSP)


@router.get("/docs/static/{path:path}")
async def asset(path: str, request: Request) -> Response:
    """A script, style sheet or icon of the pages (cached for good under today's version;
    a page from before an upgrade names another, and gets today's file, revalidated)."""
    return BUNDLE.file(request, path)
