"""changes: one foreign key to their event in its ladder, instead of one to each

A change named its ladder and its event with two separate foreign keys: nothing held the two
together (a change could name a ladder its event is not in), and each inserted change paid
two referential checks, one of them a share lock on the ladder's row that every concurrent
writer of the ladder takes too. One composite key to ``events (ladder_id, seq)`` holds both
and is checked once per change. The ladder's cascade still reaches the changes, through their
events.

On PostgreSQL this builds a unique index on ``events`` and validates the new key over every
change, holding their tables' locks meanwhile (seconds per million changes): run it as any
migration, before the new code serves (docs/deploy.md).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.create_unique_constraint(op.f("uq_events_ladder_id_seq"), ["ladder_id", "seq"])
    with op.batch_alter_table("changes") as batch:
        batch.drop_constraint(op.f("fk_changes_ladder_id_ladders"), type_="foreignkey")
        batch.drop_constraint(op.f("fk_changes_event_seq_events"), type_="foreignkey")
        batch.create_foreign_key(
            op.f("fk_changes_ladder_id_events"),
            "events",
            ["ladder_id", "event_seq"],
            ["ladder_id", "seq"],
            ondelete="CASCADE",
        )


def downgrade() -> None:
    with op.batch_alter_table("changes") as batch:
        batch.drop_constraint(op.f("fk_changes_ladder_id_events"), type_="foreignkey")
        batch.create_foreign_key(
            op.f("fk_changes_event_seq_events"),
            "events",
            ["event_seq"],
            ["seq"],
            ondelete="CASCADE",
        )
        batch.create_foreign_key(
            op.f("fk_changes_ladder_id_ladders"),
            "ladders",
            ["ladder_id"],
            ["id"],
            ondelete="CASCADE",
        )
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint(op.f("uq_events_ladder_id_seq"), type_="unique")
