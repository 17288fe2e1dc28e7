"""`ratings import` / `ratings export`: validation report, atomicity, exact round trip."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

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


# -- team games (API.md "Teams": imports take the same bodies; CSV: columns team and weight) --

#: Team games of every shape the files carry: labelled and default sides, a tie, a side of
#: one beside pairs, partial play (elo takes weights, SYSTEMS.md "Teams").
TEAM_GAMES: list[list[dict[str, Any]]] = [
    [{"team": "red", "rank": 1, "players": [{"player": "ann"}, {"player": "bob", "weight": 0.5}]},
     {"team": "blue", "rank": 2, "players": [{"player": "cat"}, {"player": "dan"}]}],
    [{"rank": 1, "players": [{"player": "ann"}, {"player": "cat"}]},
     {"rank": 1, "players": [{"player": "bob"}, {"player": "dan"}]},
     {"rank": 3, "players": [{"player": "eve"}]}],
    [{"rank": 2, "players": [{"player": "ann"}]}, {"rank": 1, "players": [{"player": "eve"}]}],
]  # fmt: skip


def _team_body(ladder: str, index: int) -> dict[str, Any]:
    return {"ladder": ladder, "id": f"t{index}", "played_at": at(index), "teams": TEAM_GAMES[index]}


async def _posted(client: httpx.AsyncClient, ladder: str) -> None:
    """The team games posted one by one: what every import of them must end at."""
    await make_ladder(client, ladder, "elo")
    for index in range(len(TEAM_GAMES)):
        await post_game(client, _team_body(ladder, index))


async def test_team_games_export_and_import_exactly(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _posted(client, "source")
    # A correction, a void and a free-for-all among the team games.
    corrected = {**_team_body("source", 2), "teams": list(reversed(TEAM_GAMES[2]))}
    assert (await client.put("/ladders/source/games/t2", json=corrected)).status_code == 200
    assert (await client.delete("/ladders/source/games/t1")).status_code == 200
    await post_game(client, game("source", "f", {"ann": 2, "eve": 1}, minutes=9))
    out = tmp_path / "source.jsonl"
    assert run_cli(monkeypatch, database, "export", "--ladder", "source", "--output", str(out)) == 0
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "copy") == 0
    assert await _board(client, "copy") == await _board(client, "source")
    for game_id in ("t0", "t2", "f"):
        source = (await client.get(f"/ladders/source/games/{game_id}")).json()
        copy = (await client.get(f"/ladders/copy/games/{game_id}")).json()
        for name in ("teams", "changes", "played_at", "rated"):
            assert copy[name] == source[name]
    assert (await client.get("/ladders/copy/games/t1")).status_code == 404  # voids stay out
    # The exported file imported again is already present, body for body (same hashes).
    assert run_cli(monkeypatch, database, "import", str(out), "--ladder", "copy") == 0
    assert (await client.get("/ladders/copy")).json()["games"] == 3


async def test_a_json_lines_file_of_team_games_rates_as_posting_them(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _posted(client, "posted")
    path = tmp_path / "teams.jsonl"
    lines = [json.dumps({"ladder": {"id": "club", "system": "elo"}})]
    lines += [json.dumps(_team_body("club", i)) for i in reversed(range(len(TEAM_GAMES)))]
    path.write_text("\n".join(lines) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    assert await _board(client, "club") == await _board(client, "posted")
    stored = (await client.get("/ladders/club/games/t1")).json()
    assert [side["team"] for side in stored["teams"]] == ["1", "2", "3"]


def _csv_rows(index: int) -> list[str]:
    """A team game of TEAM_GAMES as CSV rows: one per member, its side's label and rank."""
    rows = []
    for position, side in enumerate(TEAM_GAMES[index]):
        label = side.get("team", str(position + 1))
        for member in side["players"]:
            weight = member.get("weight", "")
            rows.append(f"t{index},{at(index)},{member['player']},{side['rank']},{label},{weight}")
    return rows


async def test_a_csv_file_with_team_and_weight_columns_rates_as_posting_the_games(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _posted(client, "posted")
    await make_ladder(client, "club", "elo")
    rows = [row for index in range(len(TEAM_GAMES)) for row in _csv_rows(index)]
    # A side's rows need not be together: blue's first member comes between red's.
    rows[1], rows[2] = rows[2], rows[1]
    # A free-for-all beside them leaves team empty (and weight, which it may also take).
    rows += [f"f,{at(9)},ann,2,,", f"f,{at(9)},eve,1,,"]
    path = tmp_path / "teams.csv"
    path.write_text("id,played_at,player,rank,team,weight\n" + "\n".join(rows) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    await post_game(client, game("posted", "f", {"ann": 2, "eve": 1}, minutes=9))
    assert await _board(client, "club") == await _board(client, "posted")
    for index in range(len(TEAM_GAMES)):
        imported = (await client.get(f"/ladders/club/games/t{index}")).json()
        posted = (await client.get(f"/ladders/posted/games/t{index}")).json()
        assert imported["teams"] == posted["teams"]
    assert (await client.get("/ladders/club/games/f")).json()["teams"] is None


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        # Two rows of one side with different ranks.
        ("g,T,ann,1,red,\ng,T,bob,2,red,\ng,T,cat,2,blue,\n",
         "line 3: rank: 2 differs from 1 on line 2, the first row of side 'red' of game 'g'"),
        # A row of a team game without its side, and a side in a free-for-all.
        ("g,T,ann,1,red,\ng,T,bob,2,,\n",
         "line 3: team: empty, but line 2, the first row of game 'g', names a side"),
        ("g,T,ann,1,,\ng,T,bob,2,blue,\n",
         "line 3: team: 'blue', but line 2, the first row of game 'g', names none"),
        # A weight that is not a number, or outside (0, 1].
        ("g,T,ann,1,red,half\ng,T,bob,2,blue,\n", "line 2: weight: 'half' is not a number"),
        ("g,T,ann,1,red,nan\ng,T,bob,2,blue,\n", "line 2: weight: 'nan' is not a number"),
        ("g,T,ann,1,red,1.5\ng,T,bob,2,blue,\n",
         "line 2: teams.0.players.0.weight: Input should be less than or equal to 1"),
    ],
)  # fmt: skip
async def test_csv_team_rows_that_contradict_each_other_are_numbered_errors(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    rows: str,
    message: str,
) -> None:
    await make_ladder(client, "club", "elo")
    path = tmp_path / "teams.csv"
    ok = f"ok,{at(5)},ann,1,red,\nok,{at(5)},bob,2,blue,\n"
    path.write_text("id,played_at,player,rank,team,weight\n" + rows.replace("T", at(1)) + ok)
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 1
    report = " ".join(capsys.readouterr().err.split())
    assert message in report
    assert len(re.findall(r"line \d+:", report)) == 1, report
    assert (await client.get("/ladders/club")).json()["games"] == 0
    code = run_cli(monkeypatch, database, "import", str(path), "--ladder", "club", "--skip-invalid")
    assert code == 0
    assert (await client.get("/ladders/club")).json()["games"] == 1
