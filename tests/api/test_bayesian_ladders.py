"""TrueSkill and Weng-Lin ladders through the API (SYSTEMS.md "Teams", ``trueskill``,
``weng-lin``; API.md "Teams"): team games rated, the leaderboard ranked by mu - 3 sigma, and
``GET /systems``. Expected values come from the independent implementations: the
``trueskill`` package (scipy backend) and ``openskill`` 6.x."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import trueskill as ts_package
from openskill.models import BradleyTerryFull, PlackettLuce

from tests.helpers import at, by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: skillratings' 2v2 example (SYSTEMS.md), set by adjustments before the game.
START = {"ann": (20.0, 8.0), "bob": (25.0, 6.0), "cat": (35.0, 7.0), "dan": (40.0, 5.0)}


def team_game(ladder: str, game_id: str, minutes: int, *sides: dict[str, Any]) -> dict[str, Any]:
    return {"ladder": ladder, "id": game_id, "played_at": at(minutes), "teams": list(sides)}


def side(team: str, rank: int, *players: str | tuple[str, float]) -> dict[str, Any]:
    members = []
    for p in players:
        if isinstance(p, tuple):
            members.append({"player": p[0], "weight": p[1]})
        else:
            members.append({"player": p})
    return {"team": team, "rank": rank, "players": members}


async def _start(client: httpx.AsyncClient, ladder: str) -> None:
    for player, (mu, sigma) in START.items():
        body = {"rating": mu, "deviation": sigma, "at": at(0)}
        response = await client.put(f"/ladders/{ladder}/players/{player}", json=body)
        assert response.status_code == 200, response.text


async def test_systems_lists_both_with_their_parameters(client: httpx.AsyncClient) -> None:
    listed = {s["id"]: s for s in (await client.get("/systems")).json()}
    ids = list(listed)
    assert ids.index("glicko") < ids.index("trueskill") < ids.index("weng-lin")
    ts = listed["trueskill"]
    assert (ts["kind"], ts["rank_by"], ts["duel"], ts["per_faction"]) == (
        "game",
        "ranking_value",
        False,
        False,
    )
    assert set(ts["params"]) == {
        "mu",
        "sigma",
        "beta",
        "tau",
        "draw_probability",
        "ranking_multiplier",
        # ranked play's, on every game system (docs/ranked.md)
        "placement_games",
        "provisional_deviation",
        "decay",
        "divisions",
        # the service's, on every game system (docs/api.md "Large fields")
        "max_field_players",
    }
    assert ts["params"]["draw_probability"]["default"] == 0.1
    assert ts["params"]["sigma"]["minimum"] == 0.001
    assert ts["params"]["mu"]["maximum"] == 1e6
    assert any("Herbrich" in source for source in ts["sources"])
    wl = (await client.get("/systems/weng-lin")).json()
    assert wl["rank_by"] == "ranking_value"
    assert wl["params"]["model"]["default"] == "plackett-luce"
    assert len(wl["params"]["model"]["choices"]) == 5
    assert wl["params"]["kappa"]["default"] == 0.0001
    assert wl["params"]["kappa"]["exclusive_minimum"] == 0
    assert any("Weng" in source for source in wl["sources"])
    for entry in (ts, wl):
        for name, spec in entry["params"].items():
            if spec["type"] in ("number", "integer"):
                assert "maximum" in spec, name


async def test_a_trueskill_2v2_game_agrees_with_the_trueskill_package(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "halo", "trueskill")
    await _start(client, "halo")
    body = team_game(
        "halo",
        "m1",
        1,
        side("red", 1, "ann", ("bob", 0.5)),
        side("blue", 2, "cat", "dan"),
    )
    game = await post_game(client, body)
    env = ts_package.TrueSkill(backend="scipy")
    (ann, bob), (cat, dan) = env.rate(
        [[env.create_rating(*START["ann"]), env.create_rating(*START["bob"])],
         [env.create_rating(*START["cat"]), env.create_rating(*START["dan"])]],
        ranks=[0, 1],
        weights=[[1.0, 0.5], [1.0, 1.0]],
    )  # fmt: skip
    expected = {"ann": ann, "bob": bob, "cat": cat, "dan": dan}
    changes = by_player(game["changes"])
    assert [c["player"] for c in game["changes"]] == ["ann", "bob", "cat", "dan"]
    for player, want in expected.items():
        change = changes[player]
        assert change["rating_before"] == START[player][0]
        assert change["deviation_before"] == START[player][1]
        assert change["rating_after"] == pytest.approx(want.mu, abs=1e-6)
        assert change["deviation_after"] == pytest.approx(want.sigma, abs=1e-6)
        assert change["volatility_after"] is None
    assert [changes[p]["team"] for p in ("ann", "bob", "cat", "dan")] == [
        "red",
        "red",
        "blue",
        "blue",
    ]
    assert [changes[p]["rank"] for p in ("ann", "cat")] == [1, 2]
    assert changes["bob"]["details"]["weight"] == 0.5
    assert changes["ann"]["details"]["side"]["performance_mean"] == 20 + 0.5 * 25
    # Stored as posted and read back the same.
    stored = (await client.get("/ladders/halo/games/m1")).json()
    assert [c["rating_after"] for c in stored["changes"]] == [
        c["rating_after"] for c in game["changes"]
    ]
    assert stored["teams"][0]["players"][1] == {"player": "bob", "weight": 0.5}


async def test_the_leaderboard_ranks_by_mu_minus_3_sigma(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "halo", "trueskill")
    # A sure but lower skill ranks above an uncertain higher one: 30 - 3 * 1 > 40 - 3 * 6.
    for player, mu, sigma in (("steady", 30.0, 1.0), ("lucky", 40.0, 6.0)):
        body = {"rating": mu, "deviation": sigma, "at": at(0)}
        assert (await client.put(f"/ladders/halo/players/{player}", json=body)).is_success
    await post_game(client, team_game("halo", "m1", 1, side("a", 1, "new1"), side("b", 2, "new2")))
    board = (await client.get("/ladders/halo/leaderboard?active_within_days=0")).json()
    entries = board["entries"]
    assert [e["player"] for e in entries][:2] == ["steady", "lucky"]
    for entry in entries:
        assert entry["ranking_value"] == pytest.approx(
            entry["rating"] - 3 * entry["deviation"], abs=1e-9
        )
    values = [e["ranking_value"] for e in entries]
    assert values == sorted(values, reverse=True)
    assert [e["position"] for e in entries] == [1, 2, 3, 4]
    new1 = (await client.get("/ladders/halo/players/new1")).json()["ratings"][0]
    # The published 1v1 of two new players: 29.396 / 7.171.
    assert (round(new1["rating"], 3), round(new1["deviation"], 3)) == (29.396, 7.171)
    assert new1["ranking_value"] == pytest.approx(new1["rating"] - 3 * new1["deviation"])


async def test_a_ladders_ranking_multiplier_sets_the_ranking_value(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "wl", "weng-lin", ranking_multiplier=2)
    body = {"rating": 30.0, "deviation": 2.0, "at": at(0)}
    assert (await client.put("/ladders/wl/players/ann", json=body)).is_success
    board = (await client.get("/ladders/wl/leaderboard?active_within_days=0")).json()
    assert board["entries"][0]["ranking_value"] == 26.0


@pytest.mark.parametrize(
    ("model", "reference"),
    [("plackett-luce", PlackettLuce), ("bradley-terry-full", BradleyTerryFull)],
)
async def test_a_weng_lin_team_game_agrees_with_openskill(
    client: httpx.AsyncClient, model: str, reference: Any
) -> None:
    await make_ladder(client, "os", "weng-lin", model=model)
    await _start(client, "os")
    body = team_game(
        "os",
        "m1",
        1,
        side("red", 2, "ann", "bob"),
        side("blue", 1, "cat"),
        side("green", 2, "dan"),
    )
    game = await post_game(client, body)
    os_model = reference()
    (ann, bob), (cat,), (dan,) = os_model.rate(
        [[os_model.rating(*START["ann"]), os_model.rating(*START["bob"])],
         [os_model.rating(*START["cat"])],
         [os_model.rating(*START["dan"])]],
        ranks=[2, 1, 2],
    )  # fmt: skip
    changes = by_player(game["changes"])
    for player, want in {"ann": ann, "bob": bob, "cat": cat, "dan": dan}.items():
        assert changes[player]["rating_after"] == pytest.approx(want.mu, abs=1e-9)
        assert changes[player]["deviation_after"] == pytest.approx(want.sigma, abs=1e-9)
    assert changes["ann"]["details"]["model"] == model
    board = (await client.get("/ladders/os/leaderboard?active_within_days=0")).json()
    values = [e["ranking_value"] for e in board["entries"]]
    assert values == sorted(values, reverse=True)


async def test_the_free_for_all_form_is_sides_of_one(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "ffa", "weng-lin")
    await make_ladder(client, "sides", "weng-lin")
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
        client,
        team_game("sides", "g", 1, side("1", 1, "ann"), side("2", 2, "bob"), side("3", 2, "cat")),
    )
    for ours, theirs in zip(ffa["changes"], sides["changes"], strict=True):
        assert (ours["rating_after"], ours["deviation_after"]) == (
            theirs["rating_after"],
            theirs["deviation_after"],
        )
    # Three new players, one first and two level: openskill's PlackettLuce on three.
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 2])
    assert ffa["changes"][0]["rating_after"] == pytest.approx(expected[0][0].mu, abs=1e-9)


async def test_adjustments_and_refusals(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "halo", "trueskill")
    volatility = {"rating": 25.0, "deviation": 3.0, "volatility": 0.06, "at": at(0)}
    response = await client.put("/ladders/halo/players/ann", json=volatility)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["volatility"]
    too_sure = {"rating": 25.0, "deviation": 0.0001, "at": at(0)}
    response = await client.put("/ladders/halo/players/ann", json=too_sure)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["deviation"]
    ladder = {"id": "x", "system": "trueskill", "params": {"draw_probability": 1.0}}
    bad = await client.post("/ladders", json=ladder)
    assert bad.status_code == 422, bad.text
    assert bad.json()["errors"][0]["loc"] == ["params", "draw_probability"]
    # A draw between sides a million apart leaves TrueSkill's arithmetic: a 422, nothing kept.
    far = {"rating": 1e6, "deviation": 1.0, "at": at(0)}
    assert (await client.put("/ladders/halo/players/far", json=far)).is_success
    draw = team_game("halo", "g", 1, side("a", 1, "ann"), side("b", 1, "far"))
    response = await client.post("/games", json=draw)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["players"]
    assert (await client.get("/ladders/halo/games/g")).status_code == 404
