"""communities: every ladder belongs to one, profiles are per community, keys may be limited
to communities (API.md "Communities")

Existing rows move into the community ``default`` with no change for anyone: every ladder and
profile gets ``community = 'default'`` (the columns' server default), the profiles' key becomes
(community, player), and every existing key gets ``communities = ["*"]`` (all of them, as
before). Reads by the old code keep working; the old code's profile writes do not (their key
changed), so stop it before upgrading.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
DEFAULT = sa.text("'default'")
ALL = sa.text("'[\"*\"]'")


def upgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.add_column(
            sa.Column("community", sa.String(length=100), server_default=DEFAULT, nullable=False)
        )
        batch.create_index(op.f("ix_ladders_community"), ["community"], unique=False)
    with op.batch_alter_table("api_keys") as batch:
        batch.add_column(sa.Column("communities", JSON, server_default=ALL, nullable=False))
    op.drop_index(op.f("ix_player_profiles_country"), table_name="player_profiles")
    with op.batch_alter_table("player_profiles") as batch:
        batch.add_column(
            sa.Column("community", sa.String(length=100), server_default=DEFAULT, nullable=False)
        )
        batch.drop_constraint(op.f("pk_player_profiles"), type_="primary")
        batch.create_primary_key(op.f("pk_player_profiles"), ["community", "player"])
        batch.create_index(
            op.f("ix_player_profiles_community_country"), ["community", "country"], unique=False
        )


def downgrade() -> None:
    # Back to one profile per id: the default community's profiles stay, the others go (the
    # old schema cannot hold two players of one id).
    op.execute("DELETE FROM player_profiles WHERE community <> 'default'")
    with op.batch_alter_table("player_profiles") as batch:
        batch.drop_index(op.f("ix_player_profiles_community_country"))
        batch.drop_constraint(op.f("pk_player_profiles"), type_="primary")
        batch.create_primary_key(op.f("pk_player_profiles"), ["player"])
        batch.drop_column("community")
    op.create_index(op.f("ix_player_profiles_country"), "player_profiles", ["country"])
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("communities")
    with op.batch_alter_table("ladders") as batch:
        batch.drop_index(op.f("ix_ladders_community"))
        batch.drop_column("community")
