from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import anyio.to_thread
from fastapi import APIRouter, Query, Request, Response

from app.api.costs import is_light, run_costed
from app.api.deps import (
    DB,
    AdminOnly,
    AppSettings,
    Heavy,
    HistoryAdmin,
    LadderAdmin,
    Reader,
    charge,
    check_times,
)
from app.api.query import LadderId, Limit, Offset, PlayerId, QueryTime, utc
from app.core.errors import Invalid
from app.core.logging import note
from app.models.tables import DEFAULT_COMMUNITY
from app.schemas.common import (
    DEFAULT_PAGE_SIZE,
    IDENTIFIER_PATTERN,
    MAX_COUNT_FILTER,
    QUERY_TEXT_PATTERN,
)
from app.schemas.events import AdjustmentIn
from app.schemas.ladders import CurveOut
from app.schemas.players import HistoryOut, LeaderboardOut, PlayerOut
from app.schemas.players_data import AuditList, MergeIn, PlayerActionOut, RenameIn
from app.schemas.predictions import PredictionIn, PredictionOut, TeamPredictionOut
from app.schemas.profiles import (
    PlayerList,
    PlayerProfileOut,
    ProfileIn,
    ProfileOut,
    check_country,
)
from app.services import (
    heavy,
    leaderboards,
    lists,
    players_data,
    predictions,
    profiles,
    whole_history,
)
from app.services import players as service

router = APIRouter()

MAX_ACTIVITY_DAYS = 36_500
AsOf = Annotated[
    QueryTime, Query(description="RFC 3339 time: the state just after everything up to then.")
]


def _utc(value: datetime | None) -> datetime | None:
    return utc(value, "as_of")


@router.get(
    "/ladders/{ladder}/players/{player}",
    response_model=PlayerOut,
    tags=["players"],
)
async def get_player(
    ladder: LadderId,
    player: PlayerId,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
    as_of: AsOf = None,
) -> PlayerOut | Response:
    """A player's ratings (one per faction on per-faction ladders) with statistics.

    With ``as_of``, a heavy read (docs/operations.md "Request classes and costs"): it reads
    the ladder's history up to then, in one of the process's fair slots, charged by its time."""
    caller.check_ladder(ladder)
    at = _utc(as_of)
    if at is None:
        return await anyio.to_thread.run_sync(service.get_player, db, ladder, player)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: service.get_player(db, ladder, player, at),
        charged=1,
        heavy=True,
    )


@router.put(
    "/ladders/{ladder}/players/{player}",
    response_model=PlayerOut,
    tags=["players"],
)
def adjust_player(
    ladder: LadderId,
    player: PlayerId,
    body: AdjustmentIn,
    db: DB,
    caller: HistoryAdmin,
    settings: AppSettings,
) -> PlayerOut:
    """Set a player's state as of ``at`` (migration from another system, a ruling)."""
    note(ladder=ladder)
    check_times(settings, (("at",), body.at))
    return service.adjust_player(db, ladder, player, body, caller)


@router.get(
    "/ladders/{ladder}/players/{player}/curve",
    response_model=CurveOut,
    tags=["players"],
)
def get_curve(ladder: LadderId, player: PlayerId, db: DB, caller: Reader) -> CurveOut:
    """A player's skill curve on a whole-history ladder (ttt, whr): one point per UTC day it
    played, each re-estimated from the whole history (422 on a ladder of another system)."""
    caller.check_ladder(ladder)
    return whole_history.get_curve(db, ladder, player)


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
async def get_leaderboard(
    ladder: LadderId,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
    sort: Literal["rating", "name", "games"] = "rating",
    order: Literal["asc", "desc"] | None = None,
    active_within_days: Annotated[int | None, Query(ge=0, le=MAX_ACTIVITY_DAYS)] = None,
    faction: Annotated[str | None, Query(max_length=100, pattern=QUERY_TEXT_PATTERN)] = None,
    min_games: Annotated[int, Query(ge=0, le=MAX_COUNT_FILTER)] = 0,
    as_of: AsOf = None,
    country: Annotated[
        str | None,
        Query(
            max_length=2,
            description="ISO 3166-1 alpha-2 code: the national ranking, only the players "
            "whose profile names that country, positions 1, 2, ... among them.",
        ),
    ] = None,
    around: Annotated[
        str | None,
        Query(
            pattern=IDENTIFIER_PATTERN,
            description="A player id: the `limit` entries centred on that player's (first) "
            "entry instead of a page (404 when the filtered board has none); not with "
            "`offset`.",
        ),
    ] = None,
    include_provisional: Annotated[
        bool,
        Query(description="Also list provisional players (ranked play's placement)."),
    ] = False,
    division: Annotated[
        str | None,
        Query(max_length=50, description="Only the players of this division (ranked play)."),
    ] = None,
    season: Annotated[
        str | None,
        Query(
            pattern=IDENTIFIER_PATTERN,
            description="A season's board: as of its end (now while it is current), only the "
            "players with a rated event in it, its statistics and placement; a circuit "
            "(`best_of`) ranks by `points`. Not with `as_of`.",
        ),
    ] = None,
) -> LeaderboardOut | Response:
    """Ratings by position (equal values share one). ``active_within_days=0`` shows everyone;
    without it a system's default applies (Fundox: 30 days). The answer echoes the filter it
    applied (``active_within_days``, ``active_since``), so an empty board says why.

    ``country=FR`` is the national ranking (positions within the country, by the players'
    present profiles, with ``as_of`` too: the ranking by year); ``around=PLAYER`` the window
    of ``limit`` entries centred on that player. Entries carry the players' ``name`` and
    ``country`` where their profiles have them.

    With ``as_of`` or ``season``, a heavy read (docs/operations.md "Request classes and
    costs"): it reads the ladder's history up to then, in one of the process's fair slots,
    charged by its time."""
    caller.check_ladder(ladder)
    try:
        check_country(country)
    except ValueError as exc:
        raise Invalid.at(("query", "country"), str(exc)) from None
    if around is not None and offset:
        raise Invalid.at(("query", "offset"), "cannot be combined with around (a window)")
    at = _utc(as_of)

    def board(cancel: object = None) -> LeaderboardOut:
        return leaderboards.get_leaderboard(
            db,
            ladder,
            limit=limit,
            offset=offset,
            sort=sort,
            order=order,
            active_within_days=active_within_days,
            faction=faction,
            min_games=min_games,
            as_of=at,
            country=country,
            around=around,
            include_provisional=include_provisional,
            division=division,
            season=season,
        )

    if at is None and season is None:
        return await anyio.to_thread.run_sync(board)
    return await run_costed(request, caller, settings, slots, board, charged=1, heavy=True)


@router.get(
    "/ladders/{ladder}/players",
    response_model=PlayerList,
    tags=["players"],
)
def list_players(
    ladder: LadderId,
    db: DB,
    caller: Reader,
    search: Annotated[
        str | None,
        Query(
            max_length=100,
            pattern=QUERY_TEXT_PATTERN,
            description="Only the players whose id holds this text, in any case.",
        ),
    ] = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> PlayerList:
    """The ladder's rated players by id, each with its name and country where its profile
    has them and its ratings as ``GET /ladders/{ladder}/players/{player}`` shows them."""
    caller.check_ladder(ladder)
    return lists.list_players(db, ladder, search, limit, offset)


Community = Annotated[
    str,
    Query(
        pattern=IDENTIFIER_PATTERN,
        max_length=100,
        description='The community whose player this is (API.md "Communities").',
    ),
]


@router.put("/players/{player}", response_model=ProfileOut, tags=["profiles"])
def set_profile(
    player: PlayerId,
    body: ProfileIn,
    db: DB,
    caller: LadderAdmin,
    community: Community = DEFAULT_COMMUNITY,
) -> ProfileOut:
    """Set the player's profile in ``community``, shared by its ladders: ``name`` (1-200
    characters) and ``country`` (ISO 3166-1 alpha-2). The body is the whole profile: a field
    left out is cleared. Profiles are not history: setting one recomputes nothing. A key sets
    only its own players' profiles (404 otherwise, as for an unknown player)."""
    return profiles.put_profile(db, caller, community, player, body)


@router.get("/players/{player}", response_model=PlayerProfileOut, tags=["profiles"])
def get_profile(
    player: PlayerId, db: DB, caller: Reader, community: Community = DEFAULT_COMMUNITY
) -> PlayerProfileOut:
    """The player's profile in ``community`` and its ratings in every ladder of it the caller
    may read (404 when the player has neither, or is not the caller's)."""
    return service.get_profile(db, caller, community, player)


@router.post("/players/{player}/rename", response_model=PlayerActionOut, tags=["profiles"])
def rename_player(
    player: PlayerId,
    body: RenameIn,
    db: DB,
    caller: LadderAdmin,
    community: Community = DEFAULT_COMMUNITY,
) -> PlayerActionOut:
    """The player's id becomes ``to`` in every ladder of ``community``: results, ratings and
    profile kept (409 if the community has ``to`` already). A result sent before the rename
    and sent again as it was is still the same result (docs/players-data.md). Admin token,
    or a ``ladders:admin`` key of the community not limited to ladders; audited."""
    return players_data.rename(db, caller, community, player, body.to)


@router.post("/players/{player}/merge", response_model=PlayerActionOut, tags=["profiles"])
def merge_player(
    player: PlayerId,
    body: MergeIn,
    db: DB,
    caller: LadderAdmin,
    community: Community = DEFAULT_COMMUNITY,
) -> PlayerActionOut:
    """The player's results become ``into``'s, and every ladder where it played is
    recomputed from its first result there. 409 naming a game or tournament both played;
    404 for an unknown ``into``. Admin token, or a ``ladders:admin`` key of the community not
    limited to ladders; audited."""
    return players_data.merge(db, caller, community, player, body.into)


@router.delete("/players/{player}", response_model=PlayerActionOut, tags=["profiles"])
def erase_player(
    player: PlayerId, db: DB, caller: LadderAdmin, community: Community = DEFAULT_COMMUNITY
) -> PlayerActionOut:
    """Erasure: the player's id is replaced everywhere by a pseudonym (the answer's
    ``player``), its profile removed; every rating stays as it is and the id is free again.
    The request's log line shows the route, not the id. Admin token, or a ``ladders:admin``
    key of the community not limited to ladders; audited."""
    return players_data.erase(db, caller, community, player)


@router.get("/audit", response_model=AuditList, tags=["keys"], dependencies=[AdminOnly])
def list_audit(
    db: DB,
    community: Annotated[
        str | None,
        Query(pattern=IDENTIFIER_PATTERN, description="Only this community's entries."),
    ] = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> AuditList:
    """The audit log of renames, merges and erasures, newest first (admin token only). An
    erasure's entry names only the pseudonym."""
    return players_data.list_audit(db, community, limit, offset)


@router.post("/predictions", response_model=PredictionOut | TeamPredictionOut, tags=["predictions"])
async def predict(
    body: PredictionIn,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
) -> PredictionOut | TeamPredictionOut | Response:
    """What is at stake: each player's change for a win, a draw or a loss; nothing is stored.
    With ``teams``, each side's chance and each member's change (API.md "Teams").

    A heavy read (docs/operations.md "Heavy requests"): capped, counted by its cost in the
    rate limit, computed in one of the process's few slots and abandoned with its client.
    """
    caller.check_ladder(body.ladder)
    heavy.check_prediction(settings, body)
    placements = None if body.placements is None else len(body.placements)
    weight = heavy.prediction_weight(body.player_count, placements)
    await charge(request, caller, settings, weight)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: predictions.predict(db, body, cancel),
        charged=weight,
        heavy=not is_light(weight),
    )
