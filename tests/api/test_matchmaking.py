"""POST /ladders/{ladder}/balance and GET /ladders/{ladder}/players/{player}/opponents
(API.md "Matchmaking"). Expected numbers are the formulas' by hand (SYSTEMS.md "Win
probability of one side over another"); an opponent's amounts are what a game of the two does."""

from __future__ import annotations

import math
from typing import Any

import httpx
import pytest

from app.services import heavy
from app.services.matchmaking import CANDIDATES_PER_SIDE
from tests.helpers import at, by_player, make_ladder

pytestmark = pytest.mark.anyio

K = 32  # elo's default K
Q = math.log(10) / 400  # Glickman's q


def elo_p(r_a: float, r_b: float) -> float:
    return 1 / (1 + 10 ** ((r_b - r_a) / 400))


def evenness(p: float) -> float:
    return 1 - abs(2 * p - 1)


async def set_ratings(client: httpx.AsyncClient, ladder: str, **ratings: Any) -> None:
    for player, value in ratings.items():
        body = {"at": at(-10), **(value if isinstance(value, dict) else {"rating": value})}
        response = await client.put(f"/ladders/{ladder}/players/{player}", json=body)
        assert response.status_code == 200, response.text


def players(*names: str) -> list[dict[str, str]]:
    return [{"player": name} for name in names]


# --- Balance -----------------------------------------------------------------------------------


async def test_balance_four_players_by_hand(client: httpx.AsyncClient) -> None:
    """1800, 1600, 1500, 1300 in two sides of two: three splits. {1800, 1300} against
    {1600, 1500} has equal means (quality 1); then means 1650/1450 (200 apart), then
    1700/1400 (300 apart)."""
    await make_ladder(client, "elo-b", "elo")
    await set_ratings(client, "elo-b", ann=1800, bob=1600, cat=1500, dan=1300)
    body = {"players": players("ann", "bob", "cat", "dan"), "teams": 2}
    response = await client.post("/ladders/elo-b/balance", json=body)
    assert response.status_code == 200, response.text
    out = response.json()
    assert out["ladder"] == "elo-b"
    assert out["exact"] is True
    assert out["quality"] == 1.0
    assert out["teams"] == [
        {"team": "1", "players": ["ann", "dan"], "rating": 1550.0, "win_probability": 0.5},
        {"team": "2", "players": ["bob", "cat"], "rating": 1550.0, "win_probability": 0.5},
    ]
    second, third = out["alternatives"]
    assert [t["players"] for t in second["teams"]] == [["ann", "cat"], ["bob", "dan"]]
    assert second["quality"] == pytest.approx(evenness(elo_p(1650, 1450)))
    assert second["teams"][0]["win_probability"] == pytest.approx(elo_p(1650, 1450))
    assert [t["players"] for t in third["teams"]] == [["ann", "bob"], ["cat", "dan"]]
    assert third["quality"] == pytest.approx(evenness(elo_p(1700, 1400)))


async def test_parties_stay_together(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "elo-p", "elo")
    await set_ratings(client, "elo-p", ann=1800, bob=1600, cat=1500, dan=1300, eve=1450)
    body = {"players": players("ann", "bob", "cat", "dan"), "parties": [["bob", "ann"]]}
    out = (await client.post("/ladders/elo-p/balance", json=body)).json()
    assert [t["players"] for t in out["teams"]] == [["ann", "bob"], ["cat", "dan"]]
    assert out["quality"] == pytest.approx(evenness(elo_p(1700, 1400)))
    assert out["alternatives"] == []
    # Six players in three sides of two; a player without a rating starts at 1500.
    body = {
        "players": players("ann", "bob", "cat", "dan", "eve", "new"),
        "teams": 3,
        "parties": [["dan", "new"]],
    }
    out = (await client.post("/ladders/elo-p/balance", json=body)).json()
    sides = [t["players"] for t in out["teams"]]
    assert sorted(len(side) for side in sides) == [2, 2, 2]
    assert any({"dan", "new"} <= set(side) for side in sides)
    for split in out["alternatives"]:
        assert any({"dan", "new"} <= set(t["players"]) for t in split["teams"])
    # Luce over three sides sums to at most 1; the quality is the least even pair's.
    means = [t["rating"] for t in out["teams"]]
    least = min(evenness(elo_p(a, b)) for i, a in enumerate(means) for b in means[i + 1 :])
    assert out["quality"] == pytest.approx(least)


async def test_glicko_balance_uses_glickmans_prediction(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "gl-b", "glicko")
    await set_ratings(
        client,
        "gl-b",
        ann={"rating": 1700, "deviation": 50},
        bob={"rating": 1500, "deviation": 300},
    )
    out = (
        await client.post("/ladders/gl-b/balance", json={"players": players("ann", "bob")})
    ).json()
    rd = math.sqrt(50**2 + 300**2)
    g = 1 / math.sqrt(1 + 3 * Q**2 * rd**2 / math.pi**2)
    p = 1 / (1 + 10 ** (-g * 200 / 400))
    assert out["teams"][0]["win_probability"] == pytest.approx(p)
    assert out["quality"] == pytest.approx(evenness(p))


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"players": players(*(f"p{i}" for i in range(101)))}, ["players"]),
        ({"players": players("a", "b", "c"), "parties": [["a", "zed"]]}, ["parties", 0, 1]),
        (
            {"players": players("a", "b", "c"), "parties": [["a", "b"], ["c", "a"]]},
            ["parties", 1, 1],
        ),
        ({"players": players("a", "b", "c", "d"), "parties": [["a", "b", "c"]]}, ["parties", 0]),
        ({"players": players("a", "b", "c"), "teams": 4}, ["teams"]),
        ({"players": players("a", "b", "a")}, ["players"]),
        ({"players": players("a", "b"), "teams": 1}, ["teams"]),
        ({"players": players("a", "b"), "extra": 1}, ["extra"]),
        # Three parties of two cannot make two sides of three.
        (
            {"players": players(*"abcdef"), "parties": [["a", "b"], ["c", "d"], ["e", "f"]]},
            ["parties"],
        ),
    ],
)
async def test_balance_refusals(
    client: httpx.AsyncClient, body: dict[str, Any], loc: list[Any]
) -> None:
    await make_ladder(client, "elo-r", "elo")
    response = await client.post("/ladders/elo-r/balance", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["errors"][0]["loc"] == loc


async def test_balance_where_the_system_cannot(client: httpx.AsyncClient) -> None:
    """Fundox rates individuals: sides of two are refused by the engine's rule (sides of one
    are fine); a tournament system and a Diplomacy system (no pair probability) cannot
    balance; an unknown ladder is 404."""
    await make_ladder(client, "fx-b", "fundox")
    refused = await client.post("/ladders/fx-b/balance", json={"players": players(*"abcd")})
    assert refused.status_code == 422, refused.text
    error = refused.json()["errors"][0]
    assert error["loc"] == ["teams"]
    assert "rates individuals only" in error["msg"]
    ok = await client.post("/ladders/fx-b/balance", json={"players": players("a", "b")})
    assert ok.status_code == 200, ok.text
    await make_ladder(client, "dp-b", "dptr")
    await make_ladder(client, "nadf-b", "nadf")
    for ladder in ("dp-b", "nadf-b"):
        response = await client.post(
            f"/ladders/{ladder}/balance", json={"players": players("a", "b")}
        )
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["loc"] == ["ladder"]
    missing = await client.post("/ladders/nowhere/balance", json={"players": players("a", "b")})
    assert missing.status_code == 404


async def test_balance_of_a_hundred_players(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "elo-100", "elo")
    body = {
        "players": players(*(f"p{i}" for i in range(100))),
        "teams": 4,
        "parties": [["p0", "p1", "p2"]],
    }
    response = await client.post("/ladders/elo-100/balance", json=body)
    assert response.status_code == 200, response.text
    out = response.json()
    assert out["exact"] is False
    # Everyone new at 1500: every split is perfectly even.
    assert out["quality"] == 1.0
    assert sorted(len(t["players"]) for t in out["teams"]) == [25, 25, 25, 25]


# --- Opponents ---------------------------------------------------------------------------------


async def test_opponents_by_evenness_with_their_amounts(client: httpx.AsyncClient) -> None:
    """me at 1500 against 1490 (10 apart), 1520 (20), 1310 (190), 1700 (200): in that order;
    each with E = 1 / (1 + 10^((R_o - 1500)/400)) and the game's K (S - E)."""
    await make_ladder(client, "elo-o", "elo")
    await set_ratings(client, "elo-o", me=1500, a=1490, b=1520, c=1310, d=1700)
    response = await client.get("/ladders/elo-o/players/me/opponents")
    assert response.status_code == 200, response.text
    out = response.json()
    assert (out["ladder"], out["player"], out["rating"], out["candidates"]) == (
        "elo-o",
        "me",
        1500,
        4,
    )
    assert [o["player"] for o in out["opponents"]] == ["a", "b", "c", "d"]
    for opponent in out["opponents"]:
        p = elo_p(1500, opponent["rating"])
        assert opponent["win_probability"] == pytest.approx(p)
        assert opponent["quality"] == pytest.approx(evenness(p))
        assert opponent["if_win"] == pytest.approx(K * (1 - p))
        assert opponent["if_draw"] == pytest.approx(K * (0.5 - p))
        assert opponent["if_loss"] == pytest.approx(-K * p)
    limited = (await client.get("/ladders/elo-o/players/me/opponents?limit=2")).json()
    assert [o["player"] for o in limited["opponents"]] == ["a", "b"]
    # The amounts are the game's.
    played = await client.post(
        "/games?dry_run=true",
        json={
            "ladder": "elo-o",
            "id": "x",
            "played_at": at(1),
            "players": [{"player": "me", "rank": 1}, {"player": "c", "rank": 2}],
        },
    )
    assert by_player(played.json()["changes"])["me"]["delta"] == out["opponents"][2]["if_win"]


async def test_opponents_of_glicko_use_both_deviations(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "gl-o", "glicko2")
    await set_ratings(
        client,
        "gl-o",
        me={"rating": 1500, "deviation": 100},
        sure={"rating": 1600, "deviation": 40},
        unsure={"rating": 1600, "deviation": 340},
    )
    out = (await client.get("/ladders/gl-o/players/me/opponents")).json()

    def p(rd_other: float) -> float:
        rd = math.sqrt(100**2 + rd_other**2)
        g = 1 / math.sqrt(1 + 3 * Q**2 * rd**2 / math.pi**2)
        return 1 / (1 + 10 ** (-g * (1500 - 1600) / 400))

    # Equal ratings, but the unsure one is the more even game (its g is smaller).
    assert [o["player"] for o in out["opponents"]] == ["unsure", "sure"]
    assert out["opponents"][0]["win_probability"] == pytest.approx(p(340))
    assert out["opponents"][1]["win_probability"] == pytest.approx(p(40))


async def test_opponents_filters_and_refusals(client: httpx.AsyncClient) -> None:
    """Fundox's leaderboard default (30 days of activity) applies unless the query says
    otherwise; draws change nothing there (if_draw null); unknown players are 404."""
    await make_ladder(client, "fx-o", "fundox")
    old = at(-60 * 24 * 40)
    games = [
        {
            "ladder": "fx-o",
            "id": "g-old",
            "played_at": old,
            "players": [{"player": "me", "rank": 1}, {"player": "gone", "rank": 2}],
        },
        {
            "ladder": "fx-o",
            "id": "g-new",
            "played_at": at(-5),
            "players": [{"player": "me", "rank": 1}, {"player": "here", "rank": 2}],
        },
    ]
    response = await client.post("/games/batch", json={"games": games})
    assert response.status_code == 200, response.text
    recent = (await client.get("/ladders/fx-o/players/me/opponents")).json()
    assert [o["player"] for o in recent["opponents"]] == ["here"]
    assert recent["opponents"][0]["if_draw"] is None
    everyone = (await client.get("/ladders/fx-o/players/me/opponents?active_within_days=0")).json()
    assert sorted(o["player"] for o in everyone["opponents"]) == ["gone", "here"]
    assert (await client.get("/ladders/fx-o/players/nobody/opponents")).status_code == 404
    for query in ("limit=0", "limit=101", "active_within_days=-1"):
        response = await client.get(f"/ladders/fx-o/players/me/opponents?{query}")
        assert response.status_code == 422, query
    await make_ladder(client, "dp-o", "dptr")
    response = await client.get("/ladders/dp-o/players/me/opponents")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["ladder"]


async def test_naf_opponents_name_the_faction_and_the_event(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "naf-o", "naf")
    games = [
        {
            "ladder": "naf-o",
            "id": f"g{n}",
            "played_at": at(n),
            "event": {"coaches": 20},
            "players": [
                {"player": "me", "rank": 1, "faction": race},
                {"player": rival, "rank": 2, "faction": "Elf"},
            ],
        }
        for n, (race, rival) in enumerate([("Orc", "x"), ("Dwarf", "y")])
    ]
    response = await client.post("/games/batch", json={"games": games})
    assert response.status_code == 200, response.text
    response = await client.get("/ladders/naf-o/players/me/opponents")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["query", "faction"]
    response = await client.get("/ladders/naf-o/players/me/opponents?faction=Orc")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["query", "coaches"]
    out = (await client.get("/ladders/naf-o/players/me/opponents?faction=Orc&coaches=32")).json()
    assert out["faction"] == "Orc"
    assert {(o["player"], o["faction"]) for o in out["opponents"]} == {("x", "Elf"), ("y", "Elf")}
    x = next(o for o in out["opponents"] if o["player"] == "x")
    p = 1 / (10 ** ((x["rating"] - out["rating"]) / 150) + 1)
    assert x["win_probability"] == pytest.approx(p)
    assert x["if_win"] == pytest.approx(2 * math.sqrt(32) * (1 - p))


async def test_a_large_ladder_weighs_the_nearest_ratings_only(client: httpx.AsyncClient) -> None:
    """The candidates are the CANDIDATES_PER_SIDE ratings at or above the player's and as many
    below, however many the ladder holds."""
    await make_ladder(client, "elo-big", "elo")
    count = 2 * CANDIDATES_PER_SIDE + 50
    games = [
        {
            "ladder": "elo-big",
            "id": f"g{n}",
            "played_at": at(n),
            "players": [{"player": f"w{n:03d}", "rank": 1}, {"player": f"l{n:03d}", "rank": 2}],
        }
        for n in range(count // 2)
    ]
    response = await client.post("/games/batch", json={"games": games})
    assert response.status_code == 200, response.text
    await set_ratings(client, "elo-big", me=1500)
    out = (await client.get("/ladders/elo-big/players/me/opponents?limit=100")).json()
    assert out["candidates"] == 2 * CANDIDATES_PER_SIDE
    assert len(out["opponents"]) == 100
    qualities = [o["quality"] for o in out["opponents"]]
    assert qualities == sorted(qualities, reverse=True)


def test_heavy_weights() -> None:
    """Balance counts as a prediction of its players; opponents as `limit` two-player ones."""
    assert heavy.balance_weight(10) == 1
    assert heavy.balance_weight(16) == 3
    assert heavy.balance_weight(100) == 100
    assert heavy.opponents_weight(10) == 1
    assert heavy.opponents_weight(100) == 4


async def test_balance_spreads_premades_by_default(client: httpx.AsyncClient) -> None:
    """Ten players, a party of three at 1600 and one of two at 1400, five solos at 1500
    (tests/engine/test_matchmaking.py works the numbers): kept whole, the parties can stack
    (means 1520 against 1500, 20 apart) or be spread (1560 against 1460, 100 apart). The
    default ``spread`` puts them on different sides; ``together`` takes the more even
    stacked split."""
    await make_ladder(client, "elo-p", "elo")
    names = ["a1", "a2", "a3", "b1", "b2", "s1", "s2", "s3", "s4", "s5"]
    ratings = [1600] * 3 + [1400] * 2 + [1500] * 5
    await set_ratings(client, "elo-p", **dict(zip(names, ratings, strict=True)))
    body: dict[str, Any] = {
        "players": players(*names),
        "parties": [["a1", "a2", "a3"], ["b1", "b2"]],
    }
    spread = (await client.post("/ladders/elo-p/balance", json=body)).json()
    assert spread["party_policy"] == "spread"
    assert [t["players"] for t in spread["teams"]] == [
        ["a1", "a2", "a3", "s1", "s2"],
        ["b1", "b2", "s3", "s4", "s5"],
    ]
    assert [t["rating"] for t in spread["teams"]] == [1560.0, 1460.0]
    assert spread["quality"] == pytest.approx(evenness(elo_p(1560, 1460)))
    together = (
        await client.post("/ladders/elo-p/balance", json={**body, "party_policy": "together"})
    ).json()
    assert [t["players"] for t in together["teams"]] == [names[:5], names[5:]]
    assert together["quality"] == pytest.approx(evenness(elo_p(1520, 1500)))
    refused = await client.post("/ladders/elo-p/balance", json={**body, "party_policy": "mixed"})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["loc"][-1] == "party_policy"
