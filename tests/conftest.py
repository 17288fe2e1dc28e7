"""Test databases, built by ``alembic upgrade head``, on SQLite and on PostgreSQL.

Every API test runs once per database. PostgreSQL runs when RATINGS_TEST_POSTGRES_URL is
set; under CI (CI=true) its absence is a failure, not a skip. Each test starts from empty
tables (truncated), so tests that commit real, concurrent transactions stay independent.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from app.cli import migrate
from app.core.database import Database
from app.core.settings import Settings
from app.main import create_app

ADMIN_TOKEN = "test-admin-token-0123456789"
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
POSTGRES_ENV = "RATINGS_TEST_POSTGRES_URL"
TABLES = (
    "webhook_deliveries",
    "webhooks",
    "feed_consumers",
    "feed_items",
    "changes",
    "player_ratings",
    "events",
    "tournament_teams",
    "player_profiles",
    "audit_log",
    "rate_windows",
    "address_windows",
    "api_keys",
    "ladders",
)


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


def _postgres_base_url() -> str | None:
    url = os.environ.get(POSTGRES_ENV)
    if url:
        return url
    if os.environ.get("CI") == "true":
        pytest.fail(f"{POSTGRES_ENV} must be set under CI: PostgreSQL tests may not be skipped")
    return None


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("db") / "ratings.db"
    url = f"sqlite:///{path}"
    migrate(url)
    return url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    base = _postgres_base_url()
    if base is None:
        pytest.skip(f"PostgreSQL tests need {POSTGRES_ENV}")
    schema = f"ratings_test_{uuid.uuid4().hex[:12]}"
    # Pre-ping: the fault tests restart PostgreSQL, which kills pooled connections.
    admin = create_engine(base, isolation_level="AUTOCOMMIT", pool_pre_ping=True)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    url = f"{base}{separator}options=-csearch_path%3D{schema}"
    migrate(url)
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    db = Database(database_url, pool_size=20, max_overflow=20)
    with db.engine.begin() as connection:
        if db.is_sqlite:
            for table in TABLES:
                connection.execute(text(f"DELETE FROM {table}"))
        else:
            connection.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    yield db
    db.dispose()


def make_settings(**overrides: object) -> Settings:
    values: dict[str, object] = {"admin_token": ADMIN_TOKEN, "public_reads": False}
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
async def client(database: Database) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://ratings.test", headers=AUTH
    ) as http:
        yield http
