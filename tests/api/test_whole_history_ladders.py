"""Whole-history ladders through the service (API.md "Whole-history and large-field
systems"; SYSTEMS.md ``ttt``, ``whr``): a new game is answered by the engine's bounded update
(``rater.add_game`` of the stored fit) and leaves the fit unconverged until the background
work (``convergence.converge``, called here directly) refits it; a late game, a correction or
a void refit at once. Once converged, the served ratings are each player's last point of a
fresh ``rater.fit`` of the ladder's live history, to the engine's tolerance; a game's changes
are its players' served estimates just before and just after the write; the ladder shows its
``fit`` and each player's curve."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import httpx
import pytest

from app.core.database import Database
from app.engine.protocols import Fit, WholeHistoryRater
from app.engine.registry import SYSTEMS
from app.engine.types import Game, PlayerKey
from app.schemas.events import GameIn
from app.services.convergence import converge
from app.services.events import new_game_event
from tests.helpers import make_ladder, post_game

pytestmark = pytest.mark.anyio

#: The engines' stopping rules (SYSTEMS.md): ttt stops when no mean moves by more than 1e-6
#: in a sweep, whr by more than 1e-9 Elo; a warm fit and a cold one agree well within these.
TOLERANCE = {"ttt": 1e-5, "whr": 1e-6}


def game(ladder: str, gid: str, day: int, winner: str, loser: str) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": gid,
        "played_at": f"2024-01-{day:02d}T12:00:00Z",
        "players": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
    }


def rater(system: str) -> WholeHistoryRater:
    return cast(WholeHistoryRater, SYSTEMS[system].configure({}))


def engine_games(bodies: Sequence[dict[str, Any]]) -> list[Game]:
    """The bodies in history order (time, then arrival), as the engine's games."""
    ordered = sorted(enumerate(bodies), key=lambda item: (item[1]["played_at"], item[0]))
    return [new_game_event(GameIn.model_validate(b)).event for _, b in ordered]  # type: ignore[misc]


def fresh(system: str, bodies: Sequence[dict[str, Any]]) -> Fit:
    return rater(system).fit(engine_games(bodies))


async def board(client: httpx.AsyncClient, ladder: str) -> dict[str, tuple[float, float]]:
    response = await client.get(f"/ladders/{ladder}/leaderboard", params={"limit": 100})
    assert response.status_code == 200, response.text
    return {e["player"]: (e["rating"], e["deviation"]) for e in response.json()["entries"]}


async def assert_served_is_fresh_fit(
    client: httpx.AsyncClient, system: str, ladder: str, bodies: Sequence[dict[str, Any]]
) -> Fit:
    fit = fresh(system, bodies)
    served = await board(client, ladder)
    assert served.keys() == {k.player for k in fit.curves}
    for key, curve in fit.curves.items():
        rating, deviation = served[key.player]
        assert rating == pytest.approx(curve[-1].rating, abs=TOLERANCE[system]), key
        assert deviation == pytest.approx(curve[-1].deviation, abs=TOLERANCE[system]), key
    return fit


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_served_ratings_are_a_fresh_fit_after_every_kind_of_write(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    await make_ladder(client, "w", system)
    bodies = [
        game("w", "g1", 1, "a", "b"),
        game("w", "g2", 2, "b", "c"),
        game("w", "g3", 3, "c", "a"),
        game("w", "g4", 5, "a", "c"),
    ]
    for body in bodies:
        await post_game(client, body)
    fit = (await client.get("/ladders/w")).json()["fit"]
    assert (fit["converged"], fit["sweeps"]) == (False, 0)
    assert fit["max_step"] > 0
    assert converge(database, "w")
    assert not converge(database, "w")  # converged: nothing left to do
    assert (await client.get("/ladders/w")).json()["fit"]["converged"] is True
    await assert_served_is_fresh_fit(client, system, "w", bodies)

    late = game("w", "late", 2, "c", "b")  # day 2: before g3 and g4
    response = await client.post("/games", json=late)
    assert response.status_code == 201, response.text
    bodies.append(late)
    await assert_served_is_fresh_fit(client, system, "w", bodies)

    corrected = game("w", "g2", 4, "c", "b")  # winner swapped and moved to day 4
    response = await client.put("/ladders/w/games/g2", json=corrected)
    assert response.status_code == 200, response.text
    bodies[1] = corrected
    await assert_served_is_fresh_fit(client, system, "w", bodies)

    response = await client.delete("/ladders/w/games/g1")
    assert response.status_code == 200, response.text
    del bodies[0]
    # A late game, a correction and a void refit at once: nothing is left to converge.
    assert not converge(database, "w")
    fit = await assert_served_is_fresh_fit(client, system, "w", bodies)

    # Statistics are the live history's: a won g4 and lost g3 (g1 is voided).
    entry = (await client.get("/ladders/w/players/a")).json()["ratings"][0]
    assert (entry["games"], entry["wins"], entry["losses"]) == (2, 1, 1)
    ladder = (await client.get("/ladders/w")).json()
    assert ladder["fit"]["converged"] is True
    assert ladder["fit"]["sweeps"] >= 1
    assert ladder["fit"]["max_step"] <= TOLERANCE[system]

    curve = (await client.get("/ladders/w/players/a/curve")).json()
    expected = fit.curves[PlayerKey("a")]
    assert [p["day"] for p in curve["points"]] == [p.day.isoformat() for p in expected]
    for got, want in zip(curve["points"], expected, strict=True):
        assert got["rating"] == pytest.approx(want.rating, abs=TOLERANCE[system])
        assert got["deviation"] == pytest.approx(want.deviation, abs=TOLERANCE[system])


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_a_games_changes_are_the_served_estimates_before_and_after_the_write(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    await make_ladder(client, "w", system)
    history = [game("w", "g1", 1, "a", "b"), game("w", "g2", 2, "b", "d")]
    for body in history:
        await post_game(client, body)
    assert converge(database, "w")
    before = await board(client, "w")
    new = game("w", "g3", 3, "a", "c")
    created = await post_game(client, new)
    # The bounded update of the stored (converged) fit: a's and c's estimates only.
    [new_game] = engine_games([new])
    bounded = rater(system).add_game(fresh(system, history), new_game)
    initial = rater(system).initial_state({})
    changes = {c["player"]: c for c in created["changes"]}
    # a: served before this write; c: new, so the system's initial state.
    assert changes["a"]["rating_before"] == pytest.approx(before["a"][0])
    assert changes["a"]["deviation_before"] == pytest.approx(before["a"][1])
    assert changes["c"]["rating_before"] == pytest.approx(initial.rating)
    served = await board(client, "w")
    for player in ("a", "c"):
        last = bounded.curves[PlayerKey(player)][-1]
        assert changes[player]["rating_after"] == pytest.approx(last.rating, abs=TOLERANCE[system])
        assert changes[player]["deviation_after"] == pytest.approx(
            last.deviation, abs=TOLERANCE[system]
        )
        assert served[player] == (
            changes[player]["rating_after"],
            changes[player]["deviation_after"],
        )
    # b and d did not play: the bounded update leaves them as served.
    assert (served["b"], served["d"]) == (before["b"], before["d"])
    assert (await client.get("/ladders/w")).json()["fit"]["converged"] is False
    # The background work's refit: b's served rating moves too (a's strength is
    # re-estimated), and the feed announces what moved.
    assert converge(database, "w")
    after = fresh(system, [*history, new])
    served = await board(client, "w")
    for player, (rating, deviation) in served.items():
        last = after.curves[PlayerKey(player)][-1]
        assert rating == pytest.approx(last.rating, abs=TOLERANCE[system])
        assert deviation == pytest.approx(last.deviation, abs=TOLERANCE[system])
    assert served["b"][0] != pytest.approx(before["b"][0], abs=TOLERANCE[system])
    feed = (await client.get("/ladders/w/feed")).json()["items"]
    assert feed[-1]["type"] == "fit.converged"
    assert feed[-1]["event"] is None
    moved = {r["player"]: r["after"]["rating"] for r in feed[-1]["ratings"]}
    assert "b" in moved
    assert moved["b"] == pytest.approx(served["b"][0], abs=1e-9)


async def test_curve_of_unknown_player_or_ladder_is_404_and_other_systems_422(
    client: httpx.AsyncClient,
) -> None:
    await make_ladder(client, "w", "whr")
    await make_ladder(client, "e", "elo")
    await post_game(client, game("w", "g1", 1, "a", "b"))
    await post_game(client, game("e", "g1", 1, "a", "b"))
    assert (await client.get("/ladders/w/players/zed/curve")).status_code == 404
    assert (await client.get("/ladders/nope/players/a/curve")).status_code == 404
    response = await client.get("/ladders/e/players/a/curve")
    assert response.status_code == 422
    assert "whole-history" in response.json()["detail"]
    assert (await client.get("/ladders/e")).json().get("fit") is None
    # A ladder with no game yet has no fit yet.
    await make_ladder(client, "empty", "ttt")
    assert (await client.get("/ladders/empty")).json()["fit"] is None


async def test_an_adjustment_is_refused_naming_the_rule(client: httpx.AsyncClient) -> None:
    """A whole-history rating is a fit of every game; the engines refuse a rating set by
    hand (docs/systems/ttt.md, whr.md), and nothing is stored."""
    for system in ("ttt", "whr"):
        await make_ladder(client, system, system)
        await post_game(client, game(system, "g1", 1, "a", "b"))
        before = await board(client, system)
        response = await client.put(f"/ladders/{system}/players/a", json={"rating": 3.0})
        assert response.status_code == 422, response.text
        assert "whole history" in response.text
        assert await board(client, system) == before


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_a_batch_and_an_import_end_in_the_same_fit(
    client: httpx.AsyncClient, system: str
) -> None:
    await make_ladder(client, "w", system)
    first = [game("w", "g1", 3, "a", "b"), game("w", "g2", 4, "b", "c")]
    for body in first:
        await post_game(client, body)
    # A batch reaching before the stored games (a late batch) and after them.
    batch = [game("w", "g3", 1, "c", "a"), game("w", "g4", 6, "a", "c")]
    response = await client.post("/games/batch", json={"games": batch})
    assert response.status_code in (200, 201), response.text
    await assert_served_is_fresh_fit(client, system, "w", [*first, *batch])


def log_loss_of(system: str, bodies: Sequence[dict[str, Any]]) -> float:
    """The mean log loss of predicting each game (the first player winning, as every body
    here says) from a fresh fit of the games before it only: the leak-free reading."""
    games = engine_games(bodies)
    configured = rater(system)
    initial = configured.initial_state({})
    losses = []
    for i, g in enumerate(games):
        fit = configured.fit(games[:i])
        states = [
            configured.state_of(fit.curves[PlayerKey(p.player)][-1])
            if PlayerKey(p.player) in fit.curves
            else initial
            for p in g.participants
        ]
        p = configured.side_win_probability([states[0]], [states[1]])
        assert p is not None
        losses.append(-math.log(p))
    return math.fsum(losses) / len(losses)


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_evaluation_predicts_each_game_from_the_games_before_it(
    client: httpx.AsyncClient, system: str
) -> None:
    # Three games: the evaluation fits the history in full after the first and the second
    # (it refits whenever the history doubles), so each game is predicted from a fit of
    # exactly the games before it.
    bodies = [
        game("w", "g1", 1, "a", "b"),
        game("w", "g2", 2, "a", "c"),
        game("w", "g3", 3, "b", "c"),
    ]
    await make_ladder(client, "w", system)
    for body in bodies:
        await post_game(client, body)
    response = await client.post("/ladders/w/evaluate", json={})
    assert response.status_code == 200, response.text
    [result] = response.json()["results"]
    assert result["games"] == 3
    assert result["log_loss"] == pytest.approx(log_loss_of(system, bodies), abs=1e-9)

    # Nothing later leaks into a prediction: a fourth game (won by the other side) leaves
    # the scores of the first three as they were.
    await post_game(client, game("w", "g4", 4, "c", "a"))
    response = await client.post("/ladders/w/evaluate", json={"to": "2024-01-03T23:59:59Z"})
    assert response.status_code == 200, response.text
    [windowed] = response.json()["results"]
    assert windowed["games"] == 3
    assert windowed["log_loss"] == pytest.approx(result["log_loss"], abs=1e-12)


@pytest.mark.parametrize("system", ["ttt", "whr"])
async def test_what_if_dry_run_and_predictions(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    bodies = [game("w", "g1", 1, "a", "b"), game("w", "g2", 2, "b", "c")]
    await make_ladder(client, "w", system)
    for body in bodies:
        await post_game(client, body)
    converge(database, "w")
    served = await board(client, "w")

    # What-if under other parameters: the fit of the history under them.
    other = {"gamma": 0.5} if system == "ttt" else {"w2": 50.0}
    response = await client.post("/ladders/w/whatif", json={"params": other})
    assert response.status_code == 200, response.text
    proposed = {e["player"]: e["proposed"]["rating"] for e in response.json()["entries"]}
    expected = SYSTEMS[system].configure(other).fit(engine_games(bodies))  # type: ignore[attr-defined]
    for key, curve in expected.curves.items():
        assert proposed[key.player] == pytest.approx(curve[-1].rating, abs=TOLERANCE[system])

    # A dry run answers what the write would: a new game's bounded update of the stored
    # fit, a late game's refit; it stores nothing.
    extra = game("w", "g3", 3, "c", "a")
    late = game("w", "g0", 1, "c", "a")  # day 1, with g1: after it in the history
    for body, after in (
        (extra, rater(system).add_game(fresh(system, bodies), engine_games([extra])[0])),
        (late, fresh(system, [*bodies, late])),
    ):
        response = await client.post("/games", params={"dry_run": "true"}, json=body)
        assert response.status_code == 200, response.text
        for change in response.json()["changes"]:
            player = change["player"]
            assert change["rating_before"] == pytest.approx(served[player][0])
            last = after.curves[PlayerKey(player)][-1]
            assert change["rating_after"] == pytest.approx(last.rating, abs=TOLERANCE[system])
    assert await board(client, "w") == served
    assert (await client.get("/ladders/w")).json()["fit"]["converged"] is True

    # Predictions: the system's win probability from the served states; no swings (a
    # result moves the whole fit: known only by refitting it).
    response = await client.post(
        "/predictions", json={"ladder": "w", "players": [{"player": "a"}, {"player": "c"}]}
    )
    assert response.status_code == 200, response.text
    a = response.json()["players"][0]
    states = {
        k.player: rater(system).state_of(curve[-1])
        for k, curve in fresh(system, bodies).curves.items()
    }
    p = rater(system).side_win_probability([states["a"]], [states["c"]])
    assert a["win_probability"] == pytest.approx(p, abs=1e-6)
    assert (a["if_win"], a["if_draw"], a["if_loss"]) == (None, None, None)
    response = await client.get("/ladders/w/players/a/opponents")
    assert response.status_code == 200, response.text
    assert response.json()["opponents"][0]["if_win"] is None


async def test_decay_and_season_resets_are_refused(client: httpx.AsyncClient) -> None:
    """Ranked play's decay and a season's reset set a state at a time; a whole-history
    rating is a fit of every game and has no such state (docs/systems/ttt.md, whr.md)."""
    decay = {"after_days": 1, "points_per_week": 10, "max_points": 50}
    response = await client.post(
        "/ladders", json={"id": "w", "system": "whr", "params": {"decay": decay}}
    )
    assert response.status_code == 422, response.text
    assert "takes no decay" in response.text
    await make_ladder(client, "w", "ttt")
    season = {"id": "s1", "name": "S1", "starts_at": "2024-01-01T00:00:00Z"}
    response = await client.post("/ladders/w/seasons", json={**season, "reset": {"kind": "hard"}})
    assert response.status_code == 422, response.text
    assert "fit of the whole history" in response.text
    response = await client.post("/ladders/w/seasons", json=season)  # no reset: fine
    assert response.status_code == 201, response.text
