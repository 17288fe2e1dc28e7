"""The background work that brings a whole-history fit back to convergence
(app/services/convergence.py; API.md "Whole-history and large-field systems"): one process at
a time per ladder (a lease that runs out), resumed by any process (the state is stored), and a
write that lands while the fit is made outside the lock is not lost."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

import httpx
import pytest
from sqlalchemy.orm import Session

from app.core.database import Database
from app.engine.protocols import WholeHistoryRater
from app.engine.registry import SYSTEMS
from app.repositories.fits import FitRepository
from app.schemas.events import GameIn
from app.services import convergence, players_data
from app.services import events as event_service
from app.services.auth import ADMIN
from app.services.convergence import Converger
from app.services.events import new_game_event
from app.services.runtime import now
from tests.conftest import make_settings
from tests.helpers import make_ladder, post_game

pytestmark = pytest.mark.anyio

#: The engines' stopping rules, as tests/api/test_whole_history_ladders.py.
TOLERANCE = {"ttt": 1e-5, "whr": 1e-6}


def game(gid: str, day: int, winner: str, loser: str) -> dict[str, Any]:
    return {
        "ladder": "w",
        "id": gid,
        "played_at": f"2024-01-{day:02d}T12:00:00Z",
        "players": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
    }


def head(database: Database) -> dict[str, Any]:
    def read(session: Session) -> dict[str, Any]:
        row = FitRepository(session).head("w")
        assert row is not None
        return {"converged": row.converged, "lease": row.lease, "leased_until": row.leased_until}

    return database.run(read, write=False)


async def assert_served_is_fresh_fit(
    client: httpx.AsyncClient, system: str, bodies: list[dict[str, Any]]
) -> None:
    rater = cast(WholeHistoryRater, SYSTEMS[system].configure({}))
    games = [new_game_event(GameIn.model_validate(b)).event for b in bodies]
    fit = rater.fit(games)  # type: ignore[arg-type]
    response = await client.get("/ladders/w/leaderboard", params={"limit": 100})
    served = {e["player"]: (e["rating"], e["deviation"]) for e in response.json()["entries"]}
    assert served.keys() == {k.player for k in fit.curves}
    for key, curve in fit.curves.items():
        assert served[key.player][0] == pytest.approx(curve[-1].rating, abs=TOLERANCE[system])
        assert served[key.player][1] == pytest.approx(curve[-1].deviation, abs=TOLERANCE[system])


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_one_process_at_a_time_converges_a_ladder(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    await make_ladder(client, "w", system)
    bodies = [game("g1", 1, "a", "b"), game("g2", 2, "b", "c"), game("g3", 3, "c", "a")]
    for body in bodies:
        await post_game(client, body)
    assert head(database)["converged"] is False
    settings = make_settings(database_url=str(database.url))
    first, other = Converger(database, settings), Converger(database, settings)
    lease = first._lease("w")
    assert lease is not None
    # Leased: another process neither takes it nor refits it.
    assert other._lease("w") is None
    assert await other.step() == 0
    assert head(database)["converged"] is False
    # The first process died with its lease: once the lease ran out (600 s by default),
    # another one (a restart reads the same table) takes the ladder over and converges it.
    later = now() + timedelta(seconds=settings.convergence_lease_seconds + 1)
    assert await Converger(database, settings, clock=lambda: later).step() == 1
    assert head(database) == {"converged": True, "lease": None, "leased_until": None}
    await assert_served_is_fresh_fit(client, system, bodies)
    assert await other.step() == 0  # nothing left


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_a_write_during_the_unlocked_fit_is_in_the_served_fit(
    client: httpx.AsyncClient,
    database: Database,
    system: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await make_ladder(client, "w", system)
    bodies = [game("g1", 1, "a", "b"), game("g2", 2, "b", "c")]
    for body in bodies:
        await post_game(client, body)
    late_comer = game("g3", 3, "c", "a")
    real_run_write = convergence.run_write

    def write_first(db: Database, work: Any, **kwargs: Any) -> Any:
        # Between the fit made without a lock and the step that serves it.
        event_service.submit_game(db, GameIn.model_validate(late_comer))
        return real_run_write(db, work, **kwargs)

    monkeypatch.setattr(convergence, "run_write", write_first)
    assert convergence.converge(database, "w")
    assert head(database)["converged"] is True
    await assert_served_is_fresh_fit(client, system, [*bodies, late_comer])


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_an_erasure_during_the_unlocked_fit_is_not_undone(
    client: httpx.AsyncClient,
    database: Database,
    system: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fit made without a lock names the player an erasure then replaces: it must not be
    served, or the old id would come back in the ratings and the fit's rows."""
    await make_ladder(client, "w", system)
    bodies = [game("g1", 1, "a", "b"), game("g2", 2, "b", "c"), game("g3", 3, "c", "a")]
    for body in bodies:
        await post_game(client, body)
    real_run_write = convergence.run_write

    def erase_first(db: Database, work: Any, **kwargs: Any) -> Any:
        players_data.erase(db, ADMIN, "default", "b")
        return real_run_write(db, work, **kwargs)

    monkeypatch.setattr(convergence, "run_write", erase_first)
    assert convergence.converge(database, "w")
    board = (await client.get("/ladders/w/leaderboard", params={"limit": 100})).json()
    players = {entry["player"] for entry in board["entries"]}
    assert "b" not in players
    assert len(players) == 3

    def fit_players(session: Session) -> set[str]:
        return {row.player for row in FitRepository(session).players("w")}

    assert "b" not in database.run(fit_players, write=False)
