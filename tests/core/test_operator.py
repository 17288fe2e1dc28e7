"""What an operator sees (issue 40, item 9): ``ratings migrate`` says what it applied;
``ratings serve``'s log says what was migrated and the address it serves, with several
workers too; ``make run`` installs what serving needs and no more, ``make test`` the rest;
the API description lists every system of the registry and its version."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.cli import main
from app.core.settings import get_settings
from tests.api.live_server import ROOT, serving, until
from tests.conftest import AUTH

MIGRATIONS = ROOT / "migrations" / "versions"


def revisions() -> list[str]:
    """Every revision of migrations/versions, in order (their files sort by date, then
    number)."""
    found = []
    for path in sorted(MIGRATIONS.glob("*.py")):
        match = re.search(r'^revision: str = "(\w+)"', path.read_text(), re.MULTILINE)
        assert match is not None, path
        found.append(match.group(1))
    return found


def _migrate(monkeypatch: pytest.MonkeyPatch, url: str) -> int:
    monkeypatch.setenv("RATINGS_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        main(["migrate"])
    except SystemExit as exit_:
        return int(exit_.code or 0)
    finally:
        get_settings.cache_clear()
    return 0


def test_migrate_says_what_it_applied_then_that_there_is_nothing_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    assert _migrate(monkeypatch, url) == 0
    lines = capsys.readouterr().out.splitlines()
    every = revisions()
    assert [line.split(":")[0] for line in lines[:-1]] == [f"applied {r}" for r in every]
    assert lines[-1] == f"the database is at the newest schema ({every[-1]})"
    assert _migrate(monkeypatch, url) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"the database is already at the newest schema ({every[-1]}); nothing to do"
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_logs_what_it_migrated_and_the_address_it_serves(tmp_path: Path) -> None:
    with serving(tmp_path, RATINGS_WORKERS="2") as server:
        until(lambda: len(server.workers()) == 2, "both workers started")
        lines = [
            json.loads(line) for line in server.log.read_text().splitlines() if line.startswith("{")
        ]
    messages = [entry["message"] for entry in lines if entry["logger"] == "ratings.cli"]
    assert messages[0].startswith(f"applied {revisions()[0]}: ")  # a fresh database
    serving_lines = [e for e in lines if e["message"].startswith("serving ")]
    assert len(serving_lines) == 1
    assert serving_lines[0]["address"] == server.url
    assert serving_lines[0]["workers"] == 2
    assert serving_lines[0]["message"] == f"serving {server.url} with 2 worker(s)"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_installs_the_runtime_only_and_make_test_the_rest(tmp_path: Path) -> None:
    def planned(target: str) -> str:
        venv = f"VENV={tmp_path / 'venv'}"
        done = subprocess.run(
            ["make", "-n", "--no-print-directory", target, venv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    run = planned("run")
    assert "pip install --quiet -e .\n" in run
    assert "[dev]" not in run
    assert run.rstrip().endswith("ratings serve")
    unit = planned("unit")
    assert "pip install --quiet -e '.[dev]'" in unit
    assert "pytest" in unit


@pytest.mark.anyio
async def test_the_api_description_lists_every_system_and_the_version(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/openapi.json")).json()
    description = document["info"]["description"]
    systems = (await client.get("/systems", headers=AUTH)).json()
    assert len(systems) == 16  # SYSTEMS.md: Elo ... DAANZ, Elo-MMR, and the whole-history ttt, whr
    for system in systems:
        assert f"- `{system['id']}`: {system['title']}\n" in description + "\n"
    version = document["info"]["version"]
    assert f"API version {version}." in description
    # The policy it points to exists, and states the same version.
    guide = (ROOT / "docs" / "api.md").read_text()
    assert "### Versions and compatibility" in guide
    assert f"(now **{version}**)" in guide
