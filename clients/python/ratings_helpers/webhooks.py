"""Webhook signatures, as Standard Webhooks 1.0 defines them (docs/sync.md): the header
``webhook-signature`` holds space-separated ``v1,<base64 HMAC-SHA256>`` signatures, keyed by the
secret's bytes (base64 after ``whsec_``), over ``{webhook-id}.{webhook-timestamp}.{body}``.
The standard library only; tests/clients checks it against the ``standardwebhooks`` package."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping

from ratings_client.models.feed_item_out import FeedItemOut

#: Seconds a timestamp may be from the receiver's clock (the standard's five minutes).
WEBHOOK_TOLERANCE_SECONDS = 5 * 60
_SECRET_PREFIX = "whsec_"


class WebhookVerificationError(Exception):
    """A missing header, a timestamp too far from now, or no matching signature."""


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(_SECRET_PREFIX))


def _bytes(body: bytes | str) -> bytes:
    return body.encode() if isinstance(body, str) else body


def sign_webhook(secret: str, webhook_id: str, timestamp: int, body: bytes | str) -> str:
    """``v1,`` + base64 of the HMAC: what the service sends in ``webhook-signature``."""
    signed = f"{webhook_id}.{timestamp}.".encode() + _bytes(body)
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name and value:
            return value
    raise WebhookVerificationError(f"missing header {name}")


def check_signature(
    secret: str,
    body: bytes | str,
    headers: Mapping[str, str],
    *,
    now: float | None = None,
    tolerance: float = WEBHOOK_TOLERANCE_SECONDS,
) -> None:
    """Raise :class:`WebhookVerificationError` unless ``body`` (exactly as received) carries a
    valid signature, made within ``tolerance`` seconds of ``now`` (default: the clock)."""
    webhook_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not stamp.isdigit():
        raise WebhookVerificationError("webhook-timestamp is not a Unix time in seconds")
    timestamp = int(stamp)
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        raise WebhookVerificationError("webhook-timestamp is too far from now")
    expected = sign_webhook(secret, webhook_id, timestamp, body).encode()
    # Every v1 signature is compared in constant time; others (v1a: asymmetric) are skipped.
    if not any(
        hmac.compare_digest(signature.encode(), expected)
        for signature in signatures.split(" ")
        if signature.startswith("v1,")
    ):
        raise WebhookVerificationError("no signature matches")


def verify_webhook(
    secret: str,
    body: bytes | str,
    headers: Mapping[str, str],
    *,
    now: float | None = None,
    tolerance: float = WEBHOOK_TOLERANCE_SECONDS,
) -> FeedItemOut:
    """The feed item a webhook delivered, once :func:`check_signature` accepts it."""
    check_signature(secret, body, headers, now=now, tolerance=tolerance)
    return FeedItemOut.from_dict(json.loads(body))
