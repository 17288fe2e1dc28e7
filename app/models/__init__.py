"""ORM tables (imported here so Alembic sees all of them through ``Base.metadata``)."""

from app.models.base import Base
from app.models.tables import (
    NO_FACTION,
    AddressWindow,
    ApiKey,
    AuditEntry,
    Change,
    Event,
    FeedConsumer,
    FeedItem,
    Ladder,
    LadderFit,
    PlayerFit,
    PlayerProfile,
    PlayerRating,
    RateWindow,
    TournamentTeam,
    Webhook,
    WebhookDelivery,
)

__all__ = [
    "NO_FACTION",
    "AddressWindow",
    "ApiKey",
    "AuditEntry",
    "Base",
    "Change",
    "Event",
    "FeedConsumer",
    "FeedItem",
    "Ladder",
    "LadderFit",
    "PlayerFit",
    "PlayerProfile",
    "PlayerRating",
    "RateWindow",
    "TournamentTeam",
    "Webhook",
    "WebhookDelivery",
]
