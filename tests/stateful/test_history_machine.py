"""A hypothesis state machine over every system: submit, late submit, correct, void and
parameter changes, in any order. After each step the stored state of every rating equals a
fresh in-memory replay of the surviving history, exactly (bit for bit)."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import text

from app.core.database import Database
from app.engine.ledger import final_states
from app.engine.registry import SYSTEMS
from app.schemas.events import GameIn, TournamentIn
from app.schemas.ladders import LadderIn, LadderPatch
from app.services import events as event_service
from app.services import ladders as ladder_service
from app.services.conversion import GAME, TOURNAMENT, game_to_engine, tournament_to_engine
from app.services.runtime import configure, encode_state

PLAYERS = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"]
POWERS = ["A", "E", "F", "G", "I", "R", "T"]
RACES = ["Orc", "Elf"]
BASE = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
#: Parameter sets a federation might switch between, per system.
PARAM_CHOICES: dict[str, list[dict[str, Any]]] = {
    "elo": [{"k": 16}, {"k": 32}],
    "fundox": [{"draw_policy": "pairwise_half"}, {"draw_policy": "none"}],
    "naf": [{"max_coaches": 20}, {"max_coaches": 32}],
    "glicko2": [{"period": "day"}, {"period": "game"}, {"tau": 0.3}],
    "glicko": [{"period": "week"}, {"period": "game"}],
    "nadf": [{"country_adjust": "none"}, {"country_adjust": "mean_ratio"}],
    "kinzett": [{"solo_points": 3}, {"solo_points": 2}],
    "dptr": [{"cutoff": "1996-01-01"}, {"ties": "average"}, {"cutoff": "2001-01-01"}],
    "cdiplo": [{"bonus": [30, 10, 5]}, {"bonus": [38, 14, 7]}],
    "wpe": [{"window_years": 1}, {"window_years": 5}],
    "daanz": [{}],
}


@dataclass
class Stored:
    kind: str
    id: str
    seq: int
    body: dict[str, Any]


def competition_ranks(draw: st.DrawFn, count: int) -> list[int]:
    """Ranks in "1, 2, 2, 4" style from random scores (ties allowed)."""
    scores = [draw(st.integers(0, 3)) for _ in range(count)]
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


@st.composite
def game_body(draw: st.DrawFn, system: str, minute: int) -> dict[str, Any]:
    played_at = (BASE + timedelta(minutes=minute)).isoformat().replace("+00:00", "Z")
    if system in ("nadf", "kinzett"):
        return diplomacy_body(draw, system, played_at)
    size = 2 if system == "naf" else draw(st.integers(2, 4))
    names = draw(st.permutations(PLAYERS))[:size]
    ranks = competition_ranks(draw, size)
    players: list[dict[str, Any]] = [
        {"player": n, "rank": r} for n, r in zip(names, ranks, strict=True)
    ]
    body: dict[str, Any] = {"played_at": played_at, "players": players}
    if system == "naf":
        for player in players:
            player["faction"] = draw(st.sampled_from(RACES))
        body["event"] = {"coaches": draw(st.integers(1, 70)), "major": draw(st.booleans())}
    body["rated"] = draw(st.sampled_from([True, True, True, False]))
    return body


def diplomacy_body(draw: st.DrawFn, system: str, played_at: str) -> dict[str, Any]:
    names = draw(st.permutations(PLAYERS))[:7]
    solo = draw(st.booleans())
    survivors = draw(st.integers(2, 7))
    centres = [0] * 7
    if solo:
        # The other survivors keep at least one centre each; all within 34.
        centres[0] = draw(st.integers(18, 34 - (survivors - 1)))
        for i in range(1, survivors):
            centres[i] = 1
        winners = 1
    else:
        winners = draw(st.integers(2, survivors))
        for i in range(survivors):
            centres[i] = draw(st.integers(1, 4))
    players = []
    for i in range(7):
        player: dict[str, Any] = {
            "player": names[i],
            "faction": POWERS[i],
            "centres": centres[i],
            "rank": 1 if i < winners else 2,
        }
        if centres[i] == 0:
            player["eliminated_in"] = draw(st.integers(1902, 1909))
        players.append(player)
    return {"played_at": played_at, "end_year": 1910, "players": players}


@st.composite
def tournament_body(draw: st.DrawFn, system: str, day: int) -> dict[str, Any]:
    size = draw(st.integers(2, 6))
    names = draw(st.permutations(PLAYERS))[:size]
    ranks = competition_ranks(draw, size)
    standings: list[dict[str, Any]] = [
        {"player": n, "rank": r} for n, r in zip(names, ranks, strict=True)
    ]
    if system == "daanz":
        for entry in standings:
            entry["centres"] = draw(st.integers(0, 18))
    body: dict[str, Any] = {
        "held_on": (date(1997, 1, 1) + timedelta(days=day * 40)).isoformat(),
        "rounds": draw(st.integers(1, 3)),
        "world_championship": draw(st.booleans()) if system != "daanz" else False,
        "standings": standings,
    }
    if system == "wpe" and not body["world_championship"]:
        body["class"] = draw(st.sampled_from(["continental", "main", "minor"]))
    return body


class HistoryMachine(RuleBasedStateMachine):
    database: Database
    system: str

    def __init__(self) -> None:
        super().__init__()
        self.ladder = f"m-{uuid.uuid4().hex[:10]}"
        self.live: dict[str, Stored] = {}
        self.counter = 0
        self.params: dict[str, Any] = {}
        self.kind = SYSTEMS[self.system].info.kind

    @initialize()
    def create(self) -> None:
        ladder_service.create_ladder(self.database, LadderIn(id=self.ladder, system=self.system))

    def _submit(self, body: dict[str, Any], event_id: str) -> None:
        full = {**body, "ladder": self.ladder, "id": event_id}
        if self.kind == "game":
            out = event_service.submit_game(self.database, GameIn.model_validate(full)).body
        else:
            out = event_service.submit_tournament(
                self.database, TournamentIn.model_validate(full)
            ).body
        self.live[event_id] = Stored(self.kind, event_id, out.seq, full)

    @rule(data=st.data())
    def submit(self, data: st.DataObject) -> None:
        self.counter += 1
        self._submit(self._body(data, self.counter * 10), f"e{self.counter}")

    @rule(data=st.data())
    def submit_late(self, data: st.DataObject) -> None:
        self.counter += 1
        when = data.draw(st.integers(0, max(1, self.counter * 10 - 5)))
        self._submit(self._body(data, when), f"e{self.counter}")

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(sorted(self.live)))
        when = data.draw(st.integers(0, self.counter * 10 + 10))
        body = {**self._body(data, when), "ladder": self.ladder, "id": target}
        if self.kind == "game":
            out = event_service.correct_game(
                self.database, self.ladder, target, GameIn.model_validate(body)
            )
        else:
            out = event_service.correct_tournament(
                self.database, self.ladder, target, TournamentIn.model_validate(body)
            )
        self.live[target] = Stored(self.kind, target, out.seq, body)

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(sorted(self.live)))
        kind = GAME if self.kind == "game" else TOURNAMENT
        event_service.void_event(self.database, self.ladder, kind, target)
        del self.live[target]

    @rule(data=st.data())
    def change_params(self, data: st.DataObject) -> None:
        choice = data.draw(st.sampled_from(PARAM_CHOICES[self.system]))
        ladder_service.change_ladder(self.database, self.ladder, LadderPatch(params=choice))
        self.params.update(choice)

    def _body(self, data: st.DataObject, when: int) -> dict[str, Any]:
        if self.kind == "game":
            return data.draw(game_body(self.system, when))
        return data.draw(tournament_body(self.system, when))

    @invariant()
    def stored_equals_replay(self) -> None:
        runtime = configure(self.system, self.params)
        ordered = sorted(
            self.live.values(),
            key=lambda s: (
                s.body["played_at"] if self.kind == "game" else s.body["held_on"],
                s.seq,
            ),
        )
        engine_events = [
            game_to_engine(GameIn.model_validate(s.body))
            if self.kind == "game"
            else tournament_to_engine(TournamentIn.model_validate(s.body))
            for s in ordered
        ]
        if self.kind == "game":
            engine_events.sort(key=lambda e: e.played_at)  # type: ignore[union-attr]
        expected = {
            (k.player, k.faction or ""): encode_state(v)
            for k, v in final_states(runtime.info, runtime.rater, engine_events).items()
        }
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT player, faction, state FROM player_ratings WHERE ladder_id = :l"),
                {"l": self.ladder},
            )
            stored = {(r[0], r[1]): _json(r[2]) for r in rows}
        assert stored == expected


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_history_machine(system: str, database: Database) -> None:
    machine = type(
        f"HistoryMachine_{system}", (HistoryMachine,), {"database": database, "system": system}
    )
    settings_ = settings(
        max_examples=int(os.environ.get("RATINGS_STATEFUL_EXAMPLES", "8")),
        stateful_step_count=10,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    machine.TestCase.settings = settings_
    machine.TestCase().runTest()
