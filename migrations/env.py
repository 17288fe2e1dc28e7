"""Alembic environment: the URL comes from the caller or from RATINGS_DATABASE_URL."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import create_engine, event, pool
from sqlalchemy.engine import make_url

from app.core.database import postgres_connect_args, sqlite_page_size
from app.core.settings import get_settings
from app.models import Base

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    url = config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url")
    return str(url) if url else get_settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def record_applied(*, ctx: Any, step: Any, heads: Any, run_args: Any) -> None:
    """Each revision applied, with its title, for ``ratings migrate`` to report (the caller
    passes a list in ``config.attributes["applied"]``)."""
    applied = config.attributes.get("applied")
    if applied is not None and step.is_upgrade and step.up_revision is not None:
        applied.append((step.up_revision.revision, step.up_revision.doc))


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if connectable is not None:
        context.configure(
            connection=connectable,
            target_metadata=target_metadata,
            on_version_apply=record_applied,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    url = make_url(database_url())
    extra = postgres_connect_args(url) if url.get_backend_name() == "postgresql" else {}
    engine = create_engine(url, poolclass=pool.NullPool, connect_args=extra)
    if engine.dialect.name == "sqlite":
        # The migrations usually create the file: it gets the service's page size.
        @event.listens_for(engine, "connect")
        def on_connect(dbapi_connection: Any, _record: Any) -> None:
            sqlite_page_size(dbapi_connection)

    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            on_version_apply=record_applied,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
