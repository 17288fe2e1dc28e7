from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

DAY_MINUTES = 24 * 60


async def _seed(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    # "old" played 40 days ago only; the rest recently.
    old = datetime.now(UTC) - timedelta(days=40)
    await post_game(
        client,
        {
            "ladder": "club",
            "id": "old-game",
            "played_at": old.isoformat().replace("+00:00", "Z"),
            "players": [{"player": "old", "rank": 1}, {"player": "zed", "rank": 2}],
        },
    )
    await post_game(client, game("club", "g1", {"amy": 1, "bea": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"cal": 1, "cid": 2}, minutes=2))
    await post_game(client, game("club", "g3", {"zed": 1, "dan": 2}, minutes=3))


async def test_fundox_default_shows_only_active_in_30_days(client: httpx.AsyncClient) -> None:
    await _seed(client)
    board = (await client.get("/ladders/club/leaderboard")).json()
    names = [e["player"] for e in board["entries"]]
    assert "old" not in names
    assert board["total"] == 6
    everyone = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    assert everyone["total"] == 7
    assert "old" in [e["player"] for e in everyone["entries"]]


async def test_positions_by_rating_whatever_the_sort(client: httpx.AsyncClient) -> None:
    await _seed(client)
    by_rating = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    ratings = [e["rating"] for e in by_rating["entries"]]
    assert ratings == sorted(ratings, reverse=True)
    position = {e["player"]: e["position"] for e in by_rating["entries"]}
    by_name = (await client.get("/ladders/club/leaderboard?active_within_days=0&sort=name")).json()
    assert [e["player"] for e in by_name["entries"]] == sorted(position)
    assert {e["player"]: e["position"] for e in by_name["entries"]} == position
    # bea and cid each lost once to a 1600 player -> 1592 both, one shared position.
    assert position["bea"] == position["cid"]
    assert position["amy"] == position["cal"] == 1
    desc_name = (
        await client.get("/ladders/club/leaderboard?active_within_days=0&sort=name&order=desc")
    ).json()
    assert [e["player"] for e in desc_name["entries"]] == sorted(position, reverse=True)


async def test_games_sort_min_games_and_paging(client: httpx.AsyncClient) -> None:
    await _seed(client)
    board = (
        await client.get("/ladders/club/leaderboard?active_within_days=0&sort=games&min_games=2")
    ).json()
    assert {e["player"] for e in board["entries"]} == {"zed"}
    assert all(e["games"] == 2 for e in board["entries"])
    page = (
        await client.get("/ladders/club/leaderboard?active_within_days=0&limit=2&offset=2")
    ).json()
    assert page["total"] == 7
    assert len(page["entries"]) == 2
    bad = await client.get("/ladders/club/leaderboard?limit=501")
    assert bad.status_code == 422
    bad_sort = await client.get("/ladders/club/leaderboard?sort=elo")
    assert bad_sort.status_code == 422
