"""audit_log: the admin actions on players (rename, merge, erasure), who did them and when

A new table only: safe to run while the old code serves (it writes no entry).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=40), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("community", sa.String(length=100), nullable=False),
        sa.Column("players", JSON, nullable=False),
        sa.Column("ladders", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_log_community", "audit_log", ["community", "id"])


def downgrade() -> None:
    op.drop_index("ix_audit_log_community", table_name="audit_log")
    op.drop_table("audit_log")
