from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BeforeValidator

from app.api.deps import DB, AppSettings, Heavy, LadderAdmin, Reader, charge, run_heavy
from app.core.errors import Invalid
from app.schemas.common import (
    DEFAULT_PAGE_SIZE,
    IDENTIFIER_PATTERN,
    MAX_COUNT_FILTER,
    MAX_OFFSET,
    MAX_PAGE_SIZE,
    QUERY_TEXT_PATTERN,
    in_utc,
    rfc3339_text,
)
from app.schemas.events import AdjustmentIn
from app.schemas.players import HistoryOut, LeaderboardOut, PlayerOut
from app.schemas.predictions import PredictionIn, PredictionOut
from app.services import heavy, predictions
from app.services import players as service

router = APIRouter()

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
PlayerId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]
MAX_ACTIVITY_DAYS = 36_500
AsOf = Annotated[
    datetime | None,
    BeforeValidator(lambda value: None if value is None else rfc3339_text(value)),
    Query(description="RFC 3339 time: the state just after everything up to then."),
]


def _utc(value: datetime | None) -> datetime | None:
    """Query times without an offset are refused rather than guessed."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise Invalid.at(("query", "as_of"), "must carry a timezone, e.g. 2026-11-29T10:00:00Z")
    try:
        return in_utc(value)
    except ValueError as exc:
        raise Invalid.at(("query", "as_of"), str(exc)) from None


@router.get(
    "/ladders/{ladder}/players/{player}",
    response_model=PlayerOut,
    tags=["players"],
)
def get_player(
    ladder: LadderId, player: PlayerId, db: DB, caller: Reader, as_of: AsOf = None
) -> PlayerOut:
    """A player's ratings (one per faction on per-faction ladders) with statistics."""
    caller.check_ladder(ladder)
    return service.get_player(db, ladder, player, _utc(as_of))


@router.put(
    "/ladders/{ladder}/players/{player}",
    response_model=PlayerOut,
    tags=["players"],
)
def adjust_player(
    ladder: LadderId, player: PlayerId, body: AdjustmentIn, db: DB, caller: LadderAdmin
) -> PlayerOut:
    """Set a player's state as of ``at`` (migration from another system, a ruling)."""
    caller.check_ladder(ladder)
    return service.adjust_player(db, ladder, player, body)


@router.get(
    "/ladders/{ladder}/players/{player}/history",
    response_model=HistoryOut,
    tags=["players"],
)
def get_history(
    ladder: LadderId,
    player: PlayerId,
    db: DB,
    caller: Reader,
    faction: Annotated[str | None, Query(max_length=100, pattern=QUERY_TEXT_PATTERN)] = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
    as_of: AsOf = None,
) -> HistoryOut:
    """The player's changes, oldest first."""
    caller.check_ladder(ladder)
    return service.get_history(db, ladder, player, faction, limit, offset, _utc(as_of))


@router.get(
    "/ladders/{ladder}/leaderboard",
    response_model=LeaderboardOut,
    tags=["players"],
)
def get_leaderboard(
    ladder: LadderId,
    db: DB,
    caller: Reader,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
    sort: Literal["rating", "name", "games"] = "rating",
    order: Literal["asc", "desc"] | None = None,
    active_within_days: Annotated[int | None, Query(ge=0, le=MAX_ACTIVITY_DAYS)] = None,
    faction: Annotated[str | None, Query(max_length=100, pattern=QUERY_TEXT_PATTERN)] = None,
    min_games: Annotated[int, Query(ge=0, le=MAX_COUNT_FILTER)] = 0,
    as_of: AsOf = None,
) -> LeaderboardOut:
    """Ratings by position (equal values share one). ``active_within_days=0`` shows everyone;
    without it a system's default applies (Fundox: 30 days). The answer echoes the filter it
    applied (``active_within_days``, ``active_since``), so an empty board says why."""
    caller.check_ladder(ladder)
    return service.get_leaderboard(
        db,
        ladder,
        limit=limit,
        offset=offset,
        sort=sort,
        order=order,
        active_within_days=active_within_days,
        faction=faction,
        min_games=min_games,
        as_of=_utc(as_of),
    )


@router.post("/predictions", response_model=PredictionOut, tags=["predictions"])
async def post_prediction(
    body: PredictionIn,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
) -> PredictionOut | Response:
    """What is at stake: each player's change for a win, a draw or a loss; nothing is stored.

    A heavy read (docs/operations.md "Heavy requests"): capped, counted by its cost in the
    rate limit, computed in one of the process's few slots and abandoned with its client.
    """
    caller.check_ladder(body.ladder)
    heavy.check_prediction(settings, body)
    placements = None if body.placements is None else len(body.placements)
    await charge(request, caller, settings, heavy.prediction_weight(len(body.players), placements))
    return await run_heavy(request, slots, lambda cancel: predictions.predict(db, body, cancel))
