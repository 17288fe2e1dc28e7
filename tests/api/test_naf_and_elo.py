"""NAF per-race ratings with the event's K-value, and Elo free-for-all, through the API."""

from __future__ import annotations

import math

import httpx
import pytest

from tests.helpers import at, by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio


def naf_game(
    game_id: str, winner: tuple[str, str], loser: tuple[str, str], **event: object
) -> dict[str, object]:
    return {
        "ladder": "naf",
        "id": game_id,
        "played_at": at(len(game_id)),
        "event": event,
        "players": [
            {"player": winner[0], "faction": winner[1], "rank": 1},
            {"player": loser[0], "faction": loser[1], "rank": 2},
        ],
    }


async def test_naf_k_value_and_one_rating_per_race(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "naf", "naf")
    # Seed 004: K = 2 * sqrt(min(coaches, 32)) for a non-major; E = 1/2 for equal ratings.
    out = await post_game(client, naf_game("g1", ("ann", "Orc"), ("bob", "Elf"), coaches=48))
    k_minor = 2 * math.sqrt(32)
    assert by_player(out["changes"])["ann"]["delta"] == pytest.approx(k_minor * (1 - 0.5))
    assert by_player(out["changes"])["ann"]["faction"] == "Orc"
    # A major counts as 60 coaches even with 12; ann plays another race, starting at 150.
    out = await post_game(
        client, naf_game("g22", ("ann", "Dwarf"), ("cat", "Human"), coaches=12, major=True)
    )
    k_major = 2 * math.sqrt(60)
    assert by_player(out["changes"])["ann"]["delta"] == pytest.approx(k_major * 0.5)
    player = (await client.get("/ladders/naf/players/ann")).json()
    ratings = {r["faction"]: r["rating"] for r in player["ratings"]}
    assert ratings == pytest.approx({"Orc": 150 + k_minor / 2, "Dwarf": 150 + k_major / 2})
    # Unequal ratings: bob (Elf, 150 - k_minor/2) beats ann's Orc (150 + k_minor/2), 10 coaches.
    out = await post_game(client, naf_game("g333", ("bob", "Elf"), ("ann", "Orc"), coaches=10))
    r_bob, r_ann = 150 - k_minor / 2, 150 + k_minor / 2
    expected_bob = 1 / (10 ** ((r_ann - r_bob) / 150) + 1)
    k = 2 * math.sqrt(10)
    assert by_player(out["changes"])["bob"]["delta"] == pytest.approx(k * (1 - expected_bob))
    board = (await client.get("/ladders/naf/leaderboard?faction=Orc")).json()
    assert [e["player"] for e in board["entries"]] == ["ann"]


async def test_elo_multiplayer_is_k_over_n_minus_1_per_duel(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    body = {
        "ladder": "club",
        "id": "ffa",
        "played_at": at(),
        "players": [
            {"player": "a", "rank": 1},
            {"player": "b", "rank": 2},
            {"player": "c", "rank": 2},
        ],
    }
    out = await post_game(client, body)
    changes = by_player(out["changes"])
    k_per_duel = 32 / (3 - 1)
    assert changes["a"]["delta"] == pytest.approx(k_per_duel * 2 * (1 - 0.5))
    # b and c lose to a and draw each other: (0 - 1/2) + (1/2 - 1/2).
    assert changes["b"]["delta"] == pytest.approx(k_per_duel * -0.5)
    assert sum(c["delta"] for c in out["changes"]) == pytest.approx(0.0, abs=1e-9)
