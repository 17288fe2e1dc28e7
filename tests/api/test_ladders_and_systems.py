from __future__ import annotations

import httpx
import pytest

from app.engine.registry import SYSTEMS
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

SYSTEMS_OF_THE_PRODUCT = {
    "elo", "fundox", "naf", "glicko2", "glicko", "trueskill", "weng-lin",
    "nadf", "kinzett", "dptr", "cdiplo", "wpe", "daanz", "elo-mmr", "ttt", "whr",
}  # fmt: skip


async def test_systems_lists_every_system_of_systems_md(client: httpx.AsyncClient) -> None:
    response = await client.get("/systems")
    assert response.status_code == 200
    listed = {s["id"]: s for s in response.json()}
    assert set(listed) == SYSTEMS_OF_THE_PRODUCT
    assert listed["fundox"]["params"]["initial"]["default"] == 1600.0
    assert listed["elo"]["params"]["k"]["default"] == 32.0
    assert listed["dptr"]["kind"] == "tournament"
    assert listed["naf"]["per_faction"] is True
    for entry in listed.values():
        assert entry["sources"], entry["id"]
        assert entry["description"]
        # Sources by title (issue 24 item 9), not the seeds' file names.
        assert not any(source.endswith(".txt") for source in entry["sources"]), entry["id"]
    assert listed["fundox"]["sources"] == [
        "Fundox, Ratings (the site's help page; formula by the player badtoper)"
    ]
    # Every number has its range (issue 23 item 3).
    assert listed["elo"]["params"]["k"]["exclusive_minimum"] == 0
    assert listed["elo"]["params"]["k"]["maximum"] == 1e6


async def test_system_by_id_and_unknown(client: httpx.AsyncClient) -> None:
    assert (await client.get("/systems/glicko2")).json()["params"]["tau"]["default"] == 0.5
    missing = await client.get("/systems/chess960")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"


async def test_create_ladder_fills_defaults(client: httpx.AsyncClient) -> None:
    created = await make_ladder(client, "club", "elo", k=16)
    expected = {spec.name: spec.default for spec in SYSTEMS["elo"].info.params} | {"k": 16.0}
    # And ranked play's, none of it by default (an Elo rating has no deviation).
    expected |= {"placement_games": 0, "decay": None, "divisions": None, "max_field_players": 100}
    assert created["params"] == expected
    assert (created["players"], created["games"], created["tournaments"]) == (0, 0, 0)


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"id": "x", "system": "chess"}, ["system"]),
        ({"id": "x", "system": "elo", "params": {"k": -1}}, ["params", "k"]),
        ({"id": "x", "system": "elo", "params": {"kk": 1}}, ["params", "kk"]),
        ({"id": "x", "system": "elo", "params": {"k": "big"}}, ["params", "k"]),
        ({"id": "has space", "system": "elo"}, ["id"]),
        ({"id": "x" * 101, "system": "elo"}, ["id"]),
        ({"id": "x", "system": "elo", "colour": "red"}, ["colour"]),
    ],
)
async def test_create_ladder_rejects_bad_input(
    client: httpx.AsyncClient, body: dict[str, object], loc: list[str]
) -> None:
    response = await client.post("/ladders", json=body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert response.headers["content-type"] == "application/problem+json"
    assert problem["status"] == 422
    assert any(error["loc"] == loc for error in problem["errors"]), problem
    assert (await client.get("/ladders")).json()["total"] == 0


async def test_existing_ladder_is_409(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    response = await client.post("/ladders", json={"id": "club", "system": "fundox"})
    assert response.status_code == 409


async def test_ladder_counts(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}))
    await post_game(client, game("club", "g2", {"a": 1, "c": 2}, minutes=1))
    ladder = (await client.get("/ladders/club")).json()
    assert (ladder["players"], ladder["games"]) == (3, 2)
    listing = (await client.get("/ladders")).json()
    assert listing["total"] == 1
    assert listing["ladders"][0]["id"] == "club"
    assert (await client.get("/ladders/other")).status_code == 404


async def test_game_on_tournament_ladder_names_tournaments(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    response = await client.post("/games", json=game("wdd", "g1", {"a": 1, "b": 2}))
    assert response.status_code == 422
    assert "/tournaments" in response.json()["detail"]
