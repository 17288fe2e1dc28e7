"""changes name their side: the team label of a team game's change (NULL in a free-for-all)

A nullable column only: existing rows keep NULL (every stored game is a free-for-all), so it is
safe to run while the old code serves.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("changes") as batch:
        batch.add_column(sa.Column("team", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("changes") as batch:
        batch.drop_column("team")
