"""The dashboard page and its static assets (GET /dashboard, /dashboard/static/...).

The page is public: it carries no data, and its API calls send the reader's own token.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app import dashboard
from app.core.errors import NotFound

router = APIRouter(include_in_schema=False)

#: Versioned asset URLs change with their content, so browsers may keep them for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The page and unversioned asset URLs: cacheable, but revalidated (cheap 304s) on each load.
REVALIDATE = "no-cache"
HEX = frozenset("0123456789abcdef")
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


def _send(request: Request, asset: dashboard.Asset, cache_control: str) -> Response:
    headers = {"ETag": asset.etag, "Cache-Control": cache_control, **SECURITY_HEADERS}
    if asset.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)


@router.get("/dashboard")
def dashboard_page(request: Request) -> Response:
    """The single-page dashboard (hash routing: #/ladders/{ladder}, ...)."""
    return _send(request, dashboard.index(), REVALIDATE)


def _looks_like_version(segment: str) -> bool:
    return len(segment) == len(dashboard.version()) and all(c in HEX for c in segment)


@router.get("/dashboard/static/{path:path}")
def dashboard_asset(path: str, request: Request) -> Response:
    """An asset, as /dashboard/static/<version>/<name> (cached for good) or .../<name>."""
    first, _, rest = path.partition("/")
    versioned = first == dashboard.version()
    # A page from before an upgrade names an old version: serve today's file, uncached.
    name = rest if rest and _looks_like_version(first) else path
    asset = dashboard.assets().get(name)
    if asset is None:
        raise NotFound(f"no dashboard asset {path!r}")
    return _send(request, asset, IMMUTABLE if versioned else REVALIDATE)
