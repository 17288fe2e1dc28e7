"""Matchmaking (API.md "Matchmaking"): balanced sides and the most even opponents. Both are
heavy reads (docs/operations.md "Heavy requests"): bounded by their bodies and queries,
counted by their cost in the rate limit, computed in one of the process's few slots and
abandoned with their client."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from app.api.costs import is_light, run_costed
from app.api.deps import DB, AppSettings, Heavy, Reader, charge
from app.api.query import LadderId, PlayerId
from app.api.routes.players import MAX_ACTIVITY_DAYS
from app.schemas.common import QUERY_TEXT_PATTERN
from app.schemas.events import MAX_COACHES
from app.schemas.matchmaking import (
    DEFAULT_OPPONENTS,
    MAX_OPPONENTS,
    BalanceIn,
    BalanceOut,
    OpponentsOut,
)
from app.services import heavy
from app.services import matchmaking as service

router = APIRouter()


@router.post("/ladders/{ladder}/balance", response_model=BalanceOut, tags=["matchmaking"])
async def balance_teams(
    ladder: LadderId,
    body: BalanceIn,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
) -> BalanceOut | Response:
    """The split of the players into ``teams`` sides (sizes differing by at most one, every
    party on one side) with the highest quality, and up to three next best; exact up to 16
    players, a heuristic beyond (docs/api.md "Matchmaking"). Nothing is stored."""
    caller.check_ladder(ladder)
    weight = heavy.balance_weight(len(body.players))
    await charge(request, caller, settings, weight)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: service.balance(db, ladder, body, cancel),
        charged=weight,
        heavy=not is_light(weight),
    )


@router.get(
    "/ladders/{ladder}/players/{player}/opponents",
    response_model=OpponentsOut,
    tags=["matchmaking"],
)
async def get_opponents(
    ladder: LadderId,
    player: PlayerId,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
    limit: Annotated[
        int, Query(ge=1, le=MAX_OPPONENTS, description="How many opponents, most even first.")
    ] = DEFAULT_OPPONENTS,
    active_within_days: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_ACTIVITY_DAYS,
            description="Only opponents who played within this many days (0: everyone; "
            "default: the system's leaderboard default, e.g. Fundox's 30).",
        ),
    ] = None,
    faction: Annotated[
        str | None,
        Query(
            max_length=100,
            pattern=QUERY_TEXT_PATTERN,
            description="On a per-faction ladder, which of the player's ratings to match.",
        ),
    ] = None,
    coaches: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_COACHES,
            description="The event's coaches, where the system's amounts depend on them (NAF).",
        ),
    ] = None,
    major: Annotated[bool, Query(description="The event is a major (NAF).")] = False,
) -> OpponentsOut | Response:
    """The rated players the player would meet most evenly (highest quality), each with the
    player's win probability and its change for a win, a draw or a loss. They are weighed
    among the ratings nearest the player's (docs/api.md "Matchmaking")."""
    caller.check_ladder(ladder)
    weight = heavy.opponents_weight(limit)
    await charge(request, caller, settings, weight)
    query = service.OpponentQuery(faction, limit, active_within_days, coaches, major)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: service.opponents(db, ladder, player, query, cancel),
        charged=weight,
        heavy=not is_light(weight),
    )
