"""The committed OpenAPI document is the app's: regenerate with `ratings openapi`."""

from __future__ import annotations

import json
import re
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


def test_every_operation_has_a_stable_camel_case_id_and_a_tag() -> None:
    """Generated clients name their methods by operationId (API.md "Clients")."""
    paths = json.loads(COMMITTED.read_text())["paths"]
    ids = {
        (method.upper(), path): operation["operationId"]
        for path, operations in paths.items()
        for method, operation in operations.items()
    }
    assert len(set(ids.values())) == len(ids)
    for (method, path), operation_id in ids.items():
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z0-9]*)*", operation_id), (
            method,
            path,
            operation_id,
        )
        assert paths[path][method.lower()]["tags"], (method, path)
    # The names API.md gives as examples, and a few a client leans on.
    assert ids[("POST", "/games")] == "createGame"
    assert ids[("GET", "/ladders/{ladder}/leaderboard")] == "getLeaderboard"
    assert ids[("GET", "/ladders/{ladder}/feed")] == "getFeed"
    assert ids[("POST", "/webhooks")] == "createWebhook"
