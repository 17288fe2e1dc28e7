"""Games and tournaments."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from app.api.deps import DB, ReadAccess, WriteAccess
from app.core.errors import Invalid
from app.schemas.common import IDENTIFIER_PATTERN
from app.schemas.events import (
    GameBatchIn,
    GameBatchOut,
    GameIn,
    GameOut,
    TournamentIn,
    TournamentOut,
)
from app.schemas.tournaments import StandingsOut, TeamsIn, TeamsOut
from app.services import batch, tournaments
from app.services import events as service
from app.services.conversion import GAME, TOURNAMENT

router = APIRouter()

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
EventId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
DryRun = Annotated[bool, Query(description="Compute the response without storing anything.")]

CREATED: dict[int | str, dict[str, Any]] = {
    201: {"description": "Recorded"},
    200: {"description": "Already recorded, or a dry run"},
}


@router.post(
    "/games",
    response_model=GameOut,
    status_code=201,
    responses=CREATED,
    tags=["games"],
    dependencies=[WriteAccess],
)
def post_game(body: GameIn, db: DB, response: Response, dry_run: DryRun = False) -> GameOut:
    """Record a game result and return the rating changes with the formula's terms.

    The pair (ladder, id) is the idempotency key: the same body again returns the stored
    response (200); a different body under the same id is a 409.
    """
    result = service.submit_game(db, body, dry_run=dry_run)
    response.status_code = result.status
    assert isinstance(result.body, GameOut)
    return result.body


@router.post(
    "/games/batch",
    response_model=GameBatchOut,
    tags=["games"],
    dependencies=[WriteAccess],
)
def post_games_batch(body: GameBatchIn, db: DB) -> GameBatchOut:
    """Up to 10,000 games in one atomic request: every game is validated first and nothing is
    stored unless all are valid; ids already stored with the same body count as existing."""
    return batch.submit_games(db, body)


@router.get(
    "/ladders/{ladder}/games/{game_id}",
    response_model=GameOut,
    tags=["games"],
    dependencies=[ReadAccess],
)
def get_game(ladder: LadderId, game_id: EventId, db: DB) -> GameOut:
    out = service.get_event(db, ladder, GAME, game_id)
    assert isinstance(out, GameOut)
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
    dependencies=[WriteAccess],
)
def put_game(ladder: LadderId, game_id: EventId, body: GameIn, db: DB) -> GameOut:
    """Correct a stored game; every later rating is recomputed."""
    _same_ids(body.ladder, body.id, ladder, game_id)
    out = service.correct_game(db, ladder, game_id, body)
    assert isinstance(out, GameOut)
    return out


@router.delete(
    "/ladders/{ladder}/games/{game_id}",
    response_model=GameOut,
    tags=["games"],
    dependencies=[WriteAccess],
)
def delete_game(ladder: LadderId, game_id: EventId, db: DB) -> GameOut:
    """Void a game: it stays in history as voided and every later rating is recomputed."""
    out = service.void_event(db, ladder, GAME, game_id)
    assert isinstance(out, GameOut)
    return out


@router.post(
    "/tournaments",
    response_model=TournamentOut,
    status_code=201,
    responses=CREATED,
    tags=["tournaments"],
    dependencies=[WriteAccess],
)
def post_tournament(
    body: TournamentIn, db: DB, response: Response, dry_run: DryRun = False
) -> TournamentOut:
    """Record a tournament's final standings (DPTR, C-Diplo, WPE, DAANZ ladders)."""
    result = service.submit_tournament(db, body, dry_run=dry_run)
    response.status_code = result.status
    assert isinstance(result.body, TournamentOut)
    return result.body


@router.get(
    "/ladders/{ladder}/tournaments/{tournament_id}",
    response_model=TournamentOut,
    tags=["tournaments"],
    dependencies=[ReadAccess],
)
def get_tournament(ladder: LadderId, tournament_id: EventId, db: DB) -> TournamentOut:
    out = service.get_event(db, ladder, TOURNAMENT, tournament_id)
    assert isinstance(out, TournamentOut)
    return out


@router.put(
    "/ladders/{ladder}/tournaments/{tournament_id}",
    response_model=TournamentOut,
    tags=["tournaments"],
    dependencies=[WriteAccess],
)
def put_tournament(
    ladder: LadderId, tournament_id: EventId, body: TournamentIn, db: DB
) -> TournamentOut:
    _same_ids(body.ladder, body.id, ladder, tournament_id)
    out = service.correct_tournament(db, ladder, tournament_id, body)
    assert isinstance(out, TournamentOut)
    return out


@router.delete(
    "/ladders/{ladder}/tournaments/{tournament_id}",
    response_model=TournamentOut,
    tags=["tournaments"],
    dependencies=[WriteAccess],
)
def delete_tournament(ladder: LadderId, tournament_id: EventId, db: DB) -> TournamentOut:
    out = service.void_event(db, ladder, TOURNAMENT, tournament_id)
    assert isinstance(out, TournamentOut)
    return out


@router.get(
    "/ladders/{ladder}/tournaments/{tournament_id}/standings",
    response_model=StandingsOut,
    tags=["tournaments"],
    dependencies=[ReadAccess],
)
def get_standings(ladder: LadderId, tournament_id: EventId, db: DB) -> StandingsOut:
    """Standings of a tournament of games (Kinzett): primary points, then secondary points;
    team standings when the tournament declares teams."""
    return tournaments.standings(db, ladder, tournament_id)


@router.put(
    "/ladders/{ladder}/tournaments/{tournament_id}/teams",
    response_model=TeamsOut,
    tags=["tournaments"],
    dependencies=[WriteAccess],
)
def put_teams(ladder: LadderId, tournament_id: EventId, body: TeamsIn, db: DB) -> TeamsOut:
    """Declare the tournament's teams (replacing any declared before)."""
    return tournaments.set_teams(db, ladder, tournament_id, body)


@router.get(
    "/ladders/{ladder}/tournaments/{tournament_id}/teams",
    response_model=TeamsOut,
    tags=["tournaments"],
    dependencies=[ReadAccess],
)
def get_teams(ladder: LadderId, tournament_id: EventId, db: DB) -> TeamsOut:
    return tournaments.get_teams(db, ladder, tournament_id)
