"""POST /predictions with ``teams`` (API.md "Teams"), and the pair probabilities of SYSTEMS.md
"Win probability of one side over another" in both forms. Expected numbers are the formulas'
by hand; the amounts are what the game itself then does."""

from __future__ import annotations

import math
from typing import Any

import httpx
import pytest

from tests.helpers import at, by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio

K = 32  # elo's default K
#: Glickman's q = ln 10 / 400.
Q = math.log(10) / 400


def elo_p(r_a: float, r_b: float, scale: float = 400) -> float:
    return 1 / (1 + 10 ** ((r_b - r_a) / scale))


def glickman_p(r_a: float, rd_a: float, r_b: float, rd_b: float) -> float:
    """Glickman (1995): 1 / (1 + 10^(-g(sqrt(RD_a^2 + RD_b^2)) (r_a - r_b) / 400))."""
    rd = math.sqrt(rd_a**2 + rd_b**2)
    g = 1 / math.sqrt(1 + 3 * Q**2 * rd**2 / math.pi**2)
    return 1 / (1 + 10 ** (-g * (r_a - r_b) / 400))


async def set_ratings(client: httpx.AsyncClient, ladder: str, **ratings: Any) -> None:
    for player, value in ratings.items():
        body = {"at": at(-10), **(value if isinstance(value, dict) else {"rating": value})}
        response = await client.put(f"/ladders/{ladder}/players/{player}", json=body)
        assert response.status_code == 200, response.text


def teams(*sides: tuple[str, ...], labels: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    out = []
    for index, members in enumerate(sides):
        entry: dict[str, Any] = {"players": [{"player": p} for p in members]}
        if index < len(labels):
            entry["team"] = labels[index]
        out.append(entry)
    return out


async def predict(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/predictions", json=body)
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


async def test_elo_two_against_two_by_hand_and_as_played(client: httpx.AsyncClient) -> None:
    """Red (1700, 1500: mean 1600) against blue (1450, 1550: mean 1500). E_red =
    1 / (1 + 10^(-100/400)) = 0.640065; each member moves by its side's K (S - E)."""
    await make_ladder(client, "elo-2v2", "elo")
    await set_ratings(client, "elo-2v2", ann=1700, bob=1500, cat=1450, dan=1550)
    body = {
        "ladder": "elo-2v2",
        "teams": teams(("ann", "bob"), ("cat", "dan"), labels=("red", "blue")),
    }
    out = await predict(client, body)
    e_red = 1 / (1 + 10 ** (-100 / 400))
    assert e_red == pytest.approx(0.640065, abs=1e-6)
    assert out["ladder"] == "elo-2v2"
    red, blue = out["teams"]
    assert (red["team"], blue["team"]) == ("red", "blue")
    assert red["win_probability"] == pytest.approx(e_red)
    assert blue["win_probability"] == pytest.approx(1 - e_red)
    assert out["pairs"] == [
        {"team": "red", "opponent": "blue", "win_probability": pytest.approx(e_red)},
        {"team": "blue", "opponent": "red", "win_probability": pytest.approx(1 - e_red)},
    ]
    assert out["quality"] == pytest.approx(1 - abs(2 * e_red - 1))
    assert [p["player"] for p in red["players"]] == ["ann", "bob"]
    for member in red["players"]:
        assert member["if_win"] == pytest.approx(K * (1 - e_red))
        assert member["if_draw"] == pytest.approx(K * (0.5 - e_red))
        assert member["if_loss"] == {
            "min": pytest.approx(-K * e_red),
            "max": pytest.approx(-K * e_red),
        }
    assert red["players"][0]["rating"] == 1700
    for member in blue["players"]:
        assert member["if_win"] == pytest.approx(K * e_red)
    # Blue wins: the game moves what the lobby said.
    played = await post_game(
        client,
        {
            "ladder": "elo-2v2",
            "id": "g1",
            "played_at": at(1),
            "teams": [
                {"team": "red", "rank": 2, "players": [{"player": "ann"}, {"player": "bob"}]},
                {"team": "blue", "rank": 1, "players": [{"player": "cat"}, {"player": "dan"}]},
            ],
        },
    )
    changes = by_player(played["changes"])
    assert changes["ann"]["delta"] == red["players"][0]["if_loss"]["min"]
    assert changes["cat"]["delta"] == blue["players"][0]["if_win"]


async def test_three_sides_other_sides_tie_behind_the_winner(client: httpx.AsyncClient) -> None:
    """if_win: the side wins alone and the others share second place; if_loss ranges over
    which other side wins (the rest, the player's side among them, tied behind it). Each
    amount is the game's, and the side probabilities are Luce's rule over the pairs."""
    await make_ladder(client, "elo-3", "elo")
    await set_ratings(client, "elo-3", a1=1600, a2=1500, b1=1400, b2=1500, c1=1700, c2=1650)
    body = {"ladder": "elo-3", "teams": teams(("a1", "a2"), ("b1", "b2"), ("c1", "c2"))}
    out = await predict(client, body)
    means = {"1": 1550, "2": 1450, "3": 1675}
    for side in out["teams"]:
        odds = sum(
            (1 - elo_p(means[side["team"]], means[o])) / elo_p(means[side["team"]], means[o])
            for o in means
            if o != side["team"]
        )
        assert side["win_probability"] == pytest.approx(1 / (1 + odds))
    assert sum(side["win_probability"] for side in out["teams"]) < 1  # draws and ties aside
    assert len(out["pairs"]) == 6
    least_even = min(
        1 - abs(2 * elo_p(means[a], means[b]) - 1) for a in means for b in means if a < b
    )
    assert out["quality"] == pytest.approx(least_even)
    members = {m["player"]: m for side in out["teams"] for m in side["players"]}

    async def played(ranks: list[int]) -> dict[str, float]:
        sides = [
            {"rank": rank, "players": [{"player": p} for p in members_of]}
            for rank, members_of in zip(
                ranks, (("a1", "a2"), ("b1", "b2"), ("c1", "c2")), strict=True
            )
        ]
        response = await client.post(
            "/games?dry_run=true",
            json={"ladder": "elo-3", "id": "x", "played_at": at(1), "teams": sides},
        )
        assert response.status_code == 200, response.text
        return {c["player"]: c["delta"] for c in response.json()["changes"]}

    first_wins, second_wins, third_wins = (
        await played([1, 2, 2]),
        await played([2, 1, 2]),
        await played([2, 2, 1]),
    )
    drawn = await played([1, 1, 1])
    assert members["a1"]["if_win"] == first_wins["a1"]
    assert members["a1"]["if_draw"] == drawn["a1"]
    losses = [second_wins["a1"], third_wins["a1"]]
    assert members["a1"]["if_loss"] == {"min": min(losses), "max": max(losses)}
    assert members["c2"]["if_win"] == third_wins["c2"]


async def test_glicko_pairs_are_glickmans_two_deviation_prediction(
    client: httpx.AsyncClient,
) -> None:
    """ann 1700 / RD 80 against bob 1500 / RD 150: g(sqrt(80^2 + 150^2) = 170) = 0.880078,
    p = 1 / (1 + 10^(-0.880078 * 200 / 400)) = 0.733651, and p(bob, ann) = 1 - p. (The
    update's E_ann uses bob's RD only, 0.738756, and E_bob ann's, 0.246775: their sum is not
    1.) In a team game each side is its composite: the mean rating and the mean RD."""
    for system in ("glicko", "glicko2"):
        ladder = f"{system}-pairs"
        await make_ladder(client, ladder, system)
        await set_ratings(
            client,
            ladder,
            ann={"rating": 1700, "deviation": 80},
            bob={"rating": 1500, "deviation": 150},
            cat={"rating": 1600, "deviation": 200},
            dan={"rating": 1450, "deviation": 60},
        )
        body = {"ladder": ladder, "players": [{"player": "ann"}, {"player": "bob"}]}
        out = await predict(client, body)
        p = glickman_p(1700, 80, 1500, 150)
        assert p == pytest.approx(0.733651, abs=1e-6)
        ann_bob, bob_ann = out["pairs"]
        assert (ann_bob["player"], ann_bob["opponent"]) == ("ann", "bob")
        assert ann_bob["win_probability"] == pytest.approx(p)
        assert bob_ann["win_probability"] == pytest.approx(1 - p)
        assert out["players"][0]["win_probability"] == pytest.approx(p)
        assert out["quality"] == pytest.approx(1 - abs(2 * p - 1))
        body = {"ladder": ladder, "teams": teams(("ann", "bob"), ("cat", "dan"))}
        out = await predict(client, body)
        side_p = glickman_p((1700 + 1500) / 2, (80 + 150) / 2, (1600 + 1450) / 2, (200 + 60) / 2)
        assert out["teams"][0]["win_probability"] == pytest.approx(side_p)
        assert out["pairs"][1]["win_probability"] == pytest.approx(1 - side_p)


async def test_individual_systems_refuse_sides_of_several(client: httpx.AsyncClient) -> None:
    """Fundox rates individuals: a side of two is the engine's 422 naming the side and the
    rule; sides of one are a free-for-all, predicted (Fundox draws change nothing by default,
    so if_draw is null)."""
    await make_ladder(client, "fx", "fundox")
    refused = await client.post(
        "/predictions", json={"ladder": "fx", "teams": teams(("a",), ("b", "c"))}
    )
    assert refused.status_code == 422, refused.text
    error = refused.json()["errors"][0]
    assert error["loc"] == ["teams", 1]
    assert "rates individuals only" in error["msg"]
    out = await predict(client, {"ladder": "fx", "teams": teams(("a",), ("b",))})
    assert [side["team"] for side in out["teams"]] == ["1", "2"]
    assert out["teams"][0]["players"][0]["if_draw"] is None
    assert out["teams"][0]["players"][0]["if_win"] == pytest.approx(8.0)  # 16 / (1 + 1)
    assert out["quality"] == 1.0


async def test_glicko_refuses_weights_where_elo_takes_them(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "gl", "glicko")
    await make_ladder(client, "el", "elo")
    sides = [
        {"players": [{"player": "a"}, {"player": "b", "weight": 0.5}]},
        {"players": [{"player": "c"}, {"player": "d"}]},
    ]
    refused = await client.post("/predictions", json={"ladder": "gl", "teams": sides})
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["loc"] == ["teams", 0, "players", 1, "weight"]
    out = await predict(client, {"ladder": "el", "teams": sides})
    a, b = out["teams"][0]["players"]
    # Elo gives each member its side's change times its weight (all start at 1500: E = 1/2).
    assert a["if_win"] == pytest.approx(K / 2)
    assert b["if_win"] == pytest.approx(K / 4)


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"players": [{"player": "a"}, {"player": "b"}], "teams": teams(("a",), ("b",))}, []),
        ({}, []),
        ({"teams": teams(("a",))}, ["teams"]),
        ({"teams": [{"players": []}, {"players": [{"player": "b"}]}]}, ["teams", 0, "players"]),
        ({"teams": teams(("a", "b"), ("c", "a"))}, ["teams"]),
        ({"teams": teams(("a",), ("b",), labels=("x", "x"))}, ["teams"]),
        ({"teams": [{"rank": 1, "players": [{"player": "a"}]}, {"players": []}]}, ["teams", 0]),
    ],
)
async def test_team_bodies_refused(
    client: httpx.AsyncClient, body: dict[str, Any], loc: list[Any]
) -> None:
    await make_ladder(client, "elo-refusals", "elo")
    response = await client.post("/predictions", json={"ladder": "elo-refusals", **body})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"][: len(loc)] == loc


async def test_tournament_systems_take_no_teams(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "dp", "dptr")
    response = await client.post(
        "/predictions",
        json={"ladder": "dp", "teams": teams(("a",), ("b",)), "size": 10, "placements": [1]},
    )
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["teams"]


async def test_trueskill_quality_is_its_match_quality(client: httpx.AsyncClient) -> None:
    """SYSTEMS.md "trueskill": two new players have q = sqrt(beta^2 / (beta^2 + sigma^2)) =
    sqrt(1/5) = 0.447 (beta = sigma / 2); two new pairs the same, sqrt(4 beta^2 / (4 beta^2 +
    4 sigma^2)). Equal sides: p = 1/2."""
    await make_ladder(client, "ts", "trueskill")
    out = await predict(client, {"ladder": "ts", "players": [{"player": "a"}, {"player": "b"}]})
    assert out["quality"] == pytest.approx(math.sqrt(1 / 5))
    assert out["players"][0]["win_probability"] == pytest.approx(0.5)
    out = await predict(client, {"ladder": "ts", "teams": teams(("a", "b"), ("c", "d"))})
    assert out["quality"] == pytest.approx(math.sqrt(1 / 5))
    assert [side["win_probability"] for side in out["teams"]] == [
        pytest.approx(0.5),
        pytest.approx(0.5),
    ]
