"""SQL for ladders."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select, text, true, update
from sqlalchemy.orm import Session

from app.models import (
    Change,
    Event,
    FeedConsumer,
    FeedItem,
    Ladder,
    PlayerRating,
    TournamentTeam,
    WebhookDelivery,
)
from app.repositories.base import driver_errors, is_postgres

#: First key of the ladders' advisory locks (the second is a hash of the ladder id).
LADDER_LOCK_NAMESPACE = 7_020_001

# Built once: a statement object memoises its cache key, so running it again skips
# SQLAlchemy's construction and cache-key walk (every group commit reads its ladder).
_LADDER_BY_ID = select(Ladder).where(Ladder.id == bindparam("ladder_id"))
LADDER_LOCK = {
    exclusive: text(f"SELECT {function}(:namespace, hashtext(:ladder))")
    for exclusive, function in (
        (True, "pg_advisory_xact_lock"),
        (False, "pg_advisory_xact_lock_shared"),
    )
}
#: The shared lock unless the exclusive one is held, and what a writer needs of the ladder,
#: as the driver takes them.
_DRIVER_TRY_LOCK_SHARED = (
    "SELECT pg_try_advisory_xact_lock_shared(%(namespace)s, hashtext(%(ladder)s))"
)
_DRIVER_LADDER_HEAD = (
    "SELECT system, params, state, seasons, community, archived_at FROM ladders "
    "WHERE id = %(ladder)s"
)


class LadderRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, ladder_id: str) -> Ladder | None:
        return self.session.get(Ladder, ladder_id)

    def get_locked(self, ladder_id: str, *, exclusive: bool) -> Ladder | None:
        """The ladder, locked: shared for ordinary writes, exclusive for recomputation.

        PostgreSQL: a transaction-scoped advisory lock on the ladder id. A shared row lock
        (FOR SHARE) would do the same, but every game of a ladder taking it on one row
        contends on that row's lock bookkeeping; advisory locks are held in memory only.
        SQLite: BEGIN IMMEDIATE has already serialised every writer.
        """
        if is_postgres(self.session):
            self.session.execute(
                LADDER_LOCK[exclusive], {"namespace": LADDER_LOCK_NAMESPACE, "ladder": ladder_id}
            )
        return self.session.scalars(_LADDER_BY_ID, {"ladder_id": ladder_id}).one_or_none()

    def try_lock_shared_and_get(self, ladder_id: str) -> tuple[bool, Ladder | None]:
        """Take the ladder's shared lock unless its exclusive lock is held (then False, at
        once), and read the ladder (whether the lock was taken or not). SQLite: ``BEGIN
        IMMEDIATE`` has serialised every writer, so always True.

        PostgreSQL: both statements go out together in the driver's pipeline mode, with the
        transaction's BEGIN when they start it: one round trip, not three, and none of the
        ORM's per-statement work. They stay two statements so the ladder is read after the
        lock is taken (a statement's snapshot is taken when it starts). The ladder comes back
        detached, with its system, params, state, seasons, community and archival: what a writer
        reads of it.
        """
        if not is_postgres(self.session):
            return True, self.get(ladder_id)
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert driver is not None
        parameters = {"namespace": LADDER_LOCK_NAMESPACE, "ladder": ladder_id}
        with driver_errors(connection, _DRIVER_LADDER_HEAD), driver.pipeline():
            locked = driver.execute(_DRIVER_TRY_LOCK_SHARED, parameters)
            head = driver.execute(_DRIVER_LADDER_HEAD, parameters)
        [taken] = locked.fetchone() or (False,)
        found = head.fetchone()
        if found is None:
            return bool(taken), None
        system, params, state, seasons, community, archived_at = found
        ladder = Ladder(
            id=ladder_id,
            system=system,
            params=params,
            state=state,
            seasons=seasons,
            community=community,
            archived_at=archived_at,
        )
        return bool(taken), ladder

    def ids_in_communities(self, communities: Iterable[str]) -> list[str]:
        """The ids of the ladders of ``communities``."""
        wanted = sorted(set(communities))
        return list(self.session.scalars(select(Ladder.id).where(Ladder.community.in_(wanted))))

    def community_of(self, ladder_id: str) -> str | None:
        """The ladder's community (None: no such ladder)."""
        community: str | None = self.session.scalar(
            select(Ladder.community).where(Ladder.id == ladder_id)
        )
        return community

    def delete(self, ladder_id: str) -> None:
        """The ladder and every row of its history, explicitly (SQLite enforces no cascade
        unless asked): changes before their events, the ladder last. Profiles are its
        community's, not its own: they stay."""
        for table, column in (
            (WebhookDelivery, WebhookDelivery.ladder_id),
            (FeedConsumer, FeedConsumer.ladder_id),
            (FeedItem, FeedItem.ladder_id),
            (TournamentTeam, TournamentTeam.ladder_id),
            (PlayerRating, PlayerRating.ladder_id),
            (Change, Change.ladder_id),
            (Event, Event.ladder_id),
            (Ladder, Ladder.id),
        ):
            self.session.execute(delete(table).where(column == ladder_id))

    def add(self, ladder: Ladder) -> None:
        self.session.add(ladder)
        self.session.flush()

    def page(
        self, limit: int, offset: int, only: frozenset[str] | None = None
    ) -> tuple[int, list[Ladder]]:
        condition = true() if only is None else Ladder.id.in_(sorted(only))
        total = self.session.scalar(select(func.count()).select_from(Ladder).where(condition))
        rows = self.session.scalars(
            select(Ladder).where(condition).order_by(Ladder.id).limit(limit).offset(offset)
        )
        return total or 0, list(rows)

    def counts(self, ladder_ids: list[str]) -> dict[str, dict[str, int]]:
        """Players, games and tournaments per ladder (voided events excluded)."""
        result: dict[str, dict[str, int]] = {
            i: {"players": 0, "games": 0, "tournaments": 0} for i in ladder_ids
        }
        if not ladder_ids:
            return result
        players = self.session.execute(
            select(PlayerRating.ladder_id, func.count(func.distinct(PlayerRating.player)))
            .where(PlayerRating.ladder_id.in_(ladder_ids))
            .group_by(PlayerRating.ladder_id)
        )
        for ladder_id, count in players:
            result[ladder_id]["players"] = count
        events = self.session.execute(
            select(Event.ladder_id, Event.kind, func.count())
            .where(Event.ladder_id.in_(ladder_ids), Event.voided_at.is_(None))
            .group_by(Event.ladder_id, Event.kind)
        )
        for ladder_id, kind, count in events:
            if kind in ("game", "tournament"):
                result[ladder_id][kind + "s"] = count
        return result

    def seasons(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """Every ladder with seasons, and its seasons."""
        rows = self.session.execute(select(Ladder.id, Ladder.seasons))
        return [(ladder_id, seasons) for ladder_id, seasons in rows if seasons]

    def set_state(self, ladder_id: str, state: dict[str, Any], now: datetime) -> None:
        self.session.execute(
            update(Ladder).where(Ladder.id == ladder_id).values(state=state, updated_at=now)
        )
