"""An evaluation is a heavy read (docs/operations.md "Heavy requests"): while one computes,
writes and other reads of its ladder answer; when its client goes, it stops."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import pytest

from app.api import heavy as heavy_slots
from app.core.database import Database
from app.main import create_app
from app.schemas.evaluation import EvaluateIn
from app.services import evaluation
from app.services.heavy import Abandoned, Cancel
from tests.conftest import AUTH, make_settings
from tests.helpers import game, post_then_disconnect

pytestmark = pytest.mark.anyio

#: Games of the ladder and candidates per request: tens of thousands of replayed events,
#: long enough (seconds) to be caught computing.
GAMES = 2_000
CANDIDATES = 40
#: How long the evaluation keeps computing at most while it waits for the probes to finish.
PROBES_WAIT_SECONDS = 60.0
#: The brief's bound for other requests while heavy reads run (as tests/api/test_heavy_requests).
FAST_SECONDS = 1.0


async def _ladder(client: httpx.AsyncClient) -> None:
    created = await client.post("/ladders", json={"id": "club", "system": "elo"})
    assert created.status_code == 201, created.text
    games = [
        game("club", f"g{i}", {f"p{i % 50}": 1, f"p{(i * 7 + 1) % 50}": 2}, minutes=i)
        for i in range(GAMES)
        if i % 50 != (i * 7 + 1) % 50
    ]
    batch = await client.post("/games/batch", json={"games": games})
    assert batch.status_code in (200, 201), batch.text


def _heavy_body() -> dict[str, Any]:
    # Other parameters than the ladder's: each candidate also checks every event.
    return {"candidates": [{"params": {"k": 10 + i}} for i in range(CANDIDATES)]}


async def test_writes_and_reads_answer_while_an_evaluation_runs(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The evaluation computes over and over until the probes are done, so they always meet
    # it computing (CPU-bound, as a long one is) whatever the machine's speed.
    probed = threading.Event()
    evaluate_one = evaluation.evaluate_one

    def until_probed(*args: Any, **kwargs: Any) -> Any:
        result = evaluate_one(*args, **kwargs)
        deadline = time.monotonic() + PROBES_WAIT_SECONDS
        while not probed.is_set() and time.monotonic() < deadline:
            result = evaluate_one(*args, **kwargs)
        return result

    monkeypatch.setattr(evaluation, "evaluate_one", until_probed)
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://ratings.test", headers=AUTH
    ) as client:
        await _ladder(client)
        running = asyncio.ensure_future(client.post("/ladders/club/evaluate", json=_heavy_body()))
        await asyncio.sleep(0.3)
        probes = []
        for index in range(3):
            for name, call in (
                (
                    "game",
                    client.post(
                        "/games",
                        json=game("club", f"live{index}", {"a": 1, "b": 2}, minutes=GAMES + index),
                    ),
                ),
                ("leaderboard", client.get("/ladders/club/leaderboard")),
                ("readyz", client.get("/readyz")),
            ):
                started = time.perf_counter()
                response = await call
                probes.append((name, time.perf_counter() - started, response.status_code))
            await asyncio.sleep(0.1)
        still_running = not running.done()
        probed.set()
        answered = await running
    assert still_running, "the probes ran after the evaluation: they tested nothing"
    assert answered.status_code == 200, answered.text
    for name, elapsed, status in probes:
        assert status in (200, 201), (name, status)
        assert elapsed < FAST_SECONDS, (name, elapsed)


async def test_a_cancelled_evaluation_stops(client: httpx.AsyncClient, database: Database) -> None:
    created = await client.post("/ladders", json={"id": "club", "system": "elo"})
    assert created.status_code == 201, created.text
    posted = await client.post("/games", json=game("club", "g1", {"a": 1, "b": 2}))
    assert posted.status_code == 201, posted.text
    cancel = Cancel()
    cancel.set()
    with pytest.raises(Abandoned):
        evaluation.evaluate(database, "club", EvaluateIn(), cancel)


async def test_an_abandoned_evaluation_stops_computing(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the app: the client disconnects after sending its body; the route answers 499
    and the evaluation ends on Abandoned instead of finishing its candidates."""
    endings: list[str] = []
    evaluate = evaluation.evaluate

    def watched(*args: Any, **kwargs: Any) -> Any:
        try:
            result = evaluate(*args, **kwargs)
        except Abandoned:
            endings.append("abandoned")
            raise
        endings.append("finished")
        return result

    computing = threading.Event()
    evaluate_one = evaluation.evaluate_one

    def rating(*args: Any, **kwargs: Any) -> Any:
        computing.set()
        return evaluate_one(*args, **kwargs)

    monkeypatch.setattr(evaluation, "evaluate", watched)
    monkeypatch.setattr(evaluation, "evaluate_one", rating)
    monkeypatch.setattr(heavy_slots, "DISCONNECT_POLL_SECONDS", 0.01)
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test", headers=AUTH
    ) as client:
        await _ladder(client)
    # The client goes once the ladder's history is read and the candidates are rating
    # (gone sooner, the request would be abandoned before computing).
    started = time.perf_counter()
    status = await post_then_disconnect(
        app,
        "/ladders/club/evaluate",
        _heavy_body(),
        computing,
        wait_seconds=PROBES_WAIT_SECONDS,
        auth=AUTH["Authorization"],
    )
    assert status == 499
    assert endings == ["abandoned"]
    assert time.perf_counter() - started < 0.3 + FAST_SECONDS


async def test_no_connection_is_held_while_computing(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The history is read in one short transaction; the replay computes with every pooled
    connection back in the pool (a long evaluation takes none from other requests)."""
    await _ladder(client)
    held: list[int] = []
    predictions = evaluation.predictions

    def watched(*args: Any, **kwargs: Any) -> Any:
        for index, pairs in enumerate(predictions(*args, **kwargs)):
            if index % 500 == 0:
                held.append(database.engine.pool.checkedout())  # type: ignore[attr-defined]
            yield pairs

    monkeypatch.setattr(evaluation, "predictions", watched)
    answered = await client.post("/ladders/club/evaluate", json={})
    assert answered.status_code == 200, answered.text
    assert len(held) >= 3
    assert set(held) == {0}
