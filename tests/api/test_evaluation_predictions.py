"""Evaluating a ladder's own system predicts, before each game, exactly what ``POST
/predictions`` answered for those players at that time (SYSTEMS.md "Evaluation").

The games are posted one at a time; before each, ``POST /predictions`` is asked for its sides
(each pair's ``win_probability``), and the players' stored ratings are read over HTTP for the
ladder's rater to give each pair's p from them (SYSTEMS.md "Win probability of one side over
another"). The evaluation's own predictions, read the way ``POST /ladders/{ladder}/evaluate``
reads the history, must be both, exactly.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from app.core.database import Database
from app.engine.evaluation import predictions
from app.engine.protocols import GameRater
from app.engine.types import PlayerState
from app.services import evaluation
from app.services.runtime import configure
from tests.helpers import at, make_ladder, post_game

pytestmark = pytest.mark.anyio

GAMES = 24
PLAYERS = [f"p{i}" for i in range(7)]


#: NAF rates each coach per race: its games name one.
RACES = ["orc", "elf"]


def random_games(
    seed: int, ladder: str, teams: bool, most: int, races: bool
) -> list[dict[str, Any]]:
    """Free-for-alls of 2 to ``most`` players with ties, some 2-v-2 games (``teams``), each
    player with a race (``races``)."""
    rng = random.Random(seed)
    out = []
    for index in range(GAMES):
        body: dict[str, Any] = {"ladder": ladder, "id": f"g{index}", "played_at": at(index * 90)}
        if teams and index % 4 == 3:
            a, b, c, d = rng.sample(PLAYERS, 4)
            ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
            body["teams"] = [
                {"rank": ranks[0], "players": [{"player": a}, {"player": b}]},
                {"rank": ranks[1], "players": [{"player": c}, {"player": d}]},
            ]
        else:
            seated = rng.sample(PLAYERS, rng.randint(2, most))
            body["players"] = [
                {"player": p, "rank": rng.randint(1, 3)}
                | ({"faction": rng.choice(RACES)} if races else {})
                for p in seated
            ]
            if races:  # NAF's K comes from the event's size
                body["event"] = {"coaches": rng.randint(10, 120)}
        out.append(body)
    return out


#: Who is rated: a player, and its race on a per-race ladder.
Rated = tuple[str, str | None]


async def stored_state(client: httpx.AsyncClient, ladder: str, who: Rated) -> PlayerState | None:
    response = await client.get(f"/ladders/{ladder}/players/{who[0]}")
    if response.status_code == 404:
        return None
    assert response.status_code == 200, response.text
    found = [r for r in response.json()["ratings"] if r["faction"] == who[1]]
    if not found:
        return None
    [rating] = found
    return PlayerState(rating["rating"], rating["deviation"], rating["volatility"])


async def answered(client: httpx.AsyncClient, body: dict[str, Any], duel: bool) -> list[float]:
    """``POST /predictions``'s win probability of each pair of ``body``'s sides, a before b in
    input order: of its players (a duel system's free-for-all: ``pairs`` by player) or of its
    sides as teams (``pairs`` by team; a free-for-all's players as teams of one)."""
    if duel and "players" in body:
        players = [{k: p[k] for k in ("player", "faction") if k in p} for p in body["players"]]
        asked: dict[str, Any] = {"ladder": body["ladder"], "players": players}
        if "event" in body:
            asked["event"] = body["event"]
        response = await client.post("/predictions", json=asked)
        assert response.status_code == 200, response.text
        by_pair = {(p["player"], p["opponent"]): p for p in response.json()["pairs"]}
        names = [p["player"] for p in body["players"]]
    else:
        sides = body.get("teams") or [{"players": [p]} for p in body["players"]]
        names = [f"s{i}" for i in range(len(sides))]
        teams = [
            {"team": name, "players": [{"player": p["player"]} for p in side["players"]]}
            for name, side in zip(names, sides, strict=True)
        ]
        response = await client.post(
            "/predictions", json={"ladder": body["ladder"], "teams": teams}
        )
        assert response.status_code == 200, response.text
        by_pair = {(p["team"], p["opponent"]): p for p in response.json()["pairs"]}
    return [by_pair[a, b]["win_probability"] for i, a in enumerate(names) for b in names[i + 1 :]]


def sides_of(body: dict[str, Any]) -> list[tuple[int, list[Rated]]]:
    if "teams" in body:
        return [(t["rank"], [(p["player"], None) for p in t["players"]]) for t in body["teams"]]
    return [(p["rank"], [(p["player"], p.get("faction"))]) for p in body["players"]]


@pytest.mark.parametrize(
    ("system", "teams", "most"),
    [
        ("elo", True, 4),
        ("glicko2", True, 4),
        ("naf", False, 2),
        ("trueskill", True, 4),
        ("weng-lin", True, 4),
    ],
)
async def test_each_game_is_predicted_from_the_ratings_stored_before_it(
    client: httpx.AsyncClient, database: Database, system: str, teams: bool, most: int
) -> None:
    await make_ladder(client, "club", system)
    rater: GameRater = configure(system, None).rater  # type: ignore[assignment]
    initial = rater.initial_state(rater.initial_ladder_state())
    duel = configure(system, None).info.duel
    expected = []
    endpoint = []
    for body in random_games(17, "club", teams, most, races=system == "naf"):
        sides = sides_of(body)
        states = {
            who: (await stored_state(client, "club", who)) or initial
            for _, players in sides
            for who in players
        }
        pairs = []
        for i, (rank_a, side_a) in enumerate(sides):
            for rank_b, side_b in sides[i + 1 :]:
                p = rater.side_win_probability(
                    [states[x] for x in side_a], [states[x] for x in side_b]
                )
                s = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
                pairs.append((p, s))
        expected.append(tuple(pairs))
        endpoint.append(await answered(client, body, duel))
        await post_game(client, body)

    history = evaluation.read(database, "club")
    runtime = configure(system, history.params)
    got = list(
        predictions(
            runtime.info,
            runtime.rater,  # type: ignore[arg-type]
            history.events().of(runtime.info.per_faction),
        )
    )
    assert got == expected
    assert [[p for p, _ in game] for game in got] == endpoint
