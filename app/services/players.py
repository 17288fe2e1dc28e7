"""Use cases for players: current ratings, history, leaderboards and adjustments."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.engine.protocols import key_for
from app.models import NO_FACTION, PlayerRating
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.events import AdjustmentIn
from app.schemas.players import (
    HistoryEntry,
    HistoryOut,
    LeaderboardEntry,
    LeaderboardOut,
    PlayerOut,
    RatingOut,
)
from app.services.conversion import ADJUSTMENT, adjustment_body, adjustment_to_engine
from app.services.events import run_write
from app.services.ledger import NewEvent, now, record
from app.services.runtime import body_hash, require_ladder, runtime_for


def _faction_out(faction: str) -> str | None:
    return None if faction == NO_FACTION else faction


def _rate(part: int, games: int) -> float | None:
    return part / games if games else None


def _rating_out(row: PlayerRating, position: int | None) -> RatingOut:
    return RatingOut(
        faction=_faction_out(row.faction),
        rating=row.rating,
        deviation=row.deviation,
        volatility=row.volatility,
        ranking_value=row.ranking_value,
        games=row.games,
        wins=row.wins,
        draws=row.draws,
        losses=row.losses,
        win_rate=_rate(row.wins, row.games),
        loss_rate=_rate(row.losses, row.games),
        last_played_at=row.last_played_at,
        position=position,
    )


def get_player(db: Database, ladder_id: str, player: str) -> PlayerOut:
    def work(session: Session) -> PlayerOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        repo = RatingRepository(session)
        rows = repo.of_player(ladder_id, player)
        if not rows:
            raise NotFound(f"player {player!r} has no rating in ladder {ladder_id!r}")
        return PlayerOut(
            player=player,
            ladder=ladder_id,
            ratings=[
                _rating_out(row, repo.position(ladder_id, row, runtime.info.rank_by))
                for row in rows
            ],
        )

    return db.run(work, write=False)


def get_history(
    db: Database,
    ladder_id: str,
    player: str,
    faction: str | None,
    limit: int,
    offset: int,
    as_of: datetime | None = None,
) -> HistoryOut:
    def work(session: Session) -> HistoryOut:
        require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        if not RatingRepository(session).of_player(ladder_id, player):
            raise NotFound(f"player {player!r} has no rating in ladder {ladder_id!r}")
        total, rows = EventRepository(session).history(
            ladder_id, player, faction, limit, offset, as_of
        )
        return HistoryOut(
            player=player,
            ladder=ladder_id,
            total=total,
            entries=[
                HistoryEntry(
                    kind=event.kind,
                    id=event.external_id,
                    seq=event.seq,
                    at=change.occurred_at,
                    faction=_faction_out(change.faction),
                    rank=change.rank,
                    rating_before=change.rating_before,
                    rating_after=change.rating_after,
                    delta=change.rating_after - change.rating_before,
                    deviation_before=change.deviation_before,
                    deviation_after=change.deviation_after,
                    volatility_before=change.volatility_before,
                    volatility_after=change.volatility_after,
                    details=change.details,
                    voided=event.voided_at is not None,
                )
                for change, event in rows
            ],
        )

    return db.run(work, write=False)


def get_leaderboard(
    db: Database,
    ladder_id: str,
    *,
    limit: int,
    offset: int,
    sort: Literal["rating", "name", "games"],
    order: Literal["asc", "desc"] | None,
    active_within_days: int | None,
    faction: str | None,
    min_games: int,
) -> LeaderboardOut:
    def work(session: Session) -> LeaderboardOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        info = runtime_for(ladder).info
        days = active_within_days
        if days is None:
            days = info.default_active_within_days
        active_since = None if not days else now() - timedelta(days=days)
        direction = order or ("asc" if sort == "name" else "desc")
        total, rows = RatingRepository(session).leaderboard(
            ladder_id,
            rank_by=info.rank_by,
            sort=sort,
            order=direction,
            active_since=active_since,
            faction=faction,
            min_games=min_games,
            limit=limit,
            offset=offset,
        )
        return LeaderboardOut(
            ladder=ladder_id,
            total=total,
            entries=[
                LeaderboardEntry(
                    position=position,
                    player=row.player,
                    faction=_faction_out(row.faction),
                    rating=row.rating,
                    deviation=row.deviation,
                    ranking_value=row.ranking_value,
                    games=row.games,
                    win_rate=_rate(row.wins, row.games),
                    last_played_at=row.last_played_at,
                )
                for position, row in rows
            ],
        )

    return db.run(work, write=False)


def adjust_player(db: Database, ladder_id: str, player: str, body: AdjustmentIn) -> PlayerOut:
    """Record an administrator's adjustment as an event in the ladder's history."""
    at = body.at or now()

    def load(session: Session) -> tuple[str | None, bool]:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        info = runtime_for(ladder).info
        return info.kind, info.per_faction

    _kind, per_faction = db.run(load, write=False)
    if per_faction and body.faction is None:
        raise Invalid.at(("faction",), "this ladder rates each faction separately: name one")

    def work(session: Session, exclusive: bool) -> None:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        key = key_for(runtime.info, player, body.faction)
        event = adjustment_to_engine(key, body, at)
        stored = adjustment_body(player, body, at)
        try:
            runtime.rater.adjusted_state(None, body.rating, body.deviation, body.volatility, at)
        except Exception as exc:  # the engine's InvalidEvent names the field
            from app.engine.errors import InvalidEvent

            if isinstance(exc, InvalidEvent):
                raise Invalid.at(exc.loc, exc.message) from exc
            raise
        new = NewEvent(
            kind=ADJUSTMENT,
            external_id=None,
            occurred_at=at,
            body=stored,
            body_hash=body_hash(stored),
            event=event,
        )
        record(session, ladder_id, new, exclusive=exclusive)

    run_write(db, work)
    return get_player(db, ladder_id, player)
