"""Parameter changes, what-if, as-of reads and batches."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers import at, by_player, game, make_ladder, post_game

pytestmark = pytest.mark.anyio


def elo_delta(k: float, winner: float, loser: float) -> float:
    return k * (1 - 1 / (1 + 10 ** ((loser - winner) / 400)))


async def test_patch_params_recomputes_everything(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"a": 1, "b": 2}, minutes=2))
    response = await client.patch("/ladders/club", json={"params": {"k": 16}})
    assert response.status_code == 200, response.text
    out = response.json()
    assert out["params"]["k"] == 16.0
    assert out["recomputed_events"] == 2
    first = elo_delta(16, 1500, 1500)
    second = elo_delta(16, 1500 + first, 1500 - first)
    a = (await client.get("/ladders/club/players/a")).json()["ratings"][0]
    assert a["rating"] == pytest.approx(1500 + first + second)
    bad = await client.patch("/ladders/club", json={"params": {"k": 0}})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["loc"] == ["params", "k"]


async def test_dptr_cutoff_moved_by_the_federation(client: httpx.AsyncClient) -> None:
    """Seed 001 says 1996, seed 000 says 2001: a 1998 event counts only under 1996."""
    await make_ladder(client, "wdd", "dptr")
    body = {
        "ladder": "wdd",
        "id": "t98",
        "held_on": "1998-05-01",
        "rounds": 2,
        "standings": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}],
    }
    assert (await client.post("/tournaments", json=body)).status_code == 201
    before = (await client.get("/ladders/wdd/players/a")).json()["ratings"][0]["rating"]
    assert before == 40
    whatif = await client.post("/ladders/wdd/whatif", json={"params": {"cutoff": "1996-01-01"}})
    assert whatif.status_code == 200, whatif.text
    entries = {e["player"]: e for e in whatif.json()["entries"]}
    value = 2 / 3.5 + 2
    expected = 40 + value / 100 * ((2 + 0.5 - 1) / 2 * 100 - 40)
    assert entries["a"]["proposed"]["rating"] == pytest.approx(expected)
    assert entries["a"]["current"]["rating"] == 40
    assert entries["a"]["rating_difference"] == pytest.approx(expected - 40)
    # What-if stored nothing; the PATCH does.
    assert (await client.get("/ladders/wdd/players/a")).json()["ratings"][0]["rating"] == 40
    await client.patch("/ladders/wdd", json={"params": {"cutoff": "1996-01-01"}})
    after = (await client.get("/ladders/wdd/players/a")).json()["ratings"][0]["rating"]
    assert after == pytest.approx(expected)


async def test_whatif_other_system_side_by_side(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2, "c": 2}, minutes=1))
    out = (await client.post("/ladders/club/whatif", json={"system": "elo"})).json()
    assert out["proposed"]["system"] == "elo"
    assert out["events"] == 1
    entries = {e["player"]: e for e in out["entries"]}
    # Elo free-for-all with K/(N-1): a beats b and c, each duel 16 x (1 - 1/2).
    assert entries["a"]["proposed"]["rating"] == pytest.approx(1500 + 2 * 16 * 0.5)
    assert entries["a"]["current"]["rating"] == pytest.approx(1616)
    assert entries["a"]["current"]["position"] == entries["a"]["proposed"]["position"] == 1
    incompatible = await client.post("/ladders/club/whatif", json={"system": "dptr"})
    assert incompatible.status_code == 422
    naf = await client.post("/ladders/club/whatif", json={"system": "naf"})
    assert naf.status_code == 422  # NAF needs two players with races and an event


async def test_as_of_reads(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"b": 1, "a": 2}, minutes=3))
    between = at(2)
    then = (await client.get(f"/ladders/club/players/a?as_of={between}")).json()["ratings"][0]
    assert then["rating"] == pytest.approx(1608)
    assert then["games"] == 1
    board = (
        await client.get(f"/ladders/club/leaderboard?as_of={between}&active_within_days=0")
    ).json()
    assert [(e["player"], e["position"]) for e in board["entries"]] == [("a", 1), ("b", 2)]
    history = (await client.get(f"/ladders/club/players/a/history?as_of={between}")).json()
    assert [e["id"] for e in history["entries"]] == ["g1"]
    before_all = await client.get(f"/ladders/club/players/a?as_of={at(0)}")
    assert before_all.status_code == 404
    naive = await client.get("/ladders/club/players/a?as_of=2026-01-01T00:00:00")
    assert naive.status_code == 422


async def test_batch_is_atomic_and_idempotent(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    games = [game("club", f"g{i}", {"a": 1, "b": 2}, minutes=i) for i in range(5)]
    bad = [*games, game("club", "g9", {"a": 1, "b": 2, "c": 2, "d": 2, "e": 2})]
    refused = await client.post("/games/batch", json={"games": bad})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["loc"][:2] == ["games", 5]
    assert (await client.get("/ladders/club")).json()["games"] == 0
    response = await client.post("/games/batch", json={"games": games})
    assert response.status_code == 200, response.text
    assert response.json()["created"] == 5
    again = (await client.post("/games/batch", json={"games": [*games, games[0]]})).json()
    assert (again["created"], again["existing"]) == (0, 6)
    # The batch's result equals posting the same games one by one.
    await make_ladder(client, "solo", "fundox")
    for body in games:
        await post_game(client, {**body, "ladder": "solo"})
    batched = (await client.get("/ladders/club/players/a")).json()["ratings"][0]["rating"]
    single = (await client.get("/ladders/solo/players/a")).json()["ratings"][0]["rating"]
    assert batched == single
    changed = [{**games[0], "players": [{"player": "a", "rank": 2}, {"player": "b", "rank": 1}]}]
    assert (await client.post("/games/batch", json={"games": changed})).status_code == 409


async def test_unrated_void_keeps_history_visible(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    out = await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    assert by_player(out["changes"])["a"]["delta"] == pytest.approx(8)
    await client.delete("/ladders/club/games/g1")
    stored = (await client.get("/ladders/club/games/g1")).json()
    assert stored["voided"] is True
    assert stored["changes"] == []
    await post_game(client, game("club", "g2", {"a": 1, "b": 2}, minutes=2))
    history = (await client.get("/ladders/club/players/a/history")).json()
    assert [(e["id"], e["voided"]) for e in history["entries"]] == [("g1", True), ("g2", False)]
    assert history["total"] == 2
    # The void changed nothing now: g2 starts from the initial rating.
    assert history["entries"][1]["rating_before"] == 1600
