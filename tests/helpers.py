"""Small builders for request bodies used across API tests."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from hypothesis import strategies as st
from sqlalchemy import text

from app.core.database import Database

#: Finite JSON scalars, the leaves of the property tests' JSON values.
JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)

#: A base for results' times: far enough back that tests placing games a week after it stay
#: in the past (the service refuses results in the future), recent enough that games near it
#: count as active in Fundox's 30 days.
RECENT = datetime.now(UTC).replace(microsecond=0) - timedelta(days=10)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (for a test's own server)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def at(minutes: int = 0, base: datetime = RECENT) -> str:
    """An RFC 3339 time ``minutes`` after a recent base time."""
    return (base + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def game(
    ladder: str, game_id: str, ranks: dict[str, int], minutes: int = 0, **extra: Any
) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": game_id,
        "played_at": at(minutes),
        "players": [{"player": p, "rank": r} for p, r in ranks.items()],
        **extra,
    }


async def make_ladder(
    client: httpx.AsyncClient, ladder_id: str, system: str, **params: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"id": ladder_id, "system": system}
    if params:
        body["params"] = params
    response = await client.post("/ladders", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def post_game(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def by_player(changes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["player"]: c for c in changes}


def stored_ratings(database: Database, ladder: str) -> dict[str, tuple[float, int, int]]:
    """Each player's stored (rating, games, wins) in ``ladder``, read from the table."""
    with database.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT player, rating, games, wins FROM player_ratings "
                "WHERE ladder_id = :ladder ORDER BY player"
            ),
            {"ladder": ladder},
        )
        return {r[0]: (r[1], r[2], r[3]) for r in rows}


async def post_then_disconnect(
    app: Any, path: str, json: Any, gone: Any, *, wait_seconds: float, auth: str
) -> int:
    """POST ``json`` to ``path`` straight through the ASGI ``app`` as a client that sends
    its body and disconnects once ``gone`` (a ``threading.Event``) is set (within
    ``wait_seconds``); returns the status the app answered (499 for an abandoned request)."""
    import asyncio
    import time

    body = httpx.Request("POST", "/", json=json).content
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        deadline = time.monotonic() + wait_seconds
        while not gone.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return {"type": "http.disconnect"}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"ratings.test"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"authorization", auth.encode()),
        ],
        "client": ("127.0.0.1", 50_001),
        "server": ("ratings.test", 80),
        "state": {},
    }
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return int(start["status"])


def rating_rows(database: Database) -> list[tuple[Any, ...]]:
    """Every stored rating row's state, statistics and last event, in a fixed order: what
    a full replay must give again."""
    with database.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT ladder_id, player, faction, rating, deviation, volatility, games, wins, "
                "losses, last_event_seq FROM player_ratings ORDER BY ladder_id, player, faction"
            )
        )
        return [tuple(row) for row in rows]
