"""tournaments are placings, not wins and losses: their changes' statistic outcome becomes
'placed' (counted in games, in no win, draw or loss), and tournament ladders' ratings lose the
wins, draws and losses their tournaments had counted

Data only. The new code counts a tournament's standings as 'placed'; rows written by the old
code are brought to the same values, as a recomputation would.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE changes SET outcome = 'placed' WHERE outcome IS NOT NULL AND event_seq IN "
        "(SELECT seq FROM events WHERE kind = 'tournament')"
    )
    op.execute(
        "UPDATE player_ratings SET wins = 0, draws = 0, losses = 0 WHERE ladder_id IN "
        "(SELECT DISTINCT ladder_id FROM events WHERE kind = 'tournament')"
    )


def downgrade() -> None:
    # Nothing to undo in the schema: the old code's `ratings recompute LADDER` counts its
    # tournaments' wins and losses again.
    pass
