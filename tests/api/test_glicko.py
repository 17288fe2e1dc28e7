"""Glicko ladders through the API: Glickman's published examples as one rating period."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import httpx
import pytest

from tests.helpers import at, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: Glickman's example: the player 1500/200 (sigma 0.06) against three opponents.
OPPONENTS = (("o1400", 1400, 30, 1), ("o1550", 1550, 100, 2), ("o1700", 1700, 300, 2))
DAY = 24 * 60


async def _glickman_period(client: httpx.AsyncClient, ladder: str, volatility: bool) -> dict:
    def state(rating: float, rd: float) -> dict[str, float | str]:
        body: dict[str, float | str] = {"rating": rating, "deviation": rd, "at": at(DAY + 1)}
        if volatility:
            body["volatility"] = 0.06
        return body

    assert (await client.put(f"/ladders/{ladder}/players/me", json=state(1500, 200))).is_success
    for name, rating, rd, _rank in OPPONENTS:
        response = await client.put(f"/ladders/{ladder}/players/{name}", json=state(rating, rd))
        assert response.status_code == 200, response.text
    # Three games on the same day: one rating period, rated from the period-start states.
    for index, (name, _rating, _rd, my_rank) in enumerate(OPPONENTS):
        body = {
            "ladder": ladder,
            "id": f"g{index}",
            "played_at": at(DAY + 10 + index),
            "players": [{"player": "me", "rank": my_rank}, {"player": name, "rank": 3 - my_rank}],
        }
        await post_game(client, body)
    response = await client.get(f"/ladders/{ladder}/players/me")
    rating: dict = response.json()["ratings"][0]
    return rating


async def test_glicko2_paper_example_as_one_day_period(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "naf-glicko", "glicko2", period="day")
    me = await _glickman_period(client, "naf-glicko", volatility=True)
    assert me["rating"] == pytest.approx(1464.06, abs=0.01)
    assert me["deviation"] == pytest.approx(151.52, abs=0.01)
    assert me["volatility"] == pytest.approx(0.05999, abs=0.00001)
    # NAF presentation: mu - 2.5 phi on the display scale.
    assert me["ranking_value"] == pytest.approx(me["rating"] - 2.5 * me["deviation"])


async def test_glicko1_paper_example_as_one_day_period(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "g1", "glicko", period="day")
    me = await _glickman_period(client, "g1", volatility=False)
    assert me["rating"] == pytest.approx(1464, abs=0.5)
    assert me["deviation"] == pytest.approx(151.4, abs=0.05)


async def test_new_coach_ranking_value_and_leaderboard_order(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "naf-glicko", "glicko2")
    await client.put("/ladders/naf-glicko/players/rookie", json={"rating": 1500, "at": at(0)})
    rookie = (await client.get("/ladders/naf-glicko/players/rookie")).json()["ratings"][0]
    assert rookie["ranking_value"] == pytest.approx(1500 - 2.5 * 350)  # 625 (seed 004)
    # A sure but lower-rated coach ranks above an uncertain higher-rated one.
    await client.put(
        "/ladders/naf-glicko/players/steady", json={"rating": 1450, "deviation": 50, "at": at(0)}
    )
    await client.put(
        "/ladders/naf-glicko/players/lucky", json={"rating": 1700, "deviation": 300, "at": at(0)}
    )
    board = (await client.get("/ladders/naf-glicko/leaderboard")).json()["entries"]
    assert [e["player"] for e in board] == ["steady", "lucky", "rookie"]
    assert [e["position"] for e in board] == [1, 2, 3]


async def test_idle_weeks_grow_rd_before_the_next_game(client: httpx.AsyncClient) -> None:
    """Empty weeks before a game grow RD by the no-game step once per week."""
    await make_ladder(client, "weekly", "glicko2", period="week")
    monday = "2026-11-02T10:00:00Z"
    await client.put(
        "/ladders/weekly/players/a",
        json={"rating": 1500, "deviation": 100, "volatility": 0.06, "at": monday},
    )
    await client.put(
        "/ladders/weekly/players/b",
        json={"rating": 1500, "deviation": 100, "volatility": 0.06, "at": "2026-11-23T09:00:00Z"},
    )
    # a's adjustment set its state at the start of the week of Nov 2; that week and the weeks
    # of Nov 9 and Nov 16 pass without a game, so a enters the week of Nov 23 with three
    # no-game steps: phi = sqrt(phi^2 + 3 sigma^2) in Glicko-2 units.
    body = {
        "ladder": "weekly",
        "id": "g1",
        "played_at": "2026-11-23T12:00:00Z",
        "players": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}],
    }
    out = await post_game(client, body)
    change = next(c for c in out["changes"] if c["player"] == "a")
    scale = 173.7178
    phi = 100 / scale
    assert change["details"]["idle_periods"] == 3
    assert change["details"]["deviation_start"] == pytest.approx(
        math.sqrt(phi**2 + 3 * 0.06**2) * scale
    )
    # b's adjustment is in the game's own week: no growth.
    other = next(c for c in out["changes"] if c["player"] == "b")
    assert other["details"]["idle_periods"] == 0
    assert other["details"]["deviation_start"] == pytest.approx(100)


# --- issue 23, item 3: no 500 whatever the parameters --------------------------------------


@pytest.mark.parametrize(("system", "deviation"), [("glicko2", 30_000), ("glicko", 100_000)])
async def test_an_initial_deviation_past_its_maximum_is_a_422(
    client: httpx.AsyncClient, system: str, deviation: int
) -> None:
    """Glicko-2 with initial_deviation 30,000 overflowed after about 1,470 ordinary games and
    Glicko with 100,000 divided by zero (500s); the range now stops at 1,000 (GET /systems)."""
    body = {"id": "wide", "system": system, "params": {"initial_deviation": deviation}}
    response = await client.post("/ladders", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert error["loc"] == ["params", "initial_deviation"]
    assert "at most 1000" in error["msg"]
    described = (await client.get(f"/systems/{system}")).json()["params"]["initial_deviation"]
    assert (described["minimum"], described["maximum"]) == (1.0, 1000.0)


@pytest.mark.parametrize("system", ["glicko2", "glicko"])
async def test_the_largest_initial_deviation_rates_ordinary_games(
    client: httpx.AsyncClient, system: str
) -> None:
    """1,500 two-player games among ten players at initial_deviation 1,000: all rated, every
    rating finite and every RD within its range."""
    await make_ladder(client, "wide", system, initial_deviation=1000)

    def pair(n: int) -> tuple[str, str]:
        # Every pair of the ten in turn (an offset of 1 to 9 never pairs a player with itself).
        first = n % 10
        return f"p{first}", f"p{(first + 1 + n // 10 % 9) % 10}"

    games = [
        {
            "ladder": "wide",
            "id": f"g{n}",
            "played_at": at(n),
            # A fixed pattern: the first of the pair wins two games in three.
            "players": [
                {"player": pair(n)[0], "rank": 1 if n % 3 else 2},
                {"player": pair(n)[1], "rank": 2 if n % 3 else 1},
            ],
        }
        for n in range(1500)
    ]
    response = await client.post("/games/batch", json={"games": games})
    assert response.status_code == 200, response.text
    assert response.json()["created"] == 1500
    board = (await client.get("/ladders/wide/leaderboard")).json()["entries"]
    assert len(board) == 10
    for entry in board:
        assert math.isfinite(entry["rating"])
        assert 1.0 <= entry["deviation"] <= 1000.0


async def test_a_glicko2_result_that_overflows_is_a_422_and_stores_nothing(
    client: httpx.AsyncClient,
) -> None:
    """Within the ranges, a history far from the model can still overflow Glicko-2: two
    players adjusted 10,000 points apart, 150 upsets in one day (each moves the underdog by
    about phi'^2 on the Glicko-2 scale), and the next day's game overflows Delta^2 in step 5.
    The engine reports it as the event's 422, not a 500, and neither the game, its dry run nor
    a prediction of it (today, a later period too) stores anything or fails."""
    # A fixed day, so that the upsets never straddle midnight (one period).
    day = datetime(2026, 1, 1, 9, tzinfo=UTC)
    await make_ladder(client, "far", "glicko2", period="day")
    for player, rating, rd in (("low", 1500 - 5000, 350), ("high", 1500 + 5000, 1)):
        body = {"rating": rating, "deviation": rd, "at": at(0, day)}
        response = await client.put(f"/ladders/far/players/{player}", json=body)
        assert response.status_code == 200, response.text
    upsets = [
        {
            "ladder": "far",
            "id": f"u{n}",
            "played_at": at(1 + n, day),
            "players": [{"player": "low", "rank": 1}, {"player": "high", "rank": 2}],
        }
        for n in range(150)
    ]
    response = await client.post("/games/batch", json={"games": upsets})
    assert response.status_code == 200, response.text
    next_day = {**upsets[0], "id": "next", "played_at": at(DAY + 1, day)}
    for url in ("/games", "/games?dry_run=true"):
        refused = await client.post(url, json=next_day)
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
        error = refused.json()["errors"][0]
        assert error["loc"] == ["players"]
        assert "OverflowError" in error["msg"]
    assert (await client.get("/ladders/far/games/next")).status_code == 404
    assert (await client.get("/ladders/far")).json()["games"] == 150
    predicted = await client.post(
        "/predictions",
        json={"ladder": "far", "players": [{"player": "low"}, {"player": "high"}]},
    )
    assert predicted.status_code == 422, predicted.text
