"""What the commands on a ladder's data share: the database they open, and a refusal of the
service as one ``error:`` line and exit 2 rather than a traceback."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from app.core.settings import get_settings

if TYPE_CHECKING:
    from app.core.database import Database


class Commands(Protocol):
    """What each module's ``register`` adds its subcommands to: what ``add_subparsers``
    returns, by the one method used (its class is private to argparse)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def open_database() -> Database:
    """The configured database, as the service opens it (its read replica included, which
    serves the long reads of export, evaluate and tune); the caller disposes of it."""
    from app.core.database import Database

    settings = get_settings()
    return Database(
        settings.database_url,
        busy_timeout=settings.sqlite_busy_timeout,
        read_url=settings.read_database_url,
    )


def refusals_exit_2(
    command: Callable[[argparse.Namespace], int],
) -> Callable[[argparse.Namespace], int]:
    """``command`` on the ladders' data: what the service refuses (an unreachable or
    unmigrated database among them) is one line on stderr and exit 2, not a traceback."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        from app.core.errors import DomainError

        try:
            return command(args)
        except DomainError as exc:
            print(f"error: {exc.detail}", file=sys.stderr)
            return 2

    return run
