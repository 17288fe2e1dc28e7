"""initial schema: ladders, events, changes, player_ratings

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.String(length=100)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIME = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "ladders",
        sa.Column("id", ID, nullable=False),
        sa.Column("system", sa.String(length=32), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=True),
        sa.Column("params", JSON, nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ladders")),
    )
    op.create_table(
        "events",
        sa.Column("seq", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("ladder_id", ID, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("external_id", ID, nullable=True),
        sa.Column("occurred_at", TIME, nullable=False),
        sa.Column("body", JSON, nullable=False),
        sa.Column("body_hash", sa.String(length=64), nullable=False),
        sa.Column("rated", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("tournament", ID, nullable=True),
        sa.Column("voided_at", TIME, nullable=True),
        sa.Column("ladder_state_after", JSON, nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladders.id"],
            name=op.f("fk_events_ladder_id_ladders"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_events")),
        sa.UniqueConstraint(
            "ladder_id",
            "kind",
            "external_id",
            name=op.f("uq_events_ladder_id_kind_external_id"),
        ),
    )
    op.create_index("ix_events_ladder_order", "events", ["ladder_id", "occurred_at", "seq"])
    op.create_index("ix_events_ladder_tournament", "events", ["ladder_id", "tournament"])

    op.create_table(
        "changes",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("ladder_id", ID, nullable=False),
        sa.Column("event_seq", BIG_ID, nullable=False),
        sa.Column("player", ID, nullable=False),
        sa.Column("faction", ID, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(length=8), nullable=True),
        sa.Column("occurred_at", TIME, nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=True),
        sa.Column("deviation_after", sa.Float(), nullable=True),
        sa.Column("volatility_before", sa.Float(), nullable=True),
        sa.Column("volatility_after", sa.Float(), nullable=True),
        sa.Column("state_after", JSON, nullable=False),
        sa.Column("details", JSON, nullable=False),
        sa.Column("prev_change_id", BIG_ID, nullable=True),
        sa.ForeignKeyConstraint(
            ["event_seq"],
            ["events.seq"],
            name=op.f("fk_changes_event_seq_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladders.id"],
            name=op.f("fk_changes_ladder_id_ladders"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["prev_change_id"], ["changes.id"], name=op.f("fk_changes_prev_change_id_changes")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_changes")),
        sa.UniqueConstraint("prev_change_id", name=op.f("uq_changes_prev_change_id")),
    )
    op.create_index("ix_changes_event", "changes", ["event_seq"])
    op.create_index("ix_changes_ladder_order", "changes", ["ladder_id", "occurred_at", "seq"])
    op.create_index(
        "ix_changes_rating_order",
        "changes",
        ["ladder_id", "player", "faction", "occurred_at", "seq"],
    )
    # A rating's chain of changes has exactly one start.
    op.create_index(
        "uq_changes_first_per_rating",
        "changes",
        ["ladder_id", "player", "faction"],
        unique=True,
        postgresql_where=sa.text("prev_change_id IS NULL"),
        sqlite_where=sa.text("prev_change_id IS NULL"),
    )

    op.create_table(
        "player_ratings",
        sa.Column("ladder_id", ID, nullable=False),
        sa.Column("player", ID, nullable=False),
        sa.Column("faction", ID, nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("volatility", sa.Float(), nullable=True),
        sa.Column("ranking_value", sa.Float(), nullable=True),
        sa.Column("tiebreak", sa.Float(), nullable=True),
        sa.Column("state", JSON, nullable=False),
        sa.Column("games", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("wins", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("draws", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("losses", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("last_played_at", TIME, nullable=True),
        sa.Column("last_change_id", sa.BigInteger(), nullable=True),
        sa.Column("last_event_at", TIME, nullable=True),
        sa.Column("last_event_seq", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["ladder_id"],
            ["ladders.id"],
            name=op.f("fk_player_ratings_ladder_id_ladders"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("ladder_id", "player", "faction", name=op.f("pk_player_ratings")),
    )
    op.create_index("ix_player_ratings_ladder_rating", "player_ratings", ["ladder_id", "rating"])
    op.create_index(
        "ix_player_ratings_ladder_ranking_value", "player_ratings", ["ladder_id", "ranking_value"]
    )


def downgrade() -> None:
    op.drop_table("player_ratings")
    op.drop_table("changes")
    op.drop_table("events")
    op.drop_table("ladders")
