"""POST /ladders/{ladder}/evaluate and /tune (API.md "Evaluation and tuning").

Numbers are hand arithmetic (three Elo games: each p from the ratings before the game) or
another route's (tuning's point at the ladder's parameters is evaluate's); the refusals name
their field and rule, and nothing is stored.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.main import create_app
from tests.conftest import AUTH, make_settings
from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio


def logistic(r_a: float, r_b: float) -> float:
    """Elo's E with the default scale 400 (SYSTEMS.md "elo")."""
    return 1 / (1 + 10 ** ((r_b - r_a) / 400))


async def three_games(client: httpx.AsyncClient, ladder: str = "club", **params: Any) -> None:
    """a beats b; c beats a (a listed first); b and c draw."""
    await make_ladder(client, ladder, "elo", **params)
    await post_game(client, game(ladder, "g1", {"a": 1, "b": 2}, minutes=0))
    await post_game(client, game(ladder, "g2", {"a": 2, "c": 1}, minutes=60))
    await post_game(client, game(ladder, "g3", {"b": 1, "c": 1}, minutes=120))


def hand_probabilities(k: float = 32) -> tuple[float, float, float]:
    p1 = logistic(1500, 1500)
    a, b = 1500 + k * (1 - p1), 1500 - k * (1 - p1)
    p2 = logistic(a, 1500)
    c = 1500 + k * p2  # c won against a: S - E = 1 - (1 - p2)
    return p1, p2, logistic(b, c)


def problem(response: httpx.Response) -> tuple[list[Any], str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    error = response.json()["errors"][0]
    return error["loc"], error["msg"]


async def test_the_ladders_own_system_scores_three_elo_games_by_hand(
    client: httpx.AsyncClient,
) -> None:
    await three_games(client)
    response = await client.post("/ladders/club/evaluate", json={})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ladder"] == "club"
    [result] = body["results"]
    assert (result["label"], result["system"]) == ("elo", "elo")
    # The ladder's complete parameters: Elo's, and ranked play's (none of it).
    no_ranked_play = {
        "placement_games": 0,
        "decay": None,
        "divisions": None,
        "max_field_players": 100,
    }
    assert result["params"] == {"initial": 1500, "k": 32, "scale": 400} | no_ranked_play
    p1, p2, p3 = hand_probabilities()
    assert (result["games"], result["pairs"]) == (3, 3)
    log_loss = (-math.log(p1) - math.log(1 - p2) - (math.log(p3) + math.log(1 - p3)) / 2) / 3
    assert result["log_loss"] == pytest.approx(log_loss, rel=1e-14)
    assert result["brier"] == pytest.approx(
        ((p1 - 1) ** 2 + p2**2 + (p3 - 0.5) ** 2) / 3, rel=1e-14
    )
    assert result["accuracy"] == (0.5 + 0) / 2  # game 1 even; game 2's favourite lost
    bins = result["calibration"]
    assert [b["count"] for b in bins] == [0, 0, 0, 0, 2, 4, 0, 0, 0, 0]
    assert bins[4]["predicted"] == pytest.approx((1 - p2 + p3) / 2, rel=1e-15)
    assert bins[4]["observed"] == (1 + 0.5) / 2
    assert bins[5]["predicted"] == pytest.approx((p1 + (1 - p1) + p2 + (1 - p3)) / 4, rel=1e-15)
    assert bins[5]["observed"] == (1 + 0 + 0 + 0.5) / 4
    assert bins[0] == {"low": 0.0, "high": 0.1, "count": 0, "predicted": None, "observed": None}
    baseline = body["baseline"]
    assert baseline["log_loss"] == pytest.approx(math.log(2), rel=1e-15)
    assert baseline["brier"] == (0.25 + 0.25 + 0) / 3  # the draw costs p = 1/2 nothing
    assert (baseline["games"], baseline["pairs"], baseline["accuracy"]) == (3, 3, 0.5)


async def test_candidates_side_by_side(client: httpx.AsyncClient) -> None:
    await three_games(client)
    response = await client.post(
        "/ladders/club/evaluate",
        json={
            "candidates": [
                {},
                {"params": {"k": 16}},
                {"label": "Glicko-2", "system": "glicko2"},
                {"system": "fundox"},
            ]
        },
    )
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["label"] for r in results] == ["elo", "elo k=16", "Glicko-2", "fundox"]
    no_ranked_play = {
        "placement_games": 0,
        "decay": None,
        "divisions": None,
        "max_field_players": 100,
    }
    assert results[1]["params"] == {"initial": 1500, "k": 16, "scale": 400} | no_ranked_play
    # Another system starts from its own defaults, not the ladder's parameters.
    assert results[2]["params"]["initial_rating"] == 1500
    _, p2, p3 = hand_probabilities(k=16)
    # With K 16 only the later games move: game 2 and 3 from the smaller changes.
    half = (math.log(p3) + math.log(1 - p3)) / 2
    assert results[1]["log_loss"] == pytest.approx(
        (math.log(2) - math.log(1 - p2) - half) / 3, rel=1e-14
    )
    # Fundox: scale 800, K 16 (SYSTEMS.md "fundox").
    q2 = 1 / (1 + 10 ** ((1500 - (1500 + 8)) / 800))
    assert results[3]["brier"] == pytest.approx(
        (0.25 + q2**2 + (1 / (1 + 10 ** (((1500 + 16 * q2) - (1500 - 8)) / 800)) - 0.5) ** 2) / 3,
        rel=1e-14,
    )


async def test_from_and_to_score_a_window(client: httpx.AsyncClient) -> None:
    await three_games(client)
    every = (await client.post("/ladders/club/evaluate", json={})).json()["results"][0]
    window = await client.post("/ladders/club/evaluate", json={"from": at(30), "to": at(60)})
    assert window.status_code == 200, window.text
    [result] = window.json()["results"]
    _, p2, _ = hand_probabilities()
    assert (result["games"], result["pairs"]) == (1, 1)
    assert result["log_loss"] == pytest.approx(-math.log(1 - p2), rel=1e-15)
    assert result["log_loss"] != every["log_loss"]
    counted = await client.post("/ladders/club/evaluate", json={"min_games": 1})
    # Game 2: c new; game 3: both played before.
    assert counted.json()["results"][0]["games"] == 1


async def test_nothing_is_stored(client: httpx.AsyncClient) -> None:
    await three_games(client)
    before = [
        (await client.get(path)).json()
        for path in (
            "/ladders/club",
            "/ladders/club/leaderboard",
            "/ladders/club/players/a/history",
        )
    ]
    assert (
        await client.post("/ladders/club/evaluate", json={"candidates": [{"params": {"k": 10}}]})
    ).status_code == 200
    assert (
        await client.post("/ladders/club/tune", json={"grid": {"k": [8, 64]}})
    ).status_code == 200
    after = [
        (await client.get(path)).json()
        for path in (
            "/ladders/club",
            "/ladders/club/leaderboard",
            "/ladders/club/players/a/history",
        )
    ]
    assert after == before


async def test_tune_ranks_the_grid_and_its_ladder_point_is_evaluate(
    client: httpx.AsyncClient,
) -> None:
    await three_games(client)
    response = await client.post("/ladders/club/tune", json={"grid": {"k": [16, 24, 32, 40]}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["ladder"], body["system"], body["metric"]) == ("club", "elo", "log_loss")
    losses = [r["log_loss"] for r in body["results"]]
    assert losses == sorted(losses)
    assert sorted(r["params"]["k"] for r in body["results"]) == [16, 24, 32, 40]
    own = next(r for r in body["results"] if r["params"]["k"] == 32)
    evaluated = (await client.post("/ladders/club/evaluate", json={})).json()["results"][0]
    assert {k: own[k] for k in ("log_loss", "brier", "accuracy", "games", "pairs")} == {
        k: evaluated[k] for k in ("log_loss", "brier", "accuracy", "games", "pairs")
    }
    by_accuracy = await client.post(
        "/ladders/club/tune",
        json={"grid": {"k": [16, 40], "scale": [200, 400]}, "metric": "accuracy"},
    )
    accuracies = [r["accuracy"] for r in by_accuracy.json()["results"]]
    assert len(accuracies) == 4
    assert accuracies == sorted(accuracies, reverse=True)


async def test_refusals_name_the_field_and_rule(client: httpx.AsyncClient) -> None:
    await three_games(client)
    loc, msg = problem(
        await client.post("/ladders/club/evaluate", json={"candidates": [{"system": "nadf"}]})
    )
    assert loc == ["candidates", 0, "system"]
    assert "'nadf'" in msg
    assert "no win probability" in msg
    loc, msg = problem(
        await client.post("/ladders/club/evaluate", json={"candidates": [{}, {"system": "dptr"}]})
    )
    assert loc == ["candidates", 1, "system"]
    assert "tournament" in msg
    loc, msg = problem(
        await client.post("/ladders/club/evaluate", json={"candidates": [{"params": {"k": -1}}]})
    )
    assert loc == ["candidates", 0, "params", "k"]
    loc, _ = problem(
        await client.post("/ladders/club/evaluate", json={"candidates": [{"system": "chess"}]})
    )
    assert loc == ["candidates", 0, "system"]
    loc, _ = problem(
        await client.post("/ladders/club/evaluate", json={"from": at(60), "to": at(0)})
    )
    assert loc == ["to"]
    loc, _ = problem(await client.post("/ladders/club/evaluate", json={"extra": 1}))
    assert loc[-1] == "extra"
    loc, msg = problem(
        await client.post(
            "/ladders/club/tune",
            json={
                "grid": {
                    "k": list(range(1, 21)),
                    "scale": list(range(100, 1100, 100)),
                    "initial": [1000, 1500],
                }
            },
        )
    )
    assert loc == ["grid"]
    assert "at most 200 points" in msg
    assert "20 x 10 x 2 = 400" in msg
    loc, msg = problem(await client.post("/ladders/club/tune", json={"grid": {"k": [16, 0]}}))
    assert loc == ["grid", "k"]
    assert "k=0" in msg
    loc, _ = problem(await client.post("/ladders/club/tune", json={"grid": {"tau": [0.5]}}))
    assert loc == ["grid", "tau"]
    loc, _ = problem(await client.post("/ladders/club/tune", json={"grid": {}}))
    assert loc[-1] == "grid"
    loc, _ = problem(
        await client.post("/ladders/club/tune", json={"grid": {"k": [16]}, "metric": "elo"})
    )
    assert loc[-1] == "metric"
    # A fundox candidate over a team game it does not rate: the game and the system named.
    await post_game(
        client,
        {
            "ladder": "club",
            "id": "team-1",
            "played_at": at(200),
            "teams": [
                {"rank": 1, "players": [{"player": "a"}, {"player": "b"}]},
                {"rank": 2, "players": [{"player": "c"}, {"player": "d"}]},
            ],
        },
    )
    loc, msg = problem(
        await client.post("/ladders/club/evaluate", json={"candidates": [{"system": "fundox"}]})
    )
    assert loc == ["candidates", 0]
    assert "game team-1 cannot be rated by 'fundox'" in msg


async def test_tournament_and_diplomacy_ladders_cannot_be_evaluated(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "wdd", "dptr")
    loc, msg = problem(await client.post("/ladders/wdd/evaluate", json={}))
    assert loc == ["ladder"]
    assert "tournament" in msg
    loc, _ = problem(await client.post("/ladders/wdd/tune", json={"grid": {"k": [1]}}))
    assert loc == ["ladder"]
    await make_ladder(client, "dip", "kinzett")
    loc, msg = problem(await client.post("/ladders/dip/evaluate", json={}))
    assert loc == ["ladder"]
    assert "'kinzett'" in msg
    missing = await client.post("/ladders/nowhere/evaluate", json={})
    assert missing.status_code == 404


@asynccontextmanager
async def _client(database: Database, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(make_settings(database_url=str(database.url), **settings), database=database)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://ratings.test", headers=AUTH
    ) as http:
        yield http


async def test_a_request_past_the_cap_is_sent_to_the_command_line(database: Database) -> None:
    async with _client(database, max_evaluate_events=6) as client:
        await three_games(client)
        # 3 events, twice: at the cap.
        fits = await client.post("/ladders/club/evaluate", json={"candidates": [{}, {}]})
        assert fits.status_code == 200, fits.text
        loc, msg = problem(
            await client.post("/ladders/club/evaluate", json={"candidates": [{}, {}, {}]})
        )
        assert loc == ["ladder"]
        assert "RATINGS_MAX_EVALUATE_EVENTS" in msg
        assert "3 events 3 time(s), 9" in msg
        assert "`ratings evaluate LADDER`" in msg
        loc, msg = problem(await client.post("/ladders/club/tune", json={"grid": {"k": [1, 2, 3]}}))
        assert "RATINGS_MAX_EVALUATE_EVENTS" in msg
        assert "ratings tune" in msg


async def test_a_read_key_may_evaluate_its_ladders_only(client: httpx.AsyncClient) -> None:
    await three_games(client)
    await three_games(client, "other")
    keys = {}
    for name, scopes in (("reader", ["read"]), ("writer", ["results:write"])):
        created = await client.post(
            "/keys", json={"name": name, "scopes": scopes, "ladders": ["club"]}
        )
        assert created.status_code == 201, created.text
        keys[name] = {"Authorization": f"Bearer {created.json()['key']}"}
    for path, body in (("evaluate", {}), ("tune", {"grid": {"k": [16]}})):
        url = f"/ladders/club/{path}"
        assert (await client.post(url, json=body, headers=keys["reader"])).status_code == 200
        assert (await client.post(url, json=body, headers=keys["writer"])).status_code == 403
        assert (await client.post(url, json=body, headers={"Authorization": ""})).status_code == 401
        # A key limited to other ladders sees this one as if it did not exist (as every
        # route answers it).
        elsewhere = f"/ladders/other/{path}"
        assert (await client.post(elsewhere, json=body, headers=keys["reader"])).status_code == 404
