"""ladder_fits and player_fits: the stored whole-history fit of ttt and whr ladders (how the
last fit ended, each player's curve and the engine's state of it), so a write or a restart
starts the next fit warm instead of from scratch

New tables only: safe to run while the old code serves (it has no ttt or whr ladders).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "ladder_fits",
        sa.Column("ladder_id", sa.String(length=100), nullable=False),
        sa.Column("converged", sa.Boolean(), nullable=False),
        sa.Column("sweeps", sa.Integer(), nullable=False),
        sa.Column("max_step", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("ladder_id"),
    )
    op.create_table(
        "player_fits",
        sa.Column("ladder_id", sa.String(length=100), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("curve", JSON, nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("ladder_id", "player"),
    )


def downgrade() -> None:
    op.drop_table("player_fits")
    op.drop_table("ladder_fits")
