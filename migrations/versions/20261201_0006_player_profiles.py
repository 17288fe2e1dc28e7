"""player profiles: a display name and a country per player, shared by every ladder

A new table only: no existing row changes, so it is safe to run while the old code serves.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_profiles",
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player", name=op.f("pk_player_profiles")),
    )
    op.create_index(
        op.f("ix_player_profiles_country"), "player_profiles", ["country"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_player_profiles_country"), table_name="player_profiles")
    op.drop_table("player_profiles")
