"""ladders can be archived: ``ladders.archived_at`` (NULL: not archived), read-only while set

A nullable column only, so it is safe to run while the old code serves (it does not know the
column, and archives nothing).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.add_column(sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.drop_column("archived_at")
