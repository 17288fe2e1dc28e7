"""The ranked board of now reads only its top rows where it can (services/leaderboards.py,
``_board_ranked_top``): its answers must be those of reading every rating
(``_board_ranked``'s other path, the independent implementation here), and where every
player has decayed in full it must stop after its first rows. Decay runs on the clock, so
the board's "now" is pinned for both reads."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.repositories.ratings import RatingRepository
from app.services import leaderboards
from tests.helpers import make_ladder, post_game

pytestmark = pytest.mark.anyio

ZERO_K = {"after_days": 7, "points_per_week": 50, "max_points": 250}
TIERS = [{"name": "Bronze"}, {"name": "Silver", "min": 1500}, {"name": "Gold", "min": 1530}]
NOW = datetime.now(UTC).replace(microsecond=0)


def _game(ladder: str, n: int, winner: str, loser: str, days_ago: float) -> dict[str, Any]:
    at = (NOW - timedelta(days=days_ago)).isoformat().replace("+00:00", "Z")
    return {
        "ladder": ladder,
        "id": f"g{n}",
        "played_at": at,
        "players": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
    }


async def _board(client: httpx.AsyncClient, ladder: str, **query: Any) -> dict[str, Any]:
    response = await client.get(f"/ladders/{ladder}/leaderboard", params=query)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


@pytest.fixture
def pinned(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setattr(leaderboards, "now", lambda: NOW)
    return monkeypatch


async def _both(
    client: httpx.AsyncClient, pinned: pytest.MonkeyPatch, ladder: str, **query: Any
) -> dict[str, Any]:
    """The board read from its top rows, asserted equal to the board of every rating."""
    fast = await _board(client, ladder, **query)
    with pinned.context() as patch:
        patch.setattr(leaderboards, "_board_ranked_top", lambda *args, **kwargs: None)
        every = await _board(client, ladder, **query)
    assert fast == every
    return fast


async def test_an_idle_leader_falls_below_an_active_player(
    client: httpx.AsyncClient, pinned: pytest.MonkeyPatch
) -> None:
    """a beats b 60 days ago (1516 / 1484, K 32), then beats b again 59 days ago: 1516 +
    32·(1 - 1/(1 + 10^(-32/400))) = 1530.53. c beats d 1 day ago: 1516. Read now, a has been
    idle 59 days, past the 7 allowed by 52: 50·52/7 = 371 points, capped at 250, so 1280.53;
    c is not idle long enough to decay. The first entry is c, though a's stored rating
    is the best."""
    await make_ladder(client, "zk", "elo", decay=ZERO_K, divisions=TIERS)
    await post_game(client, _game("zk", 1, "a", "b", 60))
    await post_game(client, _game("zk", 2, "a", "b", 59))
    await post_game(client, _game("zk", 3, "c", "d", 1))
    first = await _both(client, pinned, "zk", limit=1)
    assert first["total"] == 4
    [entry] = first["entries"]
    assert (entry["player"], entry["position"], entry["rating"]) == ("c", 1, 1516.0)
    assert entry["division"] == "Silver"
    board = await _both(client, pinned, "zk")
    expected_a = 1516 + 32 * (1 - 1 / (1 + 10 ** (-32 / 400))) - 250
    assert [e["player"] for e in board["entries"]] == ["c", "d", "a", "b"]
    a = board["entries"][2]
    assert a["rating"] == pytest.approx(expected_a, abs=1e-9)
    assert a["decay"]["idle_days"] == pytest.approx(59.0, abs=1e-9)
    assert a["division"] == "Bronze"


@pytest.mark.parametrize("recent", [True, False], ids=["some active", "all idle"])
async def test_the_top_rows_give_the_board_of_every_rating(
    client: httpx.AsyncClient, pinned: pytest.MonkeyPatch, recent: bool
) -> None:
    """120 seeded games among 40 players over 0-40 days ago (every decay from none to the
    cap), or 50-90 days ago (every player at the cap): every page, with and without the
    provisional players, the active filter and a minimum of games, as reading them all."""
    await make_ladder(client, "zk", "elo", decay=ZERO_K, divisions=TIERS, placement_games=3)
    rng = random.Random(35)
    players = [f"p{n:02d}" for n in range(40)]
    days = sorted((rng.uniform(0, 40) if recent else rng.uniform(50, 90)) for _ in range(120))
    for n, ago in enumerate(reversed(days)):
        winner, loser = rng.sample(players, 2)
        await post_game(client, _game("zk", n, winner, loser, ago))
    for query in (
        {"limit": 1},
        {"limit": 5},
        {"limit": 5, "offset": 3},
        {"limit": 30, "offset": 20},
        {"limit": 5, "include_provisional": "true"},
        {"limit": 4, "active_within_days": 20 if recent else 70},
        {"limit": 4, "min_games": 5},
    ):
        board = await _both(client, pinned, "zk", **query)
        assert board["entries"], query


async def test_a_board_of_players_all_at_the_cap_reads_only_its_first_rows(
    client: httpx.AsyncClient, pinned: pytest.MonkeyPatch
) -> None:
    """30 players set to 1500 + n by adjustments 100 days ago: every one has lost the whole
    250, so the stored order is the order read, and the first rows read (the page and 16
    more) settle the page: 1279 and 1278."""
    await make_ladder(client, "zk", "elo", decay=ZERO_K)
    at = (NOW - timedelta(days=100)).isoformat().replace("+00:00", "Z")
    for n in range(30):
        response = await client.put(
            f"/ladders/zk/players/p{n:02d}", json={"rating": 1500 + n, "at": at}
        )
        assert response.status_code == 200, response.text
    read: list[int] = []
    scan = RatingRepository.rated_by_value

    def counted(self: RatingRepository, *args: Any, **kwargs: Any) -> Any:
        rows = scan(self, *args, **kwargs)
        read.append(len(rows))
        return rows

    pinned.setattr(RatingRepository, "rated_by_value", counted)
    board = await _both(client, pinned, "zk", limit=2)
    assert board["total"] == 30
    assert [(e["player"], e["rating"]) for e in board["entries"]] == [
        ("p29", 1279.0),
        ("p28", 1278.0),
    ]
    assert read == [2 + 16]
