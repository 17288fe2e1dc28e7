"""The ``ratings`` command line. ``main`` assembles the parser from one module per group of
commands, each holding its commands' flags beside their code:

- ``serving``: ``serve`` (granian, the admin token it generates, the ASGI factory it serves)
- ``migrations``: ``migrate``
- ``openapi``: ``openapi``
- ``history``: ``recompute``, ``import``, ``export``
- ``evaluation``: ``evaluate``, ``tune``

The commands sit at the api layer (docs/architecture.md): they call services, schemas and
core, never repositories. Heavy imports wait inside the commands, so ``--help`` is quick.
"""

from __future__ import annotations

import argparse
import sys

from app.cli import evaluation, history, migrations, openapi, serving

# Kept importable from ``app.cli``, where tests, bench drivers and scripts take them from.
from app.cli.migrations import ALEMBIC_INI, PROJECT_ROOT, migrate
from app.cli.serving import ensure_admin_token

__all__ = [
    "ALEMBIC_INI",
    "PROJECT_ROOT",
    "build_parser",
    "ensure_admin_token",
    "main",
    "migrate",
]

DESCRIPTION = (
    "The ``ratings`` command: serve, migrate, openapi, recompute, import, export, evaluate, tune."
)


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand, in the order ``ratings --help`` lists them."""
    parser = argparse.ArgumentParser(prog="ratings", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    for group in (serving, migrations, openapi, history, evaluation):
        group.register(commands)
    return parser


def main(argv: list[str] | None = None) -> None:
    """Run one command. A command's exit code ends the process through ``sys.exit`` (0
    included); ``serve`` and ``openapi`` return None and simply return."""
    args = build_parser().parse_args(argv)
    code = args.run(args)
    if code is not None:
        sys.exit(code)
