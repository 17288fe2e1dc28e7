"""Team games through ``POST /games`` on ``elo`` and ``glicko2`` ladders (SYSTEMS.md "Teams"):
the deltas are the team rules' hand arithmetic (Elo) and Glickman's numbers (Glicko-2), and
each change names its side."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.engine import glicko2
from tests.helpers import at, by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: The issue's example: team means 1500 and 1550, so E = 1 / (1 + 10^(50/400)).
ISSUE_E = 1 / (1 + 10 ** (50 / 400))


async def set_rating(
    client: httpx.AsyncClient, ladder: str, player: str, minutes: int, **values: float
) -> None:
    response = await client.put(
        f"/ladders/{ladder}/players/{player}", json={**values, "at": at(minutes)}
    )
    assert response.status_code == 200, response.text


def member(player: str, weight: float | None = None) -> dict[str, Any]:
    return {"player": player} if weight is None else {"player": player, "weight": weight}


async def test_elo_two_against_two(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    for minutes, (player, rating) in enumerate(
        [("ann", 1450.0), ("art", 1550.0), ("bob", 1500.0), ("bea", 1600.0)]
    ):
        await set_rating(client, "club", player, minutes, rating=rating)
    body = {
        "ladder": "club",
        "id": "g1",
        "played_at": at(10),
        "teams": [
            {"team": "red", "rank": 1, "players": [member("ann"), member("art", 0.5)]},
            {"team": "blue", "rank": 2, "players": [member("bob"), member("bea")]},
        ],
    }
    changes = by_player((await post_game(client, body))["changes"])
    gain = 32 * (1 - ISSUE_E)  # 18.29; art played half the game
    expected = {"ann": gain, "art": gain / 2, "bob": -gain, "bea": -gain}
    assert {p: c["delta"] for p, c in changes.items()} == pytest.approx(expected, abs=1e-9)
    assert {p: c["team"] for p, c in changes.items()} == {
        "ann": "red",
        "art": "red",
        "bob": "blue",
        "bea": "blue",
    }
    assert changes["ann"]["details"]["side_rating"] == 1500.0
    assert changes["ann"]["details"]["duels"][0]["opponent"] == "blue"
    stored = (await client.get("/ladders/club/games/g1")).json()
    assert {c["player"]: c["team"] for c in stored["changes"]} == {
        p: c["team"] for p, c in changes.items()
    }


async def test_glicko2_two_against_two(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "g2", "glicko2")
    states = {
        "me": (1500.0, 200.0),
        "mate": (1620.0, 80.0),
        "x1": (1350.0, 20.0),  # x's composite: 1400 / 30, the paper's first opponent
        "x2": (1450.0, 40.0),
    }
    for minutes, (player, (rating, deviation)) in enumerate(states.items()):
        await set_rating(
            client, "g2", player, minutes, rating=rating, deviation=deviation, volatility=0.06
        )
    body = {
        "ladder": "g2",
        "id": "g1",
        "played_at": at(10),
        "teams": [
            {"team": "us", "rank": 1, "players": [member("me"), member("mate")]},
            {"team": "x", "rank": 2, "players": [member("x1"), member("x2")]},
        ],
    }
    changes = by_player((await post_game(client, body))["changes"])
    # "me" plays one result against 1400 / 30: Glickman's steps for that period, by the pure
    # functions tests/engine/test_glicko2.py checks against the paper.
    update = glicko2.rate_period(
        glicko2.to_mu(1500.0),
        glicko2.to_phi(200.0),
        0.06,
        [glicko2.Opponent(glicko2.to_mu(1400.0), glicko2.to_phi(30.0), 1.0)],
    )
    me = changes["me"]
    assert me["rating_after"] == pytest.approx(glicko2.to_r(update.mu), abs=1e-9)
    assert me["deviation_after"] == pytest.approx(glicko2.to_RD(update.phi), abs=1e-9)
    (opponent,) = me["details"]["opponents"]
    assert (opponent["opponent"], opponent["players"]) == ("x", ["x1", "x2"])
    assert (opponent["rating"], opponent["deviation"]) == (1400.0, 30.0)
    assert opponent["g"] == pytest.approx(0.9955, abs=5e-5)  # the paper's g(30)
    assert {p: c["team"] for p, c in changes.items()} == {
        "me": "us",
        "mate": "us",
        "x1": "x",
        "x2": "x",
    }


async def test_glicko2_the_papers_example_as_one_team_game(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "paper", "glicko2")
    sides = {
        "me": [("me", 1500.0, 200.0), ("mate", 1620.0, 80.0)],
        "x": [("x1", 1350.0, 20.0), ("x2", 1450.0, 40.0)],  # 1400 / 30
        "y": [("y1", 1500.0, 50.0), ("y2", 1600.0, 150.0)],  # 1550 / 100
        "z": [("z1", 1650.0, 250.0), ("z2", 1750.0, 350.0)],  # 1700 / 300
    }
    minutes = 0
    for members in sides.values():
        for player, rating, deviation in members:
            minutes += 1
            await set_rating(
                client,
                "paper",
                player,
                minutes,
                rating=rating,
                deviation=deviation,
                volatility=0.06,
            )
    ranks = {"me": 2, "x": 3, "y": 1, "z": 1}
    body = {
        "ladder": "paper",
        "id": "g1",
        "played_at": at(30),
        "teams": [
            {"team": team, "rank": ranks[team], "players": [member(p) for p, _, _ in members]}
            for team, members in sides.items()
        ],
    }
    me = by_player((await post_game(client, body))["changes"])["me"]
    # Glickman (2013): r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert me["rating_after"] == pytest.approx(1464.06, abs=0.01)
    assert me["deviation_after"] == pytest.approx(151.52, abs=0.01)
    assert me["volatility_after"] == pytest.approx(0.05999, abs=1e-5)


async def test_glicko_refuses_weights(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "g1", "glicko")
    body = {
        "ladder": "g1",
        "id": "g1",
        "played_at": at(1),
        "teams": [
            {"rank": 1, "players": [member("ann"), member("art")]},
            {"rank": 2, "players": [member("bob"), member("bea", 0.5)]},
        ],
    }
    response = await client.post("/games", json=body)
    assert response.status_code == 422, response.text
    (error,) = response.json()["errors"]
    assert error["loc"] == ["teams", 1, "players", 1, "weight"]
    assert (await client.get("/ladders/g1")).json()["players"] == 0
