"""Webhooks (API.md "Webhooks")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from app.schemas.common import Identifier, RequestModel, ResponseModel

ItemType = Literal[
    "game.rated",
    "game.corrected",
    "game.voided",
    "tournament.rated",
    "tournament.corrected",
    "tournament.voided",
    "rating.adjusted",
    "ladder.changed",
    "season.started",
    "season.changed",
    "fit.converged",
]
MAX_WEBHOOK_LADDERS = 1_000


class WebhookIn(RequestModel):
    url: Annotated[str, Field(min_length=1, max_length=2_000)] = Field(
        description="http(s) URL the items are POSTed to; loopback, private and link-local "
        "destinations are refused unless RATINGS_WEBHOOK_ALLOWED_HOSTS names their host."
    )
    ladders: list[Identifier] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_WEBHOOK_LADDERS,
        description="The ladders it hears of (default: every ladder the caller may read).",
    )
    types: list[ItemType] | None = Field(
        default=None, min_length=1, description="The item types it hears of (default: all)."
    )
    description: str | None = Field(default=None, max_length=500)


class WebhookOut(ResponseModel):
    id: str
    url: str
    ladders: list[str] | None
    types: list[str] | None
    description: str | None
    created_at: datetime
    status: Literal["active", "failing", "disabled"] = Field(
        description="failing: an item exhausted its retries, nothing is sent until a replay; "
        "disabled: the endpoint answered 410 Gone."
    )
    failing_since: datetime | None
    disabled_at: datetime | None


class WebhookCreated(WebhookOut):
    secret: str = Field(description="whsec_ + base64 of the signing key: shown only here.")


class WebhookList(ResponseModel):
    total: int
    webhooks: list[WebhookOut]


class DeliveryOut(ResponseModel):
    ladder: str
    item: str = Field(description="The item's id (the webhook-id header).")
    cursor: int
    attempt: int
    at: datetime
    status: int | None = Field(description="The HTTP status answered; null: no answer.")
    error: str | None
    seconds: float


class DeliveryList(ResponseModel):
    total: int
    deliveries: list[DeliveryOut]


class ReplayIn(RequestModel):
    after: int = Field(ge=0, description="Deliver again every item after this cursor.")
    ladder: Identifier | None = Field(
        default=None, description="Of this ladder only (default: of every ladder it hears of)."
    )


class ReplayOut(ResponseModel):
    webhook: str
    after: int
    ladders: list[str]
