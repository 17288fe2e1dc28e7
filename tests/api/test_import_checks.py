"""`ratings import` refuses contradictions and malformed cells with a numbered, column-named
error, applies nothing unless ``--skip-invalid``, and creates nothing when nothing is
imported (issue "First contact", item 1); adjustments without ``at`` take their time from
the file, so a second import changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import at, game, make_ladder

pytestmark = pytest.mark.anyio

HEADER = "id,played_at,player,rank\n"


def _import(monkeypatch: pytest.MonkeyPatch, database: Database, path: Path, *extra: str) -> int:
    return run_cli(monkeypatch, database, "import", str(path), "--ladder", "club", *extra)


@pytest.mark.parametrize(
    ("rows", "line", "message"),
    [
        # Two rows of one game at different times.
        (
            "c7,2026-11-07T18:00:00Z,bea,1\nc7,2026-11-07T19:00:00Z,cid,2\n",
            "line 3",
            "played_at: '2026-11-07T19:00:00Z' differs from '2026-11-07T18:00:00Z' on line 2",
        ),
        # A row with a cell more than the header names.
        ("c7,2026-11-07T18:00:00Z,bea,1,extra\nc7,2026-11-07T18:00:00Z,cid,2\n", "line 2",
         "5 cells, but the header names 4 columns"),
        # A rank that is not a number: the column is named, and the game's other row is not
        # reported a second time.
        ("c7,2026-11-07T18:00:00Z,bea,first\nc7,2026-11-07T18:00:00Z,cid,2\n", "line 2",
         "rank: 'first' is not a whole number"),
    ],
)  # fmt: skip
async def test_a_contradiction_or_malformed_cell_is_a_numbered_error_and_nothing_is_applied(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    rows: str,
    line: str,
    message: str,
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "games.csv"
    path.write_text(
        HEADER + rows + "ok,2026-11-08T18:00:00Z,bea,1\nok,2026-11-08T18:00:00Z,cid,2\n"
    )
    assert _import(monkeypatch, database, path) == 1
    report = capsys.readouterr().err
    assert f"{line}:" in report
    assert message in " ".join(report.split())
    assert len(re.findall(r"line \d+:", report)) == 1, report
    assert (await client.get("/ladders/club")).json()["games"] == 0
    assert _import(monkeypatch, database, path, "--skip-invalid") == 0
    assert (await client.get("/ladders/club")).json()["games"] == 1


async def test_a_byte_order_mark_is_not_part_of_the_first_column(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "games.csv"
    body = HEADER + "g1,2026-11-08T18:00:00Z,bea,1\ng1,2026-11-08T18:00:00Z,cid,2\n"
    path.write_bytes(b"\xef\xbb\xbf" + body.encode())
    assert _import(monkeypatch, database, path) == 0
    bea = (await client.get("/ladders/club/players/bea")).json()["ratings"][0]
    assert bea["rating"] == 1500 + 32 * (1 - 0.5)


async def test_a_line_naming_another_ladder_is_refused(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(game("other", "g1", {"a": 1, "b": 2})) + "\n")
    assert _import(monkeypatch, database, path) == 1
    report = " ".join(capsys.readouterr().err.split())
    assert "line 1: ladder: 'other', but this import is into 'club'" in report
    assert (await client.get("/ladders/club")).json()["games"] == 0


async def test_a_missing_file_is_one_line_and_exit_2(
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _import(monkeypatch, database, tmp_path / "nowhere.csv") == 2
    report = " ".join(capsys.readouterr().err.split())
    assert report.startswith("error: cannot read ")
    assert "No such file" in report
    assert "Traceback" not in report


async def test_a_file_of_invalid_lines_creates_no_ladder(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "new.jsonl"
    header = {"ladder": {"id": "club", "system": "elo"}}
    path.write_text(json.dumps(header) + "\n{not json\n")
    assert _import(monkeypatch, database, path) == 1
    assert _import(monkeypatch, database, path, "--skip-invalid") == 1
    assert (await client.get("/ladders/club")).status_code == 404


async def test_an_adjustment_without_at_takes_the_time_of_the_result_before_it(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Imported twice, with a game posted in between: the second import finds the same
    adjustment stored and changes nothing (a clock-stamped one reset the player)."""
    await make_ladder(client, "club", "elo")
    path = tmp_path / "club.jsonl"
    lines = [
        json.dumps(game("club", "g1", {"a": 1, "b": 2}, minutes=1)),
        json.dumps({"adjustment": {"player": "a", "rating": 1700}}),
    ]
    path.write_text("\n".join(lines) + "\n")
    assert _import(monkeypatch, database, path) == 0
    history = (await client.get("/ladders/club/players/a/history")).json()["entries"]
    assert [e["rating_after"] for e in history] == [1516.0, 1700.0]
    assert history[1]["at"] == at(1)
    # A live game after it: a (1700) beats b (1484); E = 1 / (1 + 10^((1484 - 1700) / 400)).
    live = game("club", "g2", {"a": 1, "b": 2}, minutes=2)
    assert (await client.post("/games", json=live)).status_code == 201
    after_live = (await client.get("/ladders/club/players/a")).json()["ratings"][0]["rating"]
    expected = 1700 + 32 * (1 - 1 / (1 + 10 ** ((1484 - 1700) / 400)))
    assert after_live == pytest.approx(expected)
    assert _import(monkeypatch, database, path) == 0
    again = (await client.get("/ladders/club/players/a")).json()["ratings"][0]["rating"]
    assert again == after_live


async def test_an_adjustment_without_at_in_a_file_without_results_is_refused(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "club.jsonl"
    path.write_text(json.dumps({"adjustment": {"player": "a", "rating": 1700}}) + "\n")
    assert _import(monkeypatch, database, path) == 1
    report = " ".join(capsys.readouterr().err.split())
    assert "line 1: adjustment.at: needed in a file without games" in report
