"""The engine imports nothing from the web or database layers, nor from the rest of app."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import app.engine

FORBIDDEN_ROOTS = {"fastapi", "starlette", "sqlalchemy", "pydantic", "pydantic_settings", "alembic"}
ENGINE_DIR = Path(app.engine.__file__).parent


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.append(node.module)
    return names


def test_every_engine_module_is_checked() -> None:
    modules = {m.name for m in pkgutil.iter_modules([str(ENGINE_DIR)])}
    assert {"elo", "fundox", "naf", "glicko", "glicko2", "registry"} <= modules


def test_engine_imports_only_the_engine_and_the_standard_library() -> None:
    offenders = []
    for path in sorted(ENGINE_DIR.glob("*.py")):
        for name in _imports(path):
            root = name.split(".")[0]
            if root in FORBIDDEN_ROOTS or (root == "app" and not name.startswith("app.engine")):
                offenders.append(f"{path.name}: {name}")
    assert offenders == []


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from sqlalchemy import select\nimport app.services.runtime\n")
    assert _imports(bad) == ["sqlalchemy", "app.services.runtime"]
