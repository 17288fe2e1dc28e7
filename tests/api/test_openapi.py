"""The committed OpenAPI document is the app's: regenerate with `ratings openapi`."""

from __future__ import annotations

import json
from pathlib import Path

from app.main import create_app

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_is_current() -> None:
    fresh = json.loads(json.dumps(create_app().openapi(), sort_keys=True))
    committed = json.loads(COMMITTED.read_text())
    assert committed == fresh, "openapi/openapi.json is stale: run `ratings openapi`"


def test_contract_paths_are_present() -> None:
    paths = json.loads(COMMITTED.read_text())["paths"]
    for path in (
        "/systems",
        "/systems/{system_id}",
        "/ladders",
        "/ladders/{ladder}",
        "/games",
        "/ladders/{ladder}/games/{game_id}",
        "/tournaments",
        "/predictions",
        "/ladders/{ladder}/players/{player}",
        "/ladders/{ladder}/players/{player}/history",
        "/ladders/{ladder}/leaderboard",
        "/healthz",
        "/readyz",
    ):
        assert path in paths, path
