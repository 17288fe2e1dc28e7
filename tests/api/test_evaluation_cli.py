"""`ratings evaluate` and `ratings tune`: the HTTP routes' numbers on the command line, and a
tuning in several processes equal to one in a single process."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from app.core.database import Database
from tests.api.test_import_export import run_cli
from tests.helpers import at, make_ladder, post_game

pytestmark = pytest.mark.anyio


async def _history(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    rng = random.Random(5)
    players = [f"p{i}" for i in range(6)]
    for index in range(40):
        seated = rng.sample(players, rng.randint(2, 3))
        ranks = {p: rng.randint(1, 2) for p in seated}
        await post_game(
            client,
            {
                "ladder": "club",
                "id": f"g{index}",
                "played_at": at(index * 60),
                "players": [{"player": p, "rank": r} for p, r in ranks.items()],
            },
        )


def _json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


async def test_evaluate_on_the_command_line_is_the_routes_answer(
    client: httpx.AsyncClient,
    database: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _history(client)
    args = ["--system", "glicko2", "--param", "tau=0.3", "--min-games", "2"]
    assert run_cli(monkeypatch, database, "evaluate", "club", *args, "--json") == 0
    printed = _json(capsys)
    answered = await client.post(
        "/ladders/club/evaluate",
        json={"candidates": [{"system": "glicko2", "params": {"tau": 0.3}}], "min_games": 2},
    )
    assert printed == answered.json()
    assert printed["results"][0]["label"] == "glicko2 tau=0.3"

    assert run_cli(monkeypatch, database, "evaluate", "club") == 0
    table = capsys.readouterr().out
    assert "elo" in table
    assert "baseline p = 1/2" in table
    assert f"{answered.json()['baseline']['log_loss']:.6f}" in table


async def test_tune_in_two_processes_gives_the_numbers_of_one(
    client: httpx.AsyncClient,
    database: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _history(client)
    grid = ["--grid", "k=8,16,24,32", "--grid", "scale=300,400"]
    assert run_cli(monkeypatch, database, "tune", "club", *grid, "--json") == 0
    one = _json(capsys)
    assert run_cli(monkeypatch, database, "tune", "club", *grid, "--processes", "2", "--json") == 0
    two = _json(capsys)
    assert two == one
    answered = await client.post(
        "/ladders/club/tune", json={"grid": {"k": [8, 16, 24, 32], "scale": [300, 400]}}
    )
    assert one == answered.json()
    assert len(one["results"]) == 8

    assert run_cli(monkeypatch, database, "tune", "club", *grid, "--metric", "brier") == 0
    assert "best brier first" in capsys.readouterr().out


async def test_refusals_are_one_line_and_exit_2(
    client: httpx.AsyncClient,
    database: Database,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _history(client)
    assert run_cli(monkeypatch, database, "evaluate", "nowhere") == 2
    assert capsys.readouterr().err == "error: ladder 'nowhere' does not exist\n"
    assert run_cli(monkeypatch, database, "tune", "club", "--grid", "k=8,0") == 2
    assert "k=0" in capsys.readouterr().err
    assert run_cli(monkeypatch, database, "evaluate", "club", "--system", "dptr") == 2
    assert "tournament" in capsys.readouterr().err
    assert run_cli(monkeypatch, database, "evaluate", "club", "--from", "yesterday") == 2
    assert "from" in capsys.readouterr().err
    assert run_cli(monkeypatch, database, "evaluate", "club", "--param", "k") == 2
    assert "is not name=value" in capsys.readouterr().err
