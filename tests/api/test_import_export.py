"""`ratings import` / `ratings export`: validation report, atomicity, exact round trip."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from app.cli import main
from app.core.database import Database
from app.core.settings import get_settings
from tests.helpers import at, game, make_ladder, post_game

pytestmark = pytest.mark.anyio


def run_cli(monkeypatch: pytest.MonkeyPatch, database: Database, *args: str) -> int:
    monkeypatch.setenv("RATINGS_DATABASE_URL", database.url.render_as_string(hide_password=False))
    get_settings.cache_clear()
    try:
        main(list(args))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    finally:
        get_settings.cache_clear()
    return 0


async def _board(client: httpx.AsyncClient, ladder: str) -> list[tuple[str, float, int]]:
    entries = (
        await client.get(f"/ladders/{ladder}/leaderboard?active_within_days=0&limit=500")
    ).json()["entries"]
    return [(e["player"], e["rating"], e["games"]) for e in entries]


async def test_export_then_import_reproduces_ratings_exactly(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "source", "glicko2", period="day")
    await client.put(
        "/ladders/source/players/p0", json={"rating": 1700, "deviation": 80, "at": at(0)}
    )
    for index in range(12):
        ranks = {f"p{index % 4}": 1, f"p{(index + 1) % 4}": 2, f"p{(index + 2) % 4}": 2}
        await post_game(client, game("source", f"g{index}", ranks, minutes=90 * (12 - index)))
    out = tmp_path / "source.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "source", "--output", str(out)) == 0
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["ladder"]["system"] == "glicko2"
    assert len(lines) == 1 + 1 + 12
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "copy") == 0
    assert await _board(client, "copy") == await _board(client, "source")
    # Importing again applies nothing twice (games are idempotent by id).
    copy_games = (await client.get("/ladders/copy")).json()["games"]
    assert copy_games == 12


async def test_invalid_lines_are_reported_and_nothing_is_applied(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "club", "fundox")
    good = [game("club", f"g{i}", {"a": 1, "b": 2}, minutes=i) for i in range(3)]
    five = game("club", "bad", {"a": 1, "b": 2, "c": 2, "d": 2, "e": 2})
    lines = [json.dumps(good[0]), "{not json", json.dumps(good[1]), json.dumps(five)]
    lines.append(json.dumps(good[2]))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 1
    report = capsys.readouterr().err
    assert "line 2" in report
    assert "line 4" in report
    assert (await client.get("/ladders/club")).json()["games"] == 0
    code = run_cli(monkeypatch, database, "import", str(path), "--ladder", "club", "--skip-invalid")
    assert code == 0
    assert (await client.get("/ladders/club")).json()["games"] == 3


async def test_csv_import(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "naf", "naf")
    path = tmp_path / "naf.csv"
    path.write_text(
        "id,played_at,player,rank,faction,event_coaches\n"
        f"g1,{at(1)},ann,1,Orc,48\n"
        f"g1,{at(1)},bob,2,Elf,48\n"
        f"g2,{at(2)},ann,2,Orc,12\n"
        f"g2,{at(2)},cat,1,Dwarf,12\n"
    )
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "naf") == 0
    ann = (await client.get("/ladders/naf/players/ann")).json()["ratings"][0]
    k_48, k_12 = 2 * 32**0.5, 2 * 12**0.5
    after_first = 150 + k_48 / 2
    expected = after_first - k_12 * (1 / (10 ** ((150 - after_first) / 150) + 1))
    assert ann["rating"] == pytest.approx(expected)
    assert ann["games"] == 2


async def test_reimport_applies_nothing_twice_and_conflicts_are_reported(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "club", "fundox")
    lines = [
        json.dumps({"adjustment": {"player": "a", "rating": 1700, "at": at(0)}}),
        json.dumps(game("club", "g1", {"a": 1, "b": 2}, minutes=1)),
    ]
    path = tmp_path / "club.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    first = (await client.get("/ladders/club/players/a/history")).json()
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    assert (await client.get("/ladders/club/players/a/history")).json() == first
    changed = tmp_path / "changed.jsonl"
    changed.write_text(json.dumps(game("club", "g1", {"a": 2, "b": 1}, minutes=1)) + "\n")
    assert run_cli(monkeypatch, database, "import", str(changed), "--ladder", "club") == 1
    assert "already stored with a different body" in capsys.readouterr().err


async def test_commands_refuse_an_unknown_ladder_or_time_without_a_traceback(
    database: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(monkeypatch, database, "recompute", "nowhere") == 2
    assert capsys.readouterr().err == "error: ladder 'nowhere' does not exist\n"
    assert run_cli(monkeypatch, database, "export", "--ladder", "nowhere") == 2
    assert capsys.readouterr().err == "error: ladder 'nowhere' does not exist\n"
    for bad in ("yesterday", "2026-11-29T10:00:00"):  # not a time; no offset
        assert run_cli(monkeypatch, database, "recompute", "nowhere", "--from", bad) == 2
        assert "is not an RFC 3339 time with an offset" in capsys.readouterr().err
