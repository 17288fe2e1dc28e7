"""A real season through the tournament CSV import (issue 40, item 3). ../shared/data holds no
Diplomacy tournaments, so the season is the first eight Codeforces rounds of 2010 (66 to 433
players, ties included; ../shared/data/README.md), each taken as a DPTR tournament of two
rounds. The CSV import, ``POST /tournaments/batch`` and ``--update`` must agree exactly, and
the first round's winner moves as DPTR's formula says by hand.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.schemas.common import MAX_PAGE_SIZE
from tests.api.test_import_export import run_cli
from tests.helpers import make_ladder

pytestmark = pytest.mark.anyio

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "codeforces"
ROUNDS = range(1, 9)


def season(ladder: str) -> list[dict[str, Any]]:
    """Each round as a tournament: rank = the zero-based low index of its (shared) range + 1,
    so tied players share the best of their places; a handle's '_' (not allowed in ids)
    written ':'."""
    out = []
    for number in ROUNDS:
        data = json.loads((DATA / f"{number}.json").read_text())
        held_on = datetime.fromtimestamp(data["time_seconds"], UTC).date().isoformat()
        standings = [
            {"player": handle.replace("_", ":"), "rank": low + 1}
            for handle, low, _high in data["standings"]
        ]
        out.append(
            {
                "ladder": ladder,
                "id": f"cf-{number}",
                "held_on": held_on,
                "rounds": 2,
                "standings": standings,
            }
        )
    return out


def as_csv(tournaments: list[dict[str, Any]]) -> str:
    rows = ["tournament,held_on,rounds,player,rank"]
    for t in tournaments:
        rows += [
            f"{t['id']},{t['held_on']},{t['rounds']},{s['player']},{s['rank']}"
            for s in t["standings"]
        ]
    return "\n".join(rows) + "\n"


async def board(client: httpx.AsyncClient, ladder: str) -> dict[str, tuple[float, int]]:
    """Every entry of the ladder's leaderboard, page by page."""
    found: dict[str, tuple[float, int]] = {}
    while True:
        query = {"active_within_days": 0, "limit": MAX_PAGE_SIZE, "offset": len(found)}
        body = (await client.get(f"/ladders/{ladder}/leaderboard", params=query)).json()
        found.update({e["player"]: (e["rating"], e["games"]) for e in body["entries"]})
        if len(found) >= body["total"]:
            return found


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data/codeforces is not there")
async def test_a_real_season_by_csv_batch_and_update(
    client: httpx.AsyncClient,
    database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await make_ladder(client, "cf-csv", "dptr")
    path = tmp_path / "season.csv"
    path.write_text(as_csv(season("cf-csv")))
    assert run_cli(monkeypatch, database, "import", str(path), "--ladder", "cf-csv") == 0
    assert "imported 8 new event(s)" in capsys.readouterr().err

    await make_ladder(client, "cf-batch", "dptr")
    response = await client.post("/tournaments/batch", json={"tournaments": season("cf-batch")})
    assert response.status_code == 200, response.text
    by_csv = await board(client, "cf-csv")
    assert by_csv == await board(client, "cf-batch")
    players = {s["player"] for t in season("x") for s in t["standings"]}
    assert len(by_csv) == len(players)

    # Round 1, everyone's first event at 40: 66 players over two rounds are worth
    # TV = 66 / 3.5 + 2 = 20.857 -> 15 (the cap); the winner's P = (66 + 0.5 - 1) / 66 * 100.
    first = (await client.get("/ladders/cf-csv/tournaments/cf-1")).json()["changes"][0]
    assert first["player"] == "vepifanov"
    percentile = (66 + 0.5 - 1) / 66 * 100
    assert first["rating_after"] == pytest.approx(40 + 15 / 100 * (percentile - 40))

    # A correction: round 3's top two swapped; --update applies it and re-rates what follows.
    fixed = season("cf-csv")
    top = fixed[2]["standings"]
    top[0]["rank"], top[1]["rank"] = top[1]["rank"], top[0]["rank"]
    path.write_text(as_csv(fixed))
    code = run_cli(monkeypatch, database, "import", str(path), "--ladder", "cf-csv", "--update")
    assert code == 0
    assert "1 corrected, 7 unchanged, 0 new" in capsys.readouterr().err
    await make_ladder(client, "cf-fixed", "dptr")
    again = [{**t, "ladder": "cf-fixed"} for t in fixed]
    response = await client.post("/tournaments/batch", json={"tournaments": again})
    assert response.status_code == 200, response.text
    corrected, fresh = await board(client, "cf-csv"), await board(client, "cf-fixed")
    assert corrected.keys() == fresh.keys()
    for player, (rating, games) in corrected.items():
        assert (rating, games) == (pytest.approx(fresh[player][0], abs=1e-9), fresh[player][1])
    assert corrected != by_csv
