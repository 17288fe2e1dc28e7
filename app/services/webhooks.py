"""Webhooks: endpoints that hear of a ladder's feed items (API.md "Webhooks").

Creating one keeps its secret (``whsec_`` + base64, shown once) and starts it at each ladder's
current cursor: it hears of what commits from then on (a replay sends earlier items). The
items are delivered by the service's own background work (app/services/delivery.py).

**Destinations.** A URL must be http(s) and its host must resolve to public addresses only:
loopback, private, link-local, multicast and reserved addresses are refused (422), unless the
host is listed in ``RATINGS_WEBHOOK_ALLOWED_HOSTS``. Delivery checks again before each send
(the name may resolve elsewhere by then), and never follows a redirect.
"""

from __future__ import annotations

import base64
import ipaddress
import secrets
import socket
from typing import Literal
from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Forbidden, Invalid, NotFound
from app.models import Webhook
from app.repositories.webhooks import ConsumerRepository, WebhookRepository
from app.schemas.webhooks import (
    DeliveryList,
    DeliveryOut,
    ReplayIn,
    ReplayOut,
    WebhookCreated,
    WebhookIn,
    WebhookList,
    WebhookOut,
)
from app.services.auth import Principal
from app.services.runtime import now

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24


def destination_refusal(url: str, allowed: frozenset[str]) -> str | None:
    """Why ``url`` may not be sent to, or None. Resolves its host (blocking)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host"
    host = parts.hostname.lower()
    if host in allowed:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError) as exc:
        return f"its host {host!r} does not resolve ({exc})"
    for *_, sockaddr in found:
        address = ipaddress.ip_address(sockaddr[0])
        if not address.is_global or address.is_multicast:
            return (
                f"its host {host!r} is {address}, a loopback, private or link-local address; "
                "list the host in RATINGS_WEBHOOK_ALLOWED_HOSTS to allow it"
            )
    return None


def _status(webhook: Webhook) -> Literal["active", "failing", "disabled"]:
    if webhook.disabled_at is not None:
        return "disabled"
    return "failing" if webhook.failing_since is not None else "active"


def _out(webhook: Webhook) -> WebhookOut:
    return WebhookOut(
        id=webhook.id,
        url=webhook.url,
        ladders=webhook.ladders,
        types=webhook.types,
        description=webhook.description,
        created_at=webhook.created_at,
        status=_status(webhook),
        failing_since=webhook.failing_since,
        disabled_at=webhook.disabled_at,
    )


def hears_of(webhook: Webhook, ladder_id: str) -> bool:
    return webhook.ladders is None or ladder_id in webhook.ladders


def create_webhook(
    db: Database, caller: Principal, body: WebhookIn, allowed: frozenset[str]
) -> WebhookCreated:
    ladders = body.ladders
    if not caller.is_admin:
        visible = caller.visible_ladders()
        # A limited key's webhook hears of its ladders only (a key of communities: the
        # ladders they hold now), never of every ladder.
        if ladders is None and visible is not None:
            ladders = sorted(visible)
        outside = [ladder for ladder in ladders or () if not caller.sees(ladder)]
        if outside:
            raise Forbidden(f"this key may not manage ladders {outside}")
    refusal = destination_refusal(body.url, allowed)
    if refusal is not None:
        raise Invalid.at(("url",), refusal)
    secret = SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()
    webhook = Webhook(
        id=f"wh_{secrets.token_hex(12)}",
        url=body.url,
        ladders=sorted(set(ladders)) if ladders is not None else None,
        types=sorted(set(body.types)) if body.types is not None else None,
        description=body.description,
        secret=secret,
        owner_key=caller.key_id,
        created_at=now(),
    )

    def work(session: Session) -> None:
        WebhookRepository(session).add(webhook)
        consumers = ConsumerRepository(session)
        # From each ladder's current cursor: it hears of what commits from now on.
        consumers.ensure(
            [
                {"consumer": webhook.id, "ladder_id": ladder, "delivered": cursor}
                for ladder, cursor in consumers.ladder_cursors().items()
                if hears_of(webhook, ladder)
            ]
        )

    db.run(work)
    return WebhookCreated(**_out(webhook).model_dump(), secret=secret)


def _visible(session: Session, caller: Principal, webhook_id: str) -> Webhook:
    """A webhook the caller may see: the admin sees all, a key the ones it created."""
    webhook = WebhookRepository(session).get(webhook_id)
    if webhook is None or not (caller.is_admin or webhook.owner_key == caller.key_id):
        raise NotFound(f"webhook {webhook_id!r} does not exist")
    return webhook


def list_webhooks(db: Database, caller: Principal, limit: int, offset: int) -> WebhookList:
    def work(session: Session) -> WebhookList:
        owner = None if caller.is_admin else caller.key_id
        total, found = WebhookRepository(session).page(owner, limit, offset)
        return WebhookList(total=total, webhooks=[_out(w) for w in found])

    return db.run(work, write=False)


def get_webhook(db: Database, caller: Principal, webhook_id: str) -> WebhookOut:
    return db.run(lambda session: _out(_visible(session, caller, webhook_id)), write=False)


def delete_webhook(db: Database, caller: Principal, webhook_id: str) -> None:
    def work(session: Session) -> None:
        _visible(session, caller, webhook_id)
        WebhookRepository(session).remove(webhook_id)

    db.run(work)


def deliveries(
    db: Database, caller: Principal, webhook_id: str, limit: int, offset: int
) -> DeliveryList:
    def work(session: Session) -> DeliveryList:
        _visible(session, caller, webhook_id)
        total, found = WebhookRepository(session).deliveries(webhook_id, limit, offset)
        return DeliveryList(
            total=total,
            deliveries=[
                DeliveryOut(
                    ladder=d.ladder_id,
                    item=d.item_id,
                    cursor=d.cursor,
                    attempt=d.attempt,
                    at=d.at,
                    status=d.status,
                    error=d.error,
                    seconds=d.seconds,
                )
                for d in found
            ],
        )

    return db.run(work, write=False)


def replay(db: Database, caller: Principal, webhook_id: str, body: ReplayIn) -> ReplayOut:
    """Deliver every item after ``body.after`` again (of one ladder, or of all it hears of),
    in cursor order; a failing endpoint is tried again (a disabled one stays disabled)."""

    def work(session: Session) -> ReplayOut:
        webhook = _visible(session, caller, webhook_id)
        if body.ladder is not None and not hears_of(webhook, body.ladder):
            raise Invalid.at(("ladder",), f"webhook {webhook_id!r} does not hear of it")
        consumers = ConsumerRepository(session)
        consumers.ensure(
            [
                {"consumer": webhook.id, "ladder_id": ladder, "delivered": 0}
                for ladder in consumers.ladder_cursors()
                if hears_of(webhook, ladder) and body.ladder in (None, ladder)
            ]
        )
        consumers.rewind(webhook.id, body.after, body.ladder)
        webhook.failing_since = None
        ladders = sorted(consumers.of(webhook.id))
        if body.ladder is not None:
            ladders = [body.ladder] if body.ladder in ladders else []
        return ReplayOut(webhook=webhook.id, after=body.after, ladders=ladders)

    return db.run(work)
