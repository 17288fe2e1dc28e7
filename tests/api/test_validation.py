"""Bad input: a 4xx problem+json naming the field and the rule, and nothing stored."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.helpers import at, game, make_ladder

pytestmark = pytest.mark.anyio


async def _assert_rejected(
    client: httpx.AsyncClient, body: Any, loc: list[Any], *, raw: bytes | None = None
) -> dict[str, Any]:
    if raw is not None:
        response = await client.post(
            "/games", content=raw, headers={"content-type": "application/json"}
        )
    else:
        response = await client.post("/games", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "errors"} <= set(problem)
    assert any(e["loc"][: len(loc)] == loc for e in problem["errors"]), problem
    ladder = (await client.get("/ladders/club")).json()
    assert (ladder["games"], ladder["players"]) == (0, 0)
    return problem


@pytest.fixture
async def fundox(client: httpx.AsyncClient) -> httpx.AsyncClient:
    await make_ladder(client, "club", "fundox")
    return client


async def test_nan_rejected(fundox: httpx.AsyncClient) -> None:
    raw = (
        b'{"ladder":"club","id":"g1","played_at":"2026-11-29T10:00:00Z",'
        b'"players":[{"player":"a","rank":1},{"player":"b","rank":2}],"end_year":NaN}'
    )
    await _assert_rejected(fundox, None, [], raw=raw)


async def test_infinity_in_nested_field_rejected(fundox: httpx.AsyncClient) -> None:
    raw = (
        b'{"ladder":"club","id":"g1","played_at":"2026-11-29T10:00:00Z",'
        b'"players":[{"player":"a","rank":1},{"player":"b","rank":Infinity}]}'
    )
    await _assert_rejected(fundox, None, [], raw=raw)


async def test_duplicate_player(fundox: httpx.AsyncClient) -> None:
    body = game("club", "g1", {"a": 1, "b": 2})
    body["players"].append({"player": "a", "rank": 2})
    problem = await _assert_rejected(fundox, body, [])
    assert "twice" in problem["detail"]


async def test_unknown_field(fundox: httpx.AsyncClient) -> None:
    body = game("club", "g1", {"a": 1, "b": 2}, weather="rain")
    await _assert_rejected(fundox, body, ["weather"])


async def test_unknown_field_in_player(fundox: httpx.AsyncClient) -> None:
    body = game("club", "g1", {"a": 1, "b": 2})
    body["players"][0]["elo"] = 1500
    await _assert_rejected(fundox, body, ["players", 0, "elo"])


@pytest.mark.parametrize(
    ("mutate", "loc"),
    [
        (lambda b: b["players"][0].update(rank=0), ["players", 0, "rank"]),
        (lambda b: b["players"][1].update(player="bad id!"), ["players", 1, "player"]),
        (lambda b: b.update(played_at="yesterday"), ["played_at"]),
        (lambda b: b.update(played_at="2026-11-29T10:00:00"), ["played_at"]),
        (lambda b: b.update(players=b["players"][:1]), ["players"]),
        (lambda b: b.pop("id"), ["id"]),
    ],
)
async def test_ranges_and_formats(fundox: httpx.AsyncClient, mutate: Any, loc: list[Any]) -> None:
    body = game("club", "g1", {"a": 1, "b": 2})
    mutate(body)
    await _assert_rejected(fundox, body, loc)


async def test_too_many_players_for_fundox(fundox: httpx.AsyncClient) -> None:
    body = game("club", "g1", {"a": 1, "b": 2, "c": 2, "d": 2, "e": 2})
    problem = await _assert_rejected(fundox, body, ["players"])
    assert "5" in problem["detail"]


async def test_naf_needs_two_players_and_event_context(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "naf")
    players = [
        {"player": "a", "rank": 1, "faction": "Orc"},
        {"player": "b", "rank": 2, "faction": "Elf"},
    ]
    base = {"ladder": "club", "id": "g1", "played_at": "2026-11-29T10:00:00Z"}
    three = {**base, "players": [*players, {"player": "c", "rank": 2, "faction": "Dwarf"}],
             "event": {"coaches": 20}}  # fmt: skip
    await _assert_rejected(client, three, ["players"])
    await _assert_rejected(client, {**base, "players": players}, ["event", "coaches"])
    no_race = {**base, "players": [players[0], {"player": "b", "rank": 2}], "event": {"coaches": 9}}
    await _assert_rejected(client, no_race, ["players", 1, "faction"])


async def test_malformed_json(fundox: httpx.AsyncClient) -> None:
    await _assert_rejected(fundox, None, [], raw=b'{"ladder": "club", ')


async def test_unknown_route_is_problem_json(client: httpx.AsyncClient) -> None:
    response = await client.get("/nowhere")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"


#: RFC 3339 times whose UTC value falls outside Python's years 1-9999.
OUT_OF_RANGE_TIMES = ("0001-01-01T00:00:00+01:00", "9999-12-31T23:30:00-01:00")


@pytest.mark.parametrize("played_at", OUT_OF_RANGE_TIMES)
async def test_a_time_outside_the_years_in_utc_is_refused(
    fundox: httpx.AsyncClient, played_at: str
) -> None:
    body = game("club", "g1", {"a": 1, "b": 2})
    body["played_at"] = played_at
    problem = await _assert_rejected(fundox, body, ["played_at"])
    assert "outside years 1 to 9999" in str(problem["errors"])


@pytest.mark.parametrize(
    "as_of", [*OUT_OF_RANGE_TIMES, "9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00Z"]
)
@pytest.mark.parametrize(
    "path",
    ["/ladders/club/players/a", "/ladders/club/players/a/history", "/ladders/club/leaderboard"],
)
async def test_as_of_at_the_edges_of_time_is_answered_or_refused(
    fundox: httpx.AsyncClient, path: str, as_of: str
) -> None:
    """Never a 500: outside the years in UTC a 422 naming as_of; at the very edges an answer
    (nothing was played by then, or everything was)."""
    await fundox.post("/games", json=game("club", "g1", {"a": 1, "b": 2}))
    response = await fundox.get(path, params={"as_of": as_of})
    if as_of in OUT_OF_RANGE_TIMES:
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["loc"] == ["query", "as_of"]
    else:
        assert response.status_code in (200, 404), response.text


@pytest.mark.parametrize("played_at", [1_700_000_000, "1700000000", "9", "2026-11-29", True])
async def test_a_time_that_is_not_rfc_3339_is_refused(
    fundox: httpx.AsyncClient, played_at: object
) -> None:
    """Not seconds since 1970, as number or text, nor a date alone (API.md: RFC 3339)."""
    body = game("club", "g1", {"a": 1, "b": 2})
    body["played_at"] = played_at
    await _assert_rejected(fundox, body, ["played_at"])


@pytest.mark.parametrize("as_of", ["9", "1700000000", "True", "2026-11-29"])
async def test_as_of_that_is_not_rfc_3339_is_refused(fundox: httpx.AsyncClient, as_of: str) -> None:
    await fundox.post("/games", json=game("club", "g1", {"a": 1, "b": 2}))
    response = await fundox.get("/ladders/club/players/a/history", params={"as_of": as_of})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["query", "as_of"]


async def test_the_inputs_that_overflowed_fundox_are_refused_by_their_ranges(
    client: httpx.AsyncClient,
) -> None:
    """Two ratings near the largest float and an exchange of 1e308 once gave the winner
    1.79e308 + 5e307 = inf. Every parameter and adjusted rating now has a range that keeps
    the arithmetic finite, so those inputs are refused where they are given (a result that
    still overflows, in Glicko-2, is tests/api/test_glicko.py's overflow test)."""
    refused = await client.post(
        "/ladders",
        json={"id": "overflowing", "system": "fundox", "params": {"max_exchange": 1e308}},
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["loc"] == ["params", "max_exchange"]
    await make_ladder(client, "club", "fundox")
    adjusted = await client.put("/ladders/club/players/x", json={"rating": 1.79e308, "at": at(0)})
    assert adjusted.status_code == 422, adjusted.text
    assert (await client.get("/ladders/club")).json()["players"] == 0
