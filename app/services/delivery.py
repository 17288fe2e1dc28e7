"""Delivering the change feed to its consumers: webhooks, and brokers (NATS JetStream, AMQP),
by the service's own background work (a task of every server process; nothing else to run).

Each consumer has, per ladder, a row of progress (``feed_consumers``): the cursor of the last
item it was given, the failures of the next one, and a **lease**. A process delivers for a
(consumer, ladder) only while it holds the lease, taken by one atomic update and renewed with
each item delivered; so two processes never send the same consumer the same ladder's items at
once, and a process that dies mid-delivery leaves a lease that runs out
(``RATINGS_DELIVERY_LEASE_SECONDS``), after which another, or the same one restarted, resumes
from the last item delivered. Items go out one at a time in cursor order, and the cursor
advances only once an item is acknowledged (a 2xx; a broker's confirm): **at least once**, in
order. An item that fails is tried again on the retry schedule, holding back that ladder's
later items for that consumer; past the schedule a webhook is marked failing (a replay tries
again), and a 410 disables it. A broker that is down is tried again every few seconds and
loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

import anyio.to_thread
import httpx
from sqlalchemy.orm import Session
from standardwebhooks.webhooks import Webhook as Signer

from app.core.database import Database
from app.core.errors import Unavailable
from app.core.settings import Settings
from app.models import Webhook, WebhookDelivery
from app.repositories.feed import FeedRepository
from app.repositories.webhooks import ConsumerRepository, WebhookRepository
from app.schemas.feed import FeedItemOut
from app.services.feed import item_out
from app.services.runtime import now
from app.services.seasons import announce_started
from app.services.webhooks import destination_refusal, hears_of

log = logging.getLogger(__name__)

#: Items read per page of a consumer's backlog.
ITEMS_PER_READ = 100
#: (Consumer, ladder) pairs one process delivers for at once.
CONCURRENT_DELIVERIES = 16
#: How often missing progress rows are created (new ladders, new webhooks).
ENSURE_EVERY_SECONDS = 5.0
#: A broker that did not confirm is tried again after this long.
BROKER_RETRY_SECONDS = 5.0
#: Longest error text kept.
ERROR_LENGTH = 500


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one send came to."""

    ok: bool
    status: int | None = None
    error: str | None = None
    #: The endpoint is gone (410): deliver nothing more to it.
    gone: bool = False


class Consumer(Protocol):
    """One consumer of the feed: a webhook, a broker."""

    name: str

    def hears_of(self, ladder_id: str) -> bool: ...

    def wants(self, item: dict[str, Any]) -> bool: ...

    async def send(self, ladder_id: str, item: dict[str, Any], body: str) -> Outcome: ...

    def retry_after(self, attempts: int) -> float | None:
        """Seconds before trying a failed item again (``attempts`` failures so far); None:
        stop (the consumer is marked failing)."""
        ...


class WebhookConsumer:
    def __init__(self, webhook: Webhook, http: httpx.AsyncClient, settings: Settings) -> None:
        self.name = webhook.id
        self.webhook = webhook
        self.http = http
        self.allowed = settings.allowed_webhook_hosts
        self.schedule = settings.retry_schedule
        self.signer = Signer(webhook.secret)

    def hears_of(self, ladder_id: str) -> bool:
        return hears_of(self.webhook, ladder_id)

    def wants(self, item: dict[str, Any]) -> bool:
        return self.webhook.types is None or item["type"] in self.webhook.types

    async def send(self, ladder_id: str, item: dict[str, Any], body: str) -> Outcome:
        url = self.webhook.url
        refusal = await anyio.to_thread.run_sync(destination_refusal, url, self.allowed)
        if refusal is not None:
            return Outcome(False, error=f"destination refused: {refusal}")
        stamp = now()
        headers = {
            "content-type": "application/json",
            "webhook-id": item["id"],
            "webhook-timestamp": str(int(stamp.timestamp())),
            "webhook-signature": self.signer.sign(item["id"], stamp, body),
        }
        try:
            answer = await self.http.post(url, content=body.encode(), headers=headers)
        except httpx.HTTPError as exc:
            return Outcome(False, error=f"{type(exc).__name__}: {exc}"[:ERROR_LENGTH])
        if 200 <= answer.status_code < 300:
            return Outcome(True, answer.status_code)
        return Outcome(False, answer.status_code, gone=answer.status_code == 410)

    def retry_after(self, attempts: int) -> float | None:
        return self.schedule[attempts - 1] if attempts <= len(self.schedule) else None


class NatsConsumer:
    """Publishes to NATS JetStream, subject ``ratings.{ladder}.{type}``, ``Nats-Msg-Id`` the
    item's id (JetStream drops a repeat within its duplicate window); an item counts as sent
    once JetStream acknowledges it stored."""

    name = "nats"
    STREAM = "RATINGS"

    def __init__(self, url: str) -> None:
        self.url = url
        self._stream: Any = None
        self._connection: Any = None

    def hears_of(self, ladder_id: str) -> bool:
        return True

    def wants(self, item: dict[str, Any]) -> bool:
        return True

    async def _jetstream(self) -> Any:
        import nats  # optional: imported only when a NATS URL is configured

        if self._connection is None or self._connection.is_closed:
            # One attempt (the client's default tries 60 times, 2 s apart, before failing): a
            # broker that is down costs a delivery step a moment, not two minutes.
            self._connection = await nats.connect(
                self.url,
                allow_reconnect=False,
                max_reconnect_attempts=1,
                connect_timeout=2,
                error_cb=_quiet,
            )
            self._stream = None
        if self._stream is None:
            stream = self._connection.jetstream()
            with contextlib.suppress(Exception):  # exists already (with these subjects)
                await stream.add_stream(name=self.STREAM, subjects=["ratings.>"])
            self._stream = stream
        return self._stream

    async def send(self, ladder_id: str, item: dict[str, Any], body: str) -> Outcome:
        subject = f"ratings.{ladder_id}.{item['type']}"
        try:
            stream = await self._jetstream()
            await stream.publish(subject, body.encode(), headers={"Nats-Msg-Id": item["id"]})
        except Exception as exc:  # the broker is down or refused: tried again, nothing lost
            await self.close()
            return Outcome(False, error=f"{type(exc).__name__}: {exc}"[:ERROR_LENGTH])
        return Outcome(True)

    def retry_after(self, attempts: int) -> float | None:
        return BROKER_RETRY_SECONDS

    async def close(self) -> None:
        connection, self._connection, self._stream = self._connection, None, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()


async def _quiet(_error: Exception) -> None:
    """The NATS client's error callback: the failed send reports it (its delivery's error)."""


class AmqpConsumer:
    """Publishes to the durable AMQP topic exchange ``ratings``, routing key
    ``{ladder}.{type}``, persistent, with publisher confirms: an item counts as sent once the
    broker confirms it."""

    name = "amqp"
    EXCHANGE = "ratings"

    def __init__(self, url: str) -> None:
        self.url = url
        self._connection: Any = None
        self._exchange: Any = None

    def hears_of(self, ladder_id: str) -> bool:
        return True

    def wants(self, item: dict[str, Any]) -> bool:
        return True

    async def _exchange_ready(self) -> Any:
        import aio_pika  # optional: imported only when an AMQP URL is configured

        if self._connection is None or self._connection.is_closed:
            self._connection = await aio_pika.connect(self.url)
            channel = await self._connection.channel(publisher_confirms=True)
            self._exchange = await channel.declare_exchange(
                self.EXCHANGE, aio_pika.ExchangeType.TOPIC, durable=True
            )
        return self._exchange

    async def send(self, ladder_id: str, item: dict[str, Any], body: str) -> Outcome:
        import aio_pika

        try:
            exchange = await self._exchange_ready()
            message = aio_pika.Message(
                body.encode(),
                content_type="application/json",
                message_id=item["id"],
                delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
            )
            await exchange.publish(message, routing_key=f"{ladder_id}.{item['type']}")
        except Exception as exc:  # the broker is down or refused: tried again, nothing lost
            await self.close()
            return Outcome(False, error=f"{type(exc).__name__}: {exc}"[:ERROR_LENGTH])
        return Outcome(True)

    def retry_after(self, attempts: int) -> float | None:
        return BROKER_RETRY_SECONDS

    async def close(self) -> None:
        connection, self._connection, self._exchange = self._connection, None, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()


class Dispatcher:
    """The feed's deliveries in one process: every ``delivery_poll_seconds`` it looks for
    consumers with items to deliver, leases them, and delivers each leased (consumer,
    ladder) in a task of its own."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Callable[[], datetime] = now,
    ) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock
        self.http = httpx.AsyncClient(timeout=settings.webhook_timeout, follow_redirects=False)
        self.brokers: list[NatsConsumer | AmqpConsumer] = []
        if settings.feed_nats_url:
            self.brokers.append(NatsConsumer(settings.feed_nats_url))
        if settings.feed_amqp_url:
            self.brokers.append(AmqpConsumer(settings.feed_amqp_url))
        self._busy: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._ensured_at = 0.0

    async def run(self) -> None:
        """Deliver until cancelled."""
        try:
            while True:
                try:
                    await self.step()
                except Unavailable as exc:  # a database outage: expected, the next step retries
                    log.warning("feed delivery waits for the database", extra={"error": str(exc)})
                except Exception:  # anything else is a bug worth its traceback; go on all the same
                    log.exception("feed delivery step failed")
                await asyncio.sleep(self.settings.delivery_poll_seconds)
        finally:
            await self.close()

    async def step(self) -> None:
        """One look: lease what is due and start delivering it."""
        consumers = {c.name: c for c in await self._consumers()}
        if time.monotonic() - self._ensured_at >= ENSURE_EVERY_SECONDS:
            await anyio.to_thread.run_sync(self._ensure, list(consumers.values()))
            # Seasons whose time has come are announced in their ladders' feeds.
            await anyio.to_thread.run_sync(announce_started, self.db, self.clock())
            self._ensured_at = time.monotonic()
        room = CONCURRENT_DELIVERIES - len(self._busy)
        if room <= 0 or not consumers:
            return
        due = await anyio.to_thread.run_sync(self._due, sorted(consumers), room)
        for name, ladder_id in due:
            if (name, ladder_id) in self._busy:
                continue
            lease = await anyio.to_thread.run_sync(self._lease, name, ladder_id)
            if lease is None:
                continue
            key = (name, ladder_id)
            task = asyncio.create_task(self._deliver(consumers[name], ladder_id, *lease))
            self._busy[key] = task
            task.add_done_callback(functools.partial(self._done, key))

    def _done(self, key: tuple[str, str], _task: asyncio.Task[None]) -> None:
        self._busy.pop(key, None)

    async def wait_idle(self) -> None:
        """Until every delivery started has ended (for tests and shutdown)."""
        while self._busy:
            await asyncio.gather(*self._busy.values(), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._busy.values()):
            task.cancel()
        await asyncio.gather(*self._busy.values(), return_exceptions=True)
        await self.http.aclose()
        for broker in self.brokers:
            await broker.close()

    # -- the database side, in worker threads -------------------------------------------

    async def _consumers(self) -> list[Consumer]:
        def active(session: Session) -> list[Webhook]:
            found = WebhookRepository(session).active()
            session.expunge_all()
            return found

        webhooks = await anyio.to_thread.run_sync(
            functools.partial(self.db.run, active, write=False)
        )
        return [WebhookConsumer(w, self.http, self.settings) for w in webhooks] + list(self.brokers)

    def _ensure(self, consumers: Sequence[Consumer]) -> None:
        """Progress rows for ladders a consumer hears of but has none for (a ladder created
        since: its items all came after the consumer, so from its start)."""

        def work(session: Session) -> None:
            repo = ConsumerRepository(session)
            ladders = repo.ladder_cursors()
            missing = []
            for consumer in consumers:
                known = repo.of(consumer.name)
                missing += [
                    {"consumer": consumer.name, "ladder_id": ladder, "delivered": 0}
                    for ladder in ladders
                    if ladder not in known and consumer.hears_of(ladder)
                ]
            repo.ensure(missing)

        self.db.run(work)

    def _due(self, names: Sequence[str], limit: int) -> list[tuple[str, str]]:
        def work(session: Session) -> list[tuple[str, str]]:
            due = ConsumerRepository(session).due(names, self.clock(), limit)
            return [(row.consumer, row.ladder_id) for row in due]

        return self.db.run(work, write=False)

    def _lease(self, name: str, ladder_id: str) -> tuple[str, int, int] | None:
        """(lease, delivered, attempts) if this process took the lease."""
        lease = secrets.token_hex(8)
        moment = self.clock()

        def work(session: Session) -> tuple[str, int, int] | None:
            until = moment + timedelta(seconds=self.settings.delivery_lease_seconds)
            row = ConsumerRepository(session).take_lease(name, ladder_id, lease, moment, until)
            return None if row is None else (lease, row.delivered, row.attempts)

        return self.db.run(work)

    def _items(self, ladder_id: str, after: int) -> list[dict[str, Any]]:
        def work(session: Session) -> list[dict[str, Any]]:
            return [
                item_out(item)
                for item in FeedRepository(session).page(ladder_id, after, ITEMS_PER_READ)
            ]

        return self.db.run(work, write=False)

    def _record(
        self,
        consumer: Consumer,
        ladder_id: str,
        lease: str,
        *,
        delivered: int,
        attempts: int = 0,
        retry_in: float | None = None,
        keep_lease: bool = True,
        error: str | None = None,
        delivery: WebhookDelivery | None = None,
        failing: bool = False,
        gone: bool = False,
    ) -> bool:
        """Progress (and the delivery's log line, and the webhook's state) in one
        transaction; False if the lease was lost (nothing recorded)."""
        moment = self.clock()

        def work(session: Session) -> bool:
            until = moment + timedelta(seconds=self.settings.delivery_lease_seconds)
            kept = ConsumerRepository(session).advance(
                consumer.name,
                ladder_id,
                lease,
                delivered=delivered,
                attempts=attempts,
                next_attempt_at=None if retry_in is None else moment + timedelta(seconds=retry_in),
                leased_until=until if keep_lease else None,
                last_error=error,
            )
            if not kept:
                return False
            if delivery is not None:
                WebhookRepository(session).log(delivery)
            if failing or gone:
                webhook = WebhookRepository(session).get(consumer.name)
                if webhook is not None:
                    if gone:
                        webhook.disabled_at = moment
                    else:
                        webhook.failing_since = moment
            return True

        return self.db.run(work)

    # -- one consumer's deliveries in one ladder ------------------------------------------

    async def _deliver(
        self, consumer: Consumer, ladder_id: str, lease: str, delivered: int, attempts: int
    ) -> None:
        """Items after ``delivered``, in order, while the lease holds and they succeed."""
        record = functools.partial(self._record, consumer, ladder_id, lease)
        try:
            while True:
                items = await anyio.to_thread.run_sync(self._items, ladder_id, delivered)
                if not items:
                    done = functools.partial(record, delivered=delivered, keep_lease=False)
                    await anyio.to_thread.run_sync(done)
                    return
                for item in items:
                    if not consumer.wants(item):  # not of its types: passed over
                        delivered = item["cursor"]
                        continue
                    outcome, delivery = await self._send(consumer, ladder_id, item, attempts + 1)
                    if outcome.ok:
                        delivered, attempts = item["cursor"], 0
                        sent = functools.partial(record, delivered=delivered, delivery=delivery)
                        if not await anyio.to_thread.run_sync(sent):
                            return  # the lease ran out and another process took over
                        continue
                    retry_in = None if outcome.gone else consumer.retry_after(attempts + 1)
                    failed = functools.partial(
                        record,
                        delivered=delivered,
                        attempts=attempts + 1,
                        retry_in=retry_in,
                        keep_lease=False,
                        error=outcome.error or f"answered {outcome.status}",
                        delivery=delivery,
                        failing=retry_in is None and not outcome.gone,
                        gone=outcome.gone,
                    )
                    await anyio.to_thread.run_sync(failed)
                    return
        except asyncio.CancelledError:
            raise
        except Unavailable as exc:  # an outage, a full disk, the shutdown's closed commits
            log.warning(
                "feed delivery waits for the database",
                extra={"consumer": consumer.name, "error": str(exc)},
            )
        except Exception:  # the database failed mid-way: the lease runs out, and it resumes
            log.exception("feed delivery failed", extra={"consumer": consumer.name})

    async def _send(
        self, consumer: Consumer, ladder_id: str, item: dict[str, Any], attempt: int
    ) -> tuple[Outcome, WebhookDelivery | None]:
        """Send one item; the outcome, and a webhook's log line."""
        body = FeedItemOut.model_validate(item).model_dump_json()
        began = time.perf_counter()
        outcome = await consumer.send(ladder_id, item, body)
        if not isinstance(consumer, WebhookConsumer):
            return outcome, None
        return outcome, WebhookDelivery(
            webhook_id=consumer.name,
            ladder_id=ladder_id,
            item_id=item["id"],
            cursor=item["cursor"],
            attempt=attempt,
            at=self.clock(),
            status=outcome.status,
            error=outcome.error,
            seconds=time.perf_counter() - began,
        )
