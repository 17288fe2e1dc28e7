"""ladders keep their seasons: a JSON list of {"id", "name", "starts_at", "reset", "best_of"}

A season's reset is part of the ladder's history (SYSTEMS.md "Seasons"), read with the ladder
by every write and read, so it lives on the ladder's row: one read, as its parameters. A
nullable column only (NULL: no seasons), so it is safe to run while the old code serves.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.add_column(sa.Column("seasons", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.drop_column("seasons")
