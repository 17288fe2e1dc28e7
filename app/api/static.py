"""Files shipped in the package and served to browsers: the dashboard's and the API
documentation's (one server for both).

Each :class:`Bundle` loads its files once per process and looks them up by name, so a request
path never touches the filesystem. Its asset URLs carry a digest of every file (``version``):
a release gets new URLs, so ``<prefix>/<version>/<name>`` may be cached for good; a page from
before an upgrade names another version, and gets today's file, revalidated. Every response
carries an ``ETag``; a matching ``If-None-Match`` gets a 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from fastapi import Request, Response

from app.core.errors import NotFound

#: Versioned asset URLs change with their content, so browsers may keep them for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Pages and unversioned asset URLs: cacheable, but revalidated (cheap 304s) on each load.
REVALIDATE = "no-cache"
#: Where a page names its assets; replaced by the versioned asset URL, relative, so the pages
#: also work behind a proxy that adds a path prefix.
ASSETS_PLACEHOLDER = "{{assets}}"
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".png": "image/png",
}
HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


def asset(body: bytes, media_type: str) -> Asset:
    return Asset(body, media_type, '"' + hashlib.sha256(body).hexdigest()[:16] + '"')


def files_under(directory: Path, *, skip: frozenset[str] = frozenset()) -> dict[str, bytes]:
    """Every file of a known media type under ``directory``, by its relative POSIX path."""
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.suffix in MEDIA_TYPES and path.name not in skip
    }


class Bundle:
    """A set of files served under ``prefix`` (``dashboard/static``, ``docs/static``)."""

    def __init__(
        self,
        prefix: str,
        load: Callable[[], Mapping[str, bytes]],
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.prefix = prefix
        self._load = load
        #: Sent with every file and page (a content security policy, ...).
        self.headers = dict(headers or {})

    @cached_property
    def assets(self) -> dict[str, Asset]:
        return {
            name: asset(body, MEDIA_TYPES[Path(name).suffix]) for name, body in self._load().items()
        }

    @cached_property
    def version(self) -> str:
        digest = hashlib.sha256()
        for name, found in sorted(self.assets.items()):
            digest.update(name.encode() + b"\0" + found.body + b"\0")
        return digest.hexdigest()[:12]

    def page(self, html: str) -> Asset:
        """An HTML page naming this bundle's assets at today's version."""
        text = html.replace(ASSETS_PLACEHOLDER, f"{self.prefix}/{self.version}")
        return asset(text.encode("utf-8"), MEDIA_TYPES[".html"])

    def file(self, request: Request, path: str) -> Response:
        """``<version>/<name>`` (cached for good when the version is today's) or ``<name>``;
        404 for anything not shipped."""
        first, _, rest = path.partition("/")
        versioned = first == self.version
        name = rest if rest and self._looks_like_version(first) else path
        found = self.assets.get(name)
        if found is None:
            raise NotFound(f"no asset {path!r}")
        return self.send(request, found, IMMUTABLE if versioned else REVALIDATE)

    def send(
        self,
        request: Request,
        found: Asset,
        cache_control: str,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        sent = {"ETag": found.etag, "Cache-Control": cache_control, **self.headers}
        sent.update(headers or {})
        if found.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=sent)
        return Response(found.body, media_type=found.media_type, headers=sent)

    def _looks_like_version(self, segment: str) -> bool:
        return len(segment) == len(self.version) and all(c in HEX for c in segment)
