"""The feed's items published to NATS JetStream and to an AMQP topic exchange (API.md
"Webhooks", last paragraph), against the real brokers this machine runs (NATS with JetStream on
4222, RabbitMQ on 5672; under CI=true a broker that does not answer fails the test). Each item
arrives exactly as the feed has it; with the broker out of reach (a proxy in front of it,
stopped and started again) nothing is lost and nothing goes out of order."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.services.delivery import Dispatcher
from tests.conftest import make_settings
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

NATS = ("127.0.0.1", 4222)
AMQP = ("127.0.0.1", 5672)
WAIT_SECONDS = 30.0


def _answers(address: tuple[str, int]) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(address) == 0


def _require(address: tuple[str, int], name: str) -> None:
    if not _answers(address):
        message = f"{name} does not answer on {address[0]}:{address[1]}"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI runs every broker test)")
        pytest.skip(message)


class Proxy:
    """A TCP proxy to a broker, to stop and start as the broker would go down and come back:
    stopping closes the listener and every connection through it."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.close()
        await self._server.wait_closed()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, upstream_writer}

        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(copy(reader, upstream_writer), copy(upstream_reader, writer))


async def _feed(client: httpx.AsyncClient, ladder: str) -> list[dict[str, Any]]:
    response = await client.get(f"/ladders/{ladder}/feed", params={"limit": 500})
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def _deliver(dispatcher: Dispatcher, done: Any) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not await done():
        assert time.monotonic() < deadline, "the broker did not get every item in time"
        await dispatcher.step()
        await asyncio.sleep(0.1)


async def _post_games(client: httpx.AsyncClient, ladder: str, count: int, start: int = 0) -> None:
    for n in range(start, start + count):
        await post_game(client, game(ladder, f"g{n}", {f"a{n % 3}": 1, f"b{n % 2}": 2}, n))


@pytest.fixture
async def nats_stream() -> AsyncIterator[Any]:
    _require(NATS, "NATS")
    import nats

    connection = await nats.connect(f"nats://{NATS[0]}:{NATS[1]}")
    stream = connection.jetstream()
    with contextlib.suppress(Exception):  # the service creates it as well, if it is first
        await stream.add_stream(name="RATINGS", subjects=["ratings.>"])
    yield stream
    await connection.close()


async def test_items_reach_nats_jetstream_exactly_as_the_feed_has_them(
    client: httpx.AsyncClient, database: Database, nats_stream: Any
) -> None:
    ladder = f"n{uuid.uuid4().hex[:8]}"
    await make_ladder(client, ladder, "elo")
    proxy = Proxy(NATS)
    await proxy.start()
    settings = make_settings(
        feed_nats_url=f"nats://127.0.0.1:{proxy.port}", delivery_poll_seconds=0.05
    )
    dispatcher = Dispatcher(database, settings)
    subscription = await nats_stream.subscribe(f"ratings.{ladder}.>", ordered_consumer=True)
    received: list[tuple[str, dict[str, Any], str | None]] = []

    async def drained(expected: int) -> bool:
        with contextlib.suppress(Exception):
            while True:
                message = await subscription.next_msg(timeout=0.05)
                headers = message.headers or {}
                received.append(
                    (message.subject, json.loads(message.data), headers.get("Nats-Msg-Id"))
                )
        return len(received) >= expected

    await _post_games(client, ladder, 3)
    await _deliver(dispatcher, lambda: drained(3))
    await proxy.stop()  # the broker goes away: games go on, nothing is published
    await _post_games(client, ladder, 3, start=3)
    for _ in range(5):
        await dispatcher.step()
        await asyncio.sleep(0.05)
    await dispatcher.wait_idle()
    await proxy.start()  # and comes back, on the same port
    await _deliver(dispatcher, lambda: drained(6))
    await dispatcher.close()
    await proxy.stop()
    items = await _feed(client, ladder)
    assert [(s, body, msg_id) for s, body, msg_id in received] == [
        (f"ratings.{ladder}.{item['type']}", item, item["id"]) for item in items
    ]


@pytest.fixture
async def amqp_queue() -> AsyncIterator[Any]:
    _require(AMQP, "RabbitMQ")
    import aio_pika

    connection = await aio_pika.connect(f"amqp://guest:guest@{AMQP[0]}:{AMQP[1]}/")
    channel = await connection.channel()
    exchange = await channel.declare_exchange("ratings", aio_pika.ExchangeType.TOPIC, durable=True)
    queue = await channel.declare_queue(exclusive=True)
    yield exchange, queue
    await connection.close()


async def test_items_reach_an_amqp_topic_exchange_exactly_as_the_feed_has_them(
    client: httpx.AsyncClient, database: Database, amqp_queue: Any
) -> None:
    exchange, queue = amqp_queue
    ladder = f"q{uuid.uuid4().hex[:8]}"
    await queue.bind(exchange, routing_key=f"{ladder}.#")
    await make_ladder(client, ladder, "elo")
    proxy = Proxy(AMQP)
    await proxy.start()
    settings = make_settings(
        feed_amqp_url=f"amqp://guest:guest@127.0.0.1:{proxy.port}/", delivery_poll_seconds=0.05
    )
    dispatcher = Dispatcher(database, settings)
    received: list[tuple[str, dict[str, Any], str | None, int | None]] = []

    async def drained(expected: int) -> bool:
        while (message := await queue.get(no_ack=True, fail=False)) is not None:
            received.append(
                (
                    message.routing_key,
                    json.loads(message.body),
                    message.message_id,
                    message.delivery_mode,
                )
            )
        return len(received) >= expected

    await _post_games(client, ladder, 3)
    await _deliver(dispatcher, lambda: drained(3))
    await proxy.stop()
    await _post_games(client, ladder, 3, start=3)
    for _ in range(5):
        await dispatcher.step()
        await asyncio.sleep(0.05)
    await dispatcher.wait_idle()
    await proxy.start()
    await _deliver(dispatcher, lambda: drained(6))
    await dispatcher.close()
    await proxy.stop()
    items = await _feed(client, ladder)
    assert received == [(f"{ladder}.{item['type']}", item, item["id"], 2) for item in items]
