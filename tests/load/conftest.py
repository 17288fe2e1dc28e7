"""Fixtures of the load tests: databases of their own and servers that are always stopped."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.load.helpers import ServerLauncher, postgres_base_url, postgres_schema, sqlite_url


@pytest.fixture(autouse=True)
def _quiet_httpx() -> Iterator[None]:
    """httpx logs every request at INFO: thousands of lines in a failure report otherwise."""
    logger = logging.getLogger("httpx")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


@pytest.fixture
def load_postgres_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL schema for one test; dropped afterwards."""
    with postgres_schema(postgres_base_url()) as url:
        yield url


@pytest.fixture
def load_sqlite_url(tmp_path: Path) -> str:
    """A fresh, migrated SQLite file for one test."""
    return sqlite_url(tmp_path)


@pytest.fixture
def launcher(request: pytest.FixtureRequest) -> Iterator[ServerLauncher]:
    """Starts ``ratings serve`` processes; stops every one of them at teardown, also on failure."""
    servers = ServerLauncher(f"load-{request.node.name}")
    try:
        yield servers
    finally:
        servers.stop_all()
