"""The Diplomacy hobby systems through the API, checked against the seeds and the rules."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.data.seed_000_wbc_2012 import WBC_2012, WBC_2012_TOURNAMENT_VALUE
from tests.helpers import by_player, make_ladder

pytestmark = pytest.mark.anyio

DPTR_INITIAL = 40.0


def slug(name: str) -> str:
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in name.lower())


def tournament(
    ladder: str, tid: str, held_on: str, ranks: list[tuple[str, int]], **extra: Any
) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": tid,
        "held_on": held_on,
        "standings": [{"player": p, "rank": r} for p, r in ranks],
        **extra,
    }


async def post_tournament(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/tournaments", json=body)
    assert response.status_code == 201, response.text
    out: dict[str, Any] = response.json()
    return out


async def test_wbc_2012_table_reproduces(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    ranks = [(slug(name), rank) for rank, name, _score in WBC_2012]
    body = tournament("wdd", "wbc-2012", "2012-08-04", ranks, rounds=3, name="WBC 2012")
    out = await post_tournament(client, body)
    assert len(out["changes"]) == 33
    for change, (_rank, _name, score) in zip(out["changes"], WBC_2012, strict=True):
        details = change["details"]
        assert details["percentile"] == pytest.approx(score, abs=0.01)
        assert details["tournament_value"] == pytest.approx(WBC_2012_TOURNAMENT_VALUE, abs=0.01)
        expected = DPTR_INITIAL + details["tournament_value"] / 100 * (score - DPTR_INITIAL)
        assert change["rating_after"] == pytest.approx(expected, abs=0.01)
    stored = (await client.get("/ladders/wdd/tournaments/wbc-2012")).json()
    assert stored["changes"] == out["changes"]


async def test_dptr_worked_example_55_eighth_of_65(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    await client.put("/ladders/wdd/players/me", json={"rating": 55, "at": "2012-01-01T00:00:00Z"})
    field = [("me", 8)] + [(f"p{r}", r) for r in range(1, 66) if r != 8]
    out = await post_tournament(client, tournament("wdd", "big", "2012-06-01", field, rounds=3))
    assert by_player(out["changes"])["me"]["rating_after"] == pytest.approx(60.019, abs=0.0005)


async def test_dptr_cutoff_world_championship_still_counts(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    ordinary = await post_tournament(
        client, tournament("wdd", "old", "1998-05-01", [("a", 1), ("b", 2)], rounds=2)
    )
    assert all(c["delta"] == 0 for c in ordinary["changes"])
    assert ordinary["changes"][0]["details"]["tournament_value"] == 0
    world = await post_tournament(
        client,
        tournament("wdd", "wdc-1998", "1998-08-01", [("a", 1), ("b", 2)], world_championship=True),
    )
    a = by_player(world["changes"])["a"]
    assert a["details"]["tournament_value"] == 20
    percentile = (2 + 0.5 - 1) / 2 * 100
    assert a["rating_after"] == pytest.approx(DPTR_INITIAL + 20 / 100 * (percentile - 40))


async def test_cdiplo_points_and_ties(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "cd", "cdiplo")
    field = [(f"p{r}", r) for r in range(1, 36)]
    out = by_player(
        (await post_tournament(client, tournament("cd", "t", "2020-01-01", field)))["changes"]
    )
    assert out["p3"]["delta"] == pytest.approx(7 + 35 / 3)  # 18.67, the rule
    assert out["p1"]["delta"] == pytest.approx(38 + 35 / 1)  # 73
    tied = [("x", 1), ("y", 2), ("z", 2), ("w", 4)]
    ties = by_player(
        (await post_tournament(client, tournament("cd", "t2", "2020-02-01", tied)))["changes"]
    )
    shared = ((4 / 2 + 14) + (4 / 3 + 7)) / 2
    assert ties["y"]["delta"] == pytest.approx(shared)
    assert ties["z"]["delta"] == pytest.approx(shared)
    # Ranking = sum over events.
    again = tournament("cd", "t3", "2020-03-01", [("p3", 1), ("q", 2)])
    total = by_player((await post_tournament(client, again))["changes"])["p3"]["rating_after"]
    assert total == pytest.approx(7 + 35 / 3 + 38 + 2 / 1)


async def test_wpe_continental_championship_of_40(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wpe", "wpe")
    field = [(f"p{r}", r) for r in range(1, 41)]
    out = await post_tournament(
        client, tournament("wpe", "euro", "2024-06-01", field, **{"class": "continental"})
    )
    scores = [c["delta"] for c in out["changes"][:10]]
    weight = 9 + 3.5  # influence 9, effective (40 + 50) / 2 = 45 players -> inflow 3.5
    bases = [12, 8, 6, 4] + [4 - (k - 4) * 4 / (9 - 3) for k in range(5, 10)] + [0]
    assert scores == pytest.approx([weight * b for b in bases])
    assert scores[:5] == pytest.approx([150, 100, 75, 50, 41.67], abs=0.005)


async def test_daanz_seed_data_points(client: httpx.AsyncClient) -> None:
    """Seed 001: a veteran earns 3 masterpoints for a 10-centre result; a champion earns
    centre points only at 16 centres or more (docs/systems/daanz.md: defaults promote at
    30 points to veteran and 60 to champion)."""
    await make_ladder(client, "daanz", "daanz")
    for player, total in (("vet", 30), ("champ", 60), ("champ16", 60)):
        response = await client.put(
            f"/ladders/daanz/players/{player}",
            json={"rating": total, "at": "2020-01-01T00:00:00Z"},
        )
        assert response.status_code == 200, response.text
    body = {
        "ladder": "daanz",
        "id": "nz-open",
        "held_on": "2020-05-01",
        "standings": [
            {"player": "champ16", "rank": 1, "centres": 16},
            {"player": "vet", "rank": 2, "centres": 10},
            {"player": "champ", "rank": 3, "centres": 15},
        ],
    }
    response = await client.post("/tournaments", json=body)
    assert response.status_code == 201, response.text
    changes = by_player(response.json()["changes"])
    assert changes["vet"]["details"]["classification"] == "veteran"
    assert changes["vet"]["delta"] == 3
    assert changes["champ"]["details"]["classification"] == "champion"
    assert changes["champ"]["delta"] == 0
    assert changes["champ16"]["delta"] > 0


def kinzett_game(
    game_id: str, rows: list[tuple[str, str, int, int, int | None]], **extra: Any
) -> dict[str, Any]:
    return {
        "ladder": "manorcon",
        "id": game_id,
        "played_at": "1986-08-23T12:00:00Z",
        "end_year": 1909,
        "players": [
            {"player": p, "faction": f, "centres": c, "rank": r}
            | ({"eliminated_in": e} if e is not None else {})
            for p, f, c, r, e in rows
        ],
        **extra,
    }


SEVENTEEN_SIXTEEN_ONE = [
    ("fra", "F", 17, 1, None),
    ("ger", "G", 16, 1, None),
    ("ita", "I", 1, 1, None),
    ("aus", "A", 0, 2, 1905),
    ("eng", "E", 0, 2, 1906),
    ("rus", "R", 0, 2, 1907),
    ("tur", "T", 0, 2, 1908),
]


async def test_kinzett_seventeen_sixteen_one_and_standings(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "manorcon", "kinzett")
    game = kinzett_game("r1", SEVENTEEN_SIXTEEN_ONE, tournament="manorcon-1986")
    response = await client.post("/games", json=game)
    assert response.status_code == 201, response.text
    changes = by_player(response.json()["changes"])
    f = {n: (n * n + n) / 2 + 4 for n in (0, 1, 16, 17)}
    divisor = f[17] + f[16] + f[1] + 4 * f[0]
    assert changes["fra"]["details"]["secondary"] == pytest.approx(100 * f[17] / divisor)
    assert changes["fra"]["details"]["secondary"] == pytest.approx(49.37, abs=0.005)
    assert changes["aus"]["details"]["secondary"] == pytest.approx(0.4)  # 1901..1905
    assert changes["fra"]["details"]["primary"] == 1
    # The 17-17 alternative, as a second game of the tournament by other players.
    seventeen = [
        ("fra2", "F", 17, 1, None),
        ("ger2", "G", 17, 1, None),
        ("ita2", "I", 0, 2, 1908),
        ("aus2", "A", 0, 2, 1905),
        ("eng2", "E", 0, 2, 1906),
        ("rus2", "R", 0, 2, 1907),
        ("tur2", "T", 0, 2, 1908),
    ]
    response = await client.post(
        "/games", json=kinzett_game("r2", seventeen, tournament="manorcon-1986")
    )
    second = by_player(response.json()["changes"])
    assert second["fra2"]["details"]["secondary"] == pytest.approx(47.01, abs=0.005)
    teams = {"teams": {"north": ["fra", "ger2"], "south": ["ita", "fra2"]}}
    put = await client.put("/ladders/manorcon/tournaments/manorcon-1986/teams", json=teams)
    assert put.status_code == 200, put.text
    standings = (await client.get("/ladders/manorcon/tournaments/manorcon-1986/standings")).json()
    top = standings["players"][0]
    # Everyone in a draw has 1 primary point; fra's 49.37 secondary is the best of them.
    assert (top["player"], top["primary"]) == ("fra", 1)
    north = next(t for t in standings["teams"] if t["team"] == "north")
    assert north["primary"] == 2
    assert north["secondary"] == pytest.approx(100 * f[17] / divisor + 100 * 157 / 334)
    board = (await client.get("/ladders/manorcon/leaderboard")).json()["entries"]
    assert board[0]["player"] == "fra"


@pytest.mark.parametrize(
    ("mutate", "loc"),
    [
        (lambda rows: rows[1].__setitem__(1, "F"), ["players", 1, "faction"]),
        (lambda rows: rows[0].__setitem__(1, "Narnia"), ["players", 0, "faction"]),
        (lambda rows: rows[2].__setitem__(2, 5), ["players"]),  # 17 + 16 + 5 > 34
    ],
)
async def test_diplomacy_validation(client: httpx.AsyncClient, mutate: Any, loc: list[Any]) -> None:
    await make_ladder(client, "manorcon", "kinzett")
    rows = [list(r) for r in SEVENTEEN_SIXTEEN_ONE]
    mutate(rows)
    response = await client.post("/games", json=kinzett_game("bad", [tuple(r) for r in rows]))  # type: ignore[misc]
    assert response.status_code == 422, response.text
    assert any(e["loc"][: len(loc)] == loc for e in response.json()["errors"])
    assert (await client.get("/ladders/manorcon")).json()["games"] == 0


async def test_solo_needs_eighteen_centres(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "manorcon", "kinzett")
    rows = [("fra", "F", 17, 1, None), ("ger", "G", 16, 2, None), ("ita", "I", 1, 2, None)]
    rows += [
        (p, f, 0, 2, 1905) for p, f in (("aus", "A"), ("eng", "E"), ("rus", "R"), ("tur", "T"))
    ]
    response = await client.post("/games", json=kinzett_game("solo", rows))
    assert response.status_code == 422
    assert "18" in response.json()["detail"]


async def test_nadf_worked_example_and_base_survives(client: httpx.AsyncClient) -> None:
    """docs/systems/nadf.md example 1: seven new players at 1000, France solos."""
    await make_ladder(client, "nadf", "nadf")
    powers = ["F", "A", "E", "G", "I", "R", "T"]
    body = {
        "ladder": "nadf",
        "id": "g1",
        "played_at": "2026-01-01T10:00:00Z",
        "players": [
            {"player": f"p{p}", "faction": p, "rank": 1 if p == "F" else 2,
             "centres": 18 if p == "F" else 2}
            for p in powers
        ],
    }  # fmt: skip
    response = await client.post("/games", json=body)
    assert response.status_code == 201, response.text
    changes = by_player(response.json()["changes"])
    pot = 0.12 * 1000 * 7
    gain = pot * 14.2 / 16.2 - 120  # M / factor(France) = 14.2 / 16.2
    assert changes["pF"]["rating_after"] == pytest.approx(1000 + gain)
    # Every loser fell below the new base 1000 + 2 x 1 and is raised to it.
    assert changes["pE"]["rating_after"] == pytest.approx(1002)
    ladder = (await client.get("/ladders/nadf")).json()
    assert ladder["games"] == 1
    # A newcomer starts at the current base (1002), in a later game.
    newcomer = {**body, "id": "g2", "played_at": "2026-01-02T10:00:00Z"}
    newcomer["players"] = [
        {**p, "player": "new" if p["faction"] == "A" else p["player"]} for p in body["players"]
    ]
    second = by_player((await client.post("/games", json=newcomer)).json()["changes"])
    assert second["new"]["rating_before"] == pytest.approx(1002)


async def test_tournament_predictions_by_placement(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    await client.put("/ladders/wdd/players/me", json={"rating": 55, "at": "2012-01-01T00:00:00Z"})
    body = {
        "ladder": "wdd",
        "players": [{"player": "me"}],
        "size": 65,
        "rounds": 3,
        "held_on": "2012-06-01",
        "placements": [1, 8, 65],
    }
    response = await client.post("/predictions", json=body)
    assert response.status_code == 200, response.text
    by_place = {p["placement"]: p for p in response.json()["players"][0]["by_placement"]}
    assert by_place[8]["rating_after"] == pytest.approx(60.019, abs=0.0005)
    first = (65 + 0.5 - 1) / 65 * 100
    assert by_place[1]["delta"] == pytest.approx(0.15 * (first - 55))
    assert by_place[65]["delta"] < 0


async def test_wpe_and_daanz_predictions(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wpe", "wpe")
    body = {
        "ladder": "wpe",
        "players": [{"player": "me"}],
        "size": 40,
        "class": "continental",
        "held_on": "2024-06-01",
        "placements": [1, 5],
    }
    response = await client.post("/predictions", json=body)
    assert response.status_code == 200, response.text
    places = {p["placement"]: p["delta"] for p in response.json()["players"][0]["by_placement"]}
    assert places[1] == pytest.approx((9 + 3.5) * 12)
    assert places[5] == pytest.approx((9 + 3.5) * (4 - 1 * 4 / 6))
    missing_class = {k: v for k, v in body.items() if k != "class"}
    assert (await client.post("/predictions", json=missing_class)).status_code == 422
    bad_date = {**body, "held_on": "June 2024"}
    assert (await client.post("/predictions", json=bad_date)).status_code == 422
    await make_ladder(client, "daanz", "daanz")
    await client.put(
        "/ladders/daanz/players/vet", json={"rating": 30, "at": "2020-01-01T00:00:00Z"}
    )
    daanz = {
        "ladder": "daanz",
        "players": [{"player": "vet", "centres": 10}],
        "size": 10,
        "placements": [2],
    }
    response = await client.post("/predictions", json=daanz)
    assert response.status_code == 200, response.text
    assert response.json()["players"][0]["by_placement"][0]["delta"] == 3


async def test_wpe_ladder_with_its_own_event_classes(client: httpx.AsyncClient) -> None:
    """Issue 19: the event classes are the ladder's ``influence`` classes, not a fixed list."""
    await make_ladder(client, "regio", "wpe", influence={"world": 12, "regional": 3})
    field = [(f"p{r}", r) for r in range(1, 31)]
    out = await post_tournament(
        client, tournament("regio", "north", "2024-06-01", field, **{"class": "regional"})
    )
    # SYSTEMS.md "wpe", by hand: score = (influence + inflow) * base(place). Influence of
    # "regional" 3; no effective floor for it, so the effective count is N = 30: inflow 2.5
    # (28-34) and 7 awarded places (28-34), no extra places. base = 12, 8, 6, 4, then
    # 4 - (k - 4) * 4 / (7 - 3) = 3, 2, 1 for places 5 to 7, and 0 below.
    weight = 3 + 2.5
    bases = [12, 8, 6, 4, 3, 2, 1, 0]
    assert [c["delta"] for c in out["changes"][:8]] == pytest.approx([weight * b for b in bases])
    assert out["changes"][0]["details"]["class"] == "regional"

    unknown = tournament("regio", "euro", "2024-07-01", field, **{"class": "continental"})
    response = await client.post("/tournaments", json=unknown)
    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert error["loc"] == ["class"]
    assert "regional, world" in error["msg"]
    assert (await client.get("/ladders/regio")).json()["tournaments"] == 1


async def test_wpe_class_is_a_bounded_name(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wpe", "wpe")
    field = [("a", 1), ("b", 2)]
    for bad in ("", "x" * 101):
        body = tournament("wpe", "t", "2024-06-01", field, **{"class": bad})
        response = await client.post("/tournaments", json=body)
        assert response.status_code == 422, response.text
        assert any(e["loc"][-1] == "class" for e in response.json()["errors"])


async def test_wpe_near_the_ends_of_the_calendar(client: httpx.AsyncClient) -> None:
    """WPE raised ValueError (a 500) for any event, prediction, adjustment or PATCH dated
    within window_years of year 1: the window's start fell before the calendar. The window
    now reaches back to the calendar's start."""
    await make_ladder(client, "early", "wpe")
    field = [(f"p{r}", r) for r in range(1, 31)]
    out = await post_tournament(
        client, tournament("early", "t1", "0003-06-01", field, **{"class": "main"})
    )
    # SYSTEMS.md "wpe": a main tournament of 30 (influence 5, inflow 2.5, 7 places) gives
    # the winner (5 + 2.5) * 12.
    assert out["changes"][0]["delta"] == pytest.approx((5 + 2.5) * 12)
    assert out["changes"][0]["details"]["window_start"] is None
    adjusted = await client.put(
        "/ladders/early/players/p2", json={"rating": 10, "at": "0001-01-01T00:00:00Z"}
    )
    assert adjusted.status_code == 200, adjusted.text
    prediction = {
        "ladder": "early",
        "players": [{"player": "p1"}],
        "size": 30,
        "class": "main",
        "held_on": "0004-01-01",
        "placements": [1],
    }
    predicted = await client.post("/predictions", json=prediction)
    assert predicted.status_code == 200, predicted.text
    assert predicted.json()["players"][0]["by_placement"][0]["delta"] == pytest.approx(90)
    patched = await client.patch("/ladders/early", json={"params": {"window_years": 100}})
    assert patched.status_code == 200, patched.text
    # A result dated 9999-12-31 lies in the future (issue 40, item 1): a 422, never a 500.
    late = tournament("early", "t2", "9999-12-31", field, **{"class": "main"})
    refused = await client.post("/tournaments", json=late)
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["loc"] == ["held_on"]
    # A prediction for that day still reaches the calendar's end: the window of 100 years
    # before 9999-12-31 has dropped the year-3 win, so winning again is 90 out, 90 in: from
    # the 90 shown now, a change of 0 (in year 4 the same win added 90, above).
    predicted = await client.post("/predictions", json={**prediction, "held_on": "9999-12-31"})
    assert predicted.status_code == 200, predicted.text
    first = predicted.json()["players"][0]["by_placement"][0]
    assert first["rating_after"] == pytest.approx(90)
    assert first["delta"] == pytest.approx(0)
