"""Ranked play through HTTP (API.md "Ranked play", SYSTEMS.md "Ranked play"): placement and
provisional status, decay read now and as of a time and applied before a player's next game,
divisions and their filter. The numbers are worked by hand in the comments."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.helpers import make_ladder, post_game

pytestmark = pytest.mark.anyio

ZERO_K = {"after_days": 7, "points_per_week": 50, "max_points": 250}
TIERS = [{"name": "Bronze"}, {"name": "Silver", "min": 1500}, {"name": "Gold", "min": 1700}]


def _time(days_ago: float) -> str:
    # Now as each call sees it: decay runs on the wall clock, and a module-level "now" would
    # be minutes old by the time a long run reaches a test.
    now = datetime.now(UTC).replace(microsecond=0)
    return (now - timedelta(days=days_ago)).isoformat().replace("+00:00", "Z")


def _game(ladder: str, game_id: str, winner: str, loser: str, days_ago: float) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": game_id,
        "played_at": _time(days_ago),
        "players": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
    }


async def _board(client: httpx.AsyncClient, ladder: str, **query: Any) -> list[dict[str, Any]]:
    response = await client.get(f"/ladders/{ladder}/leaderboard", params=query)
    assert response.status_code == 200, response.text
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


async def test_placement_keeps_new_players_off_the_board(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "ranked", "elo", placement_games=2)
    await post_game(client, _game("ranked", "g1", "a", "b", 3))
    await post_game(client, _game("ranked", "g2", "a", "c", 2))
    # a has played 2 games: placed; b and c one each: provisional.
    assert [(e["player"], e["position"]) for e in await _board(client, "ranked")] == [("a", 1)]
    # c lost to a at 1516: 1500 - 32 * 1 / (1 + 10^(16/400)) = 1484.74, above b's 1484.
    everyone = await _board(client, "ranked", include_provisional="true")
    assert [(e["player"], e["provisional"]) for e in everyone] == [
        ("a", False), ("c", True), ("b", True)
    ]  # fmt: skip
    b = (await client.get("/ladders/ranked/players/b")).json()["ratings"][0]
    assert (b["provisional"], b["position"]) == (True, None)
    a = (await client.get("/ladders/ranked/players/a")).json()["ratings"][0]
    assert (a["provisional"], a["position"]) == (False, 1)


async def test_zero_k_decay_is_read_and_is_where_the_next_game_starts(
    client: httpx.AsyncClient,
) -> None:
    """a beats b 14 days ago: 1516 / 1484 (K 32, equal ratings). Read now, both have been idle
    14 days, a week past the 7 allowed: 50 points a week, so 50 off each (1466, 1434). a's
    next game (now, against a new c at 1500) starts from 1466: E = 1 / (1 + 10^(34/400)), and
    a win gains 32 (1 - E)."""
    await make_ladder(client, "zk", "elo", decay=ZERO_K)
    await post_game(client, _game("zk", "old", "a", "b", 14))
    a = (await client.get("/ladders/zk/players/a")).json()["ratings"][0]
    assert a["rating"] == pytest.approx(1466.0, abs=0.01)
    assert a["decay"]["rating"] == 1516.0
    assert a["decay"]["idle_days"] == pytest.approx(14.0, abs=0.01)
    then = (await client.get("/ladders/zk/players/a", params={"as_of": _time(10)})).json()
    assert then["ratings"][0]["rating"] == 1516.0  # 4 days idle as of then: within the 7
    assert then["ratings"][0]["decay"] is None
    assert [e["player"] for e in await _board(client, "zk")] == ["a", "b"]
    new = await post_game(client, _game("zk", "new", "a", "c", 0))
    change = next(c for c in new["changes"] if c["player"] == "a")
    expected = 1 / (1 + 10 ** ((1500 - 1466) / 400))
    assert change["rating_before"] == pytest.approx(1466.0, abs=0.01)
    assert change["rating_after"] == pytest.approx(1466 + 32 * (1 - expected), abs=0.01)
    assert change["details"]["decay"]["rating"] == 1516.0
    assert change["details"]["decay"]["idle_days"] == pytest.approx(14.0, abs=0.01)


async def test_lichess_deviation_growth_makes_an_idle_player_provisional(
    client: httpx.AsyncClient,
) -> None:
    """An adjustment a year ago sets RD 60, volatility 0.06. Read now, RD has grown as 0.21436
    empty periods a day: sqrt((60/173.7178)^2 + 0.06^2 * 0.21436 * 365) * 173.7178 = 110.0,
    at least lichess's 110: provisional. As of a day after the adjustment: RD 60.3, placed."""
    await make_ladder(
        client,
        "li",
        "glicko2",
        decay={"periods_per_day": 0.21436},
        provisional_deviation=110,
    )
    adjusted = await client.put(
        "/ladders/li/players/x",
        json={"rating": 1800, "deviation": 60, "volatility": 0.06, "at": _time(365)},
    )
    assert adjusted.status_code == 200, adjusted.text
    now = (await client.get("/ladders/li/players/x")).json()["ratings"][0]
    assert now["deviation"] == pytest.approx(110.0, abs=0.01)
    assert now["provisional"] is True
    assert now["decay"]["deviation"] == 60.0
    early = (await client.get("/ladders/li/players/x", params={"as_of": _time(364)})).json()
    assert early["ratings"][0]["deviation"] < 61
    assert early["ratings"][0]["provisional"] is False
    assert await _board(client, "li") == []
    listed = await _board(client, "li", include_provisional="true")
    assert listed[0]["deviation"] == pytest.approx(110.0, abs=0.01)


async def test_divisions_and_their_filter(client: httpx.AsyncClient) -> None:
    """a 1516 and b 1484 after one game (K 32): Silver (from 1500) and Bronze."""
    await make_ladder(client, "tiers", "elo", divisions=TIERS)
    await post_game(client, _game("tiers", "g1", "a", "b", 1))
    board = await _board(client, "tiers")
    assert [(e["player"], e["division"]) for e in board] == [("a", "Silver"), ("b", "Bronze")]
    silver = await _board(client, "tiers", division="Silver")
    assert [(e["player"], e["position"]) for e in silver] == [("a", 1)]
    refused = await client.get("/ladders/tiers/leaderboard", params={"division": "Wood"})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["loc"] == ["query", "division"]


@pytest.mark.parametrize(
    ("system", "params", "field"),
    [
        ("fundox", {"decay": ZERO_K}, "decay"),
        ("elo", {"decay": {"periods_per_day": 1}}, "decay"),
        ("elo", {"provisional_deviation": 110}, "provisional_deviation"),
        ("glicko2", {"period": "day", "decay": {"periods_per_day": 1}}, "decay"),
        ("elo", {"divisions": [{"name": "A", "min": 1}]}, "divisions"),
        ("elo", {"placement_games": -1}, "placement_games"),
    ],
)
async def test_ranked_play_parameters_are_checked(
    client: httpx.AsyncClient, system: str, params: dict[str, Any], field: str
) -> None:
    response = await client.post("/ladders", json={"id": "x", "system": system, "params": params})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["params", field]


async def test_systems_describe_ranked_play(client: httpx.AsyncClient) -> None:
    systems = {s["id"]: s for s in (await client.get("/systems")).json()}
    assert {"placement_games", "decay", "divisions"} <= systems["elo"]["params"].keys()
    assert "provisional_deviation" in systems["glicko2"]["params"]
    assert "provisional_deviation" not in systems["elo"]["params"]
    assert "placement_games" not in systems["dptr"]["params"]
