"""The database's storage full (issue 39): writes answer 503 problem+json with Retry-After,
nothing is half-applied, reads go on, and writes resume once there is room again.

Each database gets a tmpfs of its own, filled to the last byte by a file the test then
deletes: SQLite's file lives on it; PostgreSQL's database is created in a tablespace on it
(its write-ahead log stays on the cluster's own disk, as a full data volume would leave it).
Games are posted one by one until one is refused (a write may still fit in pages the
database already holds), a few more are refused, then the room is given back and the refused
ones are posted again. The stored ratings must be exactly the engine's replay of the games
acknowledged.
"""

from __future__ import annotations

import contextlib
import pwd
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from app.core.errors import StorageFull
from tests.api.live_server import serving
from tests.conftest import ADMIN_TOKEN
from tests.faults.helpers import fill, replayed, require, small_tmpfs
from tests.helpers import at
from tests.load.helpers import postgres_base_url

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mounts a tmpfs")

LADDER = "full"
SYSTEM = "elo"
HEADERS = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
#: Games stored before the disk fills.
BEFORE = 20
#: The most games posted on the full disk before one must have been refused.
MOST = 3_000
#: New games posted (and refused) after the first refusal.
MORE_REFUSED = 3


def _game(index: int) -> dict[str, Any]:
    players = [f"p{index % 7}", f"p{(index * 3 + 1) % 7 + 7}"]
    ranks = [1, 2] if index % 3 else [2, 1]
    return {
        "ladder": LADDER,
        "id": f"g{index:05d}",
        "played_at": at(index),
        "players": [{"player": p, "rank": r} for p, r in zip(players, ranks, strict=True)],
    }


def _refused(response: httpx.Response) -> bool:
    """A 503 for want of room, as the issue asks it."""
    if response.status_code != 503:
        return False
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["retry-after"] == str(StorageFull.retry_after_seconds)
    assert "storage is full" in response.json()["detail"]
    return True


def _run(url: str, disk: Path, directory: Path) -> None:
    acknowledged: list[dict[str, Any]] = []
    with (
        serving(directory, RATINGS_DATABASE_URL=url) as server,
        httpx.Client(base_url=server.url, headers=HEADERS, timeout=60) as client,
    ):
        response = client.post("/ladders", json={"id": LADDER, "system": SYSTEM})
        assert response.status_code == 201, response.text
        params = response.json()["params"]
        for index in range(BEFORE):
            response = client.post("/games", json=_game(index))
            assert response.status_code == 201, response.text
            acknowledged.append(_game(index))

        filler = fill(disk)
        refused: list[dict[str, Any]] = []
        for index in range(BEFORE, BEFORE + MOST):
            response = client.post("/games", json=_game(index))
            if _refused(response):
                refused.append(_game(index))
                break
            assert response.status_code == 201, response.text
            acknowledged.append(_game(index))
        assert refused, f"{MOST} games fitted on the full disk"
        fitted = len(acknowledged) - BEFORE
        first = BEFORE + fitted + 1  # the games after the first refused
        for index in range(first, first + MORE_REFUSED):
            assert _refused(client.post("/games", json=_game(index)))
            refused.append(_game(index))

        # Reads go on, and show nothing of the refused writes.
        board = client.get(f"/ladders/{LADDER}/leaderboard", params={"limit": 100})
        assert board.status_code == 200, board.text
        assert client.get(f"/ladders/{LADDER}").json()["games"] == len(acknowledged)
        for body in refused:
            assert client.get(f"/ladders/{LADDER}/games/{body['id']}").status_code == 404
        assert _ratings(board.json()) == pytest.approx(replayed(SYSTEM, params, acknowledged))

        # Room again: the refused games are taken, with no restart.
        filler.unlink()
        print(
            f"\n[full disk] {url.split(':')[0]}: {fitted} games fitted on the full disk, "
            f"{len(refused)} refused with 503, then taken once room was made"
        )
        for body in refused:
            response = client.post("/games", json=body)
            assert response.status_code == 201, response.text
            acknowledged.append(body)
        board = client.get(f"/ladders/{LADDER}/leaderboard", params={"limit": 100})
        assert client.get(f"/ladders/{LADDER}").json()["games"] == len(acknowledged)
        expected = replayed(SYSTEM, params, acknowledged)
        assert _ratings(board.json()) == pytest.approx(expected, abs=1e-9)
    log = server.log.read_text()
    assert '"level": "error"' not in log, log[-3000:]
    assert "the database's storage is full" in log  # a warning for the operator


def _ratings(board: dict[str, Any]) -> dict[str, float]:
    assert board["total"] == len(board["entries"])
    return {entry["player"]: entry["rating"] for entry in board["entries"]}


def test_sqlite_on_a_full_disk(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk", 8) as disk:
        _run(f"sqlite:///{disk / 'ratings.db'}", disk, tmp_path)


@contextlib.contextmanager
def _database_on(disk: Path) -> Iterator[str]:
    """A database whose tables are all in a tablespace on ``disk``; dropped at the end."""
    base = postgres_base_url()
    name = f"ratings_full_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as connection:
            connection.execute(text(f"CREATE TABLESPACE {name} LOCATION '{disk}'"))
            connection.execute(text(f"CREATE DATABASE {name} TABLESPACE {name}"))
        try:
            yield make_url(base).set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                connection.execute(text(f"DROP TABLESPACE IF EXISTS {name}"))
    finally:
        admin.dispose()


@pytest.mark.postgres
def test_postgres_on_a_full_tablespace(tmp_path: Path) -> None:
    postgres_base_url()  # skipped without PostgreSQL, failed under CI
    host = make_url(postgres_base_url()).host
    local = host in ("127.0.0.1", "localhost", "::1")
    require(local, f"the tablespace's tmpfs must be on PostgreSQL's host, not {host}")
    account = pwd.getpwnam("postgres")
    owner = (account.pw_uid, account.pw_gid)
    # Out of pytest's directories, which only root may enter: PostgreSQL's server must.
    parent = Path(tempfile.mkdtemp(prefix="ratings-tablespace-"))
    parent.chmod(0o755)
    try:
        # A new database copies template1 (about 8 MiB) into the tablespace.
        with small_tmpfs(parent / "disk", 24, owner) as disk, _database_on(disk) as url:
            _run(url, disk, tmp_path)
    finally:
        shutil.rmtree(parent, ignore_errors=True)
