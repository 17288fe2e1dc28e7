"""The ``teams`` form of a game (API.md "Teams"): its validation, storage and the rule that
systems rating individuals refuse sides of several players and weights."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.helpers import at, by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio


def team_game(ladder: str, game_id: str, teams: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ladder": ladder, "id": game_id, "played_at": at(1), "teams": teams}


def side(rank: int, *players: str, team: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"rank": rank, "players": [{"player": p} for p in players]}
    if team is not None:
        out["team"] = team
    return out


async def test_sides_of_one_rate_as_the_same_free_for_all(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "ffa", "elo")
    await make_ladder(client, "sides", "elo")
    ffa = await post_game(
        client,
        {
            "ladder": "ffa",
            "id": "g",
            "played_at": at(1),
            "players": [
                {"player": "ann", "rank": 1},
                {"player": "bob", "rank": 2},
                {"player": "cat", "rank": 2},
            ],
        },
    )
    sides = await post_game(
        client, team_game("sides", "g", [side(1, "ann"), side(2, "bob"), side(2, "cat")])
    )
    for player, change in by_player(ffa["changes"]).items():
        assert by_player(sides["changes"])[player]["delta"] == change["delta"]
        assert change["team"] is None
    # Labels default to the side's position, and each change names its side.
    assert [by_player(sides["changes"])[p]["team"] for p in ("ann", "bob", "cat")] == [
        "1",
        "2",
        "3",
    ]
    stored = (await client.get("/ladders/sides/games/g")).json()
    assert stored["teams"] == [
        {"team": "1", "rank": 1, "players": [{"player": "ann"}]},
        {"team": "2", "rank": 2, "players": [{"player": "bob"}]},
        {"team": "3", "rank": 2, "players": [{"player": "cat"}]},
    ]
    assert [c["team"] for c in stored["changes"]] == ["1", "2", "3"]
    assert (await client.get("/ladders/ffa/games/g")).json()["teams"] is None


async def test_the_same_team_body_again_is_idempotent(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    body = team_game("club", "g", [side(1, "ann", team="red"), side(2, "bob", team="blue")])
    first = await client.post("/games", json=body)
    again = await client.post("/games", json=body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["changes"] == first.json()["changes"]
    body["teams"][0]["rank"] = 2
    assert (await client.post("/games", json=body)).status_code == 409


@pytest.mark.parametrize(
    ("teams", "loc", "words"),
    [
        ([side(1, "ann")], ["teams"], "at least 2"),
        ([side(1, "ann"), {"rank": 2, "players": []}], ["teams", 1, "players"], "at least 1"),
        ([side(1, "ann"), side(2, "ann")], ["teams"], "appears twice"),
        ([side(1, "ann", team="x"), side(2, "bob", team="x")], ["teams"], "appears twice"),
        (
            [side(1, "ann"), {"rank": 2, "players": [{"player": "bob", "weight": 0}]}],
            ["teams", 1, "players", 0, "weight"],
            "greater than 0",
        ),
        (
            [side(1, "ann"), {"rank": 2, "players": [{"player": "bob", "weight": 1.5}]}],
            ["teams", 1, "players", 0, "weight"],
            "less than or equal to 1",
        ),
    ],
)
async def test_malformed_sides_are_refused(
    client: httpx.AsyncClient, teams: list[dict[str, Any]], loc: list[Any], words: str
) -> None:
    await make_ladder(client, "club", "elo")
    response = await client.post("/games", json=team_game("club", "g", teams))
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert any(e["loc"] == loc and words in e["msg"] for e in errors), errors
    assert (await client.get("/ladders/club")).json()["players"] == 0


async def test_players_and_teams_together_or_neither_are_refused(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "elo")
    both = team_game("club", "g", [side(1, "ann"), side(2, "bob")])
    both["players"] = [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 2}]
    neither = {"ladder": "club", "id": "g", "played_at": at(1)}
    for body in (both, neither):
        response = await client.post("/games", json=body)
        assert response.status_code == 422, response.text
        assert "either players" in response.text


async def test_individual_systems_refuse_sides_and_weights(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "fx", "fundox")
    pair = team_game("fx", "g", [side(1, "ann", "bob"), side(2, "cat", "dan")])
    response = await client.post("/games", json=pair)
    assert response.status_code == 422, response.text
    (error,) = response.json()["errors"]
    assert error["loc"] == ["teams", 0]
    assert "rates individuals only" in error["msg"]
    weighted = team_game(
        "fx", "g", [side(1, "ann"), {"rank": 2, "players": [{"player": "bob", "weight": 0.5}]}]
    )
    response = await client.post("/games", json=weighted)
    assert response.status_code == 422, response.text
    (error,) = response.json()["errors"]
    assert error["loc"] == ["teams", 1, "players", 0, "weight"]
    # The free-for-all form names the player the same way.
    ffa = {
        "ladder": "fx",
        "id": "g",
        "played_at": at(1),
        "players": [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 2, "weight": 0.5}],
    }
    response = await client.post("/games", json=ffa)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["players", 1, "weight"]
    assert (await client.get("/ladders/fx")).json()["players"] == 0
    # Sides of one player are individuals: fundox rates them as the free-for-all.
    await post_game(client, team_game("fx", "g", [side(1, "ann"), side(2, "bob")]))


async def test_systems_say_whether_they_rate_sides(client: httpx.AsyncClient) -> None:
    systems = {s["id"]: s for s in (await client.get("/systems")).json()}
    # SYSTEMS.md "Teams": who rates sides, and who takes partial play.
    assert {i for i, s in systems.items() if s["sides"]} == {
        "elo",
        "glicko",
        "glicko2",
        "trueskill",
        "weng-lin",
        "ttt",
    }
    assert {i for i, s in systems.items() if s["weights"]} == {
        "elo",
        "trueskill",
        "weng-lin",
        "ttt",
    }


async def test_a_stored_trueskill_change_shows_mu_minus_three_sigma(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "ts", "trueskill")
    posted = await post_game(client, team_game("ts", "g", [side(1, "ann"), side(2, "bob")]))
    stored = (await client.get("/ladders/ts/games/g")).json()
    for change in (*posted["changes"], *stored["changes"]):
        value = change["rating_after"] - 3 * change["deviation_after"]
        assert change["ranking_value"] == pytest.approx(value, rel=1e-12)
