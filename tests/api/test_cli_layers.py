"""The ``ratings`` package (app/cli/) sits at the api layer: its commands call services,
schemas and core, never repositories or models (docs/architecture.md, "Layers"); and every
group of commands is registered, in the order ``ratings --help`` has always listed them."""

from __future__ import annotations

import argparse
from pathlib import Path

import app.cli
from app.cli import build_parser
from tests.engine.test_engine_isolation import _imports

CLI_DIR = Path(app.cli.__file__).parent
#: Below the api layer: what a command reaches only through a service.
FORBIDDEN = ("app.repositories", "app.models")


def test_the_commands_import_no_repository_or_model() -> None:
    modules = sorted(CLI_DIR.glob("*.py"))
    assert {p.stem for p in modules} >= {"__init__", "serving", "migrations", "history"}
    offenders = [
        f"{path.name}: {name}"
        for path in modules
        for name in _imports(path)
        if name.startswith(FORBIDDEN)
    ]
    assert offenders == []


def test_every_command_is_registered_in_the_documented_order() -> None:
    # The list of app/cli/__init__.py's description (and of app/cli.py before the split).
    (commands,) = (
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    assert list(commands.choices) == [
        "serve", "migrate", "openapi", "recompute", "import", "export", "evaluate", "tune",
    ]  # fmt: skip
