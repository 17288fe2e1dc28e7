"""The migrations at head build exactly the schema the models declare (alembic's comparison)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.core.database import Database
from app.models import Base


def test_the_migrated_schema_is_the_models_schema(database: Database) -> None:
    with database.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []
