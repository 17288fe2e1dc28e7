"""Adjustments, late results and recomputation: stored ratings equal a replay from scratch."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.repositories.events import EventRepository
from app.schemas.events import GameIn
from app.services.admin import recompute_ladder
from app.services.conversion import GAME
from app.services.events import new_game_event
from app.services.history import recompute
from app.services.unit_of_work import Lock, UnitOfWork, run_write
from tests.helpers import at, by_player, game, make_ladder, post_game, rating_rows, stored_ratings

pytestmark = pytest.mark.anyio


def pair_amount(winner: float, loser: float) -> float:
    """Seed 003's Fundox amount when ``winner`` beats ``loser``."""
    return 16 / (1 + 10 ** ((winner - loser) / 800))


async def _board(client: httpx.AsyncClient, ladder: str) -> dict[str, float]:
    entries = (
        await client.get(f"/ladders/{ladder}/leaderboard?active_within_days=0&limit=500")
    ).json()["entries"]
    return {e["player"]: e["rating"] for e in entries}


async def test_adjustment_is_in_history_and_later_games_start_from_it(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", "fundox")
    response = await client.put(
        "/ladders/club/players/ann", json={"rating": 2000, "at": at(0), "reason": "migration"}
    )
    assert response.status_code == 200
    assert response.json()["ratings"][0]["rating"] == 2000
    out = await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}, minutes=5))
    assert by_player(out["changes"])["ann"]["delta"] == pytest.approx(pair_amount(2000, 1600))
    history = (await client.get("/ladders/club/players/ann/history")).json()
    assert [e["kind"] for e in history["entries"]] == ["adjustment", "game"]
    assert history["entries"][0]["details"]["reason"] == "migration"


async def test_late_game_is_placed_in_time_order(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g2", {"ann": 1, "bob": 2}, minutes=10))
    # g1 happened before g2: bob beat ann first, then ann beat bob.
    late = await post_game(client, game("club", "g1", {"bob": 1, "ann": 2}, minutes=5))
    # g1 (ann, bob) at 5 is followed by g2 (ann, bob) at 10, which shares both: the cone is
    # {g2}, one stored event (g1 itself is not counted); ratings rewritten: ann and bob.
    assert late["recomputed_events"] == 1
    assert late["recomputed_players"] == 2
    first = pair_amount(1600, 1600)
    bob, ann = 1600 + first, 1600 - first
    second = pair_amount(ann, bob)
    assert await _board(client, "club") == pytest.approx({"ann": ann + second, "bob": bob - second})
    history = (await client.get("/ladders/club/players/ann/history")).json()
    assert [e["id"] for e in history["entries"]] == ["g1", "g2"]
    assert history["entries"][1]["rating_before"] == pytest.approx(ann)


async def test_adjustment_survives_recomputation(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}, minutes=1))
    await client.put("/ladders/club/players/ann", json={"rating": 1700, "at": at(2)})
    await post_game(client, game("club", "g3", {"ann": 1, "bob": 2}, minutes=3))
    # A late game before the adjustment: the adjustment still sets ann to 1700 afterwards.
    await post_game(client, game("club", "g0", {"bob": 1, "ann": 2}, minutes=0))
    history = (await client.get("/ladders/club/players/ann/history")).json()["entries"]
    assert [e["id"] for e in history] == ["g0", "g1", None, "g3"]
    assert history[2]["rating_after"] == 1700
    assert history[3]["rating_before"] == 1700


async def test_correct_and_void_recompute(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", "fundox")
    await post_game(client, game("club", "g1", {"ann": 1, "bob": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"ann": 1, "bob": 2}, minutes=2))
    corrected = game("club", "g1", {"ann": 2, "bob": 1}, minutes=1)
    response = await client.put("/ladders/club/games/g1", json=corrected)
    assert response.status_code == 200, response.text
    first = pair_amount(1600, 1600)
    second = pair_amount(1600 - first, 1600 + first)
    assert (await _board(client, "club"))["ann"] == pytest.approx(1600 - first + second)
    voided = await client.delete("/ladders/club/games/g1")
    assert voided.status_code == 200
    assert voided.json()["voided"] is True
    assert (await _board(client, "club"))["ann"] == pytest.approx(1600 + first)
    ann = (await client.get("/ladders/club/players/ann")).json()["ratings"][0]
    assert ann["games"] == 1


async def test_incremental_equals_full_replay(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "glicko2", period="day")
    players = ["p0", "p1", "p2", "p3", "p4"]
    minute = 0
    for index in range(30):
        a, b, c = players[index % 5], players[(index + 2) % 5], players[(index + 3) % 5]
        minute += 97  # spreads games over several day periods
        await post_game(client, game("club", f"g{index}", {a: 1, b: 2, c: 2}, minutes=minute))
    # Some late results too, which take the recomputation path.
    await post_game(client, game("club", "late-1", {"p1": 1, "p4": 2}, minutes=50))
    await post_game(client, game("club", "late-2", {"p3": 1, "p0": 2}, minutes=1500))
    incremental = rating_rows(database)
    recompute_ladder(database, "club", None)
    assert rating_rows(database) == incremental


async def test_small_pages_and_batches_give_the_same_ratings(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages of events are an implementation detail: with tiny ones (many pages, each
    loading its ratings' starting points and drawing its ids) the replay is the same."""
    from app.services import history

    await make_ladder(client, "club", "elo")
    games = [
        game("club", f"g{i}", {f"p{i % 5}": 1, f"p{(i + 1) % 5}": 2}, minutes=i) for i in range(40)
    ]
    assert (await client.post("/games/batch", json={"games": games})).status_code == 200
    expected = rating_rows(database)
    monkeypatch.setattr(history, "EVENT_PAGE", 7)
    recompute_ladder(database, "club", None)
    assert rating_rows(database) == expected
    # A late game replays from the middle, loading starting points page by page.
    await post_game(client, game("club", "late", {"p0": 1, "p3": 2}, minutes=10))
    incremental = rating_rows(database)
    monkeypatch.setattr(history, "EVENT_PAGE", 5_000)
    recompute_ladder(database, "club", None)
    assert rating_rows(database) == incremental


async def _stored_changes(database: Database, ladder: str) -> list[tuple[Any, ...]]:
    """Each stored change by its game's id: who, before and after, and whether it starts
    its rating's chain (ids and seqs differ between ladders, so they are left out)."""
    from sqlalchemy import text

    with database.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT e.external_id, c.position, c.player, c.rating_before, c.rating_after, "
                "c.prev_change_id IS NULL FROM changes c JOIN events e "
                "ON e.ladder_id = c.ladder_id AND e.seq = c.event_seq "
                "WHERE c.ladder_id = :ladder ORDER BY e.external_id, c.position"
            ),
            {"ladder": ladder},
        )
        return [tuple(row) for row in rows]


async def _change_ids(database: Database, ladder: str) -> list[int]:
    from sqlalchemy import text

    with database.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT id FROM changes WHERE ladder_id = :ladder ORDER BY id"),
            {"ladder": ladder},
        )
        return [row[0] for row in rows]


async def _interleaved_ladders(client: httpx.AsyncClient, games: int) -> None:
    """Ladders ``a`` and ``b`` whose games (so whose change ids) alternate."""
    await make_ladder(client, "a", "elo")
    await make_ladder(client, "b", "elo")
    for i in range(games):
        for ladder in ("a", "b"):
            ranks = {f"p{i % 5}": 1, f"p{(i + 1) % 5}": 2}
            await post_game(client, game(ladder, f"g{i:02d}", ranks, minutes=i))


@pytest.mark.parametrize("page", [7, 1_000])
async def test_full_recompute_replaces_every_old_change(
    client: httpx.AsyncClient,
    database: Database,
    monkeypatch: pytest.MonkeyPatch,
    page: int,
) -> None:
    """A replay from scratch replaces all of a ladder's changes and no other ladder's, in
    pages of 7 events or in one. The other ladder's changes sit between the old ids and must
    survive."""
    from app.services import history

    await _interleaved_ladders(client, 20)
    before_a = await _stored_changes(database, "a")
    before_b = await _stored_changes(database, "b")
    old_ids = await _change_ids(database, "a")
    ids_b = await _change_ids(database, "b")
    assert len(old_ids) == len(ids_b) == 2 * 20

    monkeypatch.setattr(history, "EVENT_PAGE", page)
    recompute_ladder(database, "a", None)

    new_ids = await _change_ids(database, "a")
    assert len(new_ids) == 2 * 20
    assert min(new_ids) > max(old_ids + ids_b)  # every old change gone, none reused
    assert await _stored_changes(database, "a") == before_a
    assert await _change_ids(database, "b") == ids_b
    assert await _stored_changes(database, "b") == before_b


async def test_failed_full_recompute_keeps_the_old_changes(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay from scratch that fails part way (here the engine, at the 15th of 20 events, after
    ranges of old changes went to the SQLite thread) stores nothing: the old changes, the
    ratings and the other ladder stay as they were."""
    from app.engine import ledger
    from app.services import history

    await _interleaved_ladders(client, 20)
    ids_a, ids_b = await _change_ids(database, "a"), await _change_ids(database, "b")
    ratings_a = stored_ratings(database, "a")
    monkeypatch.setattr(history, "EVENT_PAGE", 7)
    rate = ledger.rate_event
    rated: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        rated.append(1)
        if len(rated) == 15:
            raise RuntimeError("engine failure for the test")
        return rate(*args, **kwargs)

    monkeypatch.setattr(ledger, "rate_event", failing)
    with pytest.raises(RuntimeError, match="engine failure"):
        recompute_ladder(database, "a", None)
    assert await _change_ids(database, "a") == ids_a
    assert await _change_ids(database, "b") == ids_b
    assert stored_ratings(database, "a") == ratings_a


#: A crowd of players who never meet the late game's players.
CROWD = 400
CROWD_GAMES = 3_000


async def test_a_late_game_re_rates_only_its_cone(
    client: httpx.AsyncClient, database: Database
) -> None:
    """3,000 games among a crowd, and a few games of a..e (issue 21's 6,000-game ladder in
    small). A late a-e game at minute 500 shares a with ab-1000, which brings in b, so
    ab-2000 and bc-2600, which brings in c: its cone is those three. cd-2500 has c, but
    before c was reached (b only meets c at 2600), so it stands; so does all of the crowd.
    Ratings rewritten: a, b, c and the new e."""
    await make_ladder(client, "big", "elo")
    # i and 7i + 1 differ modulo 400 (their difference 6i + 1 is odd): two players each.
    crowd = [
        game("big", f"g{i}", {f"p{i % CROWD}": 1, f"p{(7 * i + 1) % CROWD}": 2}, minutes=i)
        for i in range(CROWD_GAMES)
    ]
    own = [
        game("big", "ab-1000", {"a": 1, "b": 2}, minutes=1000),
        game("big", "ab-2000", {"b": 1, "a": 2}, minutes=2000),
        game("big", "cd-2500", {"c": 1, "d": 2}, minutes=2500),
        game("big", "bc-2600", {"b": 1, "c": 2}, minutes=2600),
    ]
    response = await client.post("/games/batch", json={"games": crowd + own})
    assert response.status_code == 200, response.text
    late = await post_game(client, game("big", "ae-500", {"a": 1, "e": 2}, minutes=500))
    assert late["recomputed_events"] == 3
    assert late["recomputed_players"] == 4
    cone = stored_ratings(database, "big")
    recompute_ladder(database, "big", None)
    assert stored_ratings(database, "big") == cone


async def test_a_correction_named_to_the_recomputation_re_rates_its_cone(
    client: httpx.AsyncClient, database: Database
) -> None:
    """What a PUT does once it names its event to ``history.recompute`` (``changed``): g1
    corrected in place (same time, b now wins). Its cone is g3, which b plays after it;
    g2 has c, but before c meets b at g3, so it stands. Ratings rewritten: a and b (g1), c
    (g3). The corrected event's old changes, at the very place it stands again, go."""
    await make_ladder(client, "club", "elo")
    await post_game(client, game("club", "g1", {"a": 1, "b": 2}, minutes=1))
    await post_game(client, game("club", "g2", {"c": 1, "d": 2}, minutes=2))
    await post_game(client, game("club", "g3", {"b": 1, "c": 2}, minutes=3))
    corrected = new_game_event(GameIn.model_validate(game("club", "g1", {"a": 2, "b": 1}, 1)))

    def work(unit: UnitOfWork) -> tuple[int, int]:
        write = unit.ladder("club")
        event = EventRepository(unit.session).find("club", GAME, "g1")
        assert event is not None
        event.body, event.body_hash = corrected.body, corrected.body_hash
        unit.session.flush()
        return recompute(write, event.occurred_at, {event.seq: None})

    assert run_write(database, work, lock=Lock.EXCLUSIVE) == (1, 3)
    cone = stored_ratings(database, "club")
    recompute_ladder(database, "club", None)
    assert stored_ratings(database, "club") == cone
    assert cone["b"][2] == 2  # wins: g1 as corrected, and g3
