"""POST /games on a Fundox ladder: the seed's figures through the whole service."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers import at, by_player, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: Seed 003: four equal players, the winner takes 8 from each loser.
EQUAL_PAIR_AMOUNT = 16 / (1 + 10 ** (0 / 800))


async def test_four_equal_players_winner_gains_24_each_loser_pays_8(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "fundox")
    out = await post_game(client, game("club", "g1", {"a": 1, "b": 2, "c": 2, "d": 2}))
    changes = by_player(out["changes"])
    assert changes["a"]["delta"] == pytest.approx(3 * EQUAL_PAIR_AMOUNT)
    assert changes["a"]["delta"] == pytest.approx(24.0)
    for loser in "bcd":
        assert changes[loser]["rating_before"] == 1600.0
        assert changes[loser]["delta"] == pytest.approx(-8.0)
    assert out["seq"] > 0
    assert out["rated"] is True


async def test_seed_figures_2000_vs_1600(client: httpx.AsyncClient) -> None:
    """Seed 003: 2000 beats 1600 -> +-3.84; 1600 beats 2000 -> +-12.16."""
    await make_ladder(client, "club", "fundox")
    for player, rating in (("strong", 2000.0), ("weak", 1600.0)):
        response = await client.put(
            f"/ladders/club/players/{player}", json={"rating": rating, "at": at(-10)}
        )
        assert response.status_code == 200, response.text
    body = game("club", "g1", {"strong": 1, "weak": 2})
    preview = (await client.post("/games?dry_run=true", json=body)).json()
    assert by_player(preview["changes"])["strong"]["delta"] == pytest.approx(3.84, abs=0.005)
    upset = game("club", "g2", {"strong": 2, "weak": 1})
    out = await post_game(client, upset)
    changes = by_player(out["changes"])
    assert changes["weak"]["delta"] == pytest.approx(12.16, abs=0.005)
    assert changes["strong"]["delta"] == pytest.approx(-12.16, abs=0.005)
    # The dry run stored nothing: g1 does not exist.
    assert (await client.get("/ladders/club/games/g1")).status_code == 404


async def test_idempotent_repeat_and_conflict(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    body = game("club", "g1", {"a": 1, "b": 2})
    first = await client.post("/games", json=body)
    assert first.status_code == 201
    again = await client.post("/games", json=body)
    assert again.status_code == 200
    assert again.json() == first.json()
    player = (await client.get("/ladders/club/players/a")).json()
    assert player["ratings"][0]["games"] == 1
    different = game("club", "g1", {"a": 2, "b": 1})
    conflict = await client.post("/games", json=different)
    assert conflict.status_code == 409
    assert conflict.headers["content-type"].startswith("application/problem+json")


async def test_unrated_game_is_stored_but_changes_nothing(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    out = await post_game(client, game("club", "g1", {"a": 1, "b": 2}, rated=False))
    assert all(c["delta"] == 0 for c in out["changes"])
    rating = (await client.get("/ladders/club/players/a")).json()["ratings"][0]
    assert rating["rating"] == 1600.0
    assert rating["games"] == 0
    history = (await client.get("/ladders/club/players/a/history")).json()
    assert history["total"] == 1
    assert history["entries"][0]["id"] == "g1"


async def test_statistics_count_rated_games_only(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"a": 2, "b": 1}, minutes=2))
    await post_game(client, game("club", "g3", {"a": 1, "b": 2, "c": 2}, minutes=3))
    await post_game(client, game("club", "g4", {"a": 2, "b": 1}, minutes=4, rated=False))
    rating = (await client.get("/ladders/club/players/a")).json()["ratings"][0]
    assert (rating["games"], rating["wins"], rating["losses"], rating["draws"]) == (3, 2, 1, 0)
    assert rating["win_rate"] == pytest.approx(2 / 3)
    assert rating["loss_rate"] == pytest.approx(1 / 3)


async def test_game_on_unknown_ladder_is_404(client: httpx.AsyncClient) -> None:
    response = await client.post("/games", json=game("nope", "g1", {"a": 1, "b": 2}))
    assert response.status_code == 404
    assert response.json()["status"] == 404


async def test_dry_run_of_a_stored_game_returns_the_stored_response(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "fundox")
    body = game("club", "g1", {"a": 1, "b": 2})
    stored = await post_game(client, body)
    again = await client.post("/games?dry_run=true", json=body)
    assert again.status_code == 200
    assert again.json() == stored
    changed = game("club", "g1", {"a": 2, "b": 1})
    assert (await client.post("/games?dry_run=true", json=changed)).status_code == 409
