"""Safe concurrent corrections (issue 40, item 10): a stored game or tournament carries an
ETag naming its version (1 when stored, one more per correction and void), on GET and on
every write's response; PUT and DELETE honour If-Match, and a stale one is a 412
problem+json that changes nothing (RFC 9110 13.1.1)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio


def _tag(seq: int, version: int) -> str:
    return f'"{seq}.{version}"'


async def test_two_admins_correcting_one_game_the_second_gets_412_and_nothing_changes(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "elo")
    body = game("club", "g1", {"ann": 1, "bob": 2})
    created = await client.post("/games", json=body)
    assert created.status_code == 201
    seq = created.json()["seq"]
    assert created.json()["version"] == 1
    assert created.headers["etag"] == _tag(seq, 1)
    # The same body again (idempotent repeat): the stored version.
    again = await client.post("/games", json=body)
    assert again.status_code == 200
    assert again.headers["etag"] == _tag(seq, 1)

    # Both admins read version 1.
    read = await client.get("/ladders/club/games/g1")
    assert read.headers["etag"] == _tag(seq, 1)
    tag = read.headers["etag"]

    # The first corrects it (a draw): version 2.
    draw = {**body, "players": [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 1}]}
    first = await client.put("/ladders/club/games/g1", json=draw, headers={"If-Match": tag})
    assert first.status_code == 200, first.text
    assert first.headers["etag"] == _tag(seq, 2)
    assert first.json()["version"] == 2

    # The second, still holding version 1, is refused: 412, and the game stays a draw.
    swapped = {**body, "players": [{"player": "ann", "rank": 2}, {"player": "bob", "rank": 1}]}
    second = await client.put("/ladders/club/games/g1", json=swapped, headers={"If-Match": tag})
    assert second.status_code == 412
    assert second.headers["content-type"] == "application/problem+json"
    problem = second.json()
    assert problem["title"] == "Precondition failed"
    assert f"version 2 (ETag {_tag(seq, 2)})" in problem["detail"]
    now = await client.get("/ladders/club/games/g1")
    assert now.headers["etag"] == _tag(seq, 2)
    # Elo, k=32, both from 1500: a draw moves neither (expected score 1/2).
    assert [c["rating_after"] for c in now.json()["changes"]] == [1500.0, 1500.0]

    # A stale DELETE is refused as well; with the current tag it voids: version 3.
    stale = await client.delete("/ladders/club/games/g1", headers={"If-Match": tag})
    assert stale.status_code == 412
    assert (await client.get("/ladders/club/games/g1")).json()["voided"] is False
    voided = await client.delete("/ladders/club/games/g1", headers={"If-Match": _tag(seq, 2)})
    assert voided.status_code == 200, voided.text
    assert voided.json()["voided"] is True
    assert voided.headers["etag"] == _tag(seq, 3)
    # Voiding a voided game changes nothing, and so no version.
    repeat = await client.delete("/ladders/club/games/g1")
    assert repeat.headers["etag"] == _tag(seq, 3)


@pytest.mark.parametrize(
    ("if_match", "status"),
    [
        ("*", 200),  # any version
        ('"1.9", {current}', 200),  # a list: one of them matches
        ("W/{current}", 412),  # weak tags never match If-Match's strong comparison
        ('"999.1"', 412),  # another result's tag
    ],
)
async def test_if_match_forms(client: httpx.AsyncClient, if_match: str, status: int) -> None:
    await make_ladder(client, "club", "elo")
    created = await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}))
    current = _tag(created["seq"], 1)
    body: dict[str, Any] = game("club", "g1", {"ann": 2, "bob": 1})
    response = await client.put(
        "/ladders/club/games/g1", json=body, headers={"If-Match": if_match.format(current=current)}
    )
    assert response.status_code == status, response.text


async def test_without_if_match_the_last_write_wins_as_before(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    body = game("club", "g1", {"ann": 1, "bob": 2})
    await post_game(client, body)
    for version in (2, 3):
        response = await client.put("/ladders/club/games/g1", json=body)
        assert response.status_code == 200
        assert response.json()["version"] == version


async def test_tournaments_carry_etags_and_honour_if_match(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "wdd", "dptr")
    standings = [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 2}]
    body = {"ladder": "wdd", "id": "t1", "held_on": "2026-11-01", "standings": standings}
    created = await client.post("/tournaments", json=body)
    assert created.status_code == 201
    seq = created.json()["seq"]
    assert created.headers["etag"] == _tag(seq, 1)
    assert (await client.get("/ladders/wdd/tournaments/t1")).headers["etag"] == _tag(seq, 1)
    corrected = await client.put(
        "/ladders/wdd/tournaments/t1",
        json={**body, "name": "Autumn open"},
        headers={"If-Match": _tag(seq, 1)},
    )
    assert corrected.headers["etag"] == _tag(seq, 2)
    stale = await client.delete("/ladders/wdd/tournaments/t1", headers={"If-Match": _tag(seq, 1)})
    assert stale.status_code == 412
    now = (await client.get("/ladders/wdd/tournaments/t1")).json()
    assert (now["name"], now["voided"], now["version"]) == ("Autumn open", False, 2)
    # A dry run stores nothing, so it has no version and no ETag.
    dry = await client.post("/tournaments", params={"dry_run": "true"}, json={**body, "id": "t2"})
    assert dry.status_code == 200
    assert "etag" not in dry.headers
