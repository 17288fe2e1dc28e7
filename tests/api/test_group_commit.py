"""Group commit: games recorded together equal the same games recorded one by one."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.main import create_app
from app.repositories import history as history_writers
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import GameIn
from app.services.admin import recompute_ladder
from app.services.auth import ADMIN, Caller
from app.services.events import new_game_event
from app.services.group_commit import record_group, record_late_group
from app.services.history import NewEvent
from app.services.unit_of_work import Created, Deferred, Recomputed, Why
from tests.conftest import AUTH, make_settings
from tests.helpers import at, game, make_ladder, stored_ratings

pytestmark = pytest.mark.anyio

K = 32.0
INITIAL = 1500.0
SCALE = 400.0


def expected_score(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / SCALE))


def _new(body: dict[str, object]):  # type: ignore[no-untyped-def]
    return new_game_event(GameIn.model_validate(body))


async def test_a_group_rates_in_arrival_order_and_hands_back_late_and_repeated_games(
    client: httpx.AsyncClient, database: Database
) -> None:
    await make_ladder(client, "club", "elo")
    first = game("club", "g1", {"A": 1, "B": 2}, minutes=10)
    group = [
        first,
        game("club", "g2", {"A": 1, "C": 2}, minutes=20),
        game("club", "g3", {"B": 1, "D": 2}, minutes=5),  # earlier than B's g1: late
        first,  # the same id twice in one group
    ]
    results = record_group(database, "club", [_new(body) for body in group])

    assert isinstance(results[0], Created)
    assert isinstance(results[1], Created)
    assert results[2] == Deferred(Why.LATE)
    assert results[3] == Deferred(Why.REPEAT)
    a_after_g1 = INITIAL + K * (1 - 0.5)
    b_after_g1 = INITIAL - K * 0.5
    a_after_g2 = a_after_g1 + K * (1 - expected_score(a_after_g1, INITIAL))
    c_after_g2 = INITIAL + K * (0 - expected_score(INITIAL, a_after_g1))
    stored = stored_ratings(database, "club")
    assert stored["A"] == (pytest.approx(a_after_g2), 2, 2)
    assert stored["B"] == (pytest.approx(b_after_g1), 1, 0)
    assert stored["C"] == (pytest.approx(c_after_g2), 1, 0)
    # D's row exists (locked for g3) but has no game yet.
    assert stored["D"][1] == 0

    # The handed-back games go through the one-by-one path: late, then a repeat.
    late = await client.post("/games", json=group[2])
    assert late.status_code == 201, late.text
    assert late.json()["recomputed_events"] >= 1
    repeat = await client.post("/games", json=first)
    assert repeat.status_code == 200
    before = stored_ratings(database, "club")
    recompute_ladder(database, "club", None)
    assert stored_ratings(database, "club") == before


async def _together_and_in_order(
    client: httpx.AsyncClient,
    one_by_one: httpx.AsyncClient,
    timely: list[dict[str, Any]],
    late: list[dict[str, Any]],
) -> None:
    """Ladder "together" gets ``timely`` (the late games are the test's to send); ladder
    "in-order", on another server, every game in time order: the ratings to compare with."""
    await make_ladder(client, "together", "elo", max_field_players=2)
    await make_ladder(one_by_one, "in-order", "elo", max_field_players=2)
    for body in timely:
        assert (await client.post("/games", json=_on("together", body))).status_code == 201
    for body in sorted([*timely, *late], key=lambda b: str(b["played_at"])):
        assert (await one_by_one.post("/games", json=_on("in-order", body))).status_code == 201


def _on(ladder: str, body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "ladder": ladder}


async def test_late_games_recorded_together_end_where_they_would_one_by_one(
    client: httpx.AsyncClient, one_by_one: httpx.AsyncClient, database: Database
) -> None:
    """Issue 39: the late games of a ladder that queue up while a recomputation runs are
    recorded by one recomputation; the ratings are those of the same games in time order,
    each game gets its own answer and feed item, and what cannot go with them is handed
    back or refused alone."""
    timely = [
        game("{ladder}", "g1", {"A": 1, "B": 2}, minutes=10),
        game("{ladder}", "g2", {"C": 1, "D": 2}, minutes=20),
        game("{ladder}", "g3", {"A": 1, "C": 2}, minutes=30),
        game("{ladder}", "g4", {"B": 1, "D": 2}, minutes=40),
        game("{ladder}", "g5", {"E": 1, "F": 2}, minutes=50),
    ]
    late = [
        game("{ladder}", "l1", {"B": 1, "C": 2}, minutes=15),
        game("{ladder}", "l2", {"D": 1, "A": 2}, minutes=5),
    ]

    await _together_and_in_order(client, one_by_one, timely, late)
    cursor = (await client.get("/ladders/together/feed")).json()["next"]

    unratable = game("together", "bad", {"A": 1, "Q": 2, "R": 3}, minutes=1)
    group = [_on("together", late[0]), _on("together", late[0]), _on("together", late[1])]
    results = record_late_group(
        database, "together", [_new(b) for b in [*group, unratable]], [ADMIN] * 4
    )
    first, repeated, second, refused = results
    assert isinstance(first, Recomputed)
    assert isinstance(second, Recomputed)
    assert repeated == Deferred(Why.REPEAT)
    # A game over the ladder's field limit is refused alone (422), the others stand.
    assert isinstance(refused, Invalid)
    # One recomputation: both answers count the same, every game from l2's time on but the
    # two late ones themselves (g1 ... g4; E and F's g5 depends on neither).
    assert first.events == second.events == 4
    assert {c["player"] for c in first.changes} == {"B", "C"}
    assert {c["player"] for c in second.changes} == {"A", "D"}
    assert stored_ratings(database, "together") == stored_ratings(database, "in-order")

    items = (await client.get(f"/ladders/together/feed?after={cursor}")).json()["items"]
    assert [(i["type"], i["event"]["id"]) for i in items] == [
        ("game.rated", "l1"),
        ("game.rated", "l2"),
    ]
    # l1's item names its own players; the last also every other rating moved (A ... D).
    assert {r["player"] for r in items[0]["ratings"]} == {"B", "C"}
    assert {r["player"] for r in items[1]["ratings"]} == {"A", "B", "C", "D"}
    after = {r["player"]: r["after"]["rating"] for r in items[1]["ratings"]}
    final = stored_ratings(database, "together")
    assert after == {p: pytest.approx(final[p][0]) for p in after}


async def test_late_games_that_escalate_take_the_games_queued_meanwhile(
    client: httpx.AsyncClient, one_by_one: httpx.AsyncClient, database: Database
) -> None:
    """Issue 39 across servers: a late group whose cone another writer holds asks for the
    whole ladder, and the late games that queued meanwhile (``more``) join its one
    recomputation; the ratings are those of the same games in time order."""
    if database.is_sqlite:
        pytest.skip("SQLite serialises writers: no other writer holds a row meanwhile")
    timely = [
        game("{ladder}", "g1", {"A": 1, "B": 2}, minutes=10),
        game("{ladder}", "g2", {"C": 1, "D": 2}, minutes=20),
        game("{ladder}", "g3", {"A": 1, "C": 2}, minutes=30),
        game("{ladder}", "g4", {"B": 1, "D": 2}, minutes=40),
    ]
    first = game("{ladder}", "l1", {"B": 1, "C": 2}, minutes=15)
    queued = game("{ladder}", "l2", {"D": 1, "A": 2}, minutes=5)

    await _together_and_in_order(client, one_by_one, timely, [first, queued])

    # Another writer holds D's row: in l1's cone (g2, g4), not one of l1's own players.
    holding, release = threading.Event(), threading.Event()

    def hold_d() -> None:
        with database.session(write=True) as session:
            session.execute(
                text(
                    "SELECT player FROM player_ratings "
                    "WHERE ladder_id = 'together' AND player = 'D' FOR UPDATE"
                )
            )
            holding.set()
            release.wait(30)

    drawn: list[int] = []

    def more() -> list[tuple[NewEvent, Caller]]:
        drawn.append(1)
        release.set()  # the holder commits: the recomputation may write D's row
        return [(_new(_on("together", queued)), ADMIN)]

    with ThreadPoolExecutor(1) as pool:
        holder = pool.submit(hold_d)
        assert holding.wait(30)
        results = record_late_group(
            database, "together", [_new(_on("together", first))], [ADMIN], more
        )
        holder.result()
    assert drawn == [1]
    ours, theirs = results
    assert isinstance(ours, Recomputed)
    assert isinstance(theirs, Recomputed)
    # One recomputation from l2's time: g1 ... g4, the two late games not counted.
    assert ours.events == theirs.events == 4
    assert stored_ratings(database, "together") == stored_ratings(database, "in-order")


@pytest.fixture
async def one_by_one(database: Database) -> AsyncIterator[httpx.AsyncClient]:
    settings = make_settings(database_url=str(database.url), write_group_max=0)
    app = create_app(settings, database=database)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test", headers=AUTH
    ) as http:
        yield http


@pytest.mark.parametrize("system", ["elo", "fundox", "glicko2"])
async def test_concurrent_games_end_where_the_same_games_one_by_one_do(
    client: httpx.AsyncClient, one_by_one: httpx.AsyncClient, database: Database, system: str
) -> None:
    await make_ladder(client, "grouped", system)
    await make_ladder(client, "single", system)
    rng = random.Random(11)
    players = [f"p{i}" for i in range(8)]
    tables = [rng.sample(players, 4 if system == "fundox" else 2) for _ in range(80)]

    def body(ladder: str, index: int) -> dict[str, object]:
        ranks = {player: seat + 1 for seat, player in enumerate(tables[index])}
        return game(ladder, f"g{index}", ranks, minutes=index)

    for index in range(len(tables)):
        assert (await one_by_one.post("/games", json=body("single", index))).status_code == 201
    # The same games at once, in a shuffled order (many arrive late), some of them twice.
    order = list(range(len(tables))) + rng.sample(range(len(tables)), 10)
    rng.shuffle(order)
    responses = await asyncio.gather(
        *(client.post("/games", json=body("grouped", index)) for index in order)
    )
    statuses = [r.status_code for r in responses]
    assert statuses.count(201) == len(tables), statuses
    assert statuses.count(200) == len(order) - len(tables), statuses

    assert stored_ratings(database, "grouped") == stored_ratings(database, "single")
    for player in players:
        grouped = await client.get(f"/ladders/grouped/players/{player}/history?limit=500")
        single = await client.get(f"/ladders/single/players/{player}/history?limit=500")
        assert _comparable(grouped.json()) == _comparable(single.json())


def _comparable(history: dict[str, object]) -> list[tuple[object, ...]]:
    """A history without what differs by arrival (sequence numbers)."""
    entries = history["entries"]
    assert isinstance(entries, list)
    assert len(entries) == history["total"]
    return [
        (
            datetime.fromisoformat(str(e["at"]).replace("Z", "+00:00")),
            e["id"],
            e["rating_before"],
            e["rating_after"],
            e["deviation_after"],
            e["details"],
        )
        for e in entries
    ]


async def test_an_id_stored_by_another_process_meanwhile_redoes_the_group(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the group's id check and its insert another replica stores the same id: the
    insert fails on the unique id, the group is redone, and the game is answered as the
    repeat it is."""
    await make_ladder(client, "club", "elo")
    stored = game("club", "g1", {"A": 1, "B": 2}, minutes=10)
    assert (await client.post("/games", json=stored)).status_code == 201
    real_find = EventRepository.stored_ids
    calls = 0

    def blind_once(self: EventRepository, *args: Any, **kwargs: Any) -> set[tuple[str, str]]:
        nonlocal calls
        calls += 1
        found = real_find(self, *args, **kwargs)
        return set() if calls == 1 else found

    monkeypatch.setattr(EventRepository, "stored_ids", blind_once)
    fresh = game("club", "g2", {"C": 1, "D": 2}, minutes=20)
    results = record_group(database, "club", [_new(stored), _new(fresh)])
    assert calls == 2
    assert results[0] == Deferred(Why.REPEAT)
    assert isinstance(results[1], Created)
    with database.engine.connect() as connection:
        count = connection.execute(text("SELECT COUNT(*) FROM events")).scalar_one()
    assert count == 2


async def test_a_new_players_game_applied_meanwhile_gets_the_smaller_seq(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group looks up its ids before it creates the rating rows of players it has never
    seen. If another writer applies a game of such a player in between, at the same time,
    the group's game comes after it in history: its seq must be the larger one, or the
    stored ratings would not be what a replay in (time, seq) order gives."""
    if database.is_sqlite:
        pytest.skip("SQLite serialises writers: nothing can come in between")
    await make_ladder(client, "club", "elo")
    assert (await client.post("/games", json=game("club", "g0", {"A": 1, "B": 2}))).status_code
    real_find = EventRepository.stored_ids
    other: dict[str, object] = {}

    def read_then_another_writer(
        self: EventRepository, *args: Any, **kwargs: Any
    ) -> set[tuple[str, str]]:
        read = real_find(self, *args, **kwargs)
        if not other:  # the other writer: its own transaction, committed before we go on
            other["started"] = True
            meanwhile = game("club", "g1", {"N": 1, "B": 2}, minutes=10)
            with ThreadPoolExecutor(1) as pool:
                other["result"] = pool.submit(
                    record_group, database, "club", [_new(meanwhile)]
                ).result()
        return read

    monkeypatch.setattr(EventRepository, "stored_ids", read_then_another_writer)
    ours = game("club", "g2", {"N": 1, "A": 2}, minutes=10)  # N is new to this group
    [result] = record_group(database, "club", [_new(ours)])
    [theirs] = other["result"]  # type: ignore[misc]
    assert isinstance(result, Created)
    assert isinstance(theirs, Created)
    assert result.seq > theirs.seq
    before = stored_ratings(database, "club")
    recompute_ladder(database, "club", None)
    assert stored_ratings(database, "club") == before


async def test_a_group_whose_last_write_fails_stores_nothing(
    client: httpx.AsyncClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group is one transaction: when its last write (the rating update) fails, the
    events, the changes and the new players' rating rows before it are not stored."""
    await make_ladder(client, "club", "elo")

    def failing_update(*args: Any) -> None:
        raise RuntimeError("the rating update failed")

    for writer in (history_writers.SqliteWriter, history_writers.PostgresWriter):
        monkeypatch.setattr(writer, "update_ratings", failing_update)
    with pytest.raises(RuntimeError, match="the rating update failed"):
        record_group(database, "club", [_new(game("club", "g1", {"A": 1, "B": 2}))])
    with database.engine.connect() as connection:
        for table in ("events", "changes", "player_ratings"):
            count = connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
            assert count == 0, table


async def test_a_game_that_cannot_be_rated_does_not_fail_its_group(
    client: httpx.AsyncClient, database: Database
) -> None:
    """A result overflowing to infinity is refused alone: the group hands every game back,
    and one by one only that game is refused (422), the other is stored."""
    # Glicko-2 far from its model (tests/api/test_glicko.py's overflow test): two players
    # 10,000 points apart, 150 upsets in one day, and the next day's upset overflows.
    day = datetime(2026, 1, 1, 9, tzinfo=UTC)
    await make_ladder(client, "overflow", "glicko2", period="day")
    for player, rating, rd in (("X", 1500 - 5000, 350), ("Y", 1500 + 5000, 1)):
        adjusted = await client.put(
            f"/ladders/overflow/players/{player}",
            json={"rating": rating, "deviation": rd, "at": at(0, day)},
        )
        assert adjusted.status_code == 200, adjusted.text
    upsets = [
        game("overflow", f"u{n}", {"X": 1, "Y": 2}, minutes=1 + n, played_at=at(1 + n, day))
        for n in range(150)
    ]
    assert (await client.post("/games/batch", json={"games": upsets})).status_code == 200
    next_day = 24 * 60 + 1
    bad = game("overflow", "bad", {"X": 1, "Y": 2}, played_at=at(next_day, day))
    good = game("overflow", "good", {"A": 1, "B": 2}, played_at=at(next_day, day))
    unratable = Deferred(Why.UNRATABLE)
    assert record_group(database, "overflow", [_new(bad), _new(good)]) == [unratable, unratable]

    refused = await client.post("/games", json=bad)
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["loc"] == ["players"]
    assert (await client.get("/ladders/overflow/games/bad")).status_code == 404
    assert (await client.post("/games", json=good)).status_code == 201


async def test_a_ladder_under_its_exclusive_lock_hands_the_group_back(
    client: httpx.AsyncClient, database: Database
) -> None:
    """While a recomputation holds the ladder's exclusive lock the group does not wait for
    it: every game goes back to be recorded one by one, and nothing is stored."""
    if database.is_sqlite:
        pytest.skip("SQLite serialises writers: the group would wait for the file lock")
    await make_ladder(client, "club", "elo")
    with database.session(write=True) as session:
        LadderRepository(session).get_locked("club", exclusive=True)
        results = record_group(database, "club", [_new(game("club", "g1", {"A": 1, "B": 2}))])
    assert results == [Deferred(Why.LADDER_BUSY)]
    with database.engine.connect() as connection:
        count = connection.execute(text("SELECT COUNT(*) FROM events")).scalar_one()
    assert count == 0


async def test_a_group_of_an_unknown_ladder_is_refused(database: Database) -> None:
    results = record_group(database, "nowhere", [_new(game("nowhere", "g1", {"A": 1, "B": 2}))])
    assert [type(result) for result in results] == [NotFound]
