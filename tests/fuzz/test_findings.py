"""What the fuzzers found, pinned as plain deterministic tests (each fails until fixed).

The fuzzers meet these inputs only by chance in a bounded run; here each one is sent on purpose,
on SQLite and PostgreSQL, so a fix (or a regression) shows every time.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.main import create_app
from tests.conftest import AUTH, make_settings
from tests.helpers import make_ladder

pytestmark = pytest.mark.anyio

PROBLEM_JSON = "application/problem+json"
DOCUMENT: dict[str, Any] = create_app(make_settings()).openapi()


def assert_problem(response: httpx.Response, status: int) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON), response.headers
    problem = response.json()
    assert problem["status"] == status
    assert {"type", "title", "detail"} <= problem.keys()


async def _setup(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "elo", "elo")
    await make_ladder(client, "naf", "naf")
    await make_ladder(client, "wdd", "dptr")
    game = {
        "ladder": "naf",
        "id": "g1",
        "played_at": "2026-01-01T10:00:00Z",
        "event": {"coaches": 20},
        "players": [
            {"player": "alice", "faction": "Orc", "rank": 1},
            {"player": "bob", "faction": "Elf", "rank": 2},
        ],
    }
    assert (await client.post("/games", json=game)).status_code == 201


# Query integers without an upper bound reach the database: psycopg / sqlite3 overflow (500).
HUGE = 2**63


@pytest.mark.parametrize(
    "url",
    [
        f"/ladders?offset={HUGE}",
        f"/keys?offset={HUGE}",
        f"/ladders/naf/players/alice/history?offset={HUGE}",
        f"/ladders/naf/leaderboard?offset={HUGE}",
        f"/ladders/naf/leaderboard?min_games={HUGE}",
        f"/ladders/naf/leaderboard?min_games={2**31}",  # PostgreSQL INTEGER
    ],
)
async def test_huge_query_integers_are_refused_not_500(client: httpx.AsyncClient, url: str) -> None:
    await _setup(client)
    response = await client.get(url)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert_problem(response, response.status_code)


# PostgreSQL cannot store U+0000 in text or jsonb: every free-text field must refuse it (422).
NUL = "nul\u0000byte"


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        (
            "POST",
            "/games",
            {
                "ladder": "elo",
                "id": "g-nul",
                "played_at": "2026-01-02T10:00:00Z",
                "players": [
                    {"player": "alice", "rank": 1, "faction": NUL},
                    {"player": "bob", "rank": 2},
                ],
            },
        ),
        (
            "POST",
            "/tournaments",
            {
                "ladder": "wdd",
                "id": "t-nul",
                "held_on": "2012-08-04",
                "name": NUL,
                "standings": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
            },
        ),
        ("POST", "/ladders", {"id": "nul", "system": "elo", "title": NUL}),
        ("PATCH", "/ladders/elo", {"title": NUL}),
        ("PUT", "/ladders/elo/players/carol", {"rating": 1600, "reason": NUL}),
        ("POST", "/keys", {"name": NUL, "scopes": ["read"]}),
        (
            "POST",
            "/predictions",
            {"ladder": "naf", "players": [{"player": "alice", "faction": NUL}, {"player": "x"}]},
        ),
        ("GET", "/ladders/naf/leaderboard?faction=nul%00byte", None),
        ("GET", "/ladders/naf/players/alice/history?faction=nul%00byte", None),
    ],
)
async def test_nul_in_free_text_is_refused_not_500(
    client: httpx.AsyncClient, method: str, url: str, body: dict[str, Any] | None
) -> None:
    await _setup(client)
    response = await client.request(method, url, json=body)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert_problem(response, response.status_code)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        (method.upper(), path)
        for path, operations in DOCUMENT["paths"].items()
        for method in operations
        if "requestBody" in operations[method]
    ],
)
async def test_a_body_that_is_not_utf8_gets_a_documented_status(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    """Malformed JSON text is a 422 ("JSON decode error"); bytes that are not UTF-8 get
    FastAPI's 400 "There was an error parsing the body", which no operation declares."""
    url = path.replace("{ladder}", "elo").replace("{player}", "alice")
    url = url.replace("{game_id}", "g1").replace("{tournament_id}", "t1")
    headers = {"content-type": "application/json"}
    response = await client.request(method, url, content=b'{"id": "\xff\xfe"}', headers=headers)
    assert response.status_code < 500, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON), response.headers
    documented = DOCUMENT["paths"][path][method.lower()]["responses"]
    assert str(response.status_code) in documented, (response.status_code, sorted(documented))


@pytest.mark.parametrize(
    ("path", "methods"),
    [
        (path, sorted(m.upper() for m in operations))
        for path, operations in DOCUMENT["paths"].items()
        if len(operations) > 1
    ],
)
async def test_405_allow_names_every_method_of_the_path(path: str, methods: list[str]) -> None:
    """RFC 9110 15.5.6: a 405 lists the target resource's methods; the service lists only those
    of the first route matching the path (FastAPI registers one route per method)."""
    url = path.replace("{ladder}", "elo").replace("{player}", "alice")
    url = url.replace("{game_id}", "g1").replace("{tournament_id}", "t1")
    url = url.replace("{key_id}", "k1")
    transport = httpx.ASGITransport(app=create_app(make_settings()))
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=AUTH) as http:
        response = await http.request("OPTIONS", url)
    assert_problem(response, 405)
    allowed = {m.strip() for m in response.headers["allow"].split(",")}
    assert set(methods) <= allowed, (response.headers["allow"], methods)


async def test_readyz_503_is_the_documented_problem_json() -> None:
    """API.md: every error is problem+json, and the document declares problem+json for the 503;
    the service answers ``{"status": "unavailable"}`` as application/json."""
    down = Database("postgresql+psycopg://nobody@127.0.0.1:1/none", pool_size=1, max_overflow=0)
    app = create_app(make_settings(), database=down)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            response = await http.get("/readyz")
    finally:
        down.dispose()
    assert_problem(response, 503)
