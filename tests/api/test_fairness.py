"""Heavy work shared fairly between callers and charged by its cost (issue 39).

The fair slots (app/api/heavy.py): a freed slot goes to the waiting caller holding the
fewest; with several slots no caller holds them all; a light request takes none. The costs
(app/api/costs.py): a heavy read is charged by its measured time, a write by the stored
events it re-rated, and the admin token never. The flood itself, on real servers, is
tests/load/test_fairness.py.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from app.api.heavy import FairSlots
from app.core.database import Database
from app.main import create_app
from app.services import heavy, leaderboards, whatif
from tests.conftest import AUTH, make_settings
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: The issue's bound for a cheap request while heavy ones run (seconds).
FAST_SECONDS = 1.0
#: How long a test's blocked heavy read waits at most for the test to release it.
BLOCK_SECONDS = 10.0


@asynccontextmanager
async def _client(database: Database, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(make_settings(database_url=str(database.url), **settings), database=database)
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50_000))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://ratings.test", headers=AUTH
    ) as http:
        yield http


async def _key(client: httpx.AsyncClient, *scopes: str) -> dict[str, str]:
    created = await client.post("/keys", json={"name": "k", "scopes": list(scopes)})
    assert created.status_code == 201, created.text
    return {"Authorization": f"Bearer {created.json()['key']}"}


# -- the slots -----------------------------------------------------------------------------


async def test_a_freed_slot_goes_to_the_caller_holding_the_fewest() -> None:
    """One slot: "a" holds it and queues two more, then "b" queues one; "b" is served next,
    before "a"'s older requests, then "a"'s in their order."""
    slots = FairSlots(1)
    served: list[str] = []

    async def take(caller: str, name: str) -> None:
        await slots.acquire(caller)
        served.append(name)

    await slots.acquire("a")
    async with anyio.create_task_group() as group:
        for caller, name in (("a", "a2"), ("a", "a3"), ("b", "b1")):
            group.start_soon(take, caller, name)
            await anyio.sleep(0.01)  # queued in this order
        assert served == []
        slots.release("a")  # -> b1: both hold none now, a was served last
        await anyio.sleep(0.01)
        assert served == ["b1"]
        slots.release("b")  # -> a2, then a3
        await anyio.sleep(0.01)
        slots.release("a")
        await anyio.sleep(0.01)
    assert served == ["b1", "a2", "a3"]
    slots.release("a")
    assert slots.busy == 0
    assert not slots.waiting
    assert not slots.last_served


async def test_with_two_slots_no_caller_holds_both() -> None:
    slots = FairSlots(2)
    await slots.acquire("a")
    second: list[str] = []

    async def take(caller: str) -> None:
        await slots.acquire(caller)
        second.append(caller)

    async with anyio.create_task_group() as group:
        group.start_soon(take, "a")
        await anyio.sleep(0.01)
        assert second == [], "a held both slots"
        group.start_soon(take, "b")  # the free slot is b's at once
        await anyio.sleep(0.01)
        assert second == ["b"]
        slots.release("a")  # a's waiting request takes the slot a freed
        await anyio.sleep(0.01)
    assert second == ["b", "a"]


async def test_a_cancelled_wait_leaves_the_queue() -> None:
    slots = FairSlots(1)
    await slots.acquire("a")
    with anyio.move_on_after(0.05):
        await slots.acquire("b")
    assert not slots.waiting
    slots.release("a")
    assert slots.busy == 0


# -- through the app -----------------------------------------------------------------------


async def test_a_light_request_never_waits_for_another_callers_heavy_one(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One key's what-ifs hold the only slot and queue behind it; another key's two-player
    prediction (one unit: light) answers at once, and its what-if is served before the first
    key's queued ones."""
    release = threading.Event()
    order: list[Any] = []
    replay = whatif.what_if

    def blocked(db: Database, ladder: str, body: Any, cancel: Any) -> Any:
        order.append(body.params["k"])
        release.wait(BLOCK_SECONDS)
        return replay(db, ladder, body, cancel)

    monkeypatch.setattr(whatif, "what_if", blocked)
    async with _client(database) as client:
        await make_ladder(client, "club", "elo")
        await post_game(client, game("club", "g0", {"a": 1, "b": 2}))
        flooder, other = await _key(client, "read"), await _key(client, "read")

        def ask(k: int, headers: dict[str, str]) -> Any:
            return client.post("/ladders/club/whatif", json={"params": {"k": k}}, headers=headers)

        flood = []
        for k in (1, 2, 3):  # queued in this order
            flood.append(asyncio.ensure_future(ask(k, flooder)))
            await asyncio.sleep(0.1)
        theirs = asyncio.ensure_future(ask(100, other))
        await asyncio.sleep(0.2)
        assert order == [1], "the first what-if holds the only slot"

        started = time.perf_counter()
        pair = {"ladder": "club", "players": [{"player": "a"}, {"player": "b"}]}
        predicted = await client.post("/predictions", json=pair, headers=other)
        elapsed = time.perf_counter() - started
        assert predicted.status_code == 200, predicted.text
        assert elapsed < FAST_SECONDS
        assert not release.is_set()
        assert order == [1], "the slot was still held"

        release.set()
        answers = await asyncio.gather(*flood, theirs)
    assert [a.status_code for a in answers] == [200, 200, 200, 200]
    assert order == [1, 100, 2, 3]


async def test_an_as_of_board_is_charged_by_its_measured_time(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 10 ms a unit, a board that computes for at least 0.2 s costs at least 20 units;
    the same board now costs 1. The admin is charged nothing, public reads or not."""
    board = leaderboards.get_leaderboard

    def slow(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("as_of") is not None:
            time.sleep(0.2)
        return board(*args, **kwargs)

    monkeypatch.setattr(leaderboards, "get_leaderboard", slow)
    limit = 1_000
    settings = {"rate_limit_per_minute": limit, "cost_unit_ms": 10, "public_reads": True}
    async with _client(database, **settings) as client:
        await make_ladder(client, "club", "elo")
        await post_game(client, game("club", "g0", {"a": 1, "b": 2}))
        reader = await _key(client, "read")
        now = await client.get("/ladders/club/leaderboard", headers=reader)
        assert now.status_code == 200
        first = int(now.headers["RateLimit-Remaining"])
        past = await client.get(
            "/ladders/club/leaderboard", params={"as_of": "2030-01-01T00:00:00Z"}, headers=reader
        )
        assert past.status_code == 200, past.text
        charged = first - int(past.headers["RateLimit-Remaining"])
        assert charged >= 20, charged  # 0.2 s / 10 ms
        then = await client.get("/ladders/club/leaderboard", headers=reader)
        assert first - int(then.headers["RateLimit-Remaining"]) == charged + 1

        admin = await client.get(
            "/ladders/club/leaderboard", params={"as_of": "2030-01-01T00:00:00Z"}
        )
        assert admin.status_code == 200
        assert "RateLimit-Limit" not in admin.headers


async def test_a_write_that_re_rates_is_charged_by_the_events(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game older than three stored games of its players re-rates them: one unit more per
    whole EVENTS_PER_REQUEST (1,000; 2 here, so that three games suffice): 1 + 1."""
    monkeypatch.setattr(heavy, "EVENTS_PER_REQUEST", 2)
    async with _client(database, rate_limit_per_minute=100) as client:
        await make_ladder(client, "club", "elo")
        writer = await _key(client, "read", "results:write")
        for index in range(3):
            body = game("club", f"g{index}", {"a": 1, "b": 2}, minutes=10 + index)
            assert (await client.post("/games", json=body, headers=writer)).status_code == 201
        before = await client.get("/ladders/club", headers=writer)
        spent = 100 - int(before.headers["RateLimit-Remaining"])
        assert spent == 4  # three games and this read
        late = await client.post(
            "/games", json=game("club", "late", {"a": 2, "b": 1}, minutes=0), headers=writer
        )
        assert late.status_code == 201
        assert late.json()["recomputed_events"] == 3
        after = await client.get("/ladders/club", headers=writer)
        assert 100 - int(after.headers["RateLimit-Remaining"]) == spent + 2 + 1
