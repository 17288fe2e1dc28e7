"""The pieces of the shutdown's cut (app/core/shutdown.py), in one process: a closed commit
gate refuses a write, which is rolled back; a request whose write committed, or that has
begun its answer, is not cut; a group commit's transaction tells every request it wrote for.
The whole, with a real server and SIGTERM, is tests/faults/test_shutdown.py."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from app.core import database as database_module
from app.core.database import Database
from app.core.errors import Unavailable
from app.core.shutdown import CURRENT, CommitGate, Fanout, InFlight, cut_at
from tests.helpers import game, make_ladder


async def _nowhere(message: object) -> None:
    raise AssertionError("nothing is sent in these tests")


def test_the_cut_comes_before_granians_kill() -> None:
    assert cut_at(20) == 18  # 2 s before the kill
    assert cut_at(1) == 0.75  # a quarter of a short grace


def test_a_closed_gate_refuses_a_write_and_rolls_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = CommitGate()
    monkeypatch.setattr(database_module, "COMMITS", gate)
    database = Database(f"sqlite:///{tmp_path / 'gate.db'}")
    try:
        database.run(lambda s: s.execute(text("CREATE TABLE t (n integer)")))

        def insert(session: Session) -> None:
            session.execute(text("INSERT INTO t VALUES (1)"))

        database.run(insert)
        gate.close()
        with pytest.raises(Unavailable) as refused:
            database.run(insert)
        assert refused.value.headers["Retry-After"] == "2"
        count = database.run(
            lambda s: s.execute(text("SELECT count(*) FROM t")).scalar_one(), write=False
        )  # reads go on
        assert count == 1
    finally:
        database.dispose()


def test_a_request_that_wrote_or_answered_is_not_cut(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'marks.db'}")
    try:
        database.run(lambda s: s.execute(text("CREATE TABLE t (n integer)")))
        wrote, read, answering, idle = (InFlight(name, _nowhere) for name in "abcd")
        token = CURRENT.set(wrote)
        try:
            database.run(lambda s: s.execute(text("INSERT INTO t VALUES (1)")))
        finally:
            CURRENT.reset(token)
        token = CURRENT.set(read)
        try:
            database.run(lambda s: s.execute(text("SELECT 1")), write=False)
        finally:
            CURRENT.reset(token)
        answering.started = True
        assert [f.cut() for f in (wrote, read, answering, idle)] == [False, True, False, True]
        assert (read.is_cut, idle.is_cut, wrote.is_cut) == (True, True, False)
    finally:
        database.dispose()


def test_a_group_commit_marks_every_request_it_wrote_for() -> None:
    first, second = InFlight("a", _nowhere), InFlight("b", _nowhere)
    Fanout([first, None, second]).mark_written()
    assert (first.wrote, second.wrote) == (True, True)


@pytest.mark.anyio
async def test_a_game_written_by_the_group_committer_marks_its_request(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """POST /games is written by the process's group-commit thread, not the request's: the
    request is told all the same, so that the cut at shutdown leaves its answer alone."""
    marked: list[str] = []
    monkeypatch.setattr(InFlight, "mark_written", lambda self: marked.append(self.request_id))
    await make_ladder(client, "club", "elo")
    marked.clear()
    body = game("club", "g1", {"ann": 1, "bob": 2})
    response = await client.post("/games", json=body, headers={"X-Request-ID": "the-game"})
    assert response.status_code == 201, response.text
    assert marked == ["the-game"]
