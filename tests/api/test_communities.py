"""Communities (API.md "Communities"): every ladder belongs to one, player ids and profiles are
per community, and a key limited to communities or ladders reads and changes only its own
(issue 37: a key of one ladder renamed another community's player; an import renamed them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import game, post_game

pytestmark = pytest.mark.anyio


async def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


async def _ladder(client: httpx.AsyncClient, ladder: str, community: str | None) -> Any:
    body: dict[str, Any] = {"id": ladder, "system": "elo"}
    if community is not None:
        body["community"] = community
    return await _ok(await client.post("/ladders", json=body), 201)


async def _key(client: httpx.AsyncClient, **body: Any) -> dict[str, str]:
    created = await _ok(await client.post("/keys", json={"name": "k", **body}), 201)
    return {"Authorization": f"Bearer {created['key']}"}


async def _two_communities(client: httpx.AsyncClient) -> None:
    """``site`` (ladder site-l) and ``fed`` (ladder fed-l), each with its own player p1."""
    await _ladder(client, "site-l", "site")
    await _ladder(client, "fed-l", "fed")
    await post_game(client, game("site-l", "g1", {"p1": 1, "p2": 2}, minutes=1))
    await post_game(client, game("fed-l", "g1", {"p2": 1, "p1": 2}, minutes=1))
    await _ok(await client.put("/players/p1?community=site", json={"name": "Site One"}))
    await _ok(await client.put("/players/p1?community=fed", json={"name": "Fed One"}))


async def test_a_ladder_belongs_to_one_community(client: httpx.AsyncClient) -> None:
    assert (await _ladder(client, "plain", None))["community"] == "default"
    created = await _ladder(client, "dip", "diplomacy-fed")
    assert created["community"] == "diplomacy-fed"
    assert (await _ok(await client.get("/ladders/dip")))["community"] == "diplomacy-fed"
    listed = (await _ok(await client.get("/ladders")))["ladders"]
    assert {lad["id"]: lad["community"] for lad in listed} == {
        "dip": "diplomacy-fed",
        "plain": "default",
    }
    # Fixed once created: a PATCH naming it is refused, naming the field.
    problem = await _ok(await client.patch("/ladders/dip", json={"community": "x"}), 422)
    assert [e["loc"] for e in problem["errors"]] == [["community"]]
    problem = await _ok(
        await client.post("/ladders", json={"id": "bad", "system": "elo", "community": "a b"}), 422
    )
    assert [e["loc"] for e in problem["errors"]] == [["community"]]


async def test_the_same_id_in_two_communities_is_two_players(client: httpx.AsyncClient) -> None:
    await _two_communities(client)
    site = await _ok(await client.get("/players/p1?community=site"))
    fed = await _ok(await client.get("/players/p1?community=fed"))
    # Elo, K 32, both at 1500: the winner gains 32 * (1 - 0.5) = 16.
    assert (site["name"], [(r["ladder"], r["rating"]) for r in site["ratings"]]) == (
        "Site One",
        [("site-l", 1516)],
    )
    assert (fed["name"], [(r["ladder"], r["rating"]) for r in fed["ratings"]]) == (
        "Fed One",
        [("fed-l", 1484)],
    )
    # Without ?community= the default community is meant: p1 is not a player there.
    assert (await client.get("/players/p1")).status_code == 404
    # Every read of a ladder shows its own community's profile.
    board = await _ok(await client.get("/ladders/fed-l/leaderboard?active_within_days=0"))
    assert {e["player"]: e["name"] for e in board["entries"]} == {"p2": None, "p1": "Fed One"}
    player = await _ok(await client.get("/ladders/site-l/players/p1"))
    assert player["name"] == "Site One"
    games = await _ok(await client.get("/ladders/fed-l/games"))
    assert {c["player"]: c["name"] for c in games["items"][0]["changes"]} == {
        "p1": "Fed One",
        "p2": None,
    }
    # National rankings count the ladder's community's profiles only.
    await _ok(await client.put("/players/p2?community=site", json={"country": "FR"}))
    national = "/ladders/{}/leaderboard?active_within_days=0&country=FR"
    assert [
        e["player"] for e in (await client.get(national.format("site-l"))).json()["entries"]
    ] == ["p2"]
    assert (await client.get(national.format("fed-l"))).json()["entries"] == []


async def test_a_community_key_sees_only_its_community(client: httpx.AsyncClient) -> None:
    await _two_communities(client)
    site = await _key(
        client, scopes=["read", "results:write", "ladders:admin"], communities=["site"]
    )
    listed = (await _ok(await client.get("/ladders", headers=site)))["ladders"]
    assert [lad["id"] for lad in listed] == ["site-l"]
    # A foreign ladder and a foreign player answer as unknown ones do.
    foreign = await client.get("/ladders/fed-l", headers=site)
    unknown = await client.get("/ladders/ghost", headers=site)
    assert (foreign.status_code, unknown.status_code) == (404, 404)
    assert foreign.json()["detail"].replace("fed-l", "ghost") == unknown.json()["detail"]
    foreign = await client.get("/players/p1?community=fed", headers=site)
    unknown = await client.get("/players/nobody?community=fed", headers=site)
    assert (foreign.status_code, unknown.status_code) == (404, 404)
    assert foreign.json()["detail"].replace("p1", "nobody") == unknown.json()["detail"]
    put = await client.put("/players/p1?community=fed", json={"name": "Hacked"}, headers=site)
    assert put.status_code == 404
    assert (await _ok(await client.get("/players/p1?community=fed")))["name"] == "Fed One"
    # Its own community: players, new ones included, and ladders.
    await _ok(await client.put("/players/p9?community=site", json={"name": "Nine"}, headers=site))
    assert (await _ok(await client.get("/players/p1?community=site", headers=site)))["name"] == (
        "Site One"
    )
    await _ok(
        await client.post("/ladders", json={"id": "site-2", "system": "elo", "community": "site"},
                          headers=site),
        201,
    )  # fmt: skip
    refused = await client.post(
        "/ladders", json={"id": "fed-2", "system": "elo", "community": "fed"}, headers=site
    )
    assert refused.status_code == 403
    # A ladder created after the key was made is the key's too (its community is).
    await _ok(await client.get("/ladders/site-2", headers=site))
    write = await client.post("/games", json=game("fed-l", "g9", {"a": 1, "b": 2}), headers=site)
    assert write.status_code == 404


async def test_a_ladder_key_sees_only_its_ladders_players(client: httpx.AsyncClient) -> None:
    """Issue 37's attack: a key of ladder A read and rewrote a player who exists only in B."""
    await _ladder(client, "a", None)
    await _ladder(client, "b", None)
    await post_game(client, game("a", "g1", {"mine": 1, "shared": 2}, minutes=1))
    await post_game(client, game("b", "g1", {"theirs": 1, "shared": 2}, minutes=1))
    await _ok(await client.put("/players/theirs", json={"name": "Theirs", "country": "DE"}))
    key = await _key(client, scopes=["read", "ladders:admin"], ladders=["a"])
    foreign = await client.get("/players/theirs", headers=key)
    unknown = await client.get("/players/nobody", headers=key)
    assert (foreign.status_code, unknown.status_code) == (404, 404)
    assert foreign.json()["detail"].replace("theirs", "nobody") == unknown.json()["detail"]
    assert (await client.put("/players/theirs", json={}, headers=key)).status_code == 404
    theirs = await _ok(await client.get("/players/theirs"))
    assert (theirs["name"], theirs["country"]) == ("Theirs", "DE")
    # A player it shares: readable and writable, with the ratings of its ladders only.
    shared = await _ok(await client.get("/players/shared", headers=key))
    assert [r["ladder"] for r in shared["ratings"]] == ["a"]
    await _ok(await client.put("/players/shared", json={"name": "S"}, headers=key))
    # A new id is no player of its ladders: it may not create one.
    assert (await client.put("/players/fresh", json={"name": "F"}, headers=key)).status_code == 404


async def test_an_import_changes_only_its_ladders_community(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: a federation's import carrying profiles for p01...p40 renamed the game site's
    players; now it sets its own community's profiles only."""
    await _two_communities(client)
    path = tmp_path / "fed.jsonl"
    path.write_text(
        '{"profile": {"player": "p1", "name": "Imported", "country": "GB"}}\n'
        + '{"ladder": "fed-l", "id": "g2", "played_at": "2024-01-02T00:00:00Z", '
        '"players": [{"player": "p1", "rank": 1}, {"player": "p3", "rank": 2}]}\n'
    )
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "fed-l") == 0
    assert (await _ok(await client.get("/players/p1?community=fed")))["name"] == "Imported"
    site = await _ok(await client.get("/players/p1?community=site"))
    assert (site["name"], site["country"]) == ("Site One", None)
    # Profiles only, into a ladder the file creates: the header's community.
    new = tmp_path / "new.jsonl"
    new.write_text(
        '{"ladder": {"id": "club-l", "system": "elo", "community": "club"}}\n'
        '{"profile": {"player": "p1", "name": "Club One"}}\n'
    )
    assert run_cli(monkeypatch, database, "import", str(new), "--ladder", "club-l") == 0
    assert (await _ok(await client.get("/players/p1?community=club")))["name"] == "Club One"
    assert (await _ok(await client.get("/players/p1?community=site")))["name"] == "Site One"
    # An export of a community's ladder names its community, so the file round-trips.
    out = tmp_path / "out.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "fed-l", "--output", str(out)) == 0
    assert '"community": "fed"' in out.read_text().splitlines()[0]


async def test_keys_show_their_communities(client: httpx.AsyncClient) -> None:
    created = await _ok(
        await client.post(
            "/keys", json={"name": "k", "scopes": ["read"], "communities": ["b", "a"]}
        ),
        201,
    )
    assert (created["communities"], created["ladders"]) == (["a", "b"], ["*"])
    plain = await _ok(await client.post("/keys", json={"name": "p", "scopes": ["read"]}), 201)
    assert plain["communities"] == ["*"]
    bad = await client.post("/keys", json={"name": "k", "scopes": ["read"], "communities": ["a b"]})
    assert bad.status_code == 422
