"""The committed clients are what `make clients` makes from openapi/openapi.json now: each is
generated again into a temporary directory and compared file by file. A difference means the
spec changed since: run `make clients` and commit the result (docs/clients.md)."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients.conftest import PYTHON_CLIENT, ROOT, TYPESCRIPT_CLIENT


def _differences(committed: Path, fresh: Path) -> list[str]:
    """Files that differ, or exist on one side only (caches left out)."""
    found: list[str] = []

    def walk(compared: filecmp.dircmp[str], prefix: str) -> None:
        found.extend(f"{prefix}{name} (differs)" for name in compared.diff_files)
        found.extend(f"{prefix}{name} (stale: not generated now)" for name in compared.left_only)
        found.extend(f"{prefix}{name} (missing)" for name in compared.right_only)
        for name, sub in compared.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(committed, fresh, ignore=["__pycache__"]), "")
    # dircmp compares by size and time first; read every same-named file to be sure.
    for path in fresh.rglob("*"):
        twin = committed / path.relative_to(fresh)
        if path.is_file() and twin.is_file() and path.read_bytes() != twin.read_bytes():
            name = f"{path.relative_to(fresh)} (differs)"
            if name not in found:
                found.append(name)
    return sorted(found)


def _generate(
    command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> None:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout}\n{done.stderr}"


def _stale(which: str, committed: Path, differences: list[str]) -> str:
    return (
        f"the committed {which} client ({committed.relative_to(ROOT)}) is not what "
        f"openapi/openapi.json generates now; run `make clients` and commit: {differences}"
    )


def test_the_python_client_is_current(tmp_path: Path) -> None:
    generator = Path(sys.executable).parent / "openapi-python-client"
    if not generator.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("openapi-python-client (the dev extras) is needed under CI")
        pytest.skip("needs openapi-python-client: pip install -e '.[dev]'")
    fresh = tmp_path / "ratings_client"
    _generate(
        [
            str(generator),
            "generate",
            "--path",
            str(ROOT / "openapi" / "openapi.json"),
            "--meta",
            "none",
            "--config",
            str(PYTHON_CLIENT / "openapi-python-client.yaml"),
            "--output-path",
            str(fresh),
            "--fail-on-warning",  # an operation it could not generate is an error, not a gap
        ]
    )
    committed = PYTHON_CLIENT / "ratings_client"
    differences = _differences(committed, fresh)
    assert not differences, _stale("Python", committed, differences)


def test_the_typescript_client_is_current(npm: str, tmp_path: Path) -> None:
    fresh = tmp_path / "generated"
    _generate(
        [npm, "run", "--silent", "generate"],
        cwd=TYPESCRIPT_CLIENT,
        env={**os.environ, "OPENAPI_TS_OUTPUT": str(fresh)},
    )
    committed = TYPESCRIPT_CLIENT / "src" / "generated"
    differences = _differences(committed, fresh)
    assert not differences, _stale("TypeScript", committed, differences)
