"""API keys (admin token only)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import DB, AdminOnly, AppSettings
from app.schemas.common import DEFAULT_PAGE_SIZE, MAX_OFFSET, MAX_PAGE_SIZE
from app.schemas.keys import KeyCreated, KeyIn, KeyList, KeyOut
from app.services import auth

router = APIRouter(tags=["keys"], dependencies=[AdminOnly])

KeyId = Annotated[str, Path(pattern=r"^[0-9a-f]{1,40}$")]


@router.post("/keys", response_model=KeyCreated, status_code=status.HTTP_201_CREATED)
def create_key(body: KeyIn, db: DB, settings: AppSettings) -> KeyCreated:
    """Create a key. The response holds the key itself, shown this once and never again."""
    secret = auth.hashing_secret(settings.admin_token, settings.key_secret)
    return auth.create_key(db, secret, body)


@router.get("/keys", response_model=KeyList)
def list_keys(
    db: DB,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> KeyList:
    return auth.list_keys(db, limit, offset)


@router.delete("/keys/{key_id}", response_model=KeyOut)
def revoke_key(key_id: KeyId, db: DB) -> KeyOut:
    """Revoke a key: every replica refuses it from the next request on."""
    return auth.revoke_key(db, key_id)
