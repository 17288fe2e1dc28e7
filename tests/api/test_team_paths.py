"""Team games in every data path (API.md "Teams"; issue "Teams"): batches, late results,
corrections, voids, dry runs, what-if, as-of reads, histories, statistics, leaderboards and
metrics. Each path is checked against another way to the same history (the games posted one
by one, in time order, into a fresh ladder) or against hand-counted results, never against
numbers it printed itself.

Two shapes of sides: sides of one player, which every game system takes, and pairs with
partial play, which need a system that rates sides and weights (``elo``, SYSTEMS.md "Teams").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from tests.api.test_operations import sample
from tests.helpers import at, by_player, make_ladder, post_game

pytestmark = pytest.mark.anyio

#: A member: a player, or (player, weight) for partial play.
Member = str | tuple[str, float]
#: A side: (rank, members), labelled by position unless the game labels it.
SideSpec = tuple[int, Sequence[Member]]

#: The same three results in the two shapes: ann (and bob) win g1, a draw in g2, cat (and dan)
#: win g3. Pairs carry a weight where the system takes them.
SHAPES: dict[str, list[list[SideSpec]]] = {
    "sides of one": [
        [(1, ["ann"]), (2, ["cat"])],
        [(1, ["ann"]), (1, ["bob"]), (2, ["cat"])],
        [(2, ["bob"]), (1, ["cat"])],
    ],
    "pairs": [
        [(1, ["ann", "bob"]), (2, ["cat", ("dan", 0.5)])],
        [(1, ["ann", "cat"]), (1, ["bob", "dan"])],
        [(2, ["ann", "bob"]), (1, ["cat", "dan"]), (3, ["eve"])],
    ],
}
SYSTEM = "elo"


def team_game(
    ladder: str,
    game_id: str,
    sides: Sequence[SideSpec],
    minutes: int = 0,
    labels: list[str] | None = None,
) -> dict[str, Any]:
    teams = []
    for index, (rank, members) in enumerate(sides):
        players = [
            {"player": m} if isinstance(m, str) else {"player": m[0], "weight": m[1]}
            for m in members
        ]
        side: dict[str, Any] = {"rank": rank, "players": players}
        if labels is not None:
            side["team"] = labels[index]
        teams.append(side)
    return {"ladder": ladder, "id": game_id, "played_at": at(minutes), "teams": teams}


def labelled(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The sides as GET returns them: as posted, labels filled in by position."""
    return [{"team": str(i + 1), **side} for i, side in enumerate(body["teams"])]


def side_of(body: dict[str, Any]) -> dict[str, str]:
    """Each player's side label, from the body as posted."""
    return {
        p["player"]: side.get("team", str(i + 1))
        for i, side in enumerate(body["teams"])
        for p in side["players"]
    }


async def ratings(client: httpx.AsyncClient, ladder: str) -> dict[str, float]:
    response = await client.get(f"/ladders/{ladder}/leaderboard?active_within_days=0&limit=500")
    assert response.status_code == 200, response.text
    return {e["player"]: e["rating"] for e in response.json()["entries"]}


async def replayed(client: httpx.AsyncClient, ladder: str, bodies: list[dict[str, Any]]) -> None:
    """``bodies`` posted one by one in time order into the fresh ladder ``ladder``: what any
    other way to the same history must end at."""
    await make_ladder(client, ladder, SYSTEM)
    for body in sorted(bodies, key=lambda b: b["played_at"]):
        await post_game(client, {**body, "ladder": ladder})


@pytest.fixture(params=sorted(SHAPES))
def shape(request: pytest.FixtureRequest) -> list[list[SideSpec]]:
    games: list[list[SideSpec]] = SHAPES[request.param]
    return games


# -- batches, late results, corrections, voids, dry runs ---------------------------------------


async def test_a_batch_of_team_games_rates_as_the_games_posted_one_by_one(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    await make_ladder(client, "club", SYSTEM)
    bodies = [team_game("club", f"g{i}", sides, minutes=i) for i, sides in enumerate(shape)]
    response = await client.post("/games/batch", json={"games": bodies})
    assert response.status_code == 200, response.text
    assert response.json()["created"] == len(bodies)
    await replayed(client, "one-by-one", bodies)
    assert await ratings(client, "club") == await ratings(client, "one-by-one")
    for body in bodies:
        stored = (await client.get(f"/ladders/club/games/{body['id']}")).json()
        assert stored["teams"] == labelled(body)
        assert {c["player"]: c["team"] for c in stored["changes"]} == side_of(body)
        ranks = {p["player"]: s["rank"] for s in body["teams"] for p in s["players"]}
        assert {c["player"]: c["rank"] for c in stored["changes"]} == ranks
    # The lists find a team game by any member, each item as GET returns it.
    listed = (await client.get("/ladders/club/games?player=cat")).json()
    assert {item["id"]: item["teams"] for item in listed["items"]} == {
        body["id"]: labelled(body) for body in bodies if "cat" in side_of(body)
    }
    # The same batch again stores nothing twice.
    again = await client.post("/games/batch", json={"games": bodies})
    assert again.json()["existing"] == len(bodies)


async def test_a_batch_refuses_a_side_the_system_cannot_rate_naming_it(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "fx", "fundox")
    fine = team_game("fx", "g0", [(1, ["ann"]), (2, ["bob"])])
    pair = team_game("fx", "g1", [(1, ["ann", "bob"]), (2, ["cat"])], minutes=1)
    response = await client.post("/games/batch", json={"games": [fine, pair]})
    assert response.status_code == 422, response.text
    (error,) = response.json()["errors"]
    assert error["loc"] == ["games", 1, "teams", 0]
    assert "rates individuals only" in error["msg"]
    assert (await client.get("/ladders/fx")).json()["games"] == 0


async def test_a_late_team_game_recomputes_as_if_it_had_come_in_time(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    await make_ladder(client, "club", SYSTEM)
    bodies = [team_game("club", f"g{i}", sides, minutes=10 * i) for i, sides in enumerate(shape)]
    for body in bodies[1:]:
        await post_game(client, body)
    late = await post_game(client, bodies[0])
    assert late["recomputed_events"] == len(bodies) - 1
    await replayed(client, "in-time", bodies)
    assert await ratings(client, "club") == await ratings(client, "in-time")


async def test_correcting_and_voiding_a_team_game_recompute_the_history_exactly(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    await make_ladder(client, "club", SYSTEM)
    bodies = [team_game("club", f"g{i}", sides, minutes=10 * i) for i, sides in enumerate(shape)]
    for body in bodies:
        await post_game(client, body)
    # g0 corrected: its sides swap ranks and it moves after g1; g1 is voided.
    corrected = team_game(
        "club", "g0", [(rank % 2 + 1, members) for rank, members in shape[0]], minutes=15
    )
    response = await client.put("/ladders/club/games/g0", json=corrected)
    assert response.status_code == 200, response.text
    assert response.json()["teams"] == labelled(corrected)
    voided = await client.delete("/ladders/club/games/g1")
    assert voided.status_code == 200, voided.text
    await replayed(client, "as-corrected", [corrected, bodies[2]])
    assert await ratings(client, "club") == await ratings(client, "as-corrected")
    stored = (await client.get("/ladders/club/games/g0")).json()
    assert stored["teams"] == labelled(corrected)
    assert {c["player"]: c["team"] for c in stored["changes"]} == side_of(corrected)
    # The voided game stays in each member's history, naming the member's side.
    for player, team in side_of(bodies[1]).items():
        history = (await client.get(f"/ladders/club/players/{player}/history")).json()
        (entry,) = [e for e in history["entries"] if e["id"] == "g1"]
        assert (entry["voided"], entry["team"]) == (True, team)


async def test_a_dry_run_of_a_team_game_answers_what_posting_it_does_and_stores_nothing(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    await make_ladder(client, "club", SYSTEM)
    first = team_game("club", "g0", shape[0])
    await post_game(client, first)
    body = team_game(
        "club", "g1", shape[2], minutes=5, labels=["red", "blue", "green"][: len(shape[2])]
    )
    dry = await client.post("/games?dry_run=true", json=body)
    assert dry.status_code == 200, dry.text
    assert (await client.get("/ladders/club")).json()["games"] == 1
    posted = await post_game(client, body)
    for field in ("teams", "changes", "played_at", "rated"):
        assert dry.json()[field] == posted[field]
    assert [s["team"] for s in posted["teams"]] == ["red", "blue", "green"][: len(shape[2])]
    assert {c["player"]: c["team"] for c in posted["changes"]} == side_of(body)


# -- what-if ------------------------------------------------------------------------------------


async def test_what_if_replays_a_team_ladder_under_another_system_that_rates_sides(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    # Glicko takes sides but no partial play: the pairs here are played in full.
    unweighted: list[list[SideSpec]] = [
        [(rank, [m if isinstance(m, str) else m[0] for m in members]) for rank, members in sides]
        for sides in shape
    ]
    await make_ladder(client, "club", SYSTEM)
    await make_ladder(client, "under-glicko", "glicko")
    for index, sides in enumerate(unweighted):
        body = team_game("club", f"g{index}", sides, minutes=index)
        await post_game(client, body)
        await post_game(client, {**body, "ladder": "under-glicko"})
    response = await client.post("/ladders/club/whatif", json={"system": "glicko"})
    assert response.status_code == 200, response.text
    out = response.json()
    assert out["events"] == len(unweighted)
    proposed = {e["player"]: e["proposed"]["rating"] for e in out["entries"]}
    current = {e["player"]: e["current"]["rating"] for e in out["entries"]}
    assert proposed == await ratings(client, "under-glicko")
    assert current == await ratings(client, "club")


async def test_what_if_under_a_system_rating_individuals_refuses_a_side_of_several(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "club", SYSTEM)
    await post_game(client, team_game("club", "g0", SHAPES["sides of one"][0]))
    await post_game(client, team_game("club", "g1", SHAPES["pairs"][1], minutes=1))
    response = await client.post("/ladders/club/whatif", json={"system": "fundox"})
    assert response.status_code == 422, response.text
    problem = response.json()
    assert "game g1 cannot be rated by 'fundox'" in problem["detail"]
    assert "rates individuals only" in problem["detail"]
    # Sides of one are individuals: that history replays under fundox.
    await make_ladder(client, "singles", SYSTEM)
    await post_game(client, team_game("singles", "g0", SHAPES["sides of one"][0]))
    response = await client.post("/ladders/singles/whatif", json={"system": "fundox"})
    assert response.status_code == 200, response.text


# -- as-of reads and histories ------------------------------------------------------------------


async def test_as_of_reads_and_histories_of_a_team_ladder(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    await make_ladder(client, "club", SYSTEM)
    bodies = [team_game("club", f"g{i}", sides, minutes=10 * i) for i, sides in enumerate(shape)]
    answers = [await post_game(client, body) for body in bodies]
    # As of just after g0: the ratings g0's changes left.
    after_g0 = {c["player"]: c["rating_after"] for c in answers[0]["changes"]}
    board = (
        await client.get(f"/ladders/club/leaderboard?active_within_days=0&as_of={at(5)}")
    ).json()
    assert {e["player"]: e["rating"] for e in board["entries"]} == after_g0
    player = next(iter(after_g0))
    then = (await client.get(f"/ladders/club/players/{player}?as_of={at(5)}")).json()
    assert then["ratings"][0]["rating"] == after_g0[player]
    # Each history entry names the side the player was on in that game.
    for player in {p for body in bodies for p in side_of(body)}:
        history = (await client.get(f"/ladders/club/players/{player}/history")).json()
        expected = [(b["id"], side_of(b)[player]) for b in bodies if player in side_of(b)]
        assert [(e["id"], e["team"]) for e in history["entries"]] == expected
        cut = (await client.get(f"/ladders/club/players/{player}/history?as_of={at(5)}")).json()
        assert [(e["id"], e["team"]) for e in cut["entries"]] == [
            pair for pair in expected if pair[0] == "g0"
        ]


async def test_a_free_for_all_history_names_no_side(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", SYSTEM)
    body = {
        "ladder": "club",
        "id": "g",
        "played_at": at(0),
        "players": [{"player": "ann", "rank": 1}, {"player": "bob", "rank": 2}],
    }
    await post_game(client, body)
    history = (await client.get("/ladders/club/players/ann/history")).json()
    assert [e["team"] for e in history["entries"]] == [None]


# -- statistics, leaderboards, metrics ----------------------------------------------------------


async def test_a_sides_result_is_each_members_result(client: httpx.AsyncClient) -> None:
    await make_ladder(client, "club", SYSTEM)
    games: list[list[SideSpec]] = [
        # ann and bob beat cat and dan.
        [(1, ["ann", "bob"]), (2, ["cat", "dan"])],
        # ann and cat draw with bob and dan; eve, alone, is last.
        [(1, ["ann", "cat"]), (1, ["bob", "dan"]), (2, ["eve"])],
    ]
    for index, sides in enumerate(games):
        await post_game(client, team_game("club", f"g{index}", sides, minutes=index))
    # Counted by hand from the two results above: (games, wins, draws, losses).
    expected = {
        "ann": (2, 1, 1, 0),
        "bob": (2, 1, 1, 0),
        "cat": (2, 0, 1, 1),
        "dan": (2, 0, 1, 1),
        "eve": (1, 0, 0, 1),
    }
    for player, counts in expected.items():
        (rating,) = (await client.get(f"/ladders/club/players/{player}")).json()["ratings"]
        assert (rating["games"], rating["wins"], rating["draws"], rating["losses"]) == counts
    board = (await client.get("/ladders/club/leaderboard?active_within_days=0")).json()
    assert {e["player"]: e["games"] for e in board["entries"]} == {
        p: c[0] for p, c in expected.items()
    }
    assert {e["player"]: e["win_rate"] for e in board["entries"]} == {
        p: c[1] / c[0] for p, c in expected.items()
    }
    ladder = (await client.get("/ladders/club")).json()
    assert (ladder["games"], ladder["players"]) == (2, 5)
    # As of between the games, only the first counts.
    then = (await client.get(f"/ladders/club/players/ann?as_of={at(0)}")).json()["ratings"][0]
    assert (then["games"], then["wins"], then["draws"]) == (1, 1, 0)


async def test_metrics_count_team_games_as_games(
    client: httpx.AsyncClient, shape: list[list[SideSpec]]
) -> None:
    await make_ladder(client, "metered-teams", SYSTEM)
    labels = {"ladder": "metered-teams", "system": SYSTEM, "kind": "game"}
    before = (await client.get("/metrics")).text
    bodies = [team_game("metered-teams", f"g{i}", s, minutes=i) for i, s in enumerate(shape)]
    await post_game(client, bodies[0])
    response = await client.post("/games/batch", json={"games": bodies[1:]})
    assert response.status_code == 200, response.text
    after = (await client.get("/metrics")).text
    applied = sample(after, "ratings_events_applied_total", **labels) - sample(
        before, "ratings_events_applied_total", **labels
    )
    assert applied == len(bodies)
    changes = by_player((await client.get("/ladders/metered-teams/games/g0")).json()["changes"])
    assert set(changes) == set(side_of(bodies[0]))


async def test_a_correction_may_turn_a_free_for_all_into_a_team_game_and_back(
    client: httpx.AsyncClient,
) -> None:
    def ffa(ladder: str, winner: str, loser: str) -> dict[str, Any]:
        players = [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}]
        return {"ladder": ladder, "id": "g", "played_at": at(0), "players": players}

    await make_ladder(client, "club", SYSTEM)
    await post_game(client, ffa("club", "bob", "ann"))
    sides = team_game("club", "g", [(1, ["ann"]), (2, ["bob"])], labels=["x", "y"])
    response = await client.put("/ladders/club/games/g", json=sides)
    assert response.status_code == 200, response.text
    assert [(c["player"], c["team"]) for c in response.json()["changes"]] == [
        ("ann", "x"),
        ("bob", "y"),
    ]
    # Sides of one are the free-for-all: ann's win as a side is her win as a player.
    await make_ladder(client, "ann-won", SYSTEM)
    await post_game(client, ffa("ann-won", "ann", "bob"))
    assert await ratings(client, "club") == await ratings(client, "ann-won")
    back = await client.put("/ladders/club/games/g", json=ffa("club", "bob", "ann"))
    assert back.status_code == 200, back.text
    assert back.json()["teams"] is None
    assert [c["team"] for c in back.json()["changes"]] == [None, None]
    await make_ladder(client, "bob-won", SYSTEM)
    await post_game(client, ffa("bob-won", "bob", "ann"))
    assert await ratings(client, "club") == await ratings(client, "bob-won")
