"""Use cases for players: current ratings, history, leaderboards and adjustments."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database, Retry
from app.core.errors import Invalid, NotFound
from app.engine.protocols import key_for
from app.models import NO_FACTION, Change, Event, Ladder, PlayerRating
from app.repositories.changes import ChangeRepository
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
from app.services import snapshots
from app.services.conversion import ADJUSTMENT, adjustment_body, adjustment_to_engine
from app.services.history import NewEvent, now, record, validate
from app.services.runtime import require_ladder, runtime_for


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


def _entry_out(entry: snapshots.Entry, position: int) -> RatingOut:
    return RatingOut(
        faction=entry.faction,
        rating=entry.standing.rating,
        deviation=entry.standing.deviation,
        volatility=entry.standing.volatility,
        ranking_value=entry.standing.ranking_value,
        games=entry.games,
        wins=entry.wins,
        draws=entry.draws,
        losses=entry.losses,
        win_rate=_rate(entry.wins, entry.games),
        loss_rate=_rate(entry.losses, entry.games),
        last_played_at=entry.last_played_at,
        position=position,
    )


def get_player(
    db: Database, ladder_id: str, player: str, as_of: datetime | None = None
) -> PlayerOut:
    def work(session: Session) -> PlayerOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        if as_of is not None:
            board = snapshots.ranked(
                snapshots.as_of(session, ladder, runtime, as_of), runtime.info.rank_by
            )
            mine = [(pos, e) for pos, e in board if e.player == player]
            if not mine:
                raise NotFound(f"player {player!r} had no rating in ladder {ladder_id!r} then")
            return PlayerOut(
                player=player,
                ladder=ladder_id,
                ratings=[_entry_out(e, pos) for pos, e in sorted(mine, key=_by_faction)],
            )
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


def _history_entry(change: Change, event: Event) -> HistoryEntry:
    return HistoryEntry(
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
    )


def _voided_entry(event: Event, snapshot: dict[str, Any]) -> HistoryEntry:
    """A voided event as it was applied, flagged voided (it changes nothing now)."""
    return HistoryEntry(
        kind=event.kind,
        id=event.external_id,
        seq=event.seq,
        at=event.occurred_at,
        faction=_faction_out(snapshot["faction"]),
        rank=snapshot["rank"],
        rating_before=snapshot["rating_before"],
        rating_after=snapshot["rating_after"],
        delta=snapshot["rating_after"] - snapshot["rating_before"],
        deviation_before=snapshot["deviation_before"],
        deviation_after=snapshot["deviation_after"],
        volatility_before=snapshot["volatility_before"],
        volatility_after=snapshot["volatility_after"],
        details=snapshot["details"],
        voided=True,
    )


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
        voided = [
            _voided_entry(event, snapshot)
            for event in EventRepository(session).voided(ladder_id, as_of)
            for snapshot in event.voided_changes or []
            if snapshot["player"] == player and (faction is None or snapshot["faction"] == faction)
        ]
        # Voids are rare: without any, page in SQL; with some, merge in time order here.
        total, rows = ChangeRepository(session).history(
            ladder_id, player, faction, None if voided else limit, 0 if voided else offset, as_of
        )
        entries = [_history_entry(change, event) for change, event in rows]
        if voided:
            entries = sorted([*entries, *voided], key=lambda e: (e.at, e.seq))
            total += len(voided)
            entries = entries[offset : offset + limit]
        return HistoryOut(player=player, ladder=ladder_id, total=total, entries=entries)

    return db.run(work, write=False)


def _by_faction(item: tuple[int, snapshots.Entry]) -> str:
    return item[1].faction or ""


def _board_as_of(
    session: Session,
    ladder: Ladder,
    at: datetime,
    *,
    limit: int,
    offset: int,
    sort: str,
    direction: str,
    active_since: datetime | None,
    faction: str | None,
    min_games: int,
) -> tuple[int, list[LeaderboardEntry]]:
    runtime = runtime_for(ladder)
    entries = [
        e
        for e in snapshots.as_of(session, ladder, runtime, at)
        if (
            active_since is None
            or (e.last_played_at is not None and e.last_played_at >= active_since)
        )
        and (faction is None or e.faction == faction)
        and e.games >= min_games
    ]
    board = snapshots.ranked(entries, runtime.info.rank_by)
    keys = {
        "rating": lambda item: (item[0], item[1].player),
        "name": lambda item: (item[1].player, item[1].faction or ""),
        "games": lambda item: (item[1].games, item[1].player),
    }
    reverse = (direction == "asc") if sort == "rating" else (direction == "desc")
    board.sort(key=keys[sort], reverse=reverse)
    return len(board), [
        LeaderboardEntry(
            position=position,
            player=e.player,
            faction=e.faction,
            rating=e.standing.rating,
            deviation=e.standing.deviation,
            ranking_value=e.standing.ranking_value,
            tiebreak=e.standing.tiebreak,
            games=e.games,
            win_rate=_rate(e.wins, e.games),
            last_played_at=e.last_played_at,
        )
        for position, e in board[offset : offset + limit]
    ]


def _board_now(
    session: Session,
    ladder_id: str,
    rank_by: str,
    *,
    limit: int,
    offset: int,
    sort: Literal["rating", "name", "games"],
    direction: Literal["asc", "desc"],
    active_since: datetime | None,
    faction: str | None,
    min_games: int,
) -> tuple[int, list[LeaderboardEntry]]:
    """The stored (present) leaderboard, paged in SQL."""
    total, rows = RatingRepository(session).leaderboard(
        ladder_id,
        rank_by=rank_by,
        sort=sort,
        order=direction,
        active_since=active_since,
        faction=faction,
        min_games=min_games,
        limit=limit,
        offset=offset,
    )
    return total, [
        LeaderboardEntry(
            position=position,
            player=row.player,
            faction=_faction_out(row.faction),
            rating=row.rating,
            deviation=row.deviation,
            ranking_value=row.ranking_value,
            tiebreak=row.tiebreak,
            games=row.games,
            win_rate=_rate(row.wins, row.games),
            last_played_at=row.last_played_at,
        )
        for position, row in rows
    ]


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
    as_of: datetime | None = None,
) -> LeaderboardOut:
    def work(session: Session) -> LeaderboardOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        info = runtime_for(ladder).info
        days = active_within_days
        if days is None:
            days = info.default_active_within_days or 0
        reference = as_of or now()
        active_since = None if not days else _days_before(reference, days)
        direction = order or ("asc" if sort == "name" else "desc")
        total, entries = (
            _board_as_of(
                session,
                ladder,
                as_of,
                limit=limit,
                offset=offset,
                sort=sort,
                direction=direction,
                active_since=active_since,
                faction=faction,
                min_games=min_games,
            )
            if as_of is not None
            else _board_now(
                session,
                ladder_id,
                info.rank_by,
                limit=limit,
                offset=offset,
                sort=sort,
                direction=direction,
                active_since=active_since,
                faction=faction,
                min_games=min_games,
            )
        )
        # The filter is echoed so that a client can say why a board is short (or empty).
        return LeaderboardOut(
            ladder=ladder_id,
            total=total,
            active_within_days=days,
            active_since=active_since,
            entries=entries,
        )

    return db.run(work, write=False)


def adjust_player(db: Database, ladder_id: str, player: str, body: AdjustmentIn) -> PlayerOut:
    """Record an administrator's adjustment as an event in the ladder's history."""
    at = body.at or now()

    def load(session: Session) -> tuple[str, bool]:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        info = runtime_for(ladder).info
        return info.id, info.per_faction

    system, per_faction = db.run(load, write=False)
    if per_faction and body.faction is None:
        raise Invalid.at(("faction",), "this ladder rates each faction separately: name one")

    def work(session: Session, exclusive: bool) -> Retry | None:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder)
        key = key_for(runtime.info, player, body.faction)
        event = adjustment_to_engine(key, body, at)
        validate(runtime, event)
        new = NewEvent(
            ladder_id=ladder_id,
            kind=ADJUSTMENT,
            external_id=None,
            occurred_at=at,
            body=adjustment_body(player, body, at),
            event=event,
        )
        recorded = record(session, ladder_id, new, exclusive=exclusive)
        return recorded if isinstance(recorded, Retry) else None

    db.run_escalating(work)
    metrics.record_applied(ladder_id, system, ADJUSTMENT)
    return get_player(db, ladder_id, player)


def _days_before(reference: datetime, days: int) -> datetime | None:
    """``days`` before ``reference``; None (no limit) when that is before year 1."""
    try:
        return reference - timedelta(days=days)
    except OverflowError:
        return None
