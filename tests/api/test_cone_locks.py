"""A late result, a correction and a void re-rate their dependency cone holding the ladder
shared and the cone's rating rows only (issue 21, "Lock only what the cone touches"): a write
for another player of the ladder goes on meanwhile; a write for a player of the cone waits
(on its rows, or queued behind the re-rating on the ladder's late committer), and is applied
after, from the re-rated state.

SQLite has one writer (``BEGIN IMMEDIATE``): there a re-rating holds every writer, and the
concurrency half of these tests has nothing to show; the PostgreSQL runs show it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.services import history
from app.services.admin import recompute_ladder
from app.services.auth import Caller
from app.services.group_commit import LateCommitters
from app.services.history import Appended, NewEvent
from tests.helpers import game, make_ladder, post_game, rating_rows

pytestmark = pytest.mark.anyio

#: How long a step may take to reach the state it waits for before the test fails.
STATE_WAIT_SECONDS = 30.0

#: The history every test starts from (minutes after the helpers' epoch). The late game
#: ``late`` (a vs e at minute 0) depends, transitively, on g1 (a, b), g2 (b, c) and g4 (c, d);
#: g3 (x, y) shares no player with them.
HISTORY = [
    ("g1", {"a": 1, "b": 2}, 10),
    ("g2", {"b": 1, "c": 2}, 20),
    ("g3", {"x": 1, "y": 2}, 30),
    ("g4", {"c": 1, "d": 2}, 40),
]
CONE_EVENTS = 3  # g1, g2, g4
CONE_RATINGS = {"a", "b", "c", "d", "e"}


class Pause:
    """Holds a re-rating after it has locked its cone, until released; notes the ids of the
    games that queued on their ladder's late committer (app/services/group_commit.py)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.queued: set[str | None] = set()

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def paused(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            if not self.release.wait(STATE_WAIT_SECONDS):
                raise AssertionError("the test never released the re-rating")
            return real(*args, **kwargs)

        return paused


@pytest.fixture
def pause(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pause]:
    held = Pause()
    monkeypatch.setattr(history, "_rerate_cone", held.wrap(history._rerate_cone))
    real_submit = LateCommitters.submit

    async def submit(self: LateCommitters, new: NewEvent, caller: Caller) -> Appended:
        held.queued.add(new.external_id)
        return await real_submit(self, new, caller)

    monkeypatch.setattr(LateCommitters, "submit", submit)
    yield held
    held.release.set()


async def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.perf_counter() + STATE_WAIT_SECONDS
    while time.perf_counter() < deadline:
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting until {what}")


def _waiting_on_a_row_lock(database: Database) -> Callable[[], bool]:
    query = text(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE wait_event_type = 'Lock' AND datname = current_database()"
    )

    def check() -> bool:
        with database.engine.connect() as connection:
            return bool(connection.execute(query).scalar_one())

    return check


async def _history(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "elo")
    for game_id, ranks, minutes in HISTORY:
        await post_game(client, game("club", game_id, ranks, minutes=minutes))


def _agrees_with_a_full_replay(database: Database) -> None:
    """Nothing lost, doubled or rated from a stale state: a full replay gives the same."""
    incremental = rating_rows(database)
    recompute_ladder(database, "club", None)
    assert rating_rows(database) == incremental


async def _while_rerating(
    client: httpx.AsyncClient,
    database: Database,
    pause: Pause,
    rerating: Awaitable[httpx.Response],
    minutes: int = 50,
) -> tuple[httpx.Response, httpx.Response]:
    """With ``rerating`` paused holding its cone: a game of two players outside the cone
    (x, y) is answered; a game of two cone players (c, d) waits until the re-rating ends: on
    their rows, or, behind a late game's re-rating in the same process, queued on the
    ladder's late committer that runs it. Both games are played at ``minutes``, after
    everything else."""
    pause.entered.clear()
    pause.release.clear()
    running = asyncio.ensure_future(rerating)
    await _until(pause.entered.is_set, "the re-rating has locked its cone")
    outside = await asyncio.wait_for(
        client.post("/games", json=game("club", f"out{minutes}", {"x": 1, "y": 2}, minutes)),
        timeout=STATE_WAIT_SECONDS,
    )
    assert outside.status_code == 201, outside.text
    assert not running.done(), "the re-rating ended before the outside game was sent"
    inside = asyncio.ensure_future(
        client.post("/games", json=game("club", f"in{minutes}", {"c": 1, "d": 2}, minutes))
    )
    on_a_lock = _waiting_on_a_row_lock(database)
    await _until(
        lambda: f"in{minutes}" in pause.queued or on_a_lock(), "the cone player's game waits"
    )
    assert not inside.done()
    pause.release.set()
    return await running, await inside


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_late_game_holds_only_its_cone(
    client: httpx.AsyncClient, database: Database, pause: Pause
) -> None:
    await _history(client)
    late_game = game("club", "late", {"a": 1, "e": 2}, minutes=0)
    late, inside = await _while_rerating(
        client, database, pause, client.post("/games", json=late_game)
    )
    assert late.status_code == 201, late.text
    assert late.json()["recomputed_events"] == CONE_EVENTS
    assert late.json()["recomputed_players"] == len(CONE_RATINGS)
    # The cone player's game was applied after the re-rating: it starts from g4 as
    # re-rated, which the late game moved (c's rating before it is c's after g4).
    g4 = (await client.get("/ladders/club/games/g4")).json()
    c_after_g4 = next(ch["rating_after"] for ch in g4["changes"] if ch["player"] == "c")
    c_in_g6 = next(ch for ch in inside.json()["changes"] if ch["player"] == "c")
    assert c_in_g6["rating_before"] == c_after_g4
    assert inside.status_code == 201, inside.text
    _agrees_with_a_full_replay(database)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_correction_and_a_void_hold_only_their_cone(
    client: httpx.AsyncClient, database: Database, pause: Pause
) -> None:
    await _history(client)
    corrected = game("club", "g1", {"a": 2, "b": 1}, minutes=10)
    fixed, _ = await _while_rerating(
        client, database, pause, client.put("/ladders/club/games/g1", json=corrected), 50
    )
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["recomputed_events"] == 2  # g2 and g4; g1 itself not counted
    voided, _ = await _while_rerating(
        client, database, pause, client.delete("/ladders/club/games/g2"), 60
    )
    assert voided.status_code == 200, voided.text
    assert voided.json()["recomputed_events"] == 2  # g4 and the c-d game at minute 50
    _agrees_with_a_full_replay(database)


async def test_a_late_game_rerates_its_cone_under_either_database(
    client: httpx.AsyncClient, database: Database
) -> None:
    """The same late game without a pause, on both databases: the same counts, and the
    stored state equals a full replay."""
    await _history(client)
    late = await post_game(client, game("club", "late", {"a": 1, "e": 2}, minutes=0))
    assert late["recomputed_events"] == CONE_EVENTS
    assert late["recomputed_players"] == len(CONE_RATINGS)
    _agrees_with_a_full_replay(database)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_a_cone_that_grows_while_it_is_locked_takes_the_newcomers(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write committed between finding the cone and locking its rows can join a rating
    the lock did not take (here z, through a game with d after g4). The cone is found again
    and z locked too, and the result is still a full replay's."""
    await _history(client)
    real = history._locked_rows
    joined = False

    def lock_after_a_write(*args: Any, **kwargs: Any) -> Any:
        """Before the cone's rows are locked (the call naming d: the late game's own rows,
        a and e, may be locked already), another writer's game (d vs z, after g4) commits
        on its own connection."""
        nonlocal joined
        keys = {player for player, _faction in args[1]}
        if not joined and "d" in keys:
            joined = True
            body = game("club", "g8", {"d": 1, "z": 2}, minutes=45)
            writer = threading.Thread(target=_post_blocking, args=(database, body))
            writer.start()
            writer.join(STATE_WAIT_SECONDS)
        return real(*args, **kwargs)

    monkeypatch.setattr(history, "_locked_rows", lock_after_a_write)
    late = await post_game(client, game("club", "late", {"a": 1, "e": 2}, minutes=0))
    assert joined
    assert late["recomputed_events"] == CONE_EVENTS + 1  # g8 joined the cone
    assert late["recomputed_players"] == len(CONE_RATINGS) + 1  # and z with it
    _agrees_with_a_full_replay(database)


def _post_blocking(database: Database, body: dict[str, Any]) -> None:
    from app.schemas.events import GameIn
    from app.services.events import submit_game

    submit_game(database, GameIn.model_validate(body))
