from __future__ import annotations

import httpx
import pytest
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.core.database import Database
from app.main import create_app
from tests.conftest import make_settings
from tests.helpers import game, make_ladder

pytestmark = pytest.mark.anyio


async def test_writes_need_the_admin_token(client: httpx.AsyncClient) -> None:
    body = {"id": "club", "system": "elo"}
    missing = await client.post("/ladders", json=body, headers={"Authorization": ""})
    assert missing.status_code == 401
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = await client.post("/ladders", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert (await client.get("/ladders")).json()["total"] == 0


async def test_reads_need_a_token_unless_public(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    anonymous = await client.get("/ladders/club", headers={"Authorization": ""})
    assert anonymous.status_code == 401
    app = create_app(make_settings(public_reads=True), database=database)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test"
    ) as public:
        assert (await public.get("/ladders/club")).status_code == 200
        refused = await public.post("/games", json=game("club", "g1", {"a": 1, "b": 2}))
        assert refused.status_code == 401


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz", headers={"Authorization": ""})).status_code == 200
    ready = await client.get("/readyz", headers={"Authorization": ""})
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready"}


async def test_readyz_is_503_when_every_connection_is_busy(database_url: str) -> None:
    """A full pool is "not ready" (503), as the other routes answer, not an unhandled 500."""
    busy = Database(database_url, pool_size=1, max_overflow=0, pool_timeout=0.1)
    held = []
    try:
        while True:  # take every connection the pool has (SQLite's has its own size)
            held.append(busy.engine.connect())
    except PoolTimeout:
        pass
    app = create_app(make_settings(), database=busy)
    try:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://ratings.test"
        ) as http:
            response = await http.get("/readyz")
        assert response.status_code == 503, response.text
        assert response.headers["content-type"] == "application/problem+json"
        assert response.headers["retry-after"]
    finally:
        for connection in held:
            connection.close()
        busy.dispose()


async def test_readyz_is_503_when_the_database_is_gone() -> None:
    broken = Database("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1")
    app = create_app(make_settings(), database=broken)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test"
    ) as http:
        response = await http.get("/readyz")
    assert response.status_code == 503
    assert response.headers["retry-after"]
    broken.dispose()
