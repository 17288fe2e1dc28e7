"""ladder_fits.lease and leased_until: a whole-history fit left unconverged by a write's
bounded update is brought back to convergence by the service's background work, one process
at a time per ladder (the lease), resumed by any process after a restart (the unconverged fit
is in the table)

Two nullable columns: safe to run while the old code serves (it neither reads nor writes them).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
# Issue 38's remainder was written beside 0017: the lead re-parents it on whatever is head.
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ladder_fits") as batch:
        batch.add_column(sa.Column("lease", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("leased_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ladder_fits") as batch:
        batch.drop_column("leased_until")
        batch.drop_column("lease")
