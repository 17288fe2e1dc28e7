"""The typed clients' tests (docs/clients.md): one real ``ratings serve`` for the package's
tours, the generated Python client importable from clients/python, and Node for the
TypeScript client (a missing Node fails under CI=true, else skips)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.live_server import Served, serving

ROOT = Path(__file__).resolve().parents[2]
PYTHON_CLIENT = ROOT / "clients" / "python"
TYPESCRIPT_CLIENT = ROOT / "clients" / "typescript"
# The client is a project of its own (pip install ./clients/python); the tests use it in place.
sys.path.insert(0, str(PYTHON_CLIENT))
# Its dependencies come with the dev extras. A venv installed before them would fail the whole
# run at collection: leave its tests out then (test_generated.py says why it skips), but never
# under CI, where the import error must fail the run.
if os.environ.get("CI") != "true" and any(
    importlib.util.find_spec(name) is None for name in ("attrs", "dateutil")
):
    collect_ignore = ["test_python_client.py"]


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``ratings serve`` on SQLite, allowing webhooks to the tests' loopback receivers and
    looking for deliveries often, so a tour's webhook arrives within a second."""
    with serving(
        tmp_path_factory.mktemp("clients-serve"),
        RATINGS_WEBHOOK_ALLOWED_HOSTS="127.0.0.1",
        RATINGS_DELIVERY_POLL_SECONDS="0.2",
    ) as served:
        yield served


def _needed(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is needed under CI: the TypeScript client's tests may not be skipped")
    pytest.skip(f"the TypeScript client's tests need {what}")


@pytest.fixture(scope="package")
def npm() -> str:
    """npm, with the TypeScript client's tools installed as its lockfile pins them."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        _needed("Node.js 20.19+ with npm")
    assert npm is not None
    found = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    major, minor = (int(part) for part in found.stdout.strip().lstrip("v").split(".")[:2])
    if (major, minor) < (20, 19):  # package.json's engines (the generator's own floor)
        _needed(f"Node.js 20.19+ (found {found.stdout.strip()})")
    if not (TYPESCRIPT_CLIENT / "node_modules" / ".package-lock.json").exists():
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=TYPESCRIPT_CLIENT, check=True, timeout=600
        )
    return npm
