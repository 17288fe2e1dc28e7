"""Elo-MMR ladders through the service (SYSTEMS.md ``elo-mmr``): Codeforces rounds as games,
the per-ladder field limit (``max_field_players``), late results, corrections and voids
recomputed, what-if, export and import, and predictions. Expected ratings come from the Rust
reference (``elo-mmr-py``) on the same rounds in the order the history holds them, to 1e-6."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import elo_mmr_py
import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import make_ladder, post_game

pytestmark = pytest.mark.anyio

CODEFORCES = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "codeforces"
TOLERANCE = 1e-6


def rounds(*ids: int) -> list[dict[str, Any]]:
    if not CODEFORCES.is_dir():
        pytest.skip(f"no Codeforces data at {CODEFORCES} (../shared/data, see its README)")
    return [json.loads((CODEFORCES / f"{i}.json").read_text()) for i in ids]


def body(ladder: str, contest: dict[str, Any], time: int | None = None) -> dict[str, Any]:
    """A round as a game: rank = the low end of the player's rank range + 1 (ties share)."""
    seconds = contest["time_seconds"] if time is None else time
    return {
        "ladder": ladder,
        "id": f"cf{contest['id']}",
        "played_at": datetime.fromtimestamp(seconds, UTC).isoformat(),
        "players": [{"player": h, "rank": lo + 1} for h, lo, _ in contest["standings"]],
    }


def expected(contests: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    rated = elo_mmr_py.rate_latest(
        [elo_mmr_py.Contest([tuple(s) for s in c["standings"]]) for c in contests]
    )
    return {name: (r.mu, r.sig) for name, r in rated.items()}


def stored(database: Database, ladder: str) -> dict[str, tuple[float, float]]:
    with database.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT player, rating, deviation FROM player_ratings WHERE ladder_id = :l"),
            {"l": ladder},
        )
        return {r[0]: (r[1], r[2]) for r in rows}


def assert_agree(ours: dict[str, tuple[float, float]], theirs: dict[str, Any]) -> None:
    assert ours.keys() == theirs.keys()
    for name, (mu, sigma) in theirs.items():
        assert ours[name][0] == pytest.approx(mu, abs=TOLERANCE), name
        assert ours[name][1] == pytest.approx(sigma, abs=TOLERANCE), name


async def test_systems_lists_elo_mmr_with_the_field_limit(client: httpx.AsyncClient) -> None:
    system = (await client.get("/systems/elo-mmr")).json()
    assert system["rank_by"] == "ranking_value"
    params = system["params"]
    assert params["weight_limit"]["default"] == 0.2
    assert params["sig_limit"]["default"] == 80.0
    # API.md: an elo-mmr ladder takes games up to RATINGS_MAX_FIELD_PLAYERS, so its own limit
    # is null (none) unless it sets one; other game systems keep 100.
    assert params["max_field_players"] == {
        "type": "integer",
        "nullable": True,
        "default": None,
        "minimum": 2,
        "maximum": 100_000,
        "description": params["max_field_players"]["description"],
    }
    elo = (await client.get("/systems/elo")).json()["params"]["max_field_players"]
    assert elo["default"] == 100
    assert "nullable" not in elo


async def _post_field(
    client: httpx.AsyncClient, ladder: str, game: str, size: int
) -> httpx.Response:
    players = [{"player": f"p{i}", "rank": i + 1} for i in range(size)]
    return await client.post(
        "/games",
        json={"ladder": ladder, "id": game, "played_at": "2024-01-01T00:00:00Z",
              "players": players},
    )  # fmt: skip


async def test_the_field_limit_is_the_ladders(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "small-elo", "elo")
    response = await _post_field(client, "small-elo", "g", 101)
    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert error["loc"] == ["players"]
    assert "at most 100 players per game on this ladder (its max_field_players)" in error["msg"]
    assert (await client.get("/ladders/small-elo")).json()["games"] == 0

    # Elo-MMR: no limit of its own by default, so 101 players are one game.
    await make_ladder(client, "field", "elo-mmr")
    assert (await client.get("/ladders/field")).json()["params"]["max_field_players"] is None
    response = await _post_field(client, "field", "g1", 101)
    assert response.status_code == 201, response.text
    for bad in (1, 100_001, "many", 2.5):
        response = await client.post(
            "/ladders",
            json={"id": "bad", "system": "elo-mmr", "params": {"max_field_players": bad}},
        )
        assert response.status_code == 422, bad
        assert response.json()["errors"][0]["loc"] == ["params", "max_field_players"]
    null_elo = await client.post(
        "/ladders", json={"id": "bad", "system": "elo", "params": {"max_field_players": None}}
    )
    assert null_elo.status_code == 422
    assert null_elo.json()["errors"][0]["loc"] == ["params", "max_field_players"]
    # Lowered by PATCH, the ladder refuses a game over its own limit.
    patched = await client.patch("/ladders/field", json={"params": {"max_field_players": 50}})
    assert patched.status_code == 200, patched.text
    assert patched.json()["params"]["max_field_players"] == 50
    response = await _post_field(client, "field", "g2", 51)
    assert response.status_code == 422, response.text
    assert "at most 50 players per game" in response.json()["errors"][0]["msg"]


async def test_the_16783_player_round_in_one_game(
    client: httpx.AsyncClient, database: Database
) -> None:
    (contest,) = rounds(1335)
    await make_ladder(client, "cf", "elo-mmr", max_field_players=20_000)
    created = await post_game(client, body("cf", contest))
    assert len(created["changes"]) == 16_783
    assert_agree(stored(database, "cf"), expected([contest]))


async def test_late_results_corrections_and_voids_recompute_as_the_reference(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two, three, four = rounds(1, 2, 3, 4)
    await make_ladder(client, "club", "elo-mmr", max_field_players=1000)
    for contest in (one, three, four):
        await post_game(client, body("club", contest))
    assert_agree(stored(database, "club"), expected([one, three, four]))
    # Round 2 arrives late: it is placed in time order and what follows is re-rated.
    await post_game(client, body("club", two))
    assert_agree(stored(database, "club"), expected([one, two, three, four]))
    # A correction: round 3's standings reversed.
    last = len(three["standings"]) - 1
    flipped = sorted([h, last - hi, last - lo] for h, lo, hi in three["standings"])
    reversed_three = {**three, "standings": sorted(flipped, key=lambda s: s[1])}
    response = await client.put("/ladders/club/games/cf3", json=body("club", reversed_three))
    assert response.status_code == 200, response.text
    assert_agree(stored(database, "club"), expected([one, two, reversed_three, four]))
    # A void: round 1 no longer counts; its players who played nothing else are gone.
    response = await client.delete("/ladders/club/games/cf1")
    assert response.status_code in (200, 204), response.text
    theirs = expected([two, reversed_three, four])
    ours = {p: v for p, v in stored(database, "club").items() if p in theirs}
    assert_agree(ours, theirs)
    # Export then import into a new ladder reproduces every rating exactly.
    out = tmp_path / "club.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "club", "--output", str(out)) == 0
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "copy") == 0
    assert stored(database, "copy") == stored(database, "club")


async def test_whatif_and_predictions(client: httpx.AsyncClient) -> None:
    one, two = rounds(1, 2)
    await make_ladder(client, "rounds", "elo", max_field_players=1000)
    for contest in (one, two):
        await post_game(client, body("rounds", contest))
    # Another system starts from its own parameters: a field limit below the rounds' sizes
    # refuses them ...
    response = await client.post(
        "/ladders/rounds/whatif",
        json={"system": "elo-mmr", "params": {"max_field_players": 100}},
    )
    assert response.status_code == 422, response.text
    assert "max_field_players" in response.text
    # ... and Elo-MMR's default (no limit of its own) takes them.
    response = await client.post("/ladders/rounds/whatif", json={"system": "elo-mmr"})
    assert response.status_code == 200, response.text
    theirs = expected([one, two])
    proposed = {e["player"]: e["proposed"]["rating"] for e in response.json()["entries"]}
    assert proposed.keys() == theirs.keys()
    for name, (mu, _) in theirs.items():
        assert proposed[name] == pytest.approx(mu, abs=TOLERANCE)

    await make_ladder(client, "mmr", "elo-mmr")
    await post_game(client, body("mmr", one))
    first, second = one["standings"][0][0], one["standings"][-1][0]
    response = await client.post(
        "/predictions", json={"ladder": "mmr", "players": [{"player": first}, {"player": second}]}
    )
    assert response.status_code == 200, response.text
    predicted = {p["player"]: p for p in response.json()["players"]}
    # The winner of round 1 is the favourite against its last; the two chances sum to 1.
    assert predicted[first]["win_probability"] > 0.5
    total = predicted[first]["win_probability"] + predicted[second]["win_probability"]
    assert total == pytest.approx(1.0, abs=1e-9)
    # Winning alone moves the rating up, losing down.
    assert predicted[second]["if_win"] > 0 > predicted[second]["if_loss"]["max"]
