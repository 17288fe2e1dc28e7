"""The lists of API.md "Lists": a ladder's games and tournaments, and its players."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import Event
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.events import GameOut, TournamentOut
from app.schemas.profiles import GameList, PlayerItem, PlayerList, TournamentList
from app.services.conversion import GAME
from app.services.events import event_out
from app.services.players import entry_out, ranked_ratings, rating_out
from app.services.profiles import name_and_country, name_changes, profiles_of
from app.services.runtime import require_ladder, runtime_for


@dataclass(frozen=True, slots=True)
class EventFilter:
    player: str | None
    start: datetime | None
    end: datetime | None
    #: True: only voided events; False: only live ones; None: both.
    voided: bool | None


def _newest_first(event: Event) -> tuple[datetime, int]:
    return event.occurred_at, event.seq


def _voided_of(session: Session, ladder_id: str, kind: str, f: EventFilter) -> list[Event]:
    """The voided events the filter admits, ``player`` included (their changes are kept in
    the event, not in the changes table the SQL filter reads)."""
    return [
        event
        for event in EventRepository(session).voided(ladder_id, f.end)
        if event.kind == kind
        and (f.start is None or event.occurred_at >= f.start)
        and any(c["player"] == f.player for c in event.voided_changes or [])
    ]


def _page(
    session: Session, ladder_id: str, kind: str, f: EventFilter, limit: int, offset: int
) -> tuple[int, list[Event]]:
    repo = EventRepository(session)

    def live(voided: bool | None, count: int, skip: int) -> tuple[int, list[Event]]:
        return repo.page(
            ladder_id,
            kind,
            player=f.player,
            start=f.start,
            end=f.end,
            voided=voided,
            limit=count,
            offset=skip,
        )

    if f.player is None or f.voided is False:
        return live(f.voided, limit, offset)
    voided = _voided_of(session, ladder_id, kind, f)
    if f.voided:
        ordered = sorted(voided, key=_newest_first, reverse=True)
        return len(voided), ordered[offset : offset + limit]
    if not voided:  # voids are rare: without any, page in SQL
        return live(False, limit, offset)
    # Both: the newest offset + limit of each, merged.
    total, rows = live(False, offset + limit, 0)
    merged = sorted([*rows, *voided], key=_newest_first, reverse=True)
    return total + len(voided), merged[offset : offset + limit]


def list_events(
    db: Database, ladder_id: str, kind: str, f: EventFilter, limit: int, offset: int
) -> GameList | TournamentList:
    """A ladder's games (or tournaments), newest first, each as its GET returns it."""

    def work(session: Session) -> GameList | TournamentList:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        total, events = _page(session, ladder_id, kind, f, limit, offset)
        changes = EventRepository(session).changes_of_events([e.seq for e in events])
        items = [event_out(runtime, e, changes[e.seq]) for e in events]
        name_changes(session, ladder.community, items)
        if kind == GAME:
            return GameList(total=total, items=[i for i in items if isinstance(i, GameOut)])
        return TournamentList(total=total, items=[i for i in items if isinstance(i, TournamentOut)])

    return db.run(work, write=False)


def list_players(
    db: Database, ladder_id: str, search: str | None, limit: int, offset: int
) -> PlayerList:
    """The ladder's rated players by id (those whose id holds ``search``, in any case),
    each with its ratings as ``GET /ladders/{ladder}/players/{player}`` shows them."""

    def work(session: Session) -> PlayerList:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        repo = RatingRepository(session)
        total, players = repo.players_page(ladder_id, search, limit, offset)
        profiles = profiles_of(session, ladder.community, players)
        items = {player: PlayerItem(player=player, ratings=[]) for player in players}
        if runtime.plain:
            for position, row in repo.with_positions(ladder_id, players, runtime.info.rank_by):
                items[row.player].ratings.append(rating_out(row, position))
        else:
            for entry, place in ranked_ratings(session, ladder, runtime, set(players)):
                items[entry.player].ratings.append(entry_out(entry, place))
        for item in items.values():
            item.name, item.country = name_and_country(profiles, item.player)
        return PlayerList(total=total, items=list(items.values()))

    return db.run(work, write=False)
