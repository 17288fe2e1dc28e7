"""the change feed: feed_items, and each ladder's last cursor

A new table and a column with a default: existing ladders start their feed at cursor 0 (their
history before the feed is not described by items), and it is safe to run while the old code
serves.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.add_column(
            sa.Column("feed_cursor", sa.BigInteger(), server_default=sa.text("0"), nullable=False)
        )
    op.create_table(
        "feed_items",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("ladder_id", sa.String(length=100), nullable=False),
        sa.Column("cursor", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.Column("event_kind", sa.String(length=16), nullable=True),
        sa.Column("event_id", sa.String(length=100), nullable=True),
        sa.Column("ratings", JSON, nullable=False),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("ladder_id", "cursor"),
    )


def downgrade() -> None:
    op.drop_table("feed_items")
    with op.batch_alter_table("ladders") as batch:
        batch.drop_column("feed_cursor")
