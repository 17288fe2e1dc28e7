"""Tournaments count in no win/draw/loss statistic (API.md "Lists"): a tournament ladder's
ratings carry event statistics instead (events, best place, top-3 finishes, mean percentile),
every value below counted by hand from the three tournaments."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.helpers import make_ladder, post_game

pytestmark = pytest.mark.anyio


def tournament(tid: str, held_on: str, ranks: list[tuple[str, int]]) -> dict[str, Any]:
    return {
        "ladder": "wdd",
        "id": tid,
        "held_on": held_on,
        "rounds": 2,
        "standings": [{"player": p, "rank": r} for p, r in ranks],
    }


# percentile = (n - rank) / (n - 1)
# t1, n = 3: a 1 -> 2/2 = 1; b 2 -> 1/2 = 0.5; c 3 -> 0/2 = 0
# t2, n = 5: b 1 -> 4/4 = 1; a and c tied 2 -> 3/4 = 0.75; d 4 -> 1/4 = 0.25; e 5 -> 0
# t3, n = 2: a 1 -> 1; d 2 -> 0
T1 = tournament("t1", "2020-01-10", [("a", 1), ("b", 2), ("c", 3)])
T2 = tournament("t2", "2020-02-10", [("b", 1), ("a", 2), ("c", 2), ("d", 4), ("e", 5)])
T3 = tournament("t3", "2020-03-10", [("a", 1), ("d", 2)])

EXPECTED = {
    # events, best place, top-3s, mean percentile
    "a": (3, 1, 3, (1 + 0.75 + 1) / 3),
    "b": (2, 1, 2, (0.5 + 1) / 2),
    "c": (2, 2, 2, (0 + 0.75) / 2),
    "d": (2, 2, 1, (0.25 + 0) / 2),
    "e": (1, 5, 0, 0.0),
}


def as_tuple(stats: dict[str, Any]) -> tuple[int, int | None, int, float | None]:
    return (stats["events"], stats["best_place"], stats["top3"], stats["mean_percentile"])


async def season(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    for body in (T1, T2, T3):
        response = await client.post("/tournaments", json=body)
        assert response.status_code == 201, response.text


async def test_tournaments_are_no_wins_or_losses(client: httpx.AsyncClient) -> None:
    await season(client)
    for player, expected in EXPECTED.items():
        body = (await client.get(f"/ladders/wdd/players/{player}")).json()
        (rating,) = body["ratings"]
        assert (rating["wins"], rating["draws"], rating["losses"]) == (0, 0, 0)
        assert rating["win_rate"] is None
        assert rating["loss_rate"] is None
        assert rating["games"] == expected[0]  # events played
        assert as_tuple(rating["event_statistics"]) == pytest.approx(expected)


async def test_leaderboard_entries_carry_event_statistics(client: httpx.AsyncClient) -> None:
    await season(client)
    board = (await client.get("/ladders/wdd/leaderboard?active_within_days=0")).json()
    assert {e["player"] for e in board["entries"]} == set(EXPECTED)
    for entry in board["entries"]:
        assert entry["win_rate"] is None
        assert as_tuple(entry["event_statistics"]) == pytest.approx(EXPECTED[entry["player"]])
    profile = (await client.get("/players/a")).json()
    assert as_tuple(profile["ratings"][0]["event_statistics"]) == pytest.approx(EXPECTED["a"])


async def test_as_of_and_void(client: httpx.AsyncClient) -> None:
    await season(client)
    # Before t3: a has t1 (1) and t2 (0.75).
    then = (await client.get("/ladders/wdd/players/a?as_of=2020-02-15T00:00:00Z")).json()
    assert as_tuple(then["ratings"][0]["event_statistics"]) == pytest.approx((2, 1, 2, 0.875))
    board = (
        await client.get("/ladders/wdd/leaderboard?active_within_days=0&as_of=2020-02-15T00:00:00Z")
    ).json()
    by = {e["player"]: e for e in board["entries"]}
    assert as_tuple(by["d"]["event_statistics"]) == pytest.approx((1, 4, 0, 0.25))
    # Voiding t3 takes it out of a's and d's statistics.
    assert (await client.delete("/ladders/wdd/tournaments/t3")).status_code == 200
    now = (await client.get("/ladders/wdd/players/a")).json()
    assert as_tuple(now["ratings"][0]["event_statistics"]) == pytest.approx((2, 1, 2, 0.875))


async def test_game_ladders_have_no_event_statistics(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    game = {
        "ladder": "club",
        "id": "g1",
        "played_at": "2020-01-01T00:00:00Z",
        "players": [{"player": "x", "rank": 1}, {"player": "y", "rank": 2}],
    }
    await post_game(client, game)
    rating = (await client.get("/ladders/club/players/y")).json()["ratings"][0]
    assert (rating["losses"], rating["loss_rate"], rating["event_statistics"]) == (1, 1.0, None)
    board = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    assert [e["event_statistics"] for e in board["entries"]] == [None, None]
