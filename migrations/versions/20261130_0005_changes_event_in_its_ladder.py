"""changes: one foreign key to their event in its ladder, instead of one to each

A change named its ladder and its event with two separate foreign keys: nothing held the two
together (a change could name a ladder its event is not in), and each inserted change paid
two referential checks, one of them a share lock on the ladder's row that every concurrent
writer of the ladder takes too. One composite key to ``events (ladder_id, seq)`` holds both
and is checked once per change. The ladder's cascade still reaches the changes, through their
events.

On PostgreSQL this builds a unique index on ``events`` and validates the new key over every
change, holding both tables' locks meanwhile (reads of ``events`` wait too; 2 s for a million
events): run it as any migration, before the new code serves (docs/deploy.md).

On SQLite both tables are copied (batch mode). That is safe only with foreign keys off, as
alembic's own connection has them: with them on, dropping the old ``events`` would delete
every change through the cascade. The migration refuses to run that way.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from collections.abc import Sequence

from alembic import op
from sqlalchemy import text

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _refuse_sqlite_cascades() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite" and bind.execute(text("PRAGMA foreign_keys")).scalar():
        raise RuntimeError(
            "0005 copies events and changes on SQLite: run it with foreign keys off "
            "(as `ratings migrate` does), or the copy's drop of events deletes every change"
        )


def upgrade() -> None:
    _refuse_sqlite_cascades()
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
    _refuse_sqlite_cascades()
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
