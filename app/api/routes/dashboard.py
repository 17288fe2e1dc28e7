"""The dashboard page and its static assets (GET /dashboard, /dashboard/static/...).

The page is public: it carries no data, and its API calls send the reader's own token.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter, Request, Response

from app import dashboard
from app.api.static import REVALIDATE, Asset, Bundle, files_under

router = APIRouter(include_in_schema=False)

SECURITY_HEADERS = {
    # Everything comes from this origin; no inline script, no framing.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
BUNDLE = Bundle(
    "dashboard/static",
    lambda: files_under(dashboard.STATIC_DIR, skip=frozenset({dashboard.INDEX})),
    SECURITY_HEADERS,
)


@cache
def _index() -> Asset:
    return BUNDLE.page((dashboard.STATIC_DIR / dashboard.INDEX).read_text(encoding="utf-8"))


@router.get("/dashboard")
def dashboard_page(request: Request) -> Response:
    """The single-page dashboard (hash routing: #/ladders/{ladder}, ...)."""
    return BUNDLE.send(request, _index(), REVALIDATE)


@router.get("/dashboard/static/{path:path}")
def dashboard_asset(path: str, request: Request) -> Response:
    """An asset, as /dashboard/static/<version>/<name> (cached for good) or .../<name>."""
    return BUNDLE.file(request, path)
