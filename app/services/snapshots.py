"""Leaderboards computed in memory: as of a past time, and under another system (what-if).

The stored leaderboard (``player_ratings``) answers the present; these answer "as it was"
and "as it would be", from the same history and the same engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.engine.ledger import shown
from app.engine.types import Standing
from app.models import NO_FACTION, Ladder
from app.repositories.changes import ChangeRepository
from app.services.history import ladder_state_as_of
from app.services.runtime import Runtime, decode_state


@dataclass(frozen=True, slots=True)
class Entry:
    player: str
    faction: str | None
    standing: Standing
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_played_at: datetime | None = None


__all__ = ["Entry", "Standing", "as_of", "position_of", "ranked", "sort_value"]


def sort_value(standing: Standing, rank_by: str) -> tuple[float, float]:
    value = standing.ranking_value if rank_by == "ranking_value" else None
    return (value if value is not None else standing.rating, standing.tiebreak or 0.0)


def ranked(entries: Iterable[Entry], rank_by: str) -> list[tuple[int, Entry]]:
    """Entries best first with competition positions (equal values share a position)."""
    ordered = sorted(
        entries,
        key=lambda e: (
            tuple(-v for v in sort_value(e.standing, rank_by)),
            e.player,
            e.faction or "",
        ),
    )
    result: list[tuple[int, Entry]] = []
    previous: tuple[float, float] | None = None
    position = 0
    for index, entry in enumerate(ordered, start=1):
        value = sort_value(entry.standing, rank_by)
        if value != previous:
            position = index
            previous = value
        result.append((position, entry))
    return result


def as_of(session: Session, ladder: Ladder, runtime: Runtime, at: datetime) -> list[Entry]:
    """Every rating of the ladder as it stood just after everything at or before ``at``."""
    changes = ChangeRepository(session)
    stats = changes.statistics(ladder.id, until=at)
    ladder_state = ladder_state_as_of(session, ladder, runtime, at)
    entries: list[Entry] = []
    for change in changes.last_at(ladder.id, at):
        counts = stats.get((change.player, change.faction), {})
        entries.append(
            Entry(
                player=change.player,
                faction=None if change.faction == NO_FACTION else change.faction,
                standing=shown(runtime.rater, decode_state(change.state_after), ladder_state),
                games=counts.get("games", 0),
                wins=counts.get("wins", 0),
                draws=counts.get("draws", 0),
                losses=counts.get("losses", 0),
                last_played_at=counts.get("last_played_at"),
            )
        )
    return entries


def position_of(entries: Sequence[tuple[int, Entry]], player: str, faction: str | None) -> int:
    for position, entry in entries:
        if entry.player == player and entry.faction == faction:
            return position
    return 0
