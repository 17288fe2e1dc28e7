"""Operations: limits, CORS and security headers, metrics after known traffic, JSON logs."""

from __future__ import annotations

import json
import logging

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.core.database import Database
from app.core.logging import JsonFormatter
from app.main import create_app
from tests.conftest import AUTH, make_settings
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio

SECURITY_HEADERS = ("x-content-type-options", "x-frame-options", "referrer-policy")


def _client(database: Database, **settings: object) -> httpx.AsyncClient:
    app = create_app(make_settings(**settings), database=database)
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test", headers=AUTH
    )


async def test_body_over_the_limit_is_413(database: Database) -> None:
    async with _client(database, max_body_bytes=2048) as http:
        await make_ladder(http, "club", "fundox")
        body = game("club", "g1", {"a": 1, "b": 2}, tournament="x" * 10)
        body["padding"] = "y" * 4096
        response = await http.post("/games", json=body)
        assert response.status_code == 413
        assert response.headers["content-type"] == "application/problem+json"
        assert (await http.get("/ladders/club")).json()["games"] == 0


async def test_configured_size_limits(database: Database) -> None:
    async with _client(database, max_field_players=3, max_batch_games=2) as http:
        await make_ladder(http, "club", "elo")
        four = game("club", "g1", {"a": 1, "b": 2, "c": 2, "d": 2})
        response = await http.post("/games", json=four)
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"] == ["players"]
        games = [game("club", f"g{i}", {"a": 1, "b": 2}, minutes=i) for i in range(3)]
        assert (await http.post("/games/batch", json={"games": games})).status_code == 422


async def test_security_headers_on_every_response(client: httpx.AsyncClient) -> None:
    for response in (
        await client.get("/healthz"),
        await client.get("/ladders/none"),
        await client.post("/ladders", json={"id": "x"}),
        await client.get("/ladders", headers={"Authorization": ""}),
    ):
        for header in SECURITY_HEADERS:
            assert header in response.headers, (response.status_code, header)
        assert response.headers["x-request-id"]
        assert response.headers["content-security-policy"].startswith("default-src 'none'")


async def test_cors_for_configured_origins_only(database: Database) -> None:
    allowed = "https://lobby.example.org"
    async with _client(database, cors_origins=allowed) as http:
        preflight = await http.options(
            "/predictions",
            headers={
                "Origin": allowed,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization,content-type",
            },
        )
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == allowed
        assert "access-control-allow-credentials" not in preflight.headers
        other = await http.get("/systems", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
        # A page may read how much of its rate limit is left (docs/api.md "Calling from a
        # browser"), and what to wait after a 429.
        read = await http.get("/systems", headers={"Origin": allowed})
        exposed = {
            h.strip().lower() for h in read.headers["access-control-expose-headers"].split(",")
        }
        assert {
            "retry-after",
            "ratelimit-limit",
            "ratelimit-remaining",
            "ratelimit-reset",
        } <= exposed


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in a /metrics page (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return float(found.value)
    return 0.0


async def test_metrics_count_known_traffic(client: httpx.AsyncClient) -> None:
    before = (await client.get("/metrics")).text
    await make_ladder(client, "metered", "fundox")
    for index in range(3):
        await post_game(client, game("metered", f"g{index}", {"a": 1, "b": 2}, minutes=index))
    await client.get("/ladders/metered/games/nope")
    after = (await client.get("/metrics")).text
    applied = {"ladder": "metered", "system": "fundox", "kind": "game"}
    assert (
        sample(after, "ratings_events_applied_total", **applied)
        - sample(before, "ratings_events_applied_total", **applied)
        == 3
    )
    route = {"method": "POST", "route": "/games", "status": "201"}
    assert (
        sample(after, "ratings_http_requests_total", **route)
        - sample(before, "ratings_http_requests_total", **route)
        == 3
    )
    missing = {"method": "GET", "route": "/ladders/{ladder}/games/{game_id}", "status": "404"}
    assert sample(after, "ratings_http_requests_total", **missing) >= 1
    assert "ratings_http_request_duration_seconds_bucket" in after
    assert "ratings_db_pool_connections_in_use" in after


async def test_batch_recomputations_are_counted_and_extensions_are_not(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "metered-batch", "elo")
    for index, minutes in enumerate((10, 20)):
        await post_game(client, game("metered-batch", f"g{index}", {"a": 1, "b": 2}, minutes))
    labels = {"ladder": "metered-batch", "system": "elo"}

    async def counts() -> tuple[float, float]:
        text = (await client.get("/metrics")).text
        return (
            sample(text, "ratings_recomputations_total", **labels),
            sample(text, "ratings_recomputed_events_total", **labels),
        )

    before = await counts()
    # After every stored game: history is extended, nothing is recomputed.
    later = [game("metered-batch", "g-later", {"a": 2, "b": 1}, 30)]
    assert (await client.post("/games/batch", json={"games": later})).status_code == 200
    assert await counts() == before
    # Before every stored game: one recomputation, re-rating the stored games after it that
    # share a player with it: g0, g1 and g-later (all a and b), 3 (the new one not counted).
    late = [game("metered-batch", "g-late", {"a": 2, "b": 1}, 5)]
    assert (await client.post("/games/batch", json={"games": late})).status_code == 200
    after = await counts()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 3)


async def test_one_json_log_line_per_request_with_its_request_id(
    client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    await make_ladder(client, "club", "fundox")
    created = (
        await client.post("/keys", json={"name": "k", "scopes": ["read"], "ladders": ["*"]})
    ).json()
    key = created["key"]
    caplog.set_level(logging.INFO, logger="ratings.access")
    response = await client.get(
        "/ladders/club/leaderboard",
        headers={"X-Request-ID": "abc-123", "Authorization": f"Bearer {key}"},
    )
    assert response.headers["x-request-id"] == "abc-123"
    records = [
        r
        for r in caplog.records
        if r.name == "ratings.access" and getattr(r, "request_id", None) == "abc-123"
    ]
    assert len(records) == 1
    line = json.loads(JsonFormatter().format(records[0]))
    assert line["request_id"] == "abc-123"
    assert line["route"] == "/ladders/{ladder}/leaderboard"
    assert line["status"] == 200
    assert line["ladder"] == "club"
    assert line["duration_ms"] >= 0
    # Who made the request: the key's public id, never the key itself.
    assert line["key_id"] == created["id"]
    assert key not in json.dumps(line)
    generated = await client.get("/healthz", headers={"X-Request-ID": "bad id with spaces"})
    assert generated.headers["x-request-id"] != "bad id with spaces"
