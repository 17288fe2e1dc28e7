"""From validated request bodies (and stored ones) to engine events."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from app.engine.types import (
    FULL_WEIGHT,
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
    if body.teams is not None:
        participants = tuple(
            Participant(
                player=p.player,
                rank=side.rank,
                faction=p.faction,
                team=side.team,
                weight=FULL_WEIGHT if p.weight is None else p.weight,
            )
            for side in body.teams
            for p in side.players
        )
    else:
        assert body.players is not None  # GameBody holds exactly one of the two
        participants = tuple(
            Participant(
                player=p.player,
                rank=p.rank,
                faction=p.faction,
                centres=p.centres,
                eliminated_in=p.eliminated_in,
                weight=FULL_WEIGHT if p.weight is None else p.weight,
            )
            for p in body.players
        )
    return Game(
        played_at=body.played_at,
        participants=participants,
        rated=body.rated,
        event=event,
        tournament=body.tournament,
        end_year=body.end_year,
    )


def tournament_to_engine(body: TournamentBody) -> Tournament:
    return Tournament(
        held_on=body.held_on,
        rounds=body.rounds,
        standings=tuple(
            Placement(player=s.player, rank=s.rank, centres=s.centres) for s in body.standings
        ),
        world_championship=body.world_championship,
        event_class=body.event_class,
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
        game = _stored_game(body)
        if game is not None:
            return game
        return game_to_engine(GameBody.model_validate(_without(body, "ladder", "id")))
    if kind == TOURNAMENT:
        return tournament_to_engine(TournamentBody.model_validate(_without(body, "ladder", "id")))
    adjustment = AdjustmentIn.model_validate(_without(body, "player"))
    faction = adjustment.faction if per_faction else None
    assert adjustment.at is not None
    return adjustment_to_engine(PlayerKey(body["player"], faction), adjustment, adjustment.at)


def _without(body: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in names}


_GAME_KEYS = frozenset(
    {"ladder", "id", "played_at", "rated", "event", "tournament", "end_year", "players", "teams"}
)
_PLAYER_KEYS = frozenset({"player", "rank", "faction", "centres", "eliminated_in", "weight"})
_SIDE_KEYS = frozenset({"team", "rank", "players"})
_MEMBER_KEYS = frozenset({"player", "faction", "weight"})
_EVENT_KEYS = frozenset({"id", "coaches", "major"})


def _stored_game(body: dict[str, Any]) -> Game | None:
    """The engine game of a stored body, read directly (a replay reads thousands a second).

    Stored bodies are ``GameIn`` dumps, validated when they were written; this reads only
    bodies of exactly that shape (plain types, known keys, an explicit UTC offset, a team
    game's labels filled in) and returns None for anything else, which then goes through
    ``GameBody`` as before. The result equals ``game_to_engine(GameBody.model_validate(body))``.
    The engine values are built with positional arguments: keywords cost a frozen dataclass
    twice as much, on every participant of every replayed game.
    """
    if not _GAME_KEYS.issuperset(body):
        return None
    get = body.get
    played_at = _stored_time(get("played_at"))
    rated = get("rated", True)
    tournament = get("tournament")
    end_year = get("end_year")
    players, teams = get("players"), get("teams")
    if (
        played_at is None
        or type(rated) is not bool
        or (tournament is not None and type(tournament) is not str)
        or (end_year is not None and type(end_year) is not int)
        or (players is None) == (teams is None)
    ):
        return None
    event = get("event")
    context = None if event is None else _stored_context(event)
    if isinstance(context, _NotStored):
        return None
    participants = _stored_players(players) if teams is None else _stored_sides(teams)
    if participants is None:
        return None
    return Game(played_at, participants, rated, context, tournament, end_year)


class _NotStored:
    """A part of a body of another shape than the service stores (read by ``GameBody``)."""


_NOT_STORED = _NotStored()


def _stored_time(played: Any) -> datetime | None:
    """A stored ``played_at`` in UTC, or None for another shape (naive, or not a time)."""
    if type(played) is not str:
        return None
    try:
        played_at = datetime.fromisoformat(played)
    except ValueError:
        return None
    return None if played_at.tzinfo is None else played_at.astimezone(UTC)


def _stored_context(event: Any) -> EventContext | _NotStored:
    if type(event) is not dict or not _EVENT_KEYS.issuperset(event):
        return _NOT_STORED
    event_id, coaches, major = event.get("id"), event.get("coaches"), event.get("major", False)
    if (
        (event_id is not None and type(event_id) is not str)
        or (coaches is not None and type(coaches) is not int)
        or type(major) is not bool
    ):
        return _NOT_STORED
    return EventContext(event_id, coaches, major)


def _stored_players(players: Any) -> tuple[Participant, ...] | None:
    """A stored free-for-all's participants, or None for a shape :func:`_stored_game` leaves
    to ``GameBody``."""
    if type(players) is not list:
        return None
    participants = []
    for entry in players:
        if type(entry) is not dict or not _PLAYER_KEYS.issuperset(entry):
            return None
        get = entry.get
        player, rank = get("player"), get("rank")
        faction, centres, eliminated_in = get("faction"), get("centres"), get("eliminated_in")
        weight = get("weight")
        if weight is None:
            weight = FULL_WEIGHT
        elif type(weight) is int:  # JSON may give a whole number as an int
            weight = float(weight)
        if (
            type(player) is not str
            or type(rank) is not int
            or (faction is not None and type(faction) is not str)
            or (centres is not None and type(centres) is not int)
            or (eliminated_in is not None and type(eliminated_in) is not int)
            or type(weight) is not float
        ):
            return None
        participants.append(
            Participant(player, rank, faction, centres, eliminated_in, None, weight)
        )
    return tuple(participants)


def _stored_sides(teams: Any) -> tuple[Participant, ...] | None:
    """A stored team game's participants, side by side (as :func:`game_to_engine` lists
    them), or None for a shape :func:`_stored_game` leaves to ``GameBody``."""
    if type(teams) is not list:
        return None
    participants = []
    for side in teams:
        if type(side) is not dict or not _SIDE_KEYS.issuperset(side):
            return None
        team, rank, members = side.get("team"), side.get("rank"), side.get("players")
        if type(team) is not str or type(rank) is not int or type(members) is not list:
            return None
        for entry in members:
            if type(entry) is not dict or not _MEMBER_KEYS.issuperset(entry):
                return None
            player, faction, weight = entry.get("player"), entry.get("faction"), entry.get("weight")
            if weight is None:
                weight = FULL_WEIGHT
            elif type(weight) is int:
                weight = float(weight)
            if (
                type(player) is not str
                or (faction is not None and type(faction) is not str)
                or type(weight) is not float
            ):
                return None
            participants.append(Participant(player, rank, faction, None, None, team, weight))
    return tuple(participants)
