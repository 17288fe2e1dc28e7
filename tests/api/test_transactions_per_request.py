"""How many database transactions a write costs, counted with SQLAlchemy's ``begin`` event.

The write path is planned once (docs/architecture.md, "The write path"): a write is one unit
of work, and authenticating an API key and counting it against its rate limit happen inside
that unit's transaction, so a key costs what the admin token costs. These bounds fail the
build if a change adds a transaction to a write.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from app.core.database import Database
from tests.helpers import game, make_ladder

pytestmark = pytest.mark.anyio

#: Transactions per request, with the admin token and with an API key: (new game, late game,
#: correction). Each is one unit of work; a late game that no group takes is answered by one
#: more transaction of its own (the group's, which deferred it, is the first).
BOUNDS = {
    "admin": {"new": 1, "late": 2, "put": 1},
    "key": {"new": 1, "late": 2, "put": 1},
}


@contextmanager
def counting(database: Database) -> Iterator[list[int]]:
    begun = [0]

    def on_begin(_connection: Any) -> None:
        begun[0] += 1

    event.listen(database.engine, "begin", on_begin)
    try:
        yield begun
    finally:
        event.remove(database.engine, "begin", on_begin)


async def _key(client: httpx.AsyncClient) -> dict[str, str]:
    response = await client.post(
        "/keys",
        json={
            "name": "site",
            "scopes": ["results:write", "ladders:admin"],
            "ladders": ["tx"],
        },
    )
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['key']}"}


@pytest.mark.parametrize("caller", ["admin", "key"])
async def test_a_write_is_one_transaction(
    client: httpx.AsyncClient, database: Database, caller: str
) -> None:
    await make_ladder(client, "tx", "elo")
    headers = await _key(client) if caller == "key" else {}
    first = await client.post("/games", json=game("tx", "g1", {"a": 1, "b": 2}, 10))
    assert first.status_code == 201, first.text
    counts = {}
    with counting(database) as begun:
        response = await client.post(
            "/games", json=game("tx", "g2", {"a": 1, "c": 2}, 20), headers=headers
        )
        assert response.status_code == 201, response.text
        counts["new"] = begun[0]
    with counting(database) as begun:
        # Earlier than a's last game: re-rates a's cone.
        response = await client.post(
            "/games", json=game("tx", "g3", {"a": 2, "d": 1}, 5), headers=headers
        )
        assert response.status_code == 201, response.text
        assert response.json()["recomputed_events"] >= 1
        counts["late"] = begun[0]
    with counting(database) as begun:
        response = await client.put(
            "/ladders/tx/games/g1", json=game("tx", "g1", {"a": 2, "b": 1}, 10), headers=headers
        )
        assert response.status_code == 200, response.text
        counts["put"] = begun[0]
    print(f"transactions per request ({caller}, {database.dialect}): {counts}")
    grown = {k: (v, BOUNDS[caller][k]) for k, v in counts.items() if v > BOUNDS[caller][k]}
    assert not grown, f"transactions per request grew (counted, bound): {grown}"
