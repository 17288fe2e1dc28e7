"""From validated request bodies (and stored ones) to engine events."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from app.engine.types import (
    Adjustment,
    EventContext,
    Game,
    LadderEvent,
    Participant,
    Placement,
    PlayerKey,
    Tournament,
)
from app.schemas.events import AdjustmentIn, GameBody, TournamentBody

GAME = "game"
TOURNAMENT = "tournament"
ADJUSTMENT = "adjustment"


def game_to_engine(body: GameBody) -> Game:
    event = None
    if body.event is not None:
        event = EventContext(id=body.event.id, coaches=body.event.coaches, major=body.event.major)
    return Game(
        played_at=body.played_at,
        participants=tuple(
            Participant(
                player=p.player,
                rank=p.rank,
                faction=p.faction,
                centres=p.centres,
                eliminated_in=p.eliminated_in,
            )
            for p in body.players
        ),
        rated=body.rated,
        event=event,
        tournament=body.tournament,
        end_year=body.end_year,
    )


def tournament_to_engine(body: TournamentBody) -> Tournament:
    event_class = body.event_class
    if body.world_championship and event_class is None:
        event_class = "world"
    return Tournament(
        held_on=body.held_on,
        rounds=body.rounds,
        standings=tuple(
            Placement(player=s.player, rank=s.rank, centres=s.centres) for s in body.standings
        ),
        world_championship=body.world_championship,
        event_class=event_class,
        major=body.major,
        name=body.name,
    )


def tournament_time(held_on: date) -> datetime:
    """Tournaments stand in history at the start of their day (UTC)."""
    return datetime.combine(held_on, time(0), tzinfo=UTC)


def adjustment_body(player: str, body: AdjustmentIn, at: datetime) -> dict[str, Any]:
    data = body.model_dump(mode="json")
    data["at"] = at.isoformat().replace("+00:00", "Z")
    data["player"] = player
    return data


def adjustment_to_engine(key: PlayerKey, body: AdjustmentIn, at: datetime) -> Adjustment:
    return Adjustment(
        key=key,
        at=at,
        rating=body.rating,
        deviation=body.deviation,
        volatility=body.volatility,
        reason=body.reason,
    )


def stored_to_engine(kind: str, body: dict[str, Any], per_faction: bool) -> LadderEvent:
    """Rebuild the engine event from a stored (already validated) body."""
    if kind == GAME:
        return game_to_engine(GameBody.model_validate(_without(body, "ladder", "id")))
    if kind == TOURNAMENT:
        return tournament_to_engine(TournamentBody.model_validate(_without(body, "ladder", "id")))
    adjustment = AdjustmentIn.model_validate(_without(body, "player"))
    faction = adjustment.faction if per_faction else None
    assert adjustment.at is not None
    return adjustment_to_engine(PlayerKey(body["player"], faction), adjustment, adjustment.at)


def _without(body: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in names}
