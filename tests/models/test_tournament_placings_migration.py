"""Migration 0010: tournaments stored by the old code counted as wins and losses; upgrading
turns their changes into placings and clears the wins, draws and losses of tournament
ladders' ratings, as a recomputation by the new code would."""

from __future__ import annotations

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from app.cli import ALEMBIC_INI, PROJECT_ROOT
from app.core.database import Database
from tests.helpers import make_ladder

pytestmark = pytest.mark.anyio


def alembic(database: Database, action: str, revision: str) -> None:
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.attributes["database_url"] = database.url.render_as_string(hide_password=False)
    getattr(command, action)(config, revision)


async def test_old_tournament_outcomes_become_placings(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "wdd", "dptr")
    body = {
        "ladder": "wdd",
        "id": "t1",
        "held_on": "2025-01-10",
        "standings": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}],
    }
    assert (await client.post("/tournaments", json=body)).status_code == 201
    await make_ladder(client, "club", "elo")
    game = {
        "ladder": "club",
        "id": "g1",
        "played_at": "2025-01-10T10:00:00Z",
        "players": [{"player": "a", "rank": 1}, {"player": "b", "rank": 2}],
    }
    assert (await client.post("/games", json=game)).status_code == 201
    # As the old code stored them: a tournament's winner a win, the rest losses.
    with database.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE changes SET outcome = CASE WHEN rank = 1 THEN 'win' ELSE 'loss' END "
                "WHERE ladder_id = 'wdd'"
            )
        )
        connection.execute(
            text(
                "UPDATE player_ratings SET wins = CASE WHEN player = 'a' THEN 1 ELSE 0 END, "
                "losses = CASE WHEN player = 'b' THEN 1 ELSE 0 END WHERE ladder_id = 'wdd'"
            )
        )
    alembic(database, "downgrade", "0009")
    alembic(database, "upgrade", "head")
    b = (await client.get("/ladders/wdd/players/b")).json()["ratings"][0]
    assert (b["games"], b["wins"], b["losses"], b["loss_rate"]) == (1, 0, 0, None)
    with database.engine.connect() as connection:
        outcomes = connection.execute(
            text("SELECT ladder_id, player, outcome FROM changes ORDER BY ladder_id, player")
        ).all()
    assert [tuple(row) for row in outcomes] == [
        ("club", "a", "win"),
        ("club", "b", "loss"),
        ("wdd", "a", "placed"),
        ("wdd", "b", "placed"),
    ]
    # The game ladder keeps its statistics.
    club_b = (await client.get("/ladders/club/players/b")).json()["ratings"][0]
    assert (club_b["losses"], club_b["loss_rate"]) == (1, 1.0)
