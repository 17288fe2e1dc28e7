"""The dashboard: static HTML, CSS and ES modules shipped inside the package.

Nothing here holds data; the page reads the public API from the browser. Assets are loaded
once per process and looked up by name, so a request path never touches the filesystem.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
INDEX = "index.html"
#: Where index.html names its assets; replaced by the versioned static URL.
ASSETS_PLACEHOLDER = "{{assets}}"

MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".png": "image/png",
}


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


def _asset(body: bytes, media_type: str) -> Asset:
    return Asset(body, media_type, '"' + hashlib.sha256(body).hexdigest()[:16] + '"')


@cache
def assets() -> dict[str, Asset]:
    """Every servable file under static/ by its relative POSIX path (index.html excluded)."""
    found: dict[str, Asset] = {}
    for path in sorted(STATIC_DIR.rglob("*")):
        media_type = MEDIA_TYPES.get(path.suffix)
        if path.is_file() and media_type and path.name != INDEX:
            found[path.relative_to(STATIC_DIR).as_posix()] = _asset(path.read_bytes(), media_type)
    return found


@cache
def version() -> str:
    """A digest of all assets: a new release gets new asset URLs, so they can be cached forever."""
    digest = hashlib.sha256()
    for name, asset in assets().items():
        digest.update(name.encode() + b"\0" + asset.body + b"\0")
    return digest.hexdigest()[:12]


@cache
def index() -> Asset:
    # Relative to /dashboard, so the page also works behind a proxy that adds a path prefix.
    html = (STATIC_DIR / INDEX).read_text(encoding="utf-8")
    html = html.replace(ASSETS_PLACEHOLDER, f"dashboard/static/{version()}")
    return _asset(html.encode("utf-8"), MEDIA_TYPES[".html"])
