"""events carry a version, their ETag: 1 when stored, one more at each correction and void

PUT and DELETE compare it with If-Match, so that two administrators' corrections of one result
cannot silently overwrite each other.

A column with a constant default: existing rows read version 1, and old code that never sets it
keeps working (PostgreSQL adds it without rewriting the table). Safe to run while the old code
serves; the old code's corrections leave the version as it was, so deploy the new code before
relying on If-Match.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("version")
