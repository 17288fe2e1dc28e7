"""tournament teams: players' teams for Kinzett team standings

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_teams",
        sa.Column("ladder_id", sa.String(length=100), nullable=False),
        sa.Column("tournament", sa.String(length=100), nullable=False),
        sa.Column("player", sa.String(length=100), nullable=False),
        sa.Column("team", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladders.id"],
            name=op.f("fk_tournament_teams_ladder_id_ladders"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "ladder_id", "tournament", "player", name=op.f("pk_tournament_teams")
        ),
    )


def downgrade() -> None:
    op.drop_table("tournament_teams")
