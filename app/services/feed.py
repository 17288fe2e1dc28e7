"""The change feed: what each committed write changed in a ladder, in commit order.

A write's unit of work (app/services/unit_of_work.py) gathers the ratings its replay moved,
before and after (:class:`Moved`), and the use case publishes one item per write
(:meth:`~app.services.unit_of_work.UnitOfWork.publish`); the unit writes the items in the
same transaction as the ratings they describe, just before its commit, taking the ladder's
next cursors (:meth:`app.repositories.feed.FeedRepository.take_cursors`). So an item exists
exactly when its write committed, and applying the items in cursor order to an empty mirror
gives every stored rating.

A rating entry (``before``, ``after``) is what the player endpoint shows of a rating, without
its ``position``, which moves with other players' writes. ``before`` is null for a rating the
write created, ``after`` null for one it removed (every result it had was voided).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import NO_FACTION, FeedItem
from app.repositories.feed import FeedRepository
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingKey
from app.services.runtime import require_ladder

#: The kinds of item (API.md, "Change feed").
GAME_RATED, GAME_CORRECTED, GAME_VOIDED = "game.rated", "game.corrected", "game.voided"
TOURNAMENT_RATED = "tournament.rated"
TOURNAMENT_CORRECTED, TOURNAMENT_VOIDED = "tournament.corrected", "tournament.voided"
RATING_ADJUSTED, LADDER_CHANGED = "rating.adjusted", "ladder.changed"
SEASON_STARTED, SEASON_CHANGED = "season.started", "season.changed"
#: A whole-history ladder's fit brought back to convergence by the background work: the
#: ratings its refit moved (app.services.convergence).
FIT_CONVERGED = "fit.converged"
TYPES = (
    GAME_RATED,
    GAME_CORRECTED,
    GAME_VOIDED,
    TOURNAMENT_RATED,
    TOURNAMENT_CORRECTED,
    TOURNAMENT_VOIDED,
    RATING_ADJUSTED,
    LADDER_CHANGED,
    SEASON_STARTED,
    SEASON_CHANGED,
    FIT_CONVERGED,
)
#: An item's type by what the write did ("rated", "corrected", "voided") to a result of a kind.
KIND_TYPES = {
    ("game", "rated"): GAME_RATED,
    ("game", "corrected"): GAME_CORRECTED,
    ("game", "voided"): GAME_VOIDED,
    ("tournament", "rated"): TOURNAMENT_RATED,
    ("tournament", "corrected"): TOURNAMENT_CORRECTED,
    ("tournament", "voided"): TOURNAMENT_VOIDED,
    ("adjustment", "rated"): RATING_ADJUSTED,
}
#: A rating as a feed item shows it (the player endpoint's entry, without ``position``).
Entry = dict[str, Any]


class Shown(Protocol):
    """A rating's shown values and statistics: a rating row, or what a replay leaves."""

    @property
    def rating(self) -> float: ...
    @property
    def deviation(self) -> float | None: ...
    @property
    def volatility(self) -> float | None: ...
    @property
    def ranking_value(self) -> float | None: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def last_played_at(self) -> datetime | None: ...


def entry(faction: str, shown: Shown | Mapping[str, Any]) -> Entry:
    """The entry of a rating (its row, or the columns a replay writes to it)."""
    get = shown.get if isinstance(shown, Mapping) else shown.__getattribute__
    games = get("games")
    wins, draws, losses = (int(get(name) or 0) for name in ("wins", "draws", "losses"))
    # Rates of the games decided: a tournament's placings count in ``games`` and in none of
    # wins, draws and losses, so a tournament ladder's rates are null, not 0.
    decided = wins + draws + losses
    played = get("last_played_at")
    return {
        "faction": None if faction == NO_FACTION else faction,
        "rating": get("rating"),
        "deviation": get("deviation"),
        "volatility": get("volatility"),
        "ranking_value": get("ranking_value"),
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / decided if decided else None,
        "loss_rate": losses / decided if decided else None,
        # A datetime: the JSON writers (orjson) write it, and the API renders it as RFC 3339.
        "last_played_at": played,
    }


def row_entry(row: Any) -> Entry | None:
    """A stored rating row's entry; None for a row with no result yet (not rated)."""
    if row is None or row.last_change_id is None:
        return None
    return entry(row.faction, row)


@dataclass(slots=True)
class Moved:
    """Ratings a write moved: each one's entry before the write and after it."""

    ratings: dict[RatingKey, list[Entry | None]] = field(default_factory=dict)

    def note(self, key: RatingKey, before: Entry | None, after: Entry | None) -> None:
        """Record a move; a rating moved twice keeps its first ``before``."""
        found = self.ratings.get(key)
        if found is None:
            self.ratings[key] = [before, after]
        else:
            found[1] = after

    def only(self, keys: Iterable[RatingKey]) -> Moved:
        """The moves of ``keys`` alone."""
        return Moved({key: self.ratings[key] for key in keys if key in self.ratings})

    def listed(self) -> list[dict[str, Any]]:
        """The item's ``ratings``: those whose entry changed, by player and faction."""
        return [
            {"player": player, "faction": None if faction == NO_FACTION else faction,
             "before": before, "after": after}
            for (player, faction), (before, after) in sorted(self.ratings.items())
            if before != after
        ]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Published:
    """An item a write publishes, before it has a cursor."""

    type: str
    event: tuple[str, str] | None
    ratings: list[dict[str, Any]]


def item_out(item: FeedItem) -> dict[str, Any]:
    """An item as the API shows it."""
    event = None
    if item.event_kind is not None:
        event = {"kind": item.event_kind, "id": item.event_id}
    return {
        "cursor": item.cursor,
        "id": item.id,
        "type": item.type,
        "at": item.at,
        "event": event,
        "ratings": item.ratings,
    }


def page(db: Database, ladder_id: str, after: int, limit: int) -> list[dict[str, Any]]:
    """The ladder's items after cursor ``after``, in cursor order (404 for no ladder)."""

    def work(session: Session) -> list[dict[str, Any]]:
        require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        return [item_out(item) for item in FeedRepository(session).page(ladder_id, after, limit)]

    return db.run(work, write=False)
