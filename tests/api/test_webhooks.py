"""Webhooks (API.md "Webhooks"): the feed's items POSTed in cursor order with Standard
Webhooks signatures (checked with the ``standardwebhooks`` package), retried on the schedule
with the same id, never sent by two processes at once, resumed after a process dies, and
only to destinations that are allowed."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from standardwebhooks.webhooks import Webhook as Verifier

from app.core.database import Database
from app.core.settings import Settings
from app.main import create_app
from app.services.delivery import Dispatcher
from app.services.runtime import now
from tests.conftest import make_settings
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: How long a test waits for deliveries to reach what it expects.
WAIT_SECONDS = 20.0


class Receiver:
    """An HTTP endpoint on 127.0.0.1 answering each POST as ``answer`` says (a status, or
    None to hang past the deliveries' timeout), recording what it received and whether two
    requests were ever in flight at once."""

    def __init__(self, answer: Callable[[int], int | None], hold: float = 0.0) -> None:
        self.answer = answer
        self.hold = hold
        self.received: list[tuple[dict[str, str], bytes, int | None]] = []
        self.in_flight = 0
        self.overlapped = False
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                with receiver._lock:
                    receiver.in_flight += 1
                    receiver.overlapped |= receiver.in_flight > 1
                    status = receiver.answer(len(receiver.received))
                    receiver.received.append((dict(self.headers), body, status))
                try:
                    time.sleep(receiver.hold if status is not None else 2.0)
                    self.send_response(status or 200)
                    self.end_headers()
                except OSError:
                    pass
                finally:
                    with receiver._lock:
                        receiver.in_flight -= 1

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def items(self) -> list[dict[str, Any]]:
        return [json.loads(body) for _headers, body, _status in self.received]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def receiving(
    answer: Callable[[int], int | None] = lambda _n: 200, hold: float = 0.0
) -> Iterator[Receiver]:
    receiver = Receiver(answer, hold)
    try:
        yield receiver
    finally:
        receiver.close()


def _settings(database: Database, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": str(database.url),
        "webhook_allowed_hosts": "127.0.0.1",
        "webhook_timeout": 0.5,
        "webhook_retry_seconds": "0.2,0.2",
        "delivery_poll_seconds": 0.05,
        "delivery_lease_seconds": 5.0,
    }
    return make_settings(**(values | extra))


async def _until(condition: Callable[[], bool], dispatchers: list[Dispatcher], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        for dispatcher in dispatchers:
            await dispatcher.step()
        await asyncio.sleep(0.05)
    for dispatcher in dispatchers:
        await dispatcher.wait_idle()


async def _webhook(client: httpx.AsyncClient, url: str, **extra: Any) -> dict[str, Any]:
    response = await client.post("/webhooks", json={"url": url, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert created["secret"].startswith("whsec_")
    return created


@pytest.fixture
async def allowed(database: Database) -> httpx.AsyncClient:
    """A client of an app that allows webhooks to 127.0.0.1."""
    app = create_app(_settings(database), database=database)
    from tests.conftest import AUTH

    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://r.test", headers=AUTH
    )


async def test_a_failed_item_is_retried_with_the_same_id_and_signed(
    allowed: httpx.AsyncClient, database: Database
) -> None:
    """500, then no answer within the timeout, then 200: the item arrives three times with
    the same webhook-id and valid signatures; the next item only after it."""
    await make_ladder(allowed, "club", "elo")
    answers = {0: 500, 1: None}
    with receiving(lambda n: answers.get(n, 200)) as receiver:
        hook = await _webhook(allowed, receiver.url)
        first = await post_game(allowed, game("club", "g1", {"a": 1, "b": 2}, 10))
        await post_game(allowed, game("club", "g2", {"a": 1, "c": 2}, 20))
        dispatcher = Dispatcher(database, _settings(database))
        await _until(lambda: len(receiver.received) >= 4, [dispatcher], "four deliveries")
        await dispatcher.close()
    verifier = Verifier(hook["secret"])
    ids = []
    for headers, body, _status in receiver.received:
        lowered = {k.lower(): v for k, v in headers.items()}
        assert verifier.verify(body, lowered)["id"] == lowered["webhook-id"]
        ids.append(lowered["webhook-id"])
    items = receiver.items()
    assert [i["event"]["id"] for i in items] == [first["id"], "g1", "g1", "g2"]
    assert ids[0] == ids[1] == ids[2] != ids[3]
    assert [i["cursor"] for i in items] == [1, 1, 1, 2]
    log = (await allowed.get(f"/webhooks/{hook['id']}/deliveries")).json()
    assert [(d["cursor"], d["attempt"], d["status"]) for d in reversed(log["deliveries"])] == [
        (1, 1, 500),
        (1, 2, None),
        (1, 3, 200),
        (2, 1, 200),
    ]


async def test_two_processes_never_deliver_at_once_and_each_item_goes_once(
    allowed: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(allowed, "club", "elo")
    with receiving(hold=0.05) as receiver:
        await _webhook(allowed, receiver.url)
        for n in range(8):
            await post_game(allowed, game("club", f"g{n}", {f"a{n}": 1, f"b{n}": 2}, n))
        replicas = [Dispatcher(database, _settings(database)) for _ in range(2)]
        await asyncio.gather(*(replica.step() for replica in replicas))
        await _until(lambda: len(receiver.received) >= 8, replicas, "eight deliveries")
        for replica in replicas:
            await replica.close()
    assert not receiver.overlapped
    assert [i["cursor"] for i in receiver.items()] == list(range(1, 9))


async def test_a_process_that_died_mid_delivery_is_taken_over_when_its_lease_runs_out(
    allowed: httpx.AsyncClient, database: Database
) -> None:
    """A process took the lease and died (nothing delivered): the next process resumes once
    the lease runs out, not before."""
    await make_ladder(allowed, "club", "elo")
    with receiving() as receiver:
        hook = await _webhook(allowed, receiver.url)
        await post_game(allowed, game("club", "g1", {"a": 1, "b": 2}, 10))
        dead = Dispatcher(database, _settings(database))
        assert await asyncio.to_thread(dead._lease, hook["id"], "club") is not None
        later = [now() + timedelta(seconds=6)]
        survivor = Dispatcher(
            database, _settings(database), clock=lambda: later[0] - timedelta(seconds=6)
        )
        await survivor.step()
        await survivor.wait_idle()
        assert receiver.received == []  # the dead process's lease still holds
        survivor.clock = lambda: later[0]
        await _until(lambda: len(receiver.received) == 1, [survivor], "the item's delivery")
        await survivor.close()
        await dead.close()
    assert receiver.items()[0]["event"]["id"] == "g1"


async def test_410_disables_and_exhausted_retries_mark_failing_until_a_replay(
    allowed: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(allowed, "club", "elo")
    with receiving(lambda _n: 410) as gone, receiving(lambda n: 500 if n < 3 else 200) as flaky:
        dead = await _webhook(allowed, gone.url)
        failing = await _webhook(allowed, flaky.url)
        await post_game(allowed, game("club", "g1", {"a": 1, "b": 2}, 10))
        dispatcher = Dispatcher(database, _settings(database))

        async def state(hook: dict[str, Any]) -> str:
            status: str = (await allowed.get(f"/webhooks/{hook['id']}")).json()["status"]
            return status

        await _until(
            lambda: len(flaky.received) >= 3 and len(gone.received) >= 1, [dispatcher], "failures"
        )
        assert await state(dead) == "disabled"
        assert await state(failing) == "failing"  # 500 three times: past a schedule of two retries
        await asyncio.sleep(0.5)
        for _ in range(5):
            await dispatcher.step()
        await dispatcher.wait_idle()
        assert (len(gone.received), len(flaky.received)) == (1, 3)  # nothing more sent
        replayed = await allowed.post(f"/webhooks/{failing['id']}/replay", json={"after": 0})
        assert replayed.json()["ladders"] == ["club"]
        assert await state(failing) == "active"
        await _until(lambda: len(flaky.received) == 4, [dispatcher], "the replayed item")
        await dispatcher.close()
    assert flaky.received[-1][2] == 200


async def test_types_and_ladders_choose_what_a_webhook_hears_of(
    allowed: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(allowed, "club", "elo")
    await make_ladder(allowed, "other", "elo")
    with receiving() as receiver:
        await _webhook(allowed, receiver.url, ladders=["club"], types=["game.voided"])
        await post_game(allowed, game("club", "g1", {"a": 1, "b": 2}, 10))
        await post_game(allowed, game("other", "o1", {"a": 1, "b": 2}, 10))
        assert (await allowed.delete("/ladders/club/games/g1")).status_code == 200
        await post_game(allowed, game("club", "g2", {"a": 1, "b": 2}, 20))
        dispatcher = Dispatcher(database, _settings(database))
        await _until(lambda: len(receiver.received) == 1, [dispatcher], "the void")
        for _ in range(5):
            await dispatcher.step()
        await dispatcher.wait_idle()
        await dispatcher.close()
    assert [(i["type"], i["event"]["id"]) for i in receiver.items()] == [("game.voided", "g1")]
    with database.engine.connect() as connection:
        delivered = connection.execute(
            text("SELECT ladder_id, delivered FROM feed_consumers ORDER BY ladder_id")
        ).all()
    assert [tuple(row) for row in delivered] == [("club", 3)]  # past the items it skipped


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("http://127.0.0.1:9/x", "loopback, private or link-local"),
        ("http://10.1.2.3/x", "loopback, private or link-local"),
        ("http://169.254.169.254/latest", "loopback, private or link-local"),
        ("http://[::1]/x", "loopback, private or link-local"),
        ("ftp://example.org/x", "http:// or https://"),
        ("not a url", "http:// or https://"),
    ],
)
async def test_destinations_that_are_not_public_are_refused(
    client: httpx.AsyncClient, url: str, rule: str
) -> None:
    response = await client.post("/webhooks", json={"url": url})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["url"]
    assert rule in response.json()["errors"][0]["msg"]
    assert (await client.get("/webhooks")).json()["total"] == 0


async def test_a_key_manages_webhooks_of_its_own_ladders_only(
    allowed: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(allowed, "club", "elo")
    created = await allowed.post(
        "/keys", json={"name": "k", "scopes": ["ladders:admin"], "ladders": ["club"]}
    )
    key = {"Authorization": f"Bearer {created.json()['key']}"}
    with receiving() as receiver:
        refused = await allowed.post(
            "/webhooks", json={"url": receiver.url, "ladders": ["other"]}, headers=key
        )
        assert refused.status_code == 403
        own = await allowed.post("/webhooks", json={"url": receiver.url}, headers=key)
        assert own.status_code == 201
        assert own.json()["ladders"] == ["club"]
        admins = await _webhook(allowed, receiver.url)
        listed = (await allowed.get("/webhooks", headers=key)).json()
        assert [w["id"] for w in listed["webhooks"]] == [own.json()["id"]]
        assert (await allowed.get(f"/webhooks/{admins['id']}", headers=key)).status_code == 404
        assert (
            await allowed.delete(f"/webhooks/{own.json()['id']}", headers=key)
        ).status_code == 204
        assert (await allowed.get("/webhooks")).json()["total"] == 1
