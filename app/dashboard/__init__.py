"""The dashboard: static HTML, CSS and ES modules shipped inside the package, served by
``app/api/routes/dashboard.py``. Nothing here holds data; the page reads the public API from
the browser."""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
#: The page; it names its assets by ``{{assets}}`` (app/api/static.py).
INDEX = "index.html"
