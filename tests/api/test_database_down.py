"""A database that is down (issue 40, item 5): ``ratings migrate`` and ``ratings serve`` say
so in one line naming the host and port and exit 1, without a traceback; a running service's
/readyz answers 503 while the database does not answer. The database here is a URL to a
port nothing listens on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.core.database import Database
from app.main import create_app
from tests.conftest import AUTH, make_settings
from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
#: Generous: a refused connection fails at once, the interpreter's start is what takes time.
PATIENCE = 60


def _closed_url() -> tuple[str, int]:
    port = free_port()
    return f"postgresql+psycopg://ratings:secret@127.0.0.1:{port}/ratings", port


def _ratings(command: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "RATINGS_DATABASE_URL": url,
        "RATINGS_ADMIN_TOKEN": "down-test-token-0123456789",
        "RATINGS_PORT": str(free_port()),
    }
    return subprocess.run(
        [sys.executable, "-m", "app.cli", command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )


def test_migrate_with_the_database_down_says_where_in_one_line_and_exits_1() -> None:
    url, port = _closed_url()
    done = _ratings("migrate", url)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: cannot reach postgresql at 127.0.0.1:{port} ")
    assert "(database 'ratings')" in lines[0]
    assert "Traceback" not in done.stderr
    assert "secret" not in done.stderr  # the password never
    assert done.stdout == ""


def test_serve_with_the_database_down_logs_one_json_line_and_exits_1() -> None:
    url, port = _closed_url()
    done = _ratings("serve", url)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    entry = json.loads(lines[0])
    assert entry["level"] == "error"
    assert entry["database"] == f"postgresql at 127.0.0.1:{port} (database 'ratings')"
    assert entry["message"].startswith(f"cannot reach postgresql at 127.0.0.1:{port} ")
    assert "secret" not in done.stderr


@pytest.mark.anyio
async def test_readyz_answers_503_while_the_database_does_not_answer() -> None:
    url, _ = _closed_url()
    database = Database(url)
    app = create_app(make_settings(database_url=url), database=database)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(
            transport=transport, base_url="http://ratings.test", headers=AUTH
        ) as client:
            ready = await client.get("/readyz")
            assert ready.status_code == 503
            assert ready.headers["content-type"] == "application/problem+json"
            assert ready.headers["retry-after"] == "2"
            assert (await client.get("/healthz")).status_code == 200
            # A request that needs the database is a 503 too, never a 500.
            ladders = await client.get("/ladders")
            assert ladders.status_code == 503, ladders.text
            assert ladders.headers["content-type"] == "application/problem+json"
    finally:
        database.dispose()


def test_migrate_with_a_sqlite_file_it_cannot_create_says_so_in_one_line() -> None:
    done = _ratings("migrate", "sqlite:////proc/no-such-dir/ratings.db")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error: cannot create the SQLite database /proc/no-such-dir/ratings.db: "
        "No such file or directory (/proc/no-such-dir)"
    ]


def test_a_url_of_several_hosts_names_each_of_them() -> None:
    """A primary and its standby given together (docs/deploy.md "PostgreSQL failover"): the
    line that says where the database was looked for names both, with the default port
    where a host has none."""
    from app.core.database import where

    url = (
        "postgresql+psycopg://ratings:secret@/ratings?host=db1:5433&host=db2"
        "&target_session_attrs=read-write"
    )
    assert where(url) == "postgresql at db1:5433, db2:5432 (database 'ratings')"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_command_on_a_database_never_migrated_says_to_migrate_at_once(
    backend: str, tmp_path: Path
) -> None:
    """``ratings export`` on an empty database: one line that says to run ``ratings migrate``,
    exit 2, at once (it used to retry for seconds and then blame a busy database)."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'empty.db'}"
    else:
        base = os.environ.get("RATINGS_TEST_POSTGRES_URL")
        if not base:
            if os.environ.get("CI") == "true":
                pytest.fail("RATINGS_TEST_POSTGRES_URL is not set")
            pytest.skip("PostgreSQL tests need RATINGS_TEST_POSTGRES_URL")
        # A schema of its own with no tables: the service's tables are not found there.
        import sqlalchemy

        schema = f"unmigrated_{os.getpid()}"
        engine = sqlalchemy.create_engine(base)
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text(f"CREATE SCHEMA IF NOT EXISTS {schema}"))
        engine.dispose()
        url = f"{base}?options=-csearch_path%3D{schema}"
    env = {**os.environ, "RATINGS_DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "export", "--ladder", "club", "--output",
         str(tmp_path / "out.jsonl")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=PATIENCE, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "error: the database has no tables of this service (or an older schema): "
        "run `ratings migrate`"
    )
