"""`ratings import` / `ratings export` carry player profiles: a JSON Lines profile line
(``{"profile": {"player", "name", "country"}}``) and, in CSV, the columns ``name`` and
``country`` of each player's rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import game, make_ladder, post_game

pytestmark = pytest.mark.anyio


async def _profile(client: httpx.AsyncClient, player: str) -> tuple[Any, Any]:
    body = (await client.get(f"/players/{player}")).json()
    return body["name"], body["country"]


async def test_profiles_round_trip_exactly(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "source", "elo")
    await post_game(client, game("source", "g1", {"ann": 1, "bob": 2, "cid": 3}, minutes=1))
    assert (
        await client.put("/players/ann", json={"name": "Ann Smith", "country": "FR"})
    ).is_success
    assert (await client.put("/players/bob", json={"name": "Bob"})).is_success
    # A profile of a player outside the ladder is not the ladder's to export.
    assert (await client.put("/players/zed", json={"country": "GB"})).is_success
    out = tmp_path / "source.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "source", "--output", str(out)) == 0
    lines = out.read_text().splitlines()
    assert lines[1:3] == [
        '{"profile": {"country": "FR", "name": "Ann Smith", "player": "ann"}}',
        '{"profile": {"name": "Bob", "player": "bob"}}',
    ]
    assert len(lines) == 1 + 2 + 1
    # Profiles changed meanwhile are set back by the import (the line is the whole profile).
    assert (await client.put("/players/ann", json={"name": "Someone else"})).is_success
    assert (await client.put("/players/bob", json={"name": "B", "country": "DE"})).is_success
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "copy") == 0
    assert await _profile(client, "ann") == ("Ann Smith", "FR")
    assert await _profile(client, "bob") == ("Bob", None)
    again = tmp_path / "copy.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "copy", "--output", str(again)) == 0
    assert again.read_text().splitlines()[1:] == lines[1:]


async def test_csv_name_and_country_columns(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "games.csv"
    path.write_text(
        "id,played_at,player,rank,name,country\n"
        "g1,2026-11-07T18:00:00Z,ann,1,Ann Smith,FR\n"
        "g1,2026-11-07T18:00:00Z,bob,2,,\n"
        # ann again: a blank cell says nothing, the country agrees.
        "g2,2026-11-08T18:00:00Z,ann,2,,FR\n"
        "g2,2026-11-08T18:00:00Z,cid,1,Cid,\n"
    )
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    assert await _profile(client, "ann") == ("Ann Smith", "FR")
    assert await _profile(client, "cid") == ("Cid", None)
    assert (await client.get("/players/bob")).json()["name"] is None
    # The games are stored as without the columns: their bodies hold no profile.
    g1 = (await client.get("/ladders/club/games/g1")).json()
    assert [c["player"] for c in g1["changes"]] == ["ann", "bob"]


@pytest.mark.parametrize(
    ("content", "fmt", "expected"),
    [
        # Two rows of one player that disagree.
        (
            "id,played_at,player,rank,country\n"
            "g1,2026-11-07T18:00:00Z,ann,1,FR\ng1,2026-11-07T18:00:00Z,bob,2,\n"
            "g2,2026-11-08T18:00:00Z,ann,1,BE\ng2,2026-11-08T18:00:00Z,bob,2,\n",
            "csv",
            "line 4: country: 'BE' differs from 'FR' on line 2, an earlier row of player 'ann'",
        ),
        (
            "id,played_at,player,rank,country\n"
            "g1,2026-11-07T18:00:00Z,ann,1,UK\ng1,2026-11-07T18:00:00Z,bob,2,\n",
            "csv",
            "line 2: country: Value error, 'UK' is not an ISO 3166-1 alpha-2 country code",
        ),
        (
            '{"profile": {"player": "ann", "name": ""}}\n',
            "jsonl",
            "line 1: name: String should have at least 1 character",
        ),
        (
            '{"profile": {"player": "ann", "country": "FR"}}\n'
            '{"profile": {"player": "ann", "country": "BE"}}\n',
            "jsonl",
            "line 2: profile: differs from line 1, player 'ann''s profile there",
        ),
        (
            '{"profile": {"player": "a b"}}\n',
            "jsonl",
            "line 1: player: String should match pattern",
        ),
        (
            '{"profile": {"player": "ann"}, "players": []}\n',
            "jsonl",
            'line 1: a profile line is {"profile": {"player", "name", "country"}}',
        ),
    ],
)
async def test_bad_profiles_are_numbered_errors(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: str,
    fmt: str,
    expected: str,
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / f"file.{fmt}"
    path.write_text(content)
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 1
    report = " ".join(capsys.readouterr().err.split())
    assert expected in report
    assert (await client.get("/ladders/club")).json()["games"] == 0
    assert (await client.get("/players/ann")).status_code == 404


async def test_a_file_of_profiles_only(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "profiles.jsonl"
    lines = [{"profile": {"player": "ann", "name": "Ann", "country": "FR"}}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    assert await _profile(client, "ann") == ("Ann", "FR")
