"""A ladder's seasons (API.md "Seasons")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response, status

from app.api.costs import charge_rerated
from app.api.deps import DB, AppSettings, HistoryAdmin, Reader
from app.api.query import Limit, Offset
from app.core.logging import note
from app.schemas.common import DEFAULT_PAGE_SIZE, IDENTIFIER_PATTERN
from app.schemas.seasons import SeasonChanged, SeasonIn, SeasonOut
from app.services import seasons as service

router = APIRouter(tags=["seasons"])

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
SeasonId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
#: The number of seasons a page of ``GET /ladders/{ladder}/seasons`` is taken from.
TOTAL_HEADER = "X-Total-Count"


@router.post(
    "/ladders/{ladder}/seasons",
    response_model=SeasonChanged,
    status_code=status.HTTP_201_CREATED,
)
def create_season(
    ladder: LadderId, body: SeasonIn, db: DB, caller: HistoryAdmin, settings: AppSettings
) -> SeasonChanged:
    """Add a season (past or future). Its reset applies at ``starts_at`` to every player
    rated before it; a start that stored results follow re-rates them, like a late result."""
    note(ladder=ladder)
    out = service.create_season(db, ladder, body, caller)
    charge_rerated(db, settings, caller, out.recomputed_events)
    return out


@router.get("/ladders/{ladder}/seasons", response_model=list[SeasonOut])
def list_seasons(
    ladder: LadderId,
    db: DB,
    caller: Reader,
    response: Response,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> list[SeasonOut]:
    """The ladder's seasons by start, each with its end (the next one's start) and status,
    paged as every list is (``limit``, ``offset``); the body stays the list API.md defines,
    so their number is the ``X-Total-Count`` header (a schedule's seasons may be many)."""
    caller.check_ladder(ladder)
    total, page = service.list_seasons(db, ladder, limit=limit, offset=offset)
    response.headers[TOTAL_HEADER] = str(total)
    return page


@router.get("/ladders/{ladder}/seasons/{season}", response_model=SeasonOut)
def get_season(ladder: LadderId, season: SeasonId, db: DB, caller: Reader) -> SeasonOut:
    caller.check_ladder(ladder)
    return service.get_season(db, ladder, season)


@router.put("/ladders/{ladder}/seasons/{season}", response_model=SeasonChanged)
def replace_season(
    ladder: LadderId,
    season: SeasonId,
    body: SeasonIn,
    db: DB,
    caller: HistoryAdmin,
    settings: AppSettings,
) -> SeasonChanged:
    """Change a season (the whole body again, its ``id`` the path's): history is re-rated
    from the earlier of its old and new start where its reset changed."""
    note(ladder=ladder)
    out = service.replace_season(db, ladder, season, body, caller)
    charge_rerated(db, settings, caller, out.recomputed_events)
    return out


@router.delete("/ladders/{ladder}/seasons/{season}", response_model=SeasonChanged)
def delete_season(
    ladder: LadderId, season: SeasonId, db: DB, caller: HistoryAdmin, settings: AppSettings
) -> SeasonChanged:
    """Remove a season: its reset no longer applies, and history after it is re-rated. The
    answer is the season as it stood."""
    note(ladder=ladder)
    out = service.delete_season(db, ladder, season, caller)
    charge_rerated(db, settings, caller, out.recomputed_events)
    return out
