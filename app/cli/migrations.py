"""``ratings migrate``, and the migration ``ratings serve`` runs first: Alembic's
``upgrade head``, reported as the revisions it applied."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.settings import get_settings

if TYPE_CHECKING:
    import argparse

    from app.cli.common import Commands

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"


def register(commands: Commands) -> None:
    migrate = commands.add_parser(
        "migrate", help="upgrade the database schema to the newest revision"
    )
    migrate.set_defaults(run=migrate_command)


@dataclass(frozen=True, slots=True)
class Migrated:
    """What a migration did: the revisions applied (id, title), oldest first, and the
    revision the database is at now."""

    applied: list[tuple[str, str]]
    head: str | None

    def lines(self) -> list[str]:
        done = [
            f"applied {revision}: {' '.join(title.split())}" for revision, title in self.applied
        ]
        if not self.applied:
            return [f"the database is already at the newest schema ({self.head}); nothing to do"]
        return [*done, f"the database is at the newest schema ({self.head})"]


def migrate(url: str | None = None) -> Migrated:
    """Bring the database to the newest schema (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy.engine import make_url

    url = url or get_settings().database_url
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    # Passed as an attribute: URLs may hold "%", which the ini parser would interpolate.
    config.attributes["database_url"] = url
    applied: list[tuple[str, str]] = []
    config.attributes["applied"] = applied  # filled in by migrations/env.py
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(config, "head")
    return Migrated(applied, ScriptDirectory.from_config(config).get_current_head())


def migrated(url: str) -> Migrated | str:
    """Migrate: what it did, or when the database cannot be reached the one line that says
    where and why (a traceback of a refused connection tells an operator nothing more)."""
    from app.core.database import unreachable, where

    try:
        return migrate(url)
    except OSError as exc:  # a SQLite file's directory that cannot be created
        return f"cannot create {where(url)}: {exc.strerror} ({exc.filename})"
    except Exception as exc:
        problem = unreachable(url, exc)
        if problem is None:
            raise
        return problem


def migrate_command(args: argparse.Namespace) -> int:
    """``ratings migrate``: what it applied on stdout and 0, or 1 with one ``error:`` line
    when the database cannot be reached."""
    done = migrated(get_settings().database_url)
    if isinstance(done, str):
        print(f"error: {done}", file=sys.stderr)
        return 1
    print("\n".join(done.lines()))
    return 0
