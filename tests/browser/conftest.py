"""Registers the ``browser`` marker here too, so the module runs under --strict-markers even
before pyproject.toml lists it (a marker registered twice is harmless)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives the dashboard in headless Chromium")
