"""Leaderboards computed in memory: as of a past time, and under another system (what-if).

The stored leaderboard (``player_ratings``) answers the present; these answer "as it was"
and "as it would be", from the same history and the same engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.engine import ranked as ranked_play
from app.engine.base import BaseRater
from app.engine.ledger import shown
from app.engine.types import PlayerState, Standing
from app.models import NO_FACTION, Change, Ladder
from app.repositories.changes import NO_STATISTICS, ChangeRepository
from app.repositories.ratings import RatingRepository
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
    #: The stored state (decay reads it at a time).
    state: PlayerState | None = None
    #: Ranked play, as read at a time (:func:`read`).
    provisional: bool = False
    division: str | None = None
    #: What decay took, read at a time: idle days and the stored values (None: no decay).
    decay: Mapping[str, Any] | None = None
    #: A circuit's season score (``best_of``), by which its board ranks (``rank_by`` points).
    points: float | None = None


__all__ = [
    "Entry",
    "Standing",
    "as_of",
    "entry_of",
    "position_of",
    "ranked",
    "ranked_by_stored_rating",
    "sort_value",
]


def ranked_by_stored_rating(runtime: Runtime) -> bool:
    """Whether a board of the system is ordered by the stored ``rating_after`` alone, so SQL
    can select, rank and page it: the system ranks by rating, shows the state's rating as it
    is (the base standing: no ranking value, no tiebreak) and has no ladder-wide floor.
    Systems ranking by a value computed from the state (Glicko, TrueSkill), splitting ties
    from it (Kinzett) or raising ratings to a floor (NADF) need every state decoded."""
    wrapped = runtime.rater
    # Ranked play's decay and resets wrap the system's rater (``Timed``): judge the system's.
    rater = type(wrapped.wrapped if isinstance(wrapped, ranked_play.Timed) else wrapped)
    return (
        runtime.info.rank_by == "rating"
        and getattr(rater, "standing", None) is BaseRater.standing
        and getattr(rater, "rating_floor", None) is BaseRater.rating_floor
    )


def entry_of(
    runtime: Runtime,
    change: Change,
    counts: Mapping[str, Any],
    ladder_state: Mapping[str, Any],
) -> Entry:
    """A rating as its last change ``change`` left it, with its statistics ``counts``."""
    state = decode_state(change.state_after)
    return Entry(
        player=change.player,
        faction=None if change.faction == NO_FACTION else change.faction,
        standing=shown(runtime.rater, state, ladder_state),
        state=state,
        games=counts["games"],
        wins=counts["wins"],
        draws=counts["draws"],
        losses=counts["losses"],
        last_played_at=counts["last_played_at"],
    )


def sort_value(standing: Standing, rank_by: str) -> tuple[float, float]:
    value = standing.ranking_value if rank_by == "ranking_value" else None
    return (value if value is not None else standing.rating, standing.tiebreak or 0.0)


#: ``rank_by`` of a circuit's season board: by each entry's ``points``.
POINTS = "points"


def _value(entry: Entry, rank_by: str) -> tuple[float, float]:
    if rank_by == POINTS:
        return (entry.points or 0.0, 0.0)
    return sort_value(entry.standing, rank_by)


def ranked(entries: Iterable[Entry], rank_by: str) -> list[tuple[int, Entry]]:
    """Entries best first with competition positions (equal values share a position)."""
    ordered = sorted(
        entries,
        key=lambda e: (
            tuple(-v for v in _value(e, rank_by)),
            e.player,
            e.faction or "",
        ),
    )
    result: list[tuple[int, Entry]] = []
    previous: tuple[float, float] | None = None
    position = 0
    for index, entry in enumerate(ordered, start=1):
        value = _value(entry, rank_by)
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
    return [
        entry_of(
            runtime,
            change,
            stats.get((change.player, change.faction), NO_STATISTICS),
            ladder_state,
        )
        for change in changes.last_at(ladder.id, at)
    ]


def current(session: Session, ladder: Ladder, runtime: Runtime) -> list[Entry]:
    """Every rating of the ladder as stored now (states decoded)."""
    return [stored_entry(row) for row in RatingRepository(session).rated_of_ladder(ladder.id)]


def stored_entry(row: Any) -> Entry:
    """A rating row as read by :meth:`RatingRepository.rated_of_ladder` (state decoded)."""
    return Entry(
        player=row.player,
        faction=None if row.faction == NO_FACTION else row.faction,
        standing=Standing(
            row.rating, row.deviation, row.volatility, row.ranking_value, row.tiebreak
        ),
        state=decode_state(row.state),
        games=row.games,
        wins=row.wins,
        draws=row.draws,
        losses=row.losses,
        last_played_at=row.last_played_at,
    )


def read(
    runtime: Runtime,
    entries: Iterable[Entry],
    at: datetime,
    ladder_state: Any,
    season_games: Mapping[tuple[str, str], int] | None = None,
) -> list[Entry]:
    """The entries as ranked play reads them at ``at`` (SYSTEMS.md "Ranked play"): through
    the season resets and decayed by each player's idle time where the ladder has them, with
    its provisional status and division. ``season_games``: each rating's rated games in the
    season running at ``at``, which placement counts (None: no season, the whole ladder's)."""
    policy = runtime.policy
    rank_by = runtime.info.rank_by
    found = []
    for entry in entries:
        standing, decay = entry.standing, None
        if runtime.timed and entry.state is not None:
            state = runtime.read(entry.state, at)
            # ``decay`` says what decay (and a reset on its way) took, where the ladder
            # decays; a reset alone shows in the values read.
            if state != entry.state and policy.decay is not None:
                decay = {
                    "idle_days": ranked_play.idle_days(entry.state, at),
                    "rating": standing.rating,
                    "deviation": standing.deviation,
                    "ranking_value": standing.ranking_value,
                }
            if state != entry.state:
                standing = shown(runtime.rater, state, ladder_state)
        value = sort_value(standing, rank_by)[0]
        games = (
            entry.games
            if season_games is None
            else season_games.get((entry.player, entry.faction or NO_FACTION), 0)
        )
        found.append(
            replace(
                entry,
                standing=standing,
                decay=decay,
                provisional=policy.is_provisional(games, standing.deviation),
                division=policy.division_of(value),
            )
        )
    return found


def position_of(entries: Sequence[tuple[int, Entry]], player: str, faction: str | None) -> int:
    for position, entry in entries:
        if entry.player == player and entry.faction == faction:
            return position
    return 0
