"""The lobby's amounts are the ones the former prediction gave, for every system.

The reference below is the algorithm ``app/services/predictions.py`` had before issue 23 (kept
here, used only by this test): every amount from a full ``rate_game`` / ``rate_tournament`` of
the hypothetical event, the table re-rated once per player and outcome, and draws known from
Fundox's ``draw_policy``. The prediction now rates each outcome once (or uses the shortcuts
of ``app.engine.swings``) and asks the engine whether draws count; over random small tables
and states of every system the two must give the same floats.

Win probabilities are SYSTEMS.md's "Win probability of one side over another", written out
here from its formulas (for Glicko, Glickman's prediction with both deviations), and a table's
per-player probability Luce's rule over them.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, date, datetime, timedelta
from typing import Any, cast

import pytest

from app.core.errors import Invalid
from app.engine.errors import InvalidEvent
from app.engine.ledger import rate_event
from app.engine.protocols import DuelRater, TournamentRater, key_for
from app.engine.types import (
    EventContext,
    Game,
    Participant,
    Placement,
    PlayerKey,
    PlayerState,
    Tournament,
)
from app.schemas.predictions import PredictionIn, PredictionOut
from app.services.heavy import Cancel
from app.services.predictions import Inputs, compute
from app.services.runtime import Runtime, configure

AT = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
TABLES_PER_SYSTEM = 12

# --- The former algorithm (reference) ----------------------------------------------------------

#: SYSTEMS.md: the logistic scales of the Elo family's pair probability.
LOGISTIC_SCALE = {"elo": 400.0, "fundox": 800.0, "naf": 150.0}
#: Glickman's q = ln 10 / 400 and the family's initial RD (a state without one).
GLICKO_Q = math.log(10) / 400
INITIAL_RD = 350.0


def reference_probability(
    system: str, params: dict[str, Any], a: PlayerState, b: PlayerState
) -> float:
    """p(a ahead of b), SYSTEMS.md "Win probability of one side over another"."""
    if system in LOGISTIC_SCALE:
        scale = float(params.get("scale", LOGISTIC_SCALE[system]))
        return 1 / (1 + 10 ** ((b.rating - a.rating) / scale))
    rd_a = INITIAL_RD if a.deviation is None else a.deviation
    rd_b = INITIAL_RD if b.deviation is None else b.deviation
    rd = math.sqrt(rd_a**2 + rd_b**2)
    g = 1 / math.sqrt(1 + 3 * GLICKO_Q**2 * rd**2 / math.pi**2)
    return 1 / (1 + 10 ** (-g * (a.rating - b.rating) / 400))


def reference_luce(probabilities: list[float]) -> float:
    """Luce's choice rule: 1 / (1 + sum_j (1 - p_j) / p_j) over a player's pair probabilities."""
    return 1 / (1 + sum((1 - p) / p for p in probabilities))


def _reference_delta(
    runtime: Runtime,
    players: list[dict[str, Any]],
    event: EventContext | None,
    keys: list[PlayerKey],
    ranks: list[int],
    states: dict[PlayerKey, PlayerState],
    ladder_state: dict[str, Any],
    who: int,
) -> float:
    game = Game(
        played_at=AT,
        participants=tuple(
            Participant(player=k.player, rank=r, faction=p.get("faction"))
            for k, r, p in zip(keys, ranks, players, strict=True)
        ),
        event=event,
    )
    rater = cast(DuelRater, runtime.rater)
    rater.validate_game(game)
    outcome = rate_event(runtime.info, rater, game, states, ladder_state)
    return outcome.changes[who].delta


def reference_game(
    runtime: Runtime,
    params: dict[str, Any],
    body: dict[str, Any],
    keys: list[PlayerKey],
    states: dict[PlayerKey, PlayerState],
    ladder_state: dict[str, Any],
) -> dict[str, Any]:
    players_in = body["players"]
    event = EventContext(coaches=body["event"]["coaches"]) if "event" in body else None
    draws_rated = runtime.rater.params.get("draw_policy") not in {"none"}
    n = len(keys)

    def delta(ks: list[PlayerKey], ps: list[dict[str, Any]], ranks: list[int], who: int) -> float:
        return _reference_delta(runtime, ps, event, ks, ranks, states, ladder_state, who)

    players = []
    for i, key in enumerate(keys):
        if_win = delta(keys, players_in, [1 if j == i else 2 for j in range(n)], i)
        losses = [
            delta(keys, players_in, [1 if m == j else 2 for m in range(n)], i)
            for j in range(n)
            if j != i
        ]
        if_draw = delta(keys, players_in, [1] * n, i) if draws_rated else None
        against = [
            reference_probability(runtime.info.id, params, states[key], states[other])
            for other in keys
            if other != key
        ]
        players.append(
            {
                "player": key.player,
                "win_probability": reference_luce(against),
                "if_win": if_win,
                "if_draw": if_draw,
                "if_loss": (min(losses), max(losses)),
            }
        )
    pairs = []
    if runtime.info.duel:
        for i, key in enumerate(keys):
            for j, other in enumerate(keys):
                if i == j:
                    continue
                ks, ps = [key, other], [players_in[i], players_in[j]]
                pairs.append(
                    {
                        "player": key.player,
                        "opponent": other.player,
                        "win_probability": reference_probability(
                            runtime.info.id, params, states[key], states[other]
                        ),
                        "if_win": delta(ks, ps, [1, 2], 0),
                        "if_draw": delta(ks, ps, [1, 1], 0) if draws_rated else None,
                        "if_loss": delta(ks, ps, [2, 1], 0),
                    }
                )
    return {"players": players, "pairs": pairs}


def reference_tournament(
    runtime: Runtime,
    body: dict[str, Any],
    keys: list[PlayerKey],
    states: dict[PlayerKey, PlayerState],
    ladder_state: dict[str, Any],
) -> list[list[tuple[int, float, float]]]:
    size = body["size"]
    players = []
    for key, player in zip(keys, body["players"], strict=True):
        by_placement = []
        for placement in body["placements"]:
            centres = player.get("centres")
            others = [r for r in range(1, size + 1) if r != placement]
            tournament = Tournament(
                held_on=date.fromisoformat(body["held_on"]),
                rounds=body.get("rounds", 1),
                standings=(
                    Placement(key.player, placement, centres),
                    *(Placement(f"~{r}", r, centres) for r in others),
                ),
                world_championship=False,
                event_class=body.get("class"),
            )
            cast(TournamentRater, runtime.rater).validate_tournament(tournament)
            change = rate_event(runtime.info, runtime.rater, tournament, states, ladder_state)
            first = change.changes[0]
            by_placement.append((placement, first.delta, first.after.rating))
        players.append(by_placement)
    return players


# --- Random tables -----------------------------------------------------------------------------


def _states(
    runtime: Runtime, keys: list[PlayerKey], rng: random.Random, *, games: bool
) -> dict[PlayerKey, PlayerState]:
    """Random ratings (and deviations where the system has them), then a few games among the
    players at AT, so that Glicko periods already hold results."""
    rater = runtime.rater
    has_deviation = rater.initial_state({}).deviation is not None
    states: dict[PlayerKey, PlayerState] = {}
    for key in keys:
        if rng.random() < 0.2:
            continue  # an unknown player: the initial state
        rating = rater.initial_state({}).rating + rng.uniform(-400, 400)
        deviation = rng.uniform(40, 300) if has_deviation else None
        states[key] = rater.adjusted_state(None, rating, deviation, None, AT - timedelta(days=1))
    for key in keys:
        states.setdefault(key, rater.initial_state({}))
    if games and len(keys) >= 2:
        for _ in range(rng.randint(0, 3)):
            pair = rng.sample(keys, 2)
            ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
            game = Game(
                played_at=AT - timedelta(minutes=rng.randint(1, 60)),
                participants=tuple(
                    Participant(k.player, r, k.faction) for k, r in zip(pair, ranks, strict=True)
                ),
                event=EventContext(coaches=40),
            )
            for change in rate_event(runtime.info, rater, game, states, {}).changes:
                states[change.key] = change.after
    return states


GAME_SYSTEMS: list[tuple[str, dict[str, Any], int]] = [
    ("elo", {}, 8),
    ("elo", {"k": 24, "scale": 300}, 8),
    ("glicko", {}, 8),
    ("glicko", {"period": "game"}, 6),
    ("glicko2", {}, 8),
    ("glicko2", {"period": "game", "tau": 1.2}, 6),
    ("fundox", {}, 4),
    ("fundox", {"draw_policy": "pairwise_half"}, 4),
    ("naf", {}, 2),
]


@pytest.mark.parametrize(("system", "params", "most"), GAME_SYSTEMS)
def test_game_amounts_equal_the_former_algorithm(
    system: str, params: dict[str, Any], most: int
) -> None:
    runtime = configure(system, params)
    rng = random.Random(f"{system}{sorted(params.items())}")
    for _ in range(TABLES_PER_SYSTEM):
        n = rng.randint(2, most)
        players: list[dict[str, Any]] = [
            {"player": f"p{i}", "faction": rng.choice(["Orc", "Elf"])} for i in range(n)
        ]
        body: dict[str, Any] = {"ladder": "l", "players": players, "event": {"coaches": 40}}
        keys = [key_for(runtime.info, p["player"], p["faction"]) for p in players]
        states = _states(runtime, keys, rng, games=True)
        expected = reference_game(runtime, params, body, keys, states, {})
        inputs = Inputs(runtime, {}, keys, dict(states))
        out = compute(inputs, PredictionIn.model_validate(body), Cancel(), AT)
        assert isinstance(out, PredictionOut)
        got = [
            {
                "player": p.player,
                "win_probability": p.win_probability,
                "if_win": p.if_win,
                "if_draw": p.if_draw,
                "if_loss": None if p.if_loss is None else (p.if_loss.min, p.if_loss.max),
            }
            for p in out.players
        ]
        # The amounts are the same floats; the probabilities the same numbers, whatever the
        # order of the operations (a formula written out once more, not the engine's code).
        assert _exact_amounts(got) == _exact_amounts(expected["players"])
        assert _probabilities(got) == pytest.approx(_probabilities(expected["players"]))
        pairs = [p.model_dump() for p in out.pairs]
        assert _exact_amounts(pairs) == _exact_amounts(expected["pairs"])
        assert _probabilities(pairs) == pytest.approx(_probabilities(expected["pairs"]))


def _exact_amounts(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "win_probability"} for row in rows]


def _probabilities(rows: list[dict[str, Any]]) -> list[float]:
    return [row["win_probability"] for row in rows]


@pytest.mark.parametrize("system", ["nadf", "kinzett"])
def test_diplomacy_games_are_refused_as_before(system: str) -> None:
    """A Diplomacy table needs centres and years a prediction does not give: the former
    algorithm and the new one refuse it on the same field."""
    runtime = configure(system, {})
    players = [{"player": f"p{i}"} for i in range(3)]
    keys = [key_for(runtime.info, p["player"], None) for p in players]
    states = {k: runtime.rater.initial_state(runtime.rater.initial_ladder_state()) for k in keys}
    ladder_state = dict(runtime.rater.initial_ladder_state())
    body = {"ladder": "l", "players": players}
    with pytest.raises(InvalidEvent) as former:
        reference_game(runtime, {}, body, keys, states, ladder_state)
    with pytest.raises(Invalid) as now:
        compute(
            Inputs(runtime, ladder_state, keys, states),
            PredictionIn.model_validate(body),
            Cancel(),
            AT,
        )
    assert now.value.errors[0].loc == former.value.loc


TOURNAMENT_SYSTEMS: list[tuple[str, dict[str, Any]]] = [
    ("dptr", {"rounds": 3}),
    ("dptr", {"rounds": 1}),
    ("cdiplo", {}),
    ("wpe", {"class": "continental"}),
    ("wpe", {"class": "minor"}),
    ("daanz", {}),
]


@pytest.mark.parametrize(("system", "extra"), TOURNAMENT_SYSTEMS)
def test_tournament_amounts_equal_the_former_algorithm(system: str, extra: dict[str, Any]) -> None:
    runtime = configure(system, {})
    rng = random.Random(f"{system}{sorted(extra.items())}")
    for _ in range(TABLES_PER_SYSTEM):
        size = rng.randint(2, 60)
        players = [{"player": f"p{i}", "centres": rng.randint(0, 18)} for i in range(3)]
        placements = sorted(rng.sample(range(1, size + 1), min(size, 4)))
        body = {
            "ladder": "l",
            "players": players,
            "size": size,
            "placements": placements,
            "held_on": "2024-06-01",
            **extra,
        }
        keys = [PlayerKey(p["player"]) for p in players]
        states = _states(runtime, keys, rng, games=False)
        expected = reference_tournament(runtime, body, keys, states, {})
        inputs = Inputs(runtime, {}, keys, dict(states))
        out = compute(inputs, PredictionIn.model_validate(body), Cancel(), AT)
        assert isinstance(out, PredictionOut)
        got = [
            [(b.placement, b.delta, b.rating_after) for b in p.by_placement or []]
            for p in out.players
        ]
        assert got == expected
