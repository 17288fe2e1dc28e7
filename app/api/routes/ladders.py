from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Path, Query, Request, Response, status

from app.api.costs import charge_rerated, run_costed
from app.api.deps import (
    DB,
    AppSettings,
    Heavy,
    HistoryAdmin,
    LadderAdmin,
    Reader,
    charge,
)
from app.core.errors import Forbidden, Invalid
from app.core.logging import note
from app.schemas.common import (
    DEFAULT_PAGE_SIZE,
    IDENTIFIER_PATTERN,
    MAX_OFFSET,
    MAX_PAGE_SIZE,
)
from app.schemas.ladders import (
    LadderChanged,
    LadderIn,
    LadderList,
    LadderOut,
    LadderPatch,
    WhatIfIn,
    WhatIfOut,
)
from app.services import heavy, whatif
from app.services import ladders as service

router = APIRouter(tags=["ladders"])

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]


@router.post(
    "/ladders",
    response_model=LadderOut,
    status_code=status.HTTP_201_CREATED,
)
def create_ladder(body: LadderIn, db: DB, caller: LadderAdmin) -> LadderOut:
    """Create a rating pool with one system and fixed parameters (defaults filled in)."""
    if not caller.may_create(body.id, body.community):
        raise Forbidden(
            f"this key may not create ladder {body.id!r} in community {body.community!r}"
        )
    return service.create_ladder(db, body)


@router.get("/ladders", response_model=LadderList)
def list_ladders(
    db: DB,
    caller: Reader,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> LadderList:
    only = caller.visible_ladders()
    return service.list_ladders(db, limit, offset, only)


@router.get("/ladders/{ladder}", response_model=LadderOut)
def get_ladder(ladder: LadderId, db: DB, caller: Reader) -> LadderOut:
    caller.check_ladder(ladder)
    return service.get_ladder(db, ladder)


@router.patch("/ladders/{ladder}", response_model=LadderChanged)
def update_ladder(
    ladder: LadderId, body: LadderPatch, db: DB, caller: HistoryAdmin, settings: AppSettings
) -> LadderChanged:
    """Change the title, or the parameters: the whole ladder is then recomputed under them."""
    note(ladder=ladder)
    out = service.change_ladder(db, ladder, body, caller)
    charge_rerated(db, settings, caller, out.recomputed_events)
    return out


@router.delete("/ladders/{ladder}", status_code=status.HTTP_204_NO_CONTENT)
def delete_ladder(
    ladder: LadderId,
    db: DB,
    caller: LadderAdmin,
    confirm: Annotated[
        str | None,
        Query(max_length=100, description="The ladder's id again: deletion cannot be undone."),
    ] = None,
) -> Response:
    """Delete the ladder and its whole history (admin token only; ``?confirm=`` repeats the
    ladder's id). Its players' profiles stay: they are its community's."""
    note(ladder=ladder)
    if not caller.is_admin:
        raise Forbidden("only the admin token deletes a ladder")
    if confirm != ladder:
        raise Invalid.at(
            ("confirm",), f"must be the ladder's id ({ladder!r}): deleting it cannot be undone"
        )
    service.delete_ladder(db, ladder)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/ladders/{ladder}/whatif", response_model=WhatIfOut)
async def what_if(
    ladder: LadderId,
    body: WhatIfIn,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
) -> WhatIfOut | Response:
    """Replay the ladder's history under another system or parameters, storing nothing,
    and compare the leaderboards side by side.

    A heavy read (docs/operations.md "Heavy requests"): at most RATINGS_MAX_WHATIF_EVENTS
    events, counted by its length in the rate limit, replayed in one of the process's few
    slots."""
    caller.check_ladder(ladder)
    events = await anyio.to_thread.run_sync(heavy.live_events, db, ladder)
    heavy.check_whatif(settings, events)
    weight = heavy.whatif_weight(events)
    await charge(request, caller, settings, weight)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: whatif.what_if(db, ladder, body, cancel),
        charged=weight,
        heavy=True,
    )
