"""Heavy reads on a read replica (issue 39, RATINGS_READ_DATABASE_URL): what-if, evaluation
and as-of boards run on a hot standby once it has replayed everything the primary had
committed when the read began, so no reader sees an older state than the primary's (its own
writes included); a standby that lags more than a second, or does not answer, is passed
over and the read runs on the primary. Other reads and every write stay on the primary.

The primary and its standby are the failover test's (tests/faults/postgres_pair.py).
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from sqlalchemy.orm import Session

from app.cli.common import open_database
from app.core.database import REPLICA_CATCH_UP_SECONDS, Database
from app.core.settings import get_settings
from app.services.bulk import write_export
from tests.api.live_server import serving
from tests.conftest import ADMIN_TOKEN
from tests.faults.postgres_pair import PostgresPair
from tests.helpers import at

pytestmark = pytest.mark.postgres

HEADERS = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
HEAVY_READS = "ratings_heavy_reads_total"


@pytest.fixture(scope="module")
def pair() -> Iterator[PostgresPair]:
    clusters = PostgresPair()
    try:
        clusters.start()
        clusters.psql(clusters.primary_port, "CREATE TABLE t (n integer)", database="ratings")
        yield clusters
    finally:
        clusters.stop()


def _where_and_count(session: Session) -> tuple[bool, int]:
    """(on a standby, rows of t) as the transaction sees them."""
    standby = bool(session.execute(text("SELECT pg_is_in_recovery()")).scalar_one())
    return standby, int(session.execute(text("SELECT count(*) FROM t")).scalar_one())


def _insert(session: Session) -> None:
    session.execute(text("INSERT INTO t VALUES (1)"))


def test_heavy_reads_see_every_committed_write_and_fall_back_when_the_replica_lags(
    pair: PostgresPair,
) -> None:
    database = Database(pair.primary_url(), read_url=pair.standby_url())
    try:
        on_standby = 0
        for written in range(1, 21):  # each read right after a write: never one behind
            database.run(_insert)
            standby, count = database.run(_where_and_count, write=False, heavy=True)
            assert count == written
            on_standby += standby
        # Most on the standby; on a starved machine (CI's, once) it may lag past the 1 s a read
        # waits, and that read then runs on the primary, still seeing its write.
        assert on_standby >= 10
        assert database.run(_where_and_count, write=False) == (False, 20)  # not heavy

        pair.psql(pair.standby_port, "SELECT pg_wal_replay_pause()")
        try:
            database.run(_insert)
            started = time.monotonic()
            assert database.run(_where_and_count, write=False, heavy=True) == (False, 21)
            assert time.monotonic() - started >= REPLICA_CATCH_UP_SECONDS
        finally:
            pair.psql(pair.standby_port, "SELECT pg_wal_replay_resume()")
        assert database.run(_where_and_count, write=False, heavy=True) == (True, 21)
    finally:
        database.dispose()


def _heavy_reads(url: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(httpx.get(f"{url}/metrics").text):
        for sample in family.samples:
            if sample.name == "ratings_heavy_reads_total":
                found[sample.labels["database"]] = sample.value
    return found


def _counted_heavy_reads() -> float:
    """Heavy reads of this process, wherever they ran."""
    return sum(
        REGISTRY.get_sample_value(HEAVY_READS, {"database": where}) or 0.0
        for where in ("replica", "primary")
    )


def test_the_service_reads_its_own_writes_from_the_replica(
    pair: PostgresPair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = {
        "RATINGS_DATABASE_URL": pair.primary_url(),
        "RATINGS_READ_DATABASE_URL": pair.standby_url(),
    }
    with (
        serving(tmp_path, **settings) as server,
        httpx.Client(base_url=server.url, headers=HEADERS, timeout=30) as client,
    ):
        assert client.post("/ladders", json={"id": "club", "system": "elo"}).status_code == 201
        rounds = 10
        for index in range(rounds):
            body = {
                "ladder": "club",
                "id": f"g{index}",
                "played_at": at(index),
                "players": [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 2}],
            }
            assert client.post("/games", json=body).status_code == 201
            # As of now: a board replayed from the history, on the replica, with this game.
            board = client.get("/ladders/club/leaderboard", params={"as_of": at(index + 1)}).json()
            assert {e["player"]: e["games"] for e in board["entries"]} == {
                "ann": index + 1,
                "bob": index + 1,
            }
        whatif = client.post("/ladders/club/whatif", json={"params": {"k": 16}})
        assert whatif.status_code == 200, whatif.text
        reads = _heavy_reads(server.url)
    # Every heavy read counted once; on a starved machine the standby may lag past the 1 s a
    # read waits, which then runs on the primary (the in-process test above is strict).
    assert reads.get("replica", 0) + reads.get("primary", 0) == rounds + 1
    assert reads.get("replica", 0) >= rounds // 2

    # `ratings export`, a whole history in one read, is a heavy read too: the CLI opens the
    # replica as the service does, and the file has every game the primary acknowledged.
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    database = open_database()
    try:
        assert database.replica is not None
        counted = _counted_heavy_reads()
        out = io.StringIO()
        assert write_export(database, "club", out) == rounds
        # Counted as a heavy read (where it ran depends on the standby's lag, as above).
        assert _counted_heavy_reads() == counted + 1
    finally:
        database.dispose()
        get_settings.cache_clear()
    exported = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line.get("id") for line in exported if "players" in line] == [
        f"g{index}" for index in range(rounds)
    ]


def test_a_replica_that_does_not_answer_is_passed_over(pair: PostgresPair) -> None:
    database = Database(pair.primary_url(), read_url=pair.standby_url())
    try:
        database.run(_insert)
        pair.stop_standby()  # the module's last test: the pair is not needed after it
        standby, count = database.run(_where_and_count, write=False, heavy=True)
        assert not standby
        assert count == int(pair.psql(pair.primary_port, "SELECT count(*) FROM t", "ratings"))
    finally:
        database.dispose()
