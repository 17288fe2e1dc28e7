from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import DB, ReadAccess, WriteAccess
from app.schemas.common import DEFAULT_PAGE_SIZE, IDENTIFIER_PATTERN, MAX_PAGE_SIZE
from app.schemas.ladders import LadderIn, LadderList, LadderOut
from app.services import ladders as service

router = APIRouter(tags=["ladders"])

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]


@router.post(
    "/ladders",
    response_model=LadderOut,
    status_code=status.HTTP_201_CREATED,
    dependencies=[WriteAccess],
)
def create_ladder(body: LadderIn, db: DB) -> LadderOut:
    """Create a rating pool with one system and fixed parameters (defaults filled in)."""
    return service.create_ladder(db, body)


@router.get("/ladders", response_model=LadderList, dependencies=[ReadAccess])
def list_ladders(
    db: DB,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> LadderList:
    return service.list_ladders(db, limit, offset)


@router.get("/ladders/{ladder}", response_model=LadderOut, dependencies=[ReadAccess])
def get_ladder(ladder: LadderId, db: DB) -> LadderOut:
    return service.get_ladder(db, ladder)
