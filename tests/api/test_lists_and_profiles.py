"""API.md "Lists" and "Player profiles and national rankings", on each database.

Expected values are worked out by hand from the systems' rules (SYSTEMS.md), written out
beside each check: Elo (initial 1500, K 32, scale 400) and DPTR (initial 40; percentile
P = (N + 0.5 - place) / N x 100; one-round tournament value TV = N/7 + 2;
R' = R + TV/100 x (P - R)).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.main import create_app
from tests.api.test_diplomacy_systems import SEVENTEEN_SIXTEEN_ONE, kinzett_game
from tests.conftest import make_settings
from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

ELO_K = 32


def _elo_expected(mine: float, theirs: float) -> float:
    return 1 / (1 + 10 ** ((theirs - mine) / 400))


async def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


async def _seed_games(client: httpx.AsyncClient) -> None:
    """g1: ann beats bob; g2: bob beats cid (voided); g3: ann beats cid."""
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"bob": 1, "cid": 2}, minutes=2))
    await post_game(client, game("club", "g3", {"ann": 1, "cid": 2}, minutes=3))
    await _ok(await client.delete("/ladders/club/games/g2"))


def _ids(listed: dict[str, Any]) -> list[str]:
    return [item["id"] for item in listed["items"]]


async def test_games_list_newest_first_each_as_its_get(client: httpx.AsyncClient) -> None:
    await _seed_games(client)
    listed = await _ok(await client.get("/ladders/club/games"))
    assert listed["total"] == 3
    assert _ids(listed) == ["g3", "g2", "g1"]
    for item in listed["items"]:
        assert item == await _ok(await client.get(f"/ladders/club/games/{item['id']}"))
    g3 = listed["items"][0]["changes"]
    # Voiding g2 left cid at 1500, ann at 1516 (g1: +K/2 between equals): ann's expected
    # score against cid is 1 / (1 + 10^((1500 - 1516) / 400)).
    gain = ELO_K * (1 - _elo_expected(1516, 1500))
    assert g3[0]["player"] == "ann"
    assert g3[0]["rating_before"] == pytest.approx(1516)
    assert g3[0]["delta"] == pytest.approx(gain)
    assert listed["items"][1]["voided"] is True
    assert listed["items"][1]["changes"] == []


async def test_games_list_filters(client: httpx.AsyncClient) -> None:
    await _seed_games(client)

    async def ids(query: str) -> tuple[int, list[str]]:
        listed = await _ok(await client.get(f"/ladders/club/games?{query}"))
        return listed["total"], _ids(listed)

    assert await ids("voided=true") == (1, ["g2"])
    assert await ids("voided=false") == (2, ["g3", "g1"])
    # bob played g1 and the voided g2; cid g2 and g3.
    assert await ids("player=bob") == (2, ["g2", "g1"])
    assert await ids("player=bob&voided=false") == (1, ["g1"])
    assert await ids("player=bob&voided=true") == (1, ["g2"])
    assert await ids("player=cid&limit=1&offset=1") == (2, ["g2"])
    assert await ids("player=nobody") == (0, [])
    assert await ids(f"from={at(2)}&to={at(3)}") == (2, ["g3", "g2"])
    assert await ids(f"to={at(1)}") == (1, ["g1"])
    assert await ids("limit=1&offset=1") == (3, ["g2"])
    assert await ids("limit=2&offset=2") == (3, ["g1"])


async def test_list_parameters_are_checked(client: httpx.AsyncClient) -> None:
    await _seed_games(client)
    cases = {
        f"from={at(3)}&to={at(1)}": ["query", "to"],
        "from=yesterday": ["query", "from"],
        "from=2026-11-29T10:00:00": ["query", "from"],
        "limit=501": ["query", "limit"],
        "limit=0": ["query", "limit"],
        "offset=-1": ["query", "offset"],
        "voided=maybe": ["query", "voided"],
        "player=a%20b": ["query", "player"],
    }
    for query, loc in cases.items():
        problem = await _ok(await client.get(f"/ladders/club/games?{query}"), 422)
        assert [e["loc"] for e in problem["errors"]] == [loc], query
    assert (await client.get("/ladders/nowhere/games")).status_code == 404
    search = await client.get("/ladders/club/players?search=" + "x" * 101)
    assert [e["loc"] for e in (await _ok(search, 422))["errors"]] == [["query", "search"]]


async def _seed_dptr(client: httpx.AsyncClient) -> None:
    """Two one-round tournaments; gb-* and fr-* players, their countries in profiles."""
    await make_ladder(client, "wdd", "dptr")
    first = ["alan", "bea", "carl", "dom", "eve"]
    second = ["eve", "dom", "alan", "bea"]
    for tid, held_on, order in (("t2012", "2012-08-04", first), ("t2013", "2013-08-03", second)):
        body = {
            "ladder": "wdd",
            "id": tid,
            "held_on": held_on,
            "standings": [{"player": p, "rank": i} for i, p in enumerate(order, start=1)],
        }
        await _ok(await client.post("/tournaments", json=body), 201)
    for player, country in (
        ("alan", "GB"), ("bea", "FR"), ("carl", "GB"), ("dom", "FR"), ("eve", "FR"),
    ):  # fmt: skip
        await _ok(await client.put(f"/players/{player}", json={"country": country}))


def _dptr(rating: float, place: int, size: int) -> float:
    """One step of DPTR for a one-round event (SYSTEMS.md "dptr")."""
    percentile = (size + 0.5 - place) / size * 100
    value = size / 7 + 2
    return rating + value / 100 * (percentile - rating)


# 2012 (N = 5, TV = 2.714): alan 41.357, bea 40.814, carl 40.271, dom 39.729, eve 39.186.
AFTER_2012 = {
    p: _dptr(40, place, 5) for place, p in enumerate(["alan", "bea", "carl", "dom", "eve"], 1)
}
# 2013 (N = 4, TV = 2.571): eve 40.428, dom 40.314, alan 41.258, bea 40.086; carl unchanged.
AFTER_2013 = {
    **AFTER_2012,
    **{
        p: _dptr(AFTER_2012[p], place, 4)
        for place, p in enumerate(["eve", "dom", "alan", "bea"], 1)
    },
}


async def test_national_ranking_on_dptr_with_as_of(client: httpx.AsyncClient) -> None:
    await _seed_dptr(client)

    async def board(query: str) -> dict[str, Any]:
        result: dict[str, Any] = await _ok(await client.get(f"/ladders/wdd/leaderboard?{query}"))
        return result

    def rows(answer: dict[str, Any]) -> list[tuple[int, str, str | None]]:
        return [(e["position"], e["player"], e["country"]) for e in answer["entries"]]

    # Now: alan 41.258 > eve 40.428 > dom 40.314 > carl 40.271 > bea 40.086 overall, so
    # France's ranking is eve 1, dom 2, bea 3 (overall 2, 3 and 5).
    overall = await board("")
    assert [e["player"] for e in overall["entries"]] == ["alan", "eve", "dom", "carl", "bea"]
    national = await board("country=FR")
    assert (national["total"], national["country"]) == (3, "FR")
    assert rows(national) == [(1, "eve", "FR"), (2, "dom", "FR"), (3, "bea", "FR")]
    for entry in national["entries"]:
        assert entry["rating"] == pytest.approx(AFTER_2013[entry["player"]])
    assert rows(await board("country=GB")) == [(1, "alan", "GB"), (2, "carl", "GB")]
    # By year: as of the end of 2012, bea 40.814 > dom 39.729 > eve 39.186.
    in_2012 = await board("country=FR&as_of=2012-12-31T00:00:00Z")
    assert rows(in_2012) == [(1, "bea", "FR"), (2, "dom", "FR"), (3, "eve", "FR")]
    for entry in in_2012["entries"]:
        assert entry["rating"] == pytest.approx(AFTER_2012[entry["player"]])
    assert (await board("country=US"))["total"] == 0
    # The window: FR's ranking around dom, one entry (limit 1) is dom alone.
    assert rows(await board("country=FR&around=dom&limit=1")) == [(2, "dom", "FR")]
    for bad in ("UK", "fr", "XK", "FRA"):
        problem = await _ok(await client.get(f"/ladders/wdd/leaderboard?country={bad}"), 422)
        assert [e["loc"] for e in problem["errors"]] == [["query", "country"]], bad


async def _seed_board(client: httpx.AsyncClient) -> None:
    """Seven ratings set by adjustments: p1 1700, p2 1690, ..., p7 1640."""
    await make_ladder(client, "board", "elo")
    for index in range(1, 8):
        body = {"rating": 1710 - 10 * index, "at": at(index)}
        await _ok(await client.put(f"/ladders/board/players/p{index}", json=body))


async def test_leaderboard_around_a_player(client: httpx.AsyncClient) -> None:
    await _seed_board(client)

    async def window(query: str) -> list[tuple[int, str]]:
        answer = await _ok(await client.get(f"/ladders/board/leaderboard?{query}"))
        assert answer["total"] == 7
        return [(e["position"], e["player"]) for e in answer["entries"]]

    assert await window("around=p4&limit=3") == [(3, "p3"), (4, "p4"), (5, "p5")]
    # limit // 2 entries before the player: two of four.
    assert await window("around=p4&limit=4") == [(2, "p2"), (3, "p3"), (4, "p4"), (5, "p5")]
    # Near either end the window stays full.
    assert await window("around=p1&limit=3") == [(1, "p1"), (2, "p2"), (3, "p3")]
    assert await window("around=p7&limit=3") == [(5, "p5"), (6, "p6"), (7, "p7")]
    assert len(await window("around=p4&limit=50")) == 7
    # Sorted by name descending the order is p7 ... p1; positions stay by rating.
    assert await window("around=p2&limit=3&sort=name&order=desc") == [
        (3, "p3"), (2, "p2"), (1, "p1"),
    ]  # fmt: skip
    # As of the time p5 was set (p6 and p7 not yet rated): p3, p4, p5 of five.
    past = await _ok(
        await client.get(f"/ladders/board/leaderboard?around=p5&limit=3&as_of={at(5)}")
    )
    assert past["total"] == 5
    assert [e["player"] for e in past["entries"]] == ["p3", "p4", "p5"]
    missing = await client.get("/ladders/board/leaderboard?around=ghost")
    assert missing.status_code == 404
    assert (
        await client.get(f"/ladders/board/leaderboard?around=p7&as_of={at(5)}")
    ).status_code == 404
    both = await _ok(await client.get("/ladders/board/leaderboard?around=p4&offset=2"), 422)
    assert [e["loc"] for e in both["errors"]] == [["query", "offset"]]


async def test_players_list_and_search(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"ann": 1, "joANNa": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"bob": 1, "cid": 2}, minutes=2))
    await _ok(await client.put("/players/ann", json={"name": "Ann Smith", "country": "FR"}))
    everyone = await _ok(await client.get("/ladders/club/players"))
    assert everyone["total"] == 4
    assert [i["player"] for i in everyone["items"]] == ["ann", "bob", "cid", "joANNa"]
    # Two games between equals: the winners at 1516 share position 1, the losers 3.
    found = await _ok(await client.get("/ladders/club/players?search=AnN"))
    assert found["total"] == 2
    ann, joanna = found["items"]
    assert (ann["player"], ann["name"], ann["country"]) == ("ann", "Ann Smith", "FR")
    assert (joanna["player"], joanna["name"], joanna["country"]) == ("joANNa", None, None)
    assert [(r["rating"], r["position"], r["games"]) for r in ann["ratings"]] == [(1516, 1, 1)]
    assert [(r["rating"], r["position"]) for r in joanna["ratings"]] == [(1484, 3)]
    single = await _ok(await client.get("/ladders/club/players/ann"))
    assert ann["ratings"] == single["ratings"]
    page = await _ok(await client.get("/ladders/club/players?limit=2&offset=1"))
    assert (page["total"], [i["player"] for i in page["items"]]) == (4, ["bob", "cid"])
    # LIKE's wildcards match themselves, not any text.
    assert (await _ok(await client.get("/ladders/club/players?search=%25")))["total"] == 0
    assert (await _ok(await client.get("/ladders/club/players?search=_")))["total"] == 0


async def test_profile_put_and_get(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    await make_ladder(client, "other", "elo")
    await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}, minutes=1))
    await post_game(client, game("other", "h1", {"bob": 1, "ann": 2}, minutes=1))
    put = await client.put("/players/ann", json={"name": "Ann Smith", "country": "FR"})
    expected = {"player": "ann", "community": "default", "name": "Ann Smith", "country": "FR"}
    assert await _ok(put) == expected
    profile = await _ok(await client.get("/players/ann"))
    assert (profile["name"], profile["country"]) == ("Ann Smith", "FR")
    assert [(r["ladder"], r["rating"], r["position"]) for r in profile["ratings"]] == [
        ("club", 1516, 1),
        ("other", 1484, 2),
    ]
    # A key that reads "club" only sees ann's rating there.
    key = await _ok(
        await client.post("/keys", json={"name": "r", "scopes": ["read"], "ladders": ["club"]}),
        201,
    )
    limited = {"Authorization": f"Bearer {key['key']}"}
    seen = await _ok(await client.get("/players/ann", headers=limited))
    assert [r["ladder"] for r in seen["ratings"]] == ["club"]
    assert (await client.get("/players/nobody")).status_code == 404
    # A profile alone (no rating yet) is a player too.
    await _ok(await client.put("/players/newcomer", json={"name": "New"}))
    assert (await _ok(await client.get("/players/newcomer")))["ratings"] == []
    # The body is the whole profile: what it leaves out is cleared.
    assert await _ok(await client.put("/players/ann", json={"name": "Ann"})) == {
        "player": "ann", "community": "default", "name": "Ann", "country": None,
    }  # fmt: skip
    assert (await _ok(await client.get("/players/ann")))["country"] is None


async def test_profile_body_is_checked(client: httpx.AsyncClient) -> None:
    cases: list[tuple[dict[str, Any], list[Any]]] = [
        ({"country": "UK"}, ["country"]),  # reserved, not assigned (the UK is GB)
        ({"country": "XK"}, ["country"]),  # user-assigned
        ({"country": "fr"}, ["country"]),
        ({"country": "FRA"}, ["country"]),
        ({"name": ""}, ["name"]),
        ({"name": "x" * 201}, ["name"]),
        ({"nickname": "x"}, ["nickname"]),
    ]
    for body, loc in cases:
        problem = await _ok(await client.put("/players/ann", json=body), 422)
        assert [e["loc"] for e in problem["errors"]] == [loc], body
    assert (await _ok(await client.put("/players/ann", json={"name": "x" * 200})))["name"]
    assert (await client.put("/players/a%20b", json={})).status_code == 422


def _history_rows(database: Database) -> tuple[Any, ...]:
    with database.engine.connect() as connection:
        return tuple(
            tuple(tuple(row) for row in connection.execute(text(sql)))
            for sql in (
                "SELECT id, event_seq, player, rating_before, rating_after FROM changes "
                "ORDER BY id",
                "SELECT ladder_id, player, faction, rating, games, last_change_id "
                "FROM player_ratings ORDER BY ladder_id, player, faction",
                "SELECT seq, body_hash, voided_at FROM events ORDER BY seq",
            )
        )


async def test_a_profile_change_recomputes_nothing(
    client: httpx.AsyncClient, database: Database
) -> None:
    await _seed_dptr(client)
    before = _history_rows(database)
    await _ok(await client.put("/players/dom", json={"name": "Dominique", "country": "BE"}))
    await _ok(await client.put("/players/eve", json={"name": "Eve"}))
    assert _history_rows(database) == before


async def test_names_wherever_players_are(client: httpx.AsyncClient) -> None:
    await _seed_games(client)
    await _ok(await client.put("/players/ann", json={"name": "Ann Smith", "country": "FR"}))
    named = ("Ann Smith", "FR")
    board = await _ok(await client.get("/ladders/club/leaderboard"))
    shown = {e["player"]: (e["name"], e["country"]) for e in board["entries"]}
    assert shown == {"ann": named, "bob": (None, None), "cid": (None, None)}
    player = await _ok(await client.get("/ladders/club/players/ann"))
    assert (player["name"], player["country"]) == named
    history = await _ok(await client.get("/ladders/club/players/ann/history"))
    assert (history["name"], history["country"]) == named
    g1 = await _ok(await client.get("/ladders/club/games/g1"))
    assert [(c["player"], c["name"], c["country"]) for c in g1["changes"]] == [
        ("ann", "Ann Smith", "FR"),
        ("bob", None, None),
    ]
    listed = await _ok(await client.get("/ladders/club/games?player=ann"))
    assert [c["name"] for item in listed["items"] for c in item["changes"]] == [
        "Ann Smith", None, "Ann Smith", None,
    ]  # fmt: skip


async def test_tournaments_list(client: httpx.AsyncClient) -> None:
    await _seed_dptr(client)
    listed = await _ok(await client.get("/ladders/wdd/tournaments"))
    assert (listed["total"], _ids(listed)) == (2, ["t2013", "t2012"])
    for item in listed["items"]:
        assert item == await _ok(await client.get(f"/ladders/wdd/tournaments/{item['id']}"))
    # carl did not play in 2013.
    carl = await _ok(await client.get("/ladders/wdd/tournaments?player=carl"))
    assert _ids(carl) == ["t2012"]
    first = next(c for c in carl["items"][0]["changes"] if c["player"] == "carl")
    assert (first["rating_after"], first["country"]) == (pytest.approx(AFTER_2012["carl"]), "GB")
    held = await _ok(await client.get("/ladders/wdd/tournaments?from=2013-01-01T00:00:00Z"))
    assert _ids(held) == ["t2013"]


async def test_kinzett_standings_carry_names(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "manorcon", "kinzett")
    body = kinzett_game("r1", SEVENTEEN_SIXTEEN_ONE, tournament="mc86")
    await _ok(await client.post("/games", json=body), 201)
    await _ok(await client.put("/players/fra", json={"name": "François", "country": "FR"}))
    standings = await _ok(await client.get("/ladders/manorcon/tournaments/mc86/standings"))
    shown = {p["player"]: (p["name"], p["country"]) for p in standings["players"]}
    assert shown["fra"] == ("François", "FR")
    assert shown["ger"] == (None, None)


def test_the_new_routes_are_described_in_openapi() -> None:
    paths = create_app(make_settings()).openapi()["paths"]
    operations = {
        ("/ladders/{ladder}/games", "get"): {"player", "from", "to", "voided", "limit", "offset"},
        ("/ladders/{ladder}/tournaments", "get"): {"player", "from", "to", "voided"},
        ("/ladders/{ladder}/players", "get"): {"search", "limit", "offset"},
        ("/ladders/{ladder}/leaderboard", "get"): {"country", "around"},
        ("/players/{player}", "put"): set(),
        ("/players/{player}", "get"): set(),
    }
    for (path, method), described in operations.items():
        operation = paths[path][method]
        assert operation["description"], (path, method)
        parameters = {p["name"]: p for p in operation.get("parameters", [])}
        for name in described:
            assert parameters[name].get("description"), (path, method, name)
