"""A season of tournaments without code (issue 40, item 3): CSV import of tournaments,
``POST /tournaments/batch`` (atomic, as games' batch) and ``ratings import --update``, which
applies corrections to stored results and says what it changed.

DPTR by hand (docs/api.md "Tournaments"): five players over three rounds are worth
TV = 5 / 3.5 + 2 = 3.428571; place p scores P = (5 + 0.5 − p) / 5 × 100 and
R' = 40 + TV / 100 × (P − 40): 1st 41.7143, 2nd 41.0286, 3rd (two tied) 40.3429, 5th 38.9714.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import make_ladder

pytestmark = pytest.mark.anyio

TV = 5 / 3.5 + 2


def after(place: float) -> float:
    return 40 + TV / 100 * ((5 + 0.5 - place) / 5 * 100 - 40)


WBC_CSV = (
    "tournament,held_on,rounds,tournament_name,player,rank,name,country\n"
    "wbc-2012,2012-08-04,3,WBC 2012,christian-pedone,1,Christian Pedone,US\n"
    "wbc-2012,2012-08-04,3,WBC 2012,david-anderson,2,,\n"
    "wbc-2012,2012-08-04,3,WBC 2012,jim-oconnor,3,,\n"
    "wbc-2012,2012-08-04,3,WBC 2012,melissa-call,3,,\n"
    "wbc-2012,2012-08-04,3,WBC 2012,chris-brand,5,,\n"
)


def tournament(
    tid: str, held_on: str, ranks: list[tuple[str, int]], ladder: str = "season", **extra: Any
) -> dict[str, Any]:
    standings = [{"player": p, "rank": r} for p, r in ranks]
    return {"ladder": ladder, "id": tid, "held_on": held_on, "standings": standings, **extra}


SEASON = [
    tournament("t1", "2025-01-10", [("a", 1), ("b", 2), ("c", 3)], rounds=2),
    tournament("t2", "2025-02-10", [("b", 1), ("a", 2), ("c", 3)], rounds=2),
    tournament("t3", "2025-03-10", [("c", 1), ("a", 2), ("b", 3)], rounds=2),
]


def season_csv(season: list[dict[str, Any]]) -> str:
    rows = ["tournament,held_on,rounds,player,rank"]
    for body in season:
        for s in body["standings"]:
            rows.append(
                f"{body['id']},{body['held_on']},{body['rounds']},{s['player']},{s['rank']}"
            )
    return "\n".join(rows) + "\n"


async def ratings(client: httpx.AsyncClient, ladder: str) -> dict[str, float]:
    board = (await client.get(f"/ladders/{ladder}/leaderboard?active_within_days=0")).json()
    return {e["player"]: e["rating"] for e in board["entries"]}


async def test_a_tournament_csv_imports_by_hand_arithmetic(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ladder(client, "wdd", "dptr")
    path = tmp_path / "wbc.csv"
    path.write_text(WBC_CSV)
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "wdd") == 0
    got = await ratings(client, "wdd")
    assert got == pytest.approx(
        {
            "christian-pedone": after(1),
            "david-anderson": after(2),
            "jim-oconnor": after(3),
            "melissa-call": after(3),
            "chris-brand": after(5),
        }
    )
    assert got["christian-pedone"] == pytest.approx(41.7143, abs=5e-5)
    stored = (await client.get("/ladders/wdd/tournaments/wbc-2012")).json()
    assert stored["name"] == "WBC 2012"
    profile = (await client.get("/players/christian-pedone")).json()
    assert (profile["name"], profile["country"]) == ("Christian Pedone", "US")


async def test_daanz_extra_columns_rate_as_posting_the_bodies(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The system's own fields (DAANZ: ``major`` and each player's ``centres``) come from
    their columns: the import rates exactly as the same bodies posted one by one."""
    path = tmp_path / "daanz.csv"
    path.write_text(
        "tournament,held_on,major,player,rank,centres\n"
        "cup,2025-03-01,yes,ann,1,16\n"
        "cup,2025-03-01,yes,bob,2,10\n"
        "cup,2025-03-01,yes,cat,3,4\n"
        "open,2025-04-01,no,bob,1,12\n"
        "open,2025-04-01,no,ann,2,8\n"
    )
    await make_ladder(client, "csv", "daanz")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "csv") == 0
    await make_ladder(client, "posted", "daanz")
    cup = [{"player": "ann", "rank": 1, "centres": 16}, {"player": "bob", "rank": 2, "centres": 10}]
    cup.append({"player": "cat", "rank": 3, "centres": 4})
    bodies = [
        {"id": "cup", "held_on": "2025-03-01", "major": True, "standings": cup},
        {
            "id": "open",
            "held_on": "2025-04-01",
            "major": False,
            "standings": [
                {"player": "bob", "rank": 1, "centres": 12},
                {"player": "ann", "rank": 2, "centres": 8},
            ],
        },
    ]
    for body in bodies:
        response = await client.post("/tournaments", json={"ladder": "posted", **body})
        assert response.status_code == 201, response.text
    assert await ratings(client, "csv") == await ratings(client, "posted")
    csv_cup = (await client.get("/ladders/csv/tournaments/cup")).json()
    posted_cup = (await client.get("/ladders/posted/tournaments/cup")).json()
    assert [c["details"] for c in csv_cup["changes"]] == [
        c["details"] for c in posted_cup["changes"]
    ]


async def test_tournament_csv_errors_are_numbered_lines(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "wdd", "dptr")
    path = tmp_path / "bad.csv"
    path.write_text(
        "tournament,held_on,rounds,player,rank\n"
        "t1,2025-01-10,2,a,1\n"
        "t1,2025-01-11,2,b,2\n"  # line 3: a tournament has one date
        "t2,2025-02-10,two,a,1\n"  # line 4: rounds is a number
        "t3,2025-03-10,2,a,1\n"
        "t3,2025-03-10,2,b,0\n"  # line 6: rank ≥ 1 (the body's rule, at the tournament's line)
    )
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "wdd") == 1
    err = capsys.readouterr().err
    assert "line 3: held_on: '2025-01-11' differs from '2025-01-10' on line 2" in err
    assert "line 4: rounds: 'two' is not a whole number" in err
    assert "line 5: standings.1.rank" in err
    assert (await client.get("/ladders/wdd")).json()["tournaments"] == 0
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("tournament,held_on,player,rank,played_at\nt1,2025-01-10,a,1,x\n")
    assert run_cli(monkeypatch, database, "import", str(unknown), "--ladder", "wdd") == 1
    assert "unknown columns in a tournament file: played_at" in capsys.readouterr().err


async def test_tournaments_batch_is_atomic(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "season", "dptr")
    bad = [*SEASON[:2], tournament("t3", "2025-03-10", [("c", 1), ("c", 2)], rounds=2)]
    response = await client.post("/tournaments/batch", json={"tournaments": bad})
    assert response.status_code == 422
    problem = response.json()
    assert problem["errors"][0]["loc"][:2] == ["tournaments", 2]
    assert (await client.get("/ladders/season")).json()["tournaments"] == 0

    response = await client.post("/tournaments/batch", json={"tournaments": SEASON})
    assert response.status_code == 200, response.text
    out = response.json()
    assert (out["created"], out["existing"]) == (3, 0)
    assert [t["id"] for t in out["tournaments"]] == ["t1", "t2", "t3"]
    # The same batch again stores nothing twice.
    again = (await client.post("/tournaments/batch", json={"tournaments": SEASON})).json()
    assert (again["created"], again["existing"]) == (0, 3)
    # A different body under a stored id: 409, and nothing of the batch is stored.
    changed = tournament("t3", "2025-03-10", [("a", 1), ("c", 2), ("b", 3)], rounds=2)
    extra = tournament("t4", "2025-04-10", [("a", 1), ("b", 2)], rounds=2)
    conflict = await client.post("/tournaments/batch", json={"tournaments": [extra, changed]})
    assert conflict.status_code == 409
    assert (await client.get("/ladders/season")).json()["tournaments"] == 3
    # A game ladder takes no tournament (422 naming it).
    await make_ladder(client, "club", "elo")
    wrong = await client.post(
        "/tournaments/batch", json={"tournaments": [{**SEASON[0], "ladder": "club"}]}
    )
    assert wrong.status_code == 422


async def test_batch_equals_posting_one_by_one(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "season", "dptr")
    await make_ladder(client, "single", "dptr")
    # Sent out of time order: the batch places them in time order, as late results are.
    batch = (await client.post("/tournaments/batch", json={"tournaments": SEASON[::-1]})).json()
    assert batch["created"] == 3
    for body in SEASON:
        response = await client.post("/tournaments", json={**body, "ladder": "single"})
        assert response.status_code == 201
    assert await ratings(client, "season") == await ratings(client, "single")


async def test_update_applies_corrections_and_says_what_changed(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "season", "dptr")
    first = tmp_path / "season.csv"
    first.write_text(season_csv(SEASON))
    assert run_cli(monkeypatch, database, "import", str(first), "--ladder", "season") == 0
    # The keeper fixes t2 (a won it, not b) and adds t4.
    fixed_t2 = tournament("t2", "2025-02-10", [("a", 1), ("b", 2), ("c", 3)], rounds=2)
    t4 = tournament("t4", "2025-04-10", [("b", 1), ("c", 2)], rounds=2)
    corrected = [SEASON[0], fixed_t2, SEASON[2], t4]
    second = tmp_path / "season-fixed.csv"
    second.write_text(season_csv(corrected))
    # Without --update a changed result is refused, naming its line, and nothing changes.
    before = await ratings(client, "season")
    assert run_cli(monkeypatch, database, "import", str(second), "--ladder", "season") == 1
    refused = capsys.readouterr().err
    assert "already stored with a different body" in refused
    assert "--update" in refused  # the way out, named where the keeper meets the refusal
    assert await ratings(client, "season") == before
    code = run_cli(monkeypatch, database, "import", str(second), "--ladder", "season", "--update")
    assert code == 0
    assert "1 corrected, 2 unchanged, 1 new" in capsys.readouterr().err
    # The ladder is as if the corrected season had been posted from the start.
    await make_ladder(client, "fresh", "dptr")
    fresh = [{**body, "ladder": "fresh"} for body in corrected]
    assert (await client.post("/tournaments/batch", json={"tournaments": fresh})).status_code == 200
    assert await ratings(client, "season") == pytest.approx(await ratings(client, "fresh"))
    stored = (await client.get("/ladders/season/tournaments/t2")).json()
    assert [(c["player"], c["rank"]) for c in stored["changes"]] == [("a", 1), ("b", 2), ("c", 3)]
    # Again: nothing left to change.
    code = run_cli(monkeypatch, database, "import", str(second), "--ladder", "season", "--update")
    assert code == 0
    assert "0 corrected, 4 unchanged, 0 new" in capsys.readouterr().err


async def test_update_of_a_json_lines_game_file(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--update is not for tournaments only: a game file's corrections are applied too."""
    await make_ladder(client, "club", "elo")
    g1 = {
        "id": "g1",
        "played_at": "2025-01-01T10:00:00Z",
        "players": [{"player": "x", "rank": 1}, {"player": "y", "rank": 2}],
    }
    path = tmp_path / "club.jsonl"
    path.write_text(json.dumps(g1) + "\n")
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "club") == 0
    g1["players"] = [{"player": "x", "rank": 2}, {"player": "y", "rank": 1}]
    path.write_text(json.dumps(g1) + "\n")
    code = run_cli(monkeypatch, database, "import", str(path), "--ladder", "club", "--update")
    assert code == 0
    assert "1 corrected, 0 unchanged, 0 new" in capsys.readouterr().err
    # Elo, K 32, equal ratings: the winner gains 16.
    assert await ratings(client, "club") == {"y": 1516.0, "x": 1484.0}


async def test_a_csv_season_creates_its_ladder_with_system(
    client: httpx.AsyncClient, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CSV file has no header line to create the ladder from: --system stands for one."""
    path = tmp_path / "wbc.csv"
    path.write_text(WBC_CSV)
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "new") == 2
    code = run_cli(
        monkeypatch, database, "import", str(path), "--ladder", "new", "--system", "dptr"
    )
    assert code == 0
    ladder = (await client.get("/ladders/new")).json()
    assert (ladder["system"], ladder["tournaments"]) == ("dptr", 1)
    assert (await ratings(client, "new"))["chris-brand"] == pytest.approx(after(5))
