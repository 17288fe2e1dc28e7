"""webhooks, their deliveries, and each feed consumer's progress per ladder

New tables only: safe to run while the old code serves.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIME = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("ladders", JSON, nullable=True),
        sa.Column("types", JSON, nullable=True),
        sa.Column("description", sa.String(length=500), nullable=True),
        sa.Column("secret", sa.String(length=100), nullable=False),
        sa.Column("owner_key", sa.String(length=40), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("failing_since", TIME, nullable=True),
        sa.Column("disabled_at", TIME, nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "feed_consumers",
        sa.Column("consumer", sa.String(length=40), nullable=False),
        sa.Column("ladder_id", sa.String(length=100), nullable=False),
        sa.Column("delivered", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("next_attempt_at", TIME, nullable=True),
        sa.Column("leased_until", TIME, nullable=True),
        sa.Column("lease", sa.String(length=40), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("consumer", "ladder_id"),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("webhook_id", sa.String(length=40), nullable=False),
        sa.Column("ladder_id", sa.String(length=100), nullable=False),
        sa.Column("item_id", sa.String(length=40), nullable=False),
        sa.Column("cursor", sa.BigInteger(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["webhook_id"], ["webhooks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_webhook_deliveries_webhook", "webhook_deliveries", ["webhook_id", "id"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_webhook_deliveries_webhook", table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_table("feed_consumers")
    op.drop_table("webhooks")
