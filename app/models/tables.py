"""The ORM tables.

The ordered history of events is the truth; ``player_ratings`` is the current state derived
from it, and every ``changes`` row names its predecessor for the same rating (the consistency
invariant: a unique ``prev_change_id`` means two writers can never both extend the same state).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, JsonType, UTCDateTime

ID_LENGTH = 100
#: A player's display name (API.md: 1-200 characters), and an ISO 3166-1 alpha-2 code.
NAME_LENGTH = 200
COUNTRY_LENGTH = 2
#: The community of the ladders and profiles that name none (API.md "Communities").
DEFAULT_COMMUNITY = "default"
#: Faction column value for ladders that are not per-faction (NULL would break uniqueness).
NO_FACTION = ""

#: BIGINT on PostgreSQL, INTEGER on SQLite (so it is SQLite's rowid and autoincrements).
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Ladder(Base):
    __tablename__ = "ladders"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    system: Mapped[str] = mapped_column(String(32))
    title: Mapped[str | None] = mapped_column(String(200))
    params: Mapped[dict[str, Any]] = mapped_column(JsonType)
    #: Ladder-wide state after the latest applied event (NADF's base); {} for most systems.
    state: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The cursor of the ladder's last feed item. A write takes the next ones by updating it
    #: just before it commits, so the row's lock orders cursors as the writes commit.
    feed_cursor: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    #: The ladder's seasons, by start: ``[{"id", "name", "starts_at", "reset", "best_of"}]``
    #: (NULL: none). Their resets are part of its history (SYSTEMS.md "Seasons").
    seasons: Mapped[list[dict[str, Any]] | None] = mapped_column(JsonType)
    #: The community the ladder belongs to (API.md "Communities"), fixed once created: its
    #: players' ids and profiles are the community's. The server default is for rows written
    #: before communities (migration 0014) and by code that does not name one.
    community: Mapped[str] = mapped_column(
        String(ID_LENGTH), server_default=text(f"'{DEFAULT_COMMUNITY}'"), index=True
    )
    #: When the ladder was archived (NULL: it is not): an archived ladder is read-only.
    archived_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Event(Base):
    """A game, tournament or rating adjustment, in the ladder's history."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("ladder_id", "kind", "external_id"),
        # What a change's foreign key names: its event, in its ladder.
        UniqueConstraint("ladder_id", "seq"),
        Index("ix_events_ladder_order", "ladder_id", "occurred_at", "seq"),
        Index("ix_events_ladder_tournament", "ladder_id", "tournament"),
    )

    #: Arrival number: increasing in order of acceptance across the whole service.
    seq: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    ladder_id: Mapped[str] = mapped_column(ForeignKey("ladders.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    external_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
    body: Mapped[dict[str, Any]] = mapped_column(JsonType)
    body_hash: Mapped[str] = mapped_column(String(64))
    rated: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    tournament: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    voided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The changes the event made before it was voided (shown in histories as voided).
    voided_changes: Mapped[list[dict[str, Any]] | None] = mapped_column(JsonType)
    #: Ladder-wide state after this event (only for ladder-scoped systems such as NADF).
    ladder_state_after: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: 1 when stored, one more at each correction and void: the result's ETag, which PUT and
    #: DELETE compare with If-Match so that two admins' corrections cannot silently overwrite.
    version: Mapped[int] = mapped_column(Integer, server_default=text("1"))


class Change(Base):
    """One player's rating change in one event."""

    __tablename__ = "changes"
    __table_args__ = (
        # Its event, in the ladder the change names (one check per insert; the ladder's
        # cascade reaches the changes through their events).
        ForeignKeyConstraint(
            ["ladder_id", "event_seq"], ["events.ladder_id", "events.seq"], ondelete="CASCADE"
        ),
        UniqueConstraint("prev_change_id"),
        # A rating's history has exactly one start.
        Index(
            "uq_changes_first_per_rating",
            "ladder_id",
            "player",
            "faction",
            unique=True,
            postgresql_where=text("prev_change_id IS NULL"),
            sqlite_where=text("prev_change_id IS NULL"),
        ),
        Index("ix_changes_rating_order", "ladder_id", "player", "faction", "occurred_at", "seq"),
        Index("ix_changes_event", "event_seq"),
        Index("ix_changes_ladder_order", "ladder_id", "occurred_at", "seq"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    ladder_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    event_seq: Mapped[int] = mapped_column(BigId)
    player: Mapped[str] = mapped_column(String(ID_LENGTH))
    faction: Mapped[str] = mapped_column(String(ID_LENGTH))
    position: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int | None] = mapped_column(Integer)
    #: The side of a team game the change belongs to (its label); NULL in a free-for-all.
    team: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    #: "win", "draw" or "loss" for a rated game; NULL when it counts in no statistic.
    outcome: Mapped[str | None] = mapped_column(String(8))
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: Copy of the event's seq, so history orders by (occurred_at, seq) without a join.
    seq: Mapped[int] = mapped_column(BigInteger)
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float | None] = mapped_column(Float)
    deviation_after: Mapped[float | None] = mapped_column(Float)
    volatility_before: Mapped[float | None] = mapped_column(Float)
    volatility_after: Mapped[float | None] = mapped_column(Float)
    state_after: Mapped[dict[str, Any]] = mapped_column(JsonType)
    details: Mapped[dict[str, Any]] = mapped_column(JsonType)
    prev_change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))


class PlayerRating(Base):
    """A rating's current state, derived from its changes (the lock target for writers)."""

    __tablename__ = "player_ratings"
    __table_args__ = (
        Index("ix_player_ratings_ladder_rating", "ladder_id", "rating"),
        Index("ix_player_ratings_ladder_ranking_value", "ladder_id", "ranking_value"),
    )

    ladder_id: Mapped[str] = mapped_column(
        ForeignKey("ladders.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    faction: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float | None] = mapped_column(Float)
    volatility: Mapped[float | None] = mapped_column(Float)
    ranking_value: Mapped[float | None] = mapped_column(Float)
    #: Secondary sort key where the system has one (Kinzett: secondary points).
    tiebreak: Mapped[float | None] = mapped_column(Float)
    state: Mapped[dict[str, Any]] = mapped_column(JsonType)
    games: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    wins: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    draws: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    losses: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    last_played_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The newest change of this rating (the next change names it as its predecessor).
    last_change_id: Mapped[int | None] = mapped_column(BigInteger)
    #: (time, seq) of the latest event applied to this rating: a new event earlier than this
    #: is late and triggers recomputation.
    last_event_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_event_seq: Mapped[int | None] = mapped_column(BigInteger)


class FeedItem(Base):
    """What one committed write changed in a ladder (the change feed): never changed, kept."""

    __tablename__ = "feed_items"
    __table_args__ = (UniqueConstraint("ladder_id", "cursor"),)

    #: Unique and stable: the webhook id of the item.
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    ladder_id: Mapped[str] = mapped_column(ForeignKey("ladders.id", ondelete="CASCADE"))
    #: Increasing within the ladder in the order the writes committed.
    cursor: Mapped[int] = mapped_column(BigInteger)
    type: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    event_kind: Mapped[str | None] = mapped_column(String(16))
    event_id: Mapped[str | None] = mapped_column(String(ID_LENGTH))
    #: [{"player", "faction", "before", "after"}]: every rating whose stored state it changed.
    #: json, not jsonb, on PostgreSQL: written once and read whole, so parsing it into jsonb
    #: on every write bought nothing (migration 0019).
    ratings: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


class Webhook(Base):
    """An endpoint the feed's items are POSTed to (Standard Webhooks)."""

    __tablename__ = "webhooks"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    url: Mapped[str] = mapped_column(String(2000))
    #: The ladders it hears of (None: every ladder), and the item types (None: all).
    ladders: Mapped[list[str] | None] = mapped_column(JsonType)
    types: Mapped[list[str] | None] = mapped_column(JsonType)
    description: Mapped[str | None] = mapped_column(String(500))
    #: ``whsec_`` + base64 of the signing key: needed to sign, so stored as it is.
    secret: Mapped[str] = mapped_column(String(100))
    #: The API key that created it (None: the admin token).
    owner_key: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: Set when an item exhausted its retries: nothing more is sent until a replay.
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Set when the endpoint answered 410 Gone: nothing more is sent.
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class FeedConsumer(Base):
    """How far one consumer of the feed (a webhook, a broker) got in one ladder, and its
    lease: the process delivering for it now, until when."""

    __tablename__ = "feed_consumers"

    #: A webhook's id, or a broker's name (``nats``, ``amqp``).
    consumer: Mapped[str] = mapped_column(String(40), primary_key=True)
    ladder_id: Mapped[str] = mapped_column(
        ForeignKey("ladders.id", ondelete="CASCADE"), primary_key=True
    )
    #: The cursor of the last item delivered (or skipped: not of its types).
    delivered: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    #: Failed attempts at the next item, and when to try it again.
    attempts: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    leased_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Who holds the lease (a token of the delivering process's attempt).
    lease: Mapped[str | None] = mapped_column(String(40))
    last_error: Mapped[str | None] = mapped_column(String(500))


class WebhookDelivery(Base):
    """One attempt at delivering an item to a webhook (its delivery log)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_webhook", "webhook_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"))
    ladder_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    item_id: Mapped[str] = mapped_column(String(40))
    cursor: Mapped[int] = mapped_column(BigInteger)
    attempt: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The HTTP status answered (None: no answer, see ``error``).
    status: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(String(500))
    seconds: Mapped[float] = mapped_column(Float)


class TournamentTeam(Base):
    """A player's team in a tournament of games (Kinzett team standings)."""

    __tablename__ = "tournament_teams"

    ladder_id: Mapped[str] = mapped_column(
        ForeignKey("ladders.id", ondelete="CASCADE"), primary_key=True
    )
    tournament: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    player: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    team: Mapped[str] = mapped_column(String(ID_LENGTH))


class ApiKey(Base):
    """An API key: only a keyed hash of its secret is stored."""

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    secret_hash: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[list[str]] = mapped_column(JsonType)
    #: Ladder ids the key may touch, or ["*"] for all.
    ladders: Mapped[list[str]] = mapped_column(JsonType)
    #: Communities whose ladders and players the key may touch, or ["*"] for all (the keys
    #: made before communities: migration 0014).
    communities: Mapped[list[str]] = mapped_column(JsonType, server_default=text("'[\"*\"]'"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class RateWindow(Base):
    """Requests of one key in one fixed window (shared by every replica)."""

    __tablename__ = "rate_windows"

    key_id: Mapped[str] = mapped_column(
        ForeignKey("api_keys.id", ondelete="CASCADE"), primary_key=True
    )
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class AddressWindow(Base):
    """Requests without a key from one client address in one fixed window (public reads),
    shared by every replica as a key's windows are. Only the current window is kept: the
    first request of a window deletes the older ones."""

    __tablename__ = "address_windows"

    #: The address as the server sees it (IPv6 is at most 45 characters).
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class PlayerProfile(Base):
    """A player's display name and country, shared by every ladder of its community (the
    same id in two communities is two players).

    Not history: no rating depends on it, so changing it recomputes nothing.
    """

    __tablename__ = "player_profiles"
    __table_args__ = (Index("ix_player_profiles_community_country", "community", "country"),)

    community: Mapped[str] = mapped_column(
        String(ID_LENGTH), primary_key=True, server_default=text(f"'{DEFAULT_COMMUNITY}'")
    )
    player: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    #: ISO 3166-1 alpha-2.
    country: Mapped[str | None] = mapped_column(String(COUNTRY_LENGTH))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class LadderFit(Base):
    """The whole-history fit of a ``ttt`` or ``whr`` ladder (API.md "Whole-history and
    large-field systems"): how the last fit ended, and the engine's ladder-wide state. The
    ladder's ratings are its players' last curve points (``player_ratings``)."""

    __tablename__ = "ladder_fits"

    ladder_id: Mapped[str] = mapped_column(
        ForeignKey("ladders.id", ondelete="CASCADE"), primary_key=True
    )
    converged: Mapped[bool] = mapped_column(Boolean)
    sweeps: Mapped[int] = mapped_column(Integer)
    max_step: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The engine's state but its per-player part (its format).
    state: Mapped[dict[str, Any]] = mapped_column(JsonType)
    #: Who brings an unconverged fit back to convergence now (a token of the process's
    #: attempt), until when (``app.services.convergence``).
    lease: Mapped[str | None] = mapped_column(String(32))
    leased_until: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PlayerFit(Base):
    """One player's part of a ladder's whole-history fit: its curve (``[[day ordinal, rating,
    deviation], ...]``, one point per UTC day it played) and the engine's state of it (ttt:
    its days' messages; whr: its games' indices), so the next fit starts warm."""

    __tablename__ = "player_fits"

    ladder_id: Mapped[str] = mapped_column(
        ForeignKey("ladders.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    curve: Mapped[list[Any]] = mapped_column(JsonType)
    state: Mapped[Any] = mapped_column(JsonType)


class AuditEntry(Base):
    """One admin action on players (API.md "Communities": rename, merge, erasure): who, when,
    what, in which community, on which ids. An erasure names only the pseudonym, and erasing
    a player rewrites its id in the earlier entries too (docs/players-data.md)."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_community", "community", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The API key's id, or "admin" for the admin token.
    actor: Mapped[str] = mapped_column(String(40))
    #: "rename", "merge" or "erase".
    action: Mapped[str] = mapped_column(String(16))
    community: Mapped[str] = mapped_column(String(ID_LENGTH))
    #: The ids involved: [from, to] for a rename, [merged, into] for a merge, [pseudonym]
    #: for an erasure.
    players: Mapped[list[str]] = mapped_column(JsonType)
    #: The ladders whose rows changed (a merge: those recomputed).
    ladders: Mapped[list[str]] = mapped_column(JsonType)
