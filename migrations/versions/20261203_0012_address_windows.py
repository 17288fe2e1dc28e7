"""address_windows: public reads (no key) counted per client address in the database, so the
limit holds across replicas as a key's does (rate_windows)

A new table only: safe to run while the old code serves (it counts in each process).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "address_windows",
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("window_start", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("address", "window_start"),
    )


def downgrade() -> None:
    op.drop_table("address_windows")
