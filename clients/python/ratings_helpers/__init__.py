"""Hand-written helpers beside the generated ``ratings_client``: verify a webhook's signature
and follow a ladder's change feed (docs/clients.md)."""

from ratings_helpers.feed import FeedError, follow_feed
from ratings_helpers.webhooks import (
    WEBHOOK_TOLERANCE_SECONDS,
    WebhookVerificationError,
    check_signature,
    sign_webhook,
    verify_webhook,
)

__all__ = [
    "WEBHOOK_TOLERANCE_SECONDS",
    "FeedError",
    "WebhookVerificationError",
    "check_signature",
    "follow_feed",
    "sign_webhook",
    "verify_webhook",
]
