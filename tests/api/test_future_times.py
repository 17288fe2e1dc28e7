"""Results in the future are refused (issue 40, item 1): a game dated 2030 would stand after
every real game of its players, so each later one would arrive "late" and replay it. The
time may run ahead of the server's clock by RATINGS_FUTURE_TOLERANCE_SECONDS (default 300);
past that, POST /games, PUT, batches, tournaments, adjustments and imports answer 422 naming
the field and the server's time, and store nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio

FUTURE = "2030-01-01T12:00:00Z"


def _rfc3339(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def _ahead(seconds: int) -> str:
    return _rfc3339(datetime.now(UTC) + timedelta(seconds=seconds))


def _refused(response: httpx.Response, loc: list[Any]) -> str:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    errors = response.json()["errors"]
    assert [e["loc"] for e in errors] == [loc]
    message: str = errors[0]["msg"]
    assert message.startswith("is in the future")
    assert "the server's time is " in message
    return message


def _server_time(message: str) -> datetime:
    text = message.split("the server's time is ")[1][:20]
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_a_game_in_the_future_is_refused_naming_the_field_and_the_servers_time(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "elo")
    before = datetime.now(UTC).replace(microsecond=0)
    body = {**game("club", "g1", {"ann": 1, "bob": 2}), "played_at": FUTURE}
    message = _refused(await client.post("/games", json=body), ["played_at"])
    assert "got 2030-01-01T12:00:00Z" in message
    assert "at most 300 s ahead" in message
    assert before <= _server_time(message) <= datetime.now(UTC)
    # Nothing stored: no game, no player.
    assert (await client.get("/ladders/club/games/g1")).status_code == 404
    assert (await client.get("/ladders/club/players/ann")).status_code == 404
    # A dry run is refused the same way.
    dry = await client.post("/games", params={"dry_run": "true"}, json=body)
    _refused(dry, ["played_at"])


async def test_a_clock_a_little_ahead_is_tolerated_and_past_the_tolerance_is_not(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "elo")
    # 60 s ahead: within the default 300 s.
    await post_game(client, {**game("club", "g1", {"ann": 1, "bob": 2}), "played_at": _ahead(60)})
    late = {**game("club", "g2", {"ann": 1, "bob": 2}), "played_at": _ahead(600)}
    _refused(await client.post("/games", json=late), ["played_at"])


async def test_a_correction_into_the_future_is_refused_and_the_game_is_unchanged(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "elo")
    body = game("club", "g1", {"ann": 1, "bob": 2})
    stored = await post_game(client, body)
    response = await client.put("/ladders/club/games/g1", json={**body, "played_at": FUTURE})
    _refused(response, ["played_at"])
    now = (await client.get("/ladders/club/games/g1")).json()
    assert now["played_at"] == stored["played_at"] == body["played_at"]


async def test_a_batch_with_one_future_game_stores_nothing(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    games = [
        game("club", "g1", {"ann": 1, "bob": 2}),
        {**game("club", "g2", {"ann": 1, "bob": 2}), "played_at": FUTURE},
    ]
    response = await client.post("/games/batch", json={"games": games})
    _refused(response, ["games", 1, "played_at"])
    assert (await client.get("/ladders/club/games/g1")).status_code == 404


async def test_a_tournament_held_on_a_day_not_yet_begun_anywhere_is_refused(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "wdd", "dptr")
    standings = [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 2}]
    body: dict[str, Any] = {"ladder": "wdd", "id": "t1", "standings": standings}
    # Two days ahead in UTC has begun nowhere (the earliest calendar is UTC+14).
    ahead = (datetime.now(UTC) + timedelta(days=2)).date().isoformat()
    message = _refused(
        await client.post("/tournaments", json={**body, "held_on": ahead}), ["held_on"]
    )
    assert f"got {ahead}" in message
    assert (await client.get("/ladders/wdd/tournaments/t1")).status_code == 404
    # Today (UTC) has begun everywhere east of UTC: accepted.
    today = datetime.now(UTC).date().isoformat()
    created = await client.post("/tournaments", json={**body, "held_on": today})
    assert created.status_code == 201, created.text
    corrected = await client.put("/ladders/wdd/tournaments/t1", json={**body, "held_on": ahead})
    _refused(corrected, ["held_on"])
    season = [
        {**body, "id": "t2", "held_on": today},
        {**body, "id": "t3", "held_on": ahead},
    ]
    batch = await client.post("/tournaments/batch", json={"tournaments": season})
    _refused(batch, ["tournaments", 1, "held_on"])
    assert (await client.get("/ladders/wdd/tournaments/t2")).status_code == 404


async def test_an_adjustment_in_the_future_is_refused(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    response = await client.put("/ladders/club/players/ann", json={"rating": 1700, "at": FUTURE})
    _refused(response, ["at"])
    assert (await client.get("/ladders/club/players/ann")).status_code == 404


async def test_an_import_with_a_future_line_names_it_and_applies_nothing(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "club", "elo")
    lines = [
        game("club", "g1", {"ann": 1, "bob": 2}),
        {**game("club", "g2", {"ann": 1, "bob": 2}), "played_at": FUTURE},
        {"adjustment": {"player": "cid", "rating": 1600, "at": FUTURE}},
    ]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "line 2: played_at: is in the future: got 2030-01-01T12:00:00Z" in err
    assert "line 3: adjustment.at: is in the future" in err
    assert "nothing was imported" in err
    assert (await client.get("/ladders/club/games/g1")).status_code == 404
    # The tolerance is a setting.
    monkeypatch.setenv("RATINGS_FUTURE_TOLERANCE_SECONDS", "0")
    path.write_text(json.dumps({**lines[0], "played_at": _ahead(120)}) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 1
    assert "at most 0 s ahead" in " ".join(capsys.readouterr().err.split())
    path.write_text(json.dumps({**lines[0], "played_at": at(0)}) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
