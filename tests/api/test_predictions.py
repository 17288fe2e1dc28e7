"""POST /predictions: the lobby numbers equal what the game would do."""

from __future__ import annotations

import math

import httpx
import pytest

from tests.helpers import at, by_player, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: Seed 003's lobby example: "earn 10.2 for a win and lose 5.8 for a loss" against Tweedledum.
SEED_WIN, SEED_LOSS = 10.2, 5.8


async def test_fundox_seed_lobby_example(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    # The gap that gives +10.2 for a win: 10.2 = 16 / (1 + 10^(d/800)).
    gap = 800 * math.log10(16 / SEED_WIN - 1)
    await client.put("/ladders/club/players/alice", json={"rating": 1600 + gap, "at": at(-1)})
    await client.put("/ladders/club/players/tweedledum", json={"rating": 1600, "at": at(-1)})
    body = {"ladder": "club", "players": [{"player": "alice"}, {"player": "tweedledum"}]}
    response = await client.post("/predictions", json=body)
    assert response.status_code == 200, response.text
    out = response.json()
    pair = next(p for p in out["pairs"] if p["player"] == "alice")
    assert pair["if_win"] == pytest.approx(SEED_WIN, abs=0.05)
    assert pair["if_loss"] == pytest.approx(-SEED_LOSS, abs=0.05)
    assert pair["if_draw"] is None  # Fundox draws change nothing by default
    alice = next(p for p in out["players"] if p["player"] == "alice")
    assert alice["win_probability"] == pytest.approx(1 / (1 + 10 ** (-gap / 800)))
    # The lobby's amounts equal the game's.
    played = await post_game(client, game("club", "g1", {"alice": 1, "tweedledum": 2}))
    assert by_player(played["changes"])["alice"]["delta"] == pytest.approx(pair["if_win"])


async def test_table_prediction_unknown_players_and_loss_range(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}))
    body = {"ladder": "club", "players": [{"player": "a"}, {"player": "b"}, {"player": "new"}]}
    out = (await client.post("/predictions", json=body)).json()
    players = {p["player"]: p for p in out["players"]}
    assert players["new"]["rating"] == 1500.0
    # Luce's rule over Elo odds: probabilities of the three sum to 1.
    assert sum(p["win_probability"] for p in out["players"]) == pytest.approx(1.0)
    # The loss range is over which other player wins; new loses something either way.
    assert players["new"]["if_loss"]["min"] <= players["new"]["if_loss"]["max"] < 0
    assert players["new"]["if_draw"] is not None
    assert len(out["pairs"]) == 6
    # Elo pair: a (1516) vs b (1484), K = 32.
    expected = 1 / (1 + 10 ** ((1484 - 1516) / 400))
    pair = next(p for p in out["pairs"] if (p["player"], p["opponent"]) == ("a", "b"))
    assert pair["win_probability"] == pytest.approx(expected)
    assert pair["if_win"] == pytest.approx(32 * (1 - expected))
    assert pair["if_draw"] == pytest.approx(32 * (0.5 - expected))
    # The table's quality: 1 - |2p - 1| of its least even pair, a (1516) against b (1484)
    # (new, at 1500, is 16 points from either).
    assert out["quality"] == pytest.approx(1 - abs(2 * expected - 1))


async def test_prediction_validation(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "naf", "naf")
    body = {
        "ladder": "naf",
        "players": [{"player": "a", "faction": "Orc"}, {"player": "b", "faction": "Elf"}],
    }
    missing_event = await client.post("/predictions", json=body)
    assert missing_event.status_code == 422
    assert missing_event.json()["errors"][0]["loc"] == ["event", "coaches"]
    ok = await client.post("/predictions", json={**body, "event": {"coaches": 32}})
    assert ok.status_code == 200
    assert ok.json()["pairs"][0]["if_win"] == pytest.approx(2 * math.sqrt(32) * 0.5)


async def test_a_missing_centres_names_the_predicted_player(client: httpx.AsyncClient) -> None:
    """DAANZ needs each player's centres: the 422 points into the prediction's own body."""
    await make_ladder(client, "daanz-lobby", "daanz")
    body = {
        "ladder": "daanz-lobby",
        "players": [{"player": "a", "centres": 7}, {"player": "b"}],
        "size": 10,
        "placements": [1],
    }
    refused = await client.post("/predictions", json=body)
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["loc"] == ["players", 1, "centres"]


async def test_draws_are_known_from_the_engine(client: httpx.AsyncClient) -> None:
    """A draw between equal players moves nothing under Elo, yet Elo rates draws: the amount is
    0, not null. Under Fundox's default draw_policy "none" a shared first place is not rated:
    null; under "pairwise_half" it is, even between equal players."""
    table = [{"player": "a"}, {"player": "b"}, {"player": "c"}]
    await make_ladder(client, "elo-club", "elo")
    await make_ladder(client, "fundox-none", "fundox")
    await make_ladder(client, "fundox-half", "fundox", draw_policy="pairwise_half")
    expected = {"elo-club": 0.0, "fundox-none": None, "fundox-half": 0.0}
    for ladder, draw in expected.items():
        response = await client.post("/predictions", json={"ladder": ladder, "players": table})
        assert response.status_code == 200, response.text
        out = response.json()
        assert [p["if_draw"] for p in out["players"]] == [draw] * 3, ladder
        assert [p["if_draw"] for p in out["pairs"]] == [draw] * 6, ladder
