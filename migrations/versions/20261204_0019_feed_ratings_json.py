"""feed_items.ratings on PostgreSQL: json (the text as written) instead of jsonb, compressed
with lz4 where the server has it

Every committed write appends its items; parsing each item's ratings into jsonb and
compressing it with pglz were most of what PostgreSQL spent on an item. The feed only ever
writes an item once and reads it back whole, so nothing uses jsonb's parsed form. SQLite
stores JSON as text already: nothing changes there.

PostgreSQL rewrites feed_items (an ACCESS EXCLUSIVE lock for as long as that takes): the
previous release keeps working against the new type (it writes and reads the column the same
way), but its writes wait for the rewrite.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Servers built without lz4 (it is optional since PostgreSQL 14) keep the default, pglz.
_HAS_LZ4 = "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.alter_column(
        "feed_items",
        "ratings",
        type_=postgresql.JSON(),
        existing_type=postgresql.JSONB(),
        existing_nullable=False,
        postgresql_using="ratings::json",
    )
    if bind.execute(sa.text(_HAS_LZ4)).scalar():
        op.execute("ALTER TABLE feed_items ALTER COLUMN ratings SET COMPRESSION lz4")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE feed_items ALTER COLUMN ratings SET COMPRESSION default")
    op.alter_column(
        "feed_items",
        "ratings",
        type_=postgresql.JSONB(),
        existing_type=postgresql.JSON(),
        existing_nullable=False,
        postgresql_using="ratings::jsonb",
    )
