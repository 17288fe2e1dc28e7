"""Webhooks: endpoints that hear of the change feed (POST/GET/DELETE /webhooks, deliveries,
replay)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response, status

from app.api.deps import DB, AppSettings, LadderAdmin
from app.api.query import Limit, Offset
from app.schemas.common import DEFAULT_PAGE_SIZE
from app.schemas.webhooks import (
    DeliveryList,
    ReplayIn,
    ReplayOut,
    WebhookCreated,
    WebhookIn,
    WebhookList,
    WebhookOut,
)
from app.services import webhooks as service

router = APIRouter(tags=["webhooks"])

WebhookId = Annotated[str, Path(pattern=r"^wh_[0-9a-f]{24}$")]


@router.post("/webhooks", response_model=WebhookCreated, status_code=status.HTTP_201_CREATED)
def create_webhook(
    body: WebhookIn, db: DB, caller: LadderAdmin, settings: AppSettings
) -> WebhookCreated:
    """An endpoint for the feed's items (of its ladders and types), signed with the Standard
    Webhooks scheme; the secret is shown only in this answer."""
    return service.create_webhook(db, caller, body, settings.allowed_webhook_hosts)


@router.get("/webhooks", response_model=WebhookList)
def list_webhooks(
    db: DB, caller: LadderAdmin, limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0
) -> WebhookList:
    """Every webhook (the admin), or those the calling key created."""
    return service.list_webhooks(db, caller, limit, offset)


@router.get("/webhooks/{webhook_id}", response_model=WebhookOut)
def get_webhook(webhook_id: WebhookId, db: DB, caller: LadderAdmin) -> WebhookOut:
    return service.get_webhook(db, caller, webhook_id)


@router.delete("/webhooks/{webhook_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_webhook(webhook_id: WebhookId, db: DB, caller: LadderAdmin) -> Response:
    service.delete_webhook(db, caller, webhook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/webhooks/{webhook_id}/deliveries", response_model=DeliveryList)
def list_deliveries(
    webhook_id: WebhookId,
    db: DB,
    caller: LadderAdmin,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> DeliveryList:
    """Every attempt at delivering an item, newest first."""
    return service.deliveries(db, caller, webhook_id, limit, offset)


@router.post("/webhooks/{webhook_id}/replay", response_model=ReplayOut)
def replay_webhook(webhook_id: WebhookId, body: ReplayIn, db: DB, caller: LadderAdmin) -> ReplayOut:
    """Deliver again every item after a cursor (a failing endpoint is tried again)."""
    return service.replay(db, caller, webhook_id, body)
