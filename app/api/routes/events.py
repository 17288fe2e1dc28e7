"""Games and tournaments."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Header, Path, Query, Response
from pydantic import TypeAdapter

from app.api.costs import charge_rerated
from app.api.deps import (
    DB,
    AppSettings,
    LadderAdmin,
    Reader,
    ResultsWriteContext,
    ResultsWriter,
    check_sizes,
    check_times,
)
from app.api.query import Limit, Offset, QueryTime, utc
from app.core.errors import Invalid
from app.core.logging import note
from app.schemas.common import DEFAULT_PAGE_SIZE, IDENTIFIER_PATTERN
from app.schemas.events import (
    GameBatchIn,
    GameBatchOut,
    GameIn,
    GameOut,
    TournamentBatchIn,
    TournamentBatchOut,
    TournamentIn,
    TournamentOut,
)
from app.schemas.profiles import GameList, TournamentList
from app.schemas.tournaments import StandingsOut, TeamsIn, TeamsOut
from app.services import batch, lists, tournaments
from app.services import events as service
from app.services.conversion import GAME, TOURNAMENT
from app.services.lists import EventFilter
from app.services.profiles import with_names

router = APIRouter()

JSON = "application/json"
#: Serialises a GameOut the way FastAPI serialises a ``response_model``.
_GAME_OUT = TypeAdapter(GameOut)

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
EventId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
DryRun = Annotated[bool, Query(description="Compute the response without storing anything.")]
ListPlayer = Annotated[
    str | None,
    Query(pattern=IDENTIFIER_PATTERN, description="Only the events that rated this player."),
]
From = Annotated[
    QueryTime, Query(alias="from", description="RFC 3339 time: events at or after it.")
]
To = Annotated[QueryTime, Query(description="RFC 3339 time: events at or before it.")]
Voided = Annotated[
    bool | None,
    Query(description="true: only voided events; false: only live ones; absent: both."),
]


IfMatch = Annotated[
    str | None,
    Header(
        description="Change the result only if it is still at this version: its ETag, as "
        "a GET or the last write returned (412 otherwise, and nothing changes).",
        examples=['"42.1"'],
    ),
]


def _tags(if_match: str | None) -> list[str] | None:
    """The entity tags of an If-Match header (RFC 9110 13.1.1), or None without one. Weak
    tags are left out: If-Match compares strongly, so they match nothing."""
    if if_match is None:
        return None
    tags = [tag.strip() for tag in if_match.split(",")]
    return [tag for tag in tags if tag and not tag.startswith("W/")]


def _tagged(response: Response, out: GameOut | TournamentOut) -> None:
    tag = service.out_etag(out)
    if tag is not None:
        response.headers["ETag"] = tag


def _event_filter(
    player: str | None, start: datetime | None, end: datetime | None, voided: bool | None
) -> EventFilter:
    start, end = utc(start, "from"), utc(end, "to")
    if start is not None and end is not None and end < start:
        raise Invalid.at(("query", "to"), "must not be before from")
    return EventFilter(player=player, start=start, end=end, voided=voided)


GAME_CREATED: dict[int | str, dict[str, Any]] = {
    201: {"description": "Recorded"},
    200: {"description": "Already recorded (the stored response), or a dry run", "model": GameOut},
}
TOURNAMENT_CREATED: dict[int | str, dict[str, Any]] = {
    201: {"description": "Recorded"},
    200: {
        "description": "Already recorded (the stored response), or a dry run",
        "model": TournamentOut,
    },
}


@router.post(
    "/games",
    response_model=GameOut,
    status_code=201,
    responses=GAME_CREATED,
    tags=["games"],
)
async def create_game(
    body: GameIn,
    context: ResultsWriteContext,
    dry_run: DryRun = False,
) -> Response:
    """Record a game result and return the rating changes with the formula's terms.

    The pair (ladder, id) is the idempotency key: the same body again returns the stored
    response (200); a different body under the same id is a 409.
    """
    note(ladder=body.ladder)
    settings, db, caller = context.settings, context.db, context.caller
    check_sizes(settings, players=body.player_count)
    check_times(settings, (("played_at",), body.played_at))
    if dry_run or settings.write_group_max == 0:
        submit = functools.partial(service.submit_game, db, body, caller=caller, dry_run=dry_run)
        result = await anyio.to_thread.run_sync(submit)
    else:
        result = await service.submit_game_grouped(context.committer, context.late, body, caller)
    assert isinstance(result.body, GameOut)
    if result.body.recomputed_events:
        await anyio.to_thread.run_sync(
            charge_rerated, db, settings, caller, result.body.recomputed_events
        )
    # The body is already a validated GameOut: serialised here, FastAPI does not validate
    # it a second time (``response_model`` still documents it).
    tag = service.out_etag(result.body)
    return Response(
        _GAME_OUT.dump_json(result.body, by_alias=True),
        status_code=result.status,
        media_type=JSON,
        headers={"ETag": tag} if tag else None,
    )


@router.post(
    "/games/batch",
    response_model=GameBatchOut,
    tags=["games"],
)
def create_games_batch(
    body: GameBatchIn, db: DB, caller: ResultsWriter, settings: AppSettings
) -> GameBatchOut:
    """Up to 10,000 games in one atomic request: every game is validated first and nothing is
    stored unless all are valid; ids already stored with the same body count as existing."""
    check_sizes(settings, games=len(body.games))
    for game in body.games:
        check_sizes(settings, players=game.player_count)
    check_times(
        settings, *((("games", i, "played_at"), g.played_at) for i, g in enumerate(body.games))
    )
    out = batch.submit_games(db, body, caller)
    charge_rerated(db, settings, caller, out.recomputed_events)
    return out


@router.get(
    "/ladders/{ladder}/games/{game_id}",
    response_model=GameOut,
    tags=["games"],
)
def get_game(
    ladder: LadderId, game_id: EventId, db: DB, caller: Reader, response: Response
) -> GameOut:
    """A stored game with the rating changes it made (voided ones too, marked so); its ETag
    names its version, for If-Match on PUT and DELETE."""
    caller.check_ladder(ladder)
    out = with_names(db, service.get_event(db, ladder, GAME, game_id))
    assert isinstance(out, GameOut)
    _tagged(response, out)
    return out


@router.get("/ladders/{ladder}/games", response_model=GameList, tags=["games"])
def list_games(
    ladder: LadderId,
    db: DB,
    caller: Reader,
    player: ListPlayer = None,
    start: From = None,
    to: To = None,
    voided: Voided = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> GameList:
    """The ladder's games, newest first (by time played, then arrival), each as
    ``GET /ladders/{ladder}/games/{id}`` returns it; ``total`` counts all that match."""
    caller.check_ladder(ladder)
    found = _event_filter(player, start, to, voided)
    out = lists.list_events(db, ladder, GAME, found, limit, offset)
    assert isinstance(out, GameList)
    return out


def _same_ids(body_ladder: str, body_id: str, ladder: str, event_id: str) -> None:
    if body_ladder != ladder:
        raise Invalid.at(("ladder",), f"must equal the ladder in the path ({ladder!r})")
    if body_id != event_id:
        raise Invalid.at(("id",), f"must equal the id in the path ({event_id!r})")


@router.put(
    "/ladders/{ladder}/games/{game_id}",
    response_model=GameOut,
    tags=["games"],
)
def correct_game(
    ladder: LadderId,
    game_id: EventId,
    body: GameIn,
    db: DB,
    caller: ResultsWriter,
    settings: AppSettings,
    response: Response,
    if_match: IfMatch = None,
) -> GameOut:
    """Correct a stored game; every later rating is recomputed. With If-Match, only if the
    game is still at that version (412 otherwise)."""
    note(ladder=ladder)
    check_sizes(settings, players=body.player_count)
    check_times(settings, (("played_at",), body.played_at))
    _same_ids(body.ladder, body.id, ladder, game_id)
    out = service.correct_game(db, ladder, game_id, body, caller, _tags(if_match))
    assert isinstance(out, GameOut)
    charge_rerated(db, settings, caller, out.recomputed_events)
    _tagged(response, out)
    return out


@router.delete(
    "/ladders/{ladder}/games/{game_id}",
    response_model=GameOut,
    tags=["games"],
)
def void_game(
    ladder: LadderId,
    game_id: EventId,
    db: DB,
    caller: ResultsWriter,
    settings: AppSettings,
    response: Response,
    if_match: IfMatch = None,
) -> GameOut:
    """Void a game: it stays in history as voided and every later rating is recomputed.
    With If-Match, only if the game is still at that version (412 otherwise)."""
    note(ladder=ladder)
    out = service.void_event(db, ladder, GAME, game_id, caller, _tags(if_match))
    assert isinstance(out, GameOut)
    charge_rerated(db, settings, caller, out.recomputed_events)
    _tagged(response, out)
    return out


@router.post(
    "/tournaments",
    response_model=TournamentOut,
    status_code=201,
    responses=TOURNAMENT_CREATED,
    tags=["tournaments"],
)
def create_tournament(
    body: TournamentIn,
    db: DB,
    response: Response,
    caller: ResultsWriter,
    settings: AppSettings,
    dry_run: DryRun = False,
) -> TournamentOut:
    """Record a tournament's final standings (DPTR, C-Diplo, WPE, DAANZ ladders)."""
    note(ladder=body.ladder)
    check_sizes(settings, standings=len(body.standings))
    check_times(settings, (("held_on",), body.held_on))
    result = service.submit_tournament(db, body, caller=caller, dry_run=dry_run)
    response.status_code = result.status
    assert isinstance(result.body, TournamentOut)
    charge_rerated(db, settings, caller, result.body.recomputed_events)
    _tagged(response, result.body)
    return result.body


@router.post(
    "/tournaments/batch",
    response_model=TournamentBatchOut,
    tags=["tournaments"],
)
def create_tournaments_batch(
    body: TournamentBatchIn, db: DB, caller: ResultsWriter, settings: AppSettings
) -> TournamentBatchOut:
    """Up to 10,000 tournaments in one atomic request (a season), as ``POST /games/batch``:
    every tournament is validated first and nothing is stored unless all are valid; ids
    already stored with the same body count as existing, a different body is a 409."""
    check_sizes(settings, tournaments=len(body.tournaments))
    for tournament in body.tournaments:
        check_sizes(settings, standings=len(tournament.standings))
    check_times(
        settings,
        *((("tournaments", i, "held_on"), t.held_on) for i, t in enumerate(body.tournaments)),
    )
    out = batch.submit_tournaments(db, body, caller)
    charge_rerated(db, settings, caller, out.recomputed_events)
    return out


@router.get(
    "/ladders/{ladder}/tournaments/{tournament_id}",
    response_model=TournamentOut,
    tags=["tournaments"],
)
def get_tournament(
    ladder: LadderId, tournament_id: EventId, db: DB, caller: Reader, response: Response
) -> TournamentOut:
    """A stored tournament with the rating changes it made (voided ones too, marked so); its
    ETag names its version, for If-Match on PUT and DELETE."""
    caller.check_ladder(ladder)
    out = with_names(db, service.get_event(db, ladder, TOURNAMENT, tournament_id))
    assert isinstance(out, TournamentOut)
    _tagged(response, out)
    return out


@router.get("/ladders/{ladder}/tournaments", response_model=TournamentList, tags=["tournaments"])
def list_tournaments(
    ladder: LadderId,
    db: DB,
    caller: Reader,
    player: ListPlayer = None,
    start: From = None,
    to: To = None,
    voided: Voided = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> TournamentList:
    """The ladder's tournaments, newest first (by date held, then arrival), each as
    ``GET /ladders/{ladder}/tournaments/{id}`` returns it; ``total`` counts all that match.
    (A game ladder's tournaments of games are not events: see their ``/standings``.)"""
    caller.check_ladder(ladder)
    found = _event_filter(player, start, to, voided)
    out = lists.list_events(db, ladder, TOURNAMENT, found, limit, offset)
    assert isinstance(out, TournamentList)
    return out


@router.put(
    "/ladders/{ladder}/tournaments/{tournament_id}",
    response_model=TournamentOut,
    tags=["tournaments"],
)
def correct_tournament(
    ladder: LadderId,
    tournament_id: EventId,
    body: TournamentIn,
    db: DB,
    caller: ResultsWriter,
    settings: AppSettings,
    response: Response,
    if_match: IfMatch = None,
) -> TournamentOut:
    """Correct a stored tournament's standings; every later rating is recomputed. With
    If-Match, only if the tournament is still at that version (412 otherwise)."""
    note(ladder=ladder)
    check_sizes(settings, standings=len(body.standings))
    check_times(settings, (("held_on",), body.held_on))
    _same_ids(body.ladder, body.id, ladder, tournament_id)
    out = service.correct_tournament(db, ladder, tournament_id, body, caller, _tags(if_match))
    assert isinstance(out, TournamentOut)
    charge_rerated(db, settings, caller, out.recomputed_events)
    _tagged(response, out)
    return out


@router.delete(
    "/ladders/{ladder}/tournaments/{tournament_id}",
    response_model=TournamentOut,
    tags=["tournaments"],
)
def void_tournament(
    ladder: LadderId,
    tournament_id: EventId,
    db: DB,
    caller: ResultsWriter,
    settings: AppSettings,
    response: Response,
    if_match: IfMatch = None,
) -> TournamentOut:
    """Void a tournament: it stays in history as voided and every later rating is
    recomputed. With If-Match, only if the tournament is still at that version (412
    otherwise)."""
    note(ladder=ladder)
    out = service.void_event(db, ladder, TOURNAMENT, tournament_id, caller, _tags(if_match))
    assert isinstance(out, TournamentOut)
    charge_rerated(db, settings, caller, out.recomputed_events)
    _tagged(response, out)
    return out


@router.get(
    "/ladders/{ladder}/tournaments/{tournament_id}/standings",
    response_model=StandingsOut,
    tags=["tournaments"],
)
def get_tournament_standings(
    ladder: LadderId, tournament_id: EventId, db: DB, caller: Reader
) -> StandingsOut:
    """Standings of a tournament of games (Kinzett): primary points, then secondary points;
    team standings when the tournament declares teams."""
    caller.check_ladder(ladder)
    return tournaments.standings(db, ladder, tournament_id)


@router.put(
    "/ladders/{ladder}/tournaments/{tournament_id}/teams",
    response_model=TeamsOut,
    tags=["tournaments"],
)
def set_tournament_teams(
    ladder: LadderId, tournament_id: EventId, body: TeamsIn, db: DB, caller: LadderAdmin
) -> TeamsOut:
    """Declare the tournament's teams (replacing any declared before)."""
    caller.check_ladder(ladder)
    return tournaments.set_teams(db, ladder, tournament_id, body)


@router.get(
    "/ladders/{ladder}/tournaments/{tournament_id}/teams",
    response_model=TeamsOut,
    tags=["tournaments"],
)
def get_tournament_teams(
    ladder: LadderId, tournament_id: EventId, db: DB, caller: Reader
) -> TeamsOut:
    caller.check_ladder(ladder)
    return tournaments.get_teams(db, ladder, tournament_id)
