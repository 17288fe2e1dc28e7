"""The as-of leaderboard in SQL (systems ranked by the stored rating) against the same board
decoded and ranked in Python, and against the present board once the history is over."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import NotFound
from app.repositories.ladders import LadderRepository
from app.services import leaderboards, snapshots
from app.services.runtime import configure, runtime_for
from tests.helpers import RECENT, at, make_ladder, post_game

pytestmark = pytest.mark.anyio

PLAYERS = [f"p{n:02d}" for n in range(12)]
RACES = ["orc", "elf"]
GAMES = 40
#: Minutes between games: the times named below fall between them.
SPACING = 10


async def _seed(client: httpx.AsyncClient) -> None:
    """An elo ladder and a per-race NAF ladder with ties (disjoint pairs of new players
    meeting first, and draws), a voided game, adjustments (one of a player who never
    played, so with no games) and profiles with countries."""
    await make_ladder(client, "club", "elo", k=32)
    await make_ladder(client, "naf", "naf")
    rng = random.Random(21)
    for index in range(GAMES):
        if index < len(PLAYERS) // 2:  # p00-p01, p02-p03, ...: equal results, equal ratings
            a, b = PLAYERS[2 * index], PLAYERS[2 * index + 1]
        else:
            a, b = rng.sample(PLAYERS, 2)
        ranks = (1, 1) if index % 7 == 3 else (1, 2)
        for ladder in ("club", "naf"):
            body: dict[str, Any] = {
                "ladder": ladder,
                "id": f"g{index}",
                "played_at": at(index * SPACING),
                "players": [
                    {"player": a, "rank": ranks[0]},
                    {"player": b, "rank": ranks[1]},
                ],
            }
            if ladder == "naf":
                body["event"] = {"coaches": 30}
                body["players"][0]["faction"] = RACES[index // 2 % 2]
                body["players"][1]["faction"] = RACES[index % 2]
            await post_game(client, body)
    for ladder in ("club", "naf"):
        voided = await client.delete(f"/ladders/{ladder}/games/g15")
        assert voided.is_success, voided.text
    adjustments = [
        ("club", "p03", {"rating": 1500, "at": at(SPACING * 20 + 1)}),
        ("club", "newcomer", {"rating": 1516, "at": at(SPACING * 10 + 1)}),
        ("naf", "p04", {"faction": "orc", "rating": 150, "at": at(SPACING * 25 + 1)}),
    ]
    for ladder, player, body in adjustments:
        adjusted = await client.put(f"/ladders/{ladder}/players/{player}", json=body)
        assert adjusted.is_success, adjusted.text
    for player, country in (("p01", "FR"), ("p02", "FR"), ("p05", "FR"), ("p07", "DE")):
        assert (await client.put(f"/players/{player}", json={"country": country})).is_success


def _board(
    database: Database,
    ladder_id: str,
    when: datetime,
    board_filter: leaderboards.BoardFilter,
    *,
    in_sql: bool,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[tuple[int, snapshots.Entry]]] | str:
    """The board by one path (the error's message where it raises)."""
    path = leaderboards._board_as_of_in_sql if in_sql else leaderboards._board_as_of_decoded

    def work(session: Session) -> tuple[int, list[tuple[int, snapshots.Entry]]]:
        ladder = LadderRepository(session).get(ladder_id)
        assert ladder is not None
        runtime = runtime_for(ladder)
        return path(
            session,
            ladder,
            runtime,
            when,
            board_filter,
            limit=limit,
            offset=offset,
            around=around,
        )

    try:
        return database.run(work, write=False)
    except NotFound as error:
        return str(error)


def test_sql_path_is_chosen_for_stored_rating_systems_only() -> None:
    chosen = {
        system: snapshots.ranked_by_stored_rating(configure(system, {}))
        for system in ("elo", "naf", "fundox", "glicko", "glicko2", "trueskill", "kinzett", "nadf")
    }
    assert chosen == {
        "elo": True,
        "naf": True,
        "fundox": True,
        # ranking_value from the state; Kinzett's tiebreak; NADF's ladder-wide floor
        "glicko": False,
        "glicko2": False,
        "trueskill": False,
        "kinzett": False,
        "nadf": False,
    }


async def test_sql_board_equals_the_decoded_board(
    client: httpx.AsyncClient, database: Database
) -> None:
    await _seed(client)
    times = [RECENT - timedelta(minutes=1)] + [
        RECENT + timedelta(minutes=m) for m in (SPACING * 5 + 5, SPACING * 22 + 5, 10_000)
    ]
    filters = [
        leaderboards.BoardFilter(sort, direction, since, faction, min_games, country)
        for sort, direction in itertools.product(("rating", "name", "games"), ("asc", "desc"))
        for since, faction, min_games, country in (
            (None, None, 0, None),
            (RECENT + timedelta(minutes=SPACING * 18), None, 0, None),
            (None, None, 4, None),
            (None, None, 0, "FR"),
            (RECENT + timedelta(minutes=SPACING * 12), None, 2, "FR"),
        )
    ]
    race_filters = [
        leaderboards.BoardFilter("rating", "desc", None, race, games, None)
        for race in RACES
        for games in (0, 3)
    ]
    pages = [(50, 0, None), (3, 2, None), (4, 0, "p05"), (3, 0, "p00"), (5, 0, "nobody")]
    compared = 0
    for ladder, its_filters in (("club", filters), ("naf", filters + race_filters)):
        for when, board_filter, (limit, offset, around) in itertools.product(
            times, its_filters, pages
        ):
            options = {"limit": limit, "offset": offset, "around": around}
            in_sql = _board(database, ladder, when, board_filter, in_sql=True, **options)
            decoded = _board(database, ladder, when, board_filter, in_sql=False, **options)
            assert in_sql == decoded, (ladder, when, board_filter, options)
            compared += 1
    assert compared == 2 * len(times) * len(filters) * len(pages) + len(times) * len(
        race_filters
    ) * len(pages)


async def test_positions_are_competition_ranks_with_ties(
    client: httpx.AsyncClient, database: Database
) -> None:
    """Counted here from the ratings shown: 1 + the entries with a higher rating."""
    await _seed(client)
    everyone = leaderboards.BoardFilter("rating", "desc", None, None, 0, None)
    board = _board(
        database,
        "club",
        RECENT + timedelta(minutes=SPACING * 5 + 5),
        everyone,
        in_sql=True,
        limit=100,
        offset=0,
        around=None,
    )
    assert not isinstance(board, str)
    total, entries = board
    ratings = [e.standing.rating for _, e in entries]
    assert total == len(entries) == len(PLAYERS)  # the newcomer's adjustment comes later
    assert [p for p, _ in entries] == [1 + sum(r > mine for r in ratings) for mine in ratings]
    # The first six games were p00-p01 ... p10-p11, all from 1500 (expected score 1/2, k=32):
    # winners 1516, losers 1484; game 3 (p06-p07) a draw, both still 1500.
    shown = {e.player: (p, e.standing.rating) for p, e in entries}
    assert {shown[p] for p in ("p00", "p02", "p04", "p08", "p10")} == {(1, 1516.0)}
    assert {shown[p] for p in ("p06", "p07")} == {(6, 1500.0)}
    assert {shown[p] for p in ("p01", "p03", "p05", "p09", "p11")} == {(8, 1484.0)}


async def test_as_of_after_the_history_is_the_present_board(client: httpx.AsyncClient) -> None:
    await _seed(client)
    later = at(100_000)
    for ladder in ("club", "naf"):
        for query in (
            {"limit": 50},
            {"sort": "name", "order": "desc", "min_games": 3},
            {"sort": "games", "country": "FR"},
            {"around": "p05", "limit": 3},
        ):
            params = {**query, "active_within_days": 0}
            now = (await client.get(f"/ladders/{ladder}/leaderboard", params=params)).json()
            then = (
                await client.get(
                    f"/ladders/{ladder}/leaderboard", params={**params, "as_of": later}
                )
            ).json()
            assert then["entries"] == now["entries"], (ladder, query)
            assert then["total"] == now["total"]
