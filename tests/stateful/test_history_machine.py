"""A hypothesis state machine over every system: submit, late submit, correct, void, parameter
changes and seasons (created, changed, deleted, before and after the results, with each reset
the ladder takes, recurring schedules too), players renamed, merged and erased, in any order,
of free-for-alls and team games (sides of several players, and weights, where the system
rates them: SystemInfo.sides and .weights; sides of one elsewhere). After each step the stored
state of every rating equals a fresh in-memory replay of the surviving history, exactly (bit
for bit), and the events the step re-rated (those whose change rows were rewritten) are
exactly the ones it had to: the dependency cone, computed here from the machine's own model of
history, or the whole tail where the service replays it (ladder-wide systems, parameter
changes)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import text

from app.core.database import Database
from app.core.errors import Conflict
from app.engine.ledger import final_states
from app.engine.registry import SYSTEMS
from app.repositories.players_data import renamed_body
from app.schemas.events import GameIn, GameOut, TournamentIn, TournamentOut
from app.schemas.ladders import LadderIn, LadderPatch
from app.schemas.seasons import SeasonIn
from app.services import events as event_service
from app.services import ladders as ladder_service
from app.services import players_data
from app.services import replay as replay_module
from app.services import seasons as season_service
from app.services.auth import ADMIN
from app.services.convergence import converge
from app.services.conversion import GAME, TOURNAMENT, game_to_engine, tournament_to_engine
from app.services.runtime import configure, encode_state

PLAYERS = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"]
POWERS = ["A", "E", "F", "G", "I", "R", "T"]
RACES = ["Orc", "Elf"]
BASE = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
#: A game's time is BASE plus a drawn number of these. Minutes, except for the systems with
#: rating periods: 3 hours, so that day and week periods hold several games and a history
#: of ten steps crosses their boundaries (a late game lands inside a period, or before one).
TIME_UNIT = {
    "glicko": timedelta(hours=3),
    "glicko2": timedelta(hours=3),
    # The whole-history systems' curves have a point per UTC day: several games a day, and
    # histories over several days.
    "ttt": timedelta(hours=9),
    "whr": timedelta(hours=9),
}
#: The whole-history systems' fits are compared to a fresh fit to their engines' stopping
#: rules (SYSTEMS.md: ttt 1e-6 on a mean, whr 1e-9 Elo), not bit for bit: a fit warm from
#: the previous one stops at another sweep than a cold one.
FIT_TOLERANCE = {"ttt": 1e-5, "whr": 1e-6}
DEFAULT_TIME_UNIT = timedelta(minutes=1)
#: A season's schedule, if any (docs/ranked.md "Recurring seasons").
REPEATS: list[dict[str, Any] | None] = [
    None,
    None,
    {"every": 1, "unit": "days"},
    {"every": 1, "unit": "weeks"},
]
#: Whether PUT and DELETE tell the recomputation which event changed, so that they re-rate
#: its cone like a late game; until app/services/events.py passes ``changed=[event.seq]``
#: to ``history.recompute`` they replay the whole tail from their time, and count
#: themselves among the events re-rated when they stay live.
CORRECTIONS_NAME_THEIR_EVENT = True
#: The largest side a team game of the machine has, where the system rates sides.
MAX_SIDE = 3
#: Partial play where the system takes it: shares that are not binary fractions (0.3, 0.7)
#: among them, so a stored weight must come back exactly for a replay to agree.
WEIGHTS = (0.3, 0.5, 0.7, 1.0)
#: Parameter sets a federation might switch between, per system.
PARAM_CHOICES: dict[str, list[dict[str, Any]]] = {
    "elo": [
        {"k": 16},
        {"k": 32},
        # Ranked play's decay (a minute of idle time moves a rating), placement, divisions.
        {"decay": {"after_days": 0, "points_per_week": 700, "max_points": 40}},
        {"placement_games": 2, "divisions": [{"name": "B"}, {"name": "S", "min": 1500}]},
    ],
    "fundox": [{"draw_policy": "pairwise_half"}, {"draw_policy": "none"}],
    "naf": [
        {"max_coaches": 20},
        {"max_coaches": 32},
        {"decay": {"after_days": 0.001, "points_per_week": 1000, "max_points": 30}},
    ],
    "glicko2": [
        {"period": "day", "decay": None},  # decay needs period "game"
        {"period": "game"},
        {"tau": 0.3},
        {"period": "game", "decay": {"periods_per_day": 2.0}, "provisional_deviation": 200},
    ],
    "glicko": [{"period": "week"}, {"period": "game"}],
    "trueskill": [{"draw_probability": 0.2}, {"tau": 0.0}, {"decay": {"sigma_per_day": 5.0}}],
    "weng-lin": [{"model": "bradley-terry-part"}, {"model": "thurstone-mosteller-full"}],
    "nadf": [{"country_adjust": "none"}, {"country_adjust": "mean_ratio"}],
    "kinzett": [{"solo_points": 3}, {"solo_points": 2}],
    "dptr": [{"cutoff": "1996-01-01"}, {"ties": "average"}, {"cutoff": "2001-01-01"}],
    "cdiplo": [{"bonus": [30, 10, 5]}, {"bonus": [38, 14, 7]}],
    "wpe": [{"window_years": 1}, {"window_years": 5}],
    "daanz": [{}],
    "elo-mmr": [{"split_ties": True}, {"drift_per_day": 100.0}, {"max_history": 2}],
    "ttt": [{"gamma": 0.1}, {"beta": 2.0, "p_draw": 0.1}],
    "whr": [{"w2": 100.0}, {"virtual_games": 4}],
}


@dataclass
class Stored:
    kind: str
    id: str
    seq: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Placed:
    """An event of the model's history: its place (time, arrival) and its ratings."""

    at: datetime
    seq: int
    keys: frozenset[tuple[str, str]]

    @property
    def position(self) -> tuple[datetime, int]:
        return (self.at, self.seq)


def cone(before: dict[str, Placed], after: dict[str, Placed], changed: str | None) -> set[int]:
    """The stored events a change of event ``changed`` must re-rate, by definition: a live
    event other than it is in the cone when it stands after a *source* sharing one of its
    ratings; the sources are the changed event where it stood (``before``) and where it
    stands (``after``), and every event of the cone. Grown until nothing is added."""
    sources = [p for p in (before.get(changed or ""), after.get(changed or "")) if p]
    others = [p for name, p in after.items() if name != changed]
    found: set[int] = set()
    grew = True
    while grew:
        grew = False
        for event in others:
            if event.seq not in found and any(
                source.position < event.position and source.keys & event.keys for source in sources
            ):
                found.add(event.seq)
                sources.append(event)
                grew = True
    return found


def competition_ranks(draw: st.DrawFn, count: int, system: str = "") -> list[int]:
    """Ranks in "1, 2, 2, 4" style from random scores (ties allowed; not on the
    whole-history systems, whose default refuses draws: ttt's p_draw 0)."""
    if system and SYSTEMS[system].info.whole_history:
        return list(draw(st.permutations(range(1, count + 1))))
    scores = [draw(st.integers(0, 3)) for _ in range(count)]
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


@st.composite
def game_body(draw: st.DrawFn, system: str, when: int) -> dict[str, Any]:
    at = BASE + when * TIME_UNIT.get(system, DEFAULT_TIME_UNIT)
    played_at = at.isoformat().replace("+00:00", "Z")
    if system in ("nadf", "kinzett"):
        return diplomacy_body(draw, system, played_at)
    if system != "whr" and draw(st.booleans()):
        body = teams_body(draw, system, played_at)
    else:
        size = 2 if system in ("naf", "whr") else draw(st.integers(2, 4))
        names = draw(st.permutations(PLAYERS))[:size]
        ranks = competition_ranks(draw, size, system)
        players: list[dict[str, Any]] = [
            {"player": n, "rank": r} for n, r in zip(names, ranks, strict=True)
        ]
        for player in players:
            player.update(member_extras(draw, system))
        body = {"played_at": played_at, "players": players}
    if system == "naf":
        body["event"] = {"coaches": draw(st.integers(1, 70)), "major": draw(st.booleans())}
    body["rated"] = draw(st.sampled_from([True, True, True, False]))
    return body


def teams_body(draw: st.DrawFn, system: str, played_at: str) -> dict[str, Any]:
    """A game in the ``teams`` form (API.md "Teams"): 2 to 4 sides, ties allowed, of 1 to
    ``MAX_SIDE`` players where the system rates sides (SystemInfo.sides), of one elsewhere
    (every game system rates those as the same free-for-all); labels given or defaulted."""
    info = SYSTEMS[system].info
    count = 2 if system == "naf" else draw(st.integers(2, 4))
    names = draw(st.permutations(PLAYERS))
    sizes: list[int] = []
    for index in range(count):
        # Leave one player for each side still to come.
        room = len(PLAYERS) - sum(sizes) - (count - index - 1)
        sizes.append(draw(st.integers(1, min(MAX_SIDE if info.sides else 1, room))))
    ranks = competition_ranks(draw, count, system)
    labelled = draw(st.booleans())
    teams = []
    taken = 0
    for index, (size, rank) in enumerate(zip(sizes, ranks, strict=True)):
        members = [
            {"player": n, **member_extras(draw, system)} for n in names[taken : taken + size]
        ]
        taken += size
        side: dict[str, Any] = {"rank": rank, "players": members}
        if labelled:
            side["team"] = f"side-{index}"
        teams.append(side)
    return {"played_at": played_at, "teams": teams}


def member_extras(draw: st.DrawFn, system: str) -> dict[str, Any]:
    """A player's race where the system rates them (NAF), and a weight now and then where
    it takes partial play (SystemInfo.weights)."""
    extras: dict[str, Any] = {}
    if system == "naf":
        extras["faction"] = draw(st.sampled_from(RACES))
    if SYSTEMS[system].info.weights and draw(st.booleans()):
        extras["weight"] = draw(st.sampled_from(WEIGHTS))
    return extras


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
        #: The ladder's seasons by id, as stored: {"id", "name", "starts_at", "reset", ...}.
        self.seasons: dict[str, dict[str, Any]] = {}
        self.info = SYSTEMS[self.system].info
        self.kind = self.info.kind

    @initialize(data=st.data())
    def create(self, data: st.DataObject) -> None:
        # Some ladders start under other parameters (a Glicko ladder with day periods).
        choice = data.draw(st.sampled_from([{}, *PARAM_CHOICES.get(self.system, [])]))
        # A community of its own: a player's rename, merge or erasure reaches every ladder of
        # its community, and the examples' ladders share the database.
        ladder_in = LadderIn(
            id=self.ladder, system=self.system, params=choice or None, community=self.ladder
        )
        ladder_service.create_ladder(self.database, ladder_in)
        self.params.update(choice)

    def _submit(self, body: dict[str, Any], event_id: str) -> None:
        full = {**body, "ladder": self.ladder, "id": event_id}
        with self._step(event_id) as step:
            if self.kind == "game":
                out: GameOut | TournamentOut = event_service.submit_game(
                    self.database, GameIn.model_validate(full)
                ).body
            else:
                out = event_service.submit_tournament(
                    self.database, TournamentIn.model_validate(full)
                ).body
            self.live[event_id] = Stored(self.kind, event_id, out.seq, full)
            step.answered(out.recomputed_events, out.recomputed_players)

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
        with self._step(target) as step:
            if self.kind == "game":
                out = event_service.correct_game(
                    self.database, self.ladder, target, GameIn.model_validate(body)
                )
            else:
                out = event_service.correct_tournament(
                    self.database, self.ladder, target, TournamentIn.model_validate(body)
                )
            self.live[target] = Stored(self.kind, target, out.seq, body)
            step.answered(out.recomputed_events, out.recomputed_players)

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(sorted(self.live)))
        kind = GAME if self.kind == "game" else TOURNAMENT
        with self._step(target) as step:
            out = event_service.void_event(self.database, self.ladder, kind, target)
            del self.live[target]
            step.answered(out.recomputed_events, out.recomputed_players)

    @rule(data=st.data())
    def change_params(self, data: st.DataObject) -> None:
        # A system without choices here is changed to its defaults (a full recomputation).
        # Rating periods are refused while a season resets ratings.
        choices = [
            choice
            for choice in PARAM_CHOICES.get(self.system, [{}])
            if not self._resetting(self.seasons) or choice.get("period", "game") == "game"
        ]
        choice = data.draw(st.sampled_from(choices or [{}]))
        with self._step(None) as step:
            out = ladder_service.change_ladder(
                self.database, self.ladder, LadderPatch(params=choice)
            )
            step.changed_params = self._configured() != self._configured(choice)
            self.params.update(choice)
            step.answered(out.recomputed_events, out.recomputed_players)

    @rule(data=st.data())
    def change_season(self, data: st.DataObject) -> None:
        """Create, change or delete a season at a time among the results' (before, between
        or after them), with a reset the ladder takes."""
        actions = ["create", "change", "delete"] if self.seasons else ["create"]
        action = data.draw(st.sampled_from(actions))
        old = dict(self.seasons)
        new = dict(self.seasons)
        if action == "delete":
            season_id = data.draw(st.sampled_from(sorted(self.seasons)))
            del new[season_id]
        else:
            season_id = (
                f"s{len(self.seasons) + self.counter}-{data.draw(st.integers(0, 9))}"
                if action == "create"
                else data.draw(st.sampled_from(sorted(self.seasons)))
            )
            unit = TIME_UNIT.get(self.system, DEFAULT_TIME_UNIT)
            starts = BASE + unit * data.draw(st.integers(0, self.counter * 10 + 10))
            taken = {s["starts_at"] for key, s in old.items() if key != season_id}
            if starts.isoformat() in taken or (action == "create" and season_id in old):
                return
            reset = data.draw(st.sampled_from(self._reset_choices()))
            new[season_id] = {
                "id": season_id,
                "name": season_id,
                "starts_at": starts.isoformat(),
                "reset": reset or {"kind": "none"},
                "best_of": None,
            }
            # A recurring schedule (one a ladder): its occurrences are seasons like the
            # others, daily ones falling among the results of the systems timed in hours.
            if not any(s.get("repeat") for key, s in old.items() if key != season_id):
                repeat = data.draw(st.sampled_from(REPEATS))
                if repeat is not None:
                    new[season_id]["repeat"] = repeat
        with self._step(None) as step:
            step.seasons = (list(old.values()), list(new.values()))
            if action == "delete":
                out = season_service.delete_season(self.database, self.ladder, season_id)
            else:
                body = SeasonIn.model_validate(new[season_id])
                call = (
                    season_service.create_season
                    if action == "create"
                    else lambda db, ladder, b: season_service.replace_season(
                        db, ladder, season_id, b
                    )
                )
                out = call(self.database, self.ladder, body)
            self.seasons = new
            step.answered(out.recomputed_events, out.recomputed_players)

    # -- the players' lifecycle (docs/players-data.md) ---------------------------------

    def _rated(self) -> list[str]:
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT DISTINCT player FROM player_ratings WHERE ladder_id = :l"),
                {"l": self.ladder},
            )
            return sorted(r[0] for r in rows)

    def _rating_rows(self) -> dict[tuple[str, str], tuple[Any, ...]]:
        """Each rating row's every column but its player, by (player, faction)."""
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT player, faction, rating, deviation, volatility, ranking_value, "
                    "tiebreak, state, games, wins, draws, losses, last_played_at, "
                    "last_change_id, last_event_at, last_event_seq FROM player_ratings "
                    "WHERE ladder_id = :l"
                ),
                {"l": self.ladder},
            )
            return {(r[0], r[1]): (*r[2:7], _json(r[7]), *r[8:]) for r in rows}

    def _renamed_in_model(self, old: str, new: str) -> None:
        for stored in self.live.values():
            stored.body = renamed_body(stored.kind, stored.body, old, new)

    def _stored_bodies(self) -> list[dict[str, Any]]:
        """Every stored result's body, live or voided."""
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT body FROM events WHERE ladder_id = :l"), {"l": self.ladder}
            )
            return [_json(r[0]) for r in rows]

    @staticmethod
    def _players_of(body: dict[str, Any]) -> set[str]:
        parts = [
            *(body.get("players") or ()),
            *(m for side in body.get("teams") or () for m in side["players"]),
            *(body.get("standings") or ()),
        ]
        return {part["player"] for part in parts}

    @rule(data=st.data(), erase=st.booleans())
    def rename_or_erase(self, data: st.DataObject, erase: bool) -> None:
        """Only a name changes: every rating row stays as it was, bit for bit, under the
        new name (and the invariants: as a replay of the renamed history)."""
        rated = self._rated()
        if not rated:
            return
        old = data.draw(st.sampled_from(rated))
        self.counter += 1
        rows = self._rating_rows()
        if erase:
            new = players_data.erase(self.database, ADMIN, self.ladder, old).player
        else:
            new = f"r{self.counter}"
            players_data.rename(self.database, ADMIN, self.ladder, old, new)
        self._renamed_in_model(old, new)
        assert self._rating_rows() == {
            (new if player == old else player, faction): row
            for (player, faction), row in rows.items()
        }

    @rule(data=st.data())
    def merge(self, data: st.DataObject) -> None:
        """Refused when the two played one result (live or voided); else the invariants
        hold of the history where one played the other's results."""
        rated = self._rated()
        if len(rated) < 2:
            return
        merged = data.draw(st.sampled_from(rated))
        bodies = [self._players_of(b) for b in self._stored_bodies()]
        apart = [p for p in rated if p != merged and not any({merged, p} <= b for b in bodies)]
        # Mostly two players who never met (few players meet often: most pairs have).
        if apart and data.draw(st.integers(0, 3)):
            into = data.draw(st.sampled_from(apart))
        else:
            into = data.draw(st.sampled_from([p for p in rated if p != merged]))
        shared = into not in apart
        if shared:
            rows = self._rating_rows()
            with pytest.raises(Conflict):
                players_data.merge(self.database, ADMIN, self.ladder, merged, into)
            assert self._rating_rows() == rows
            return
        players_data.merge(self.database, ADMIN, self.ladder, merged, into)
        self._renamed_in_model(merged, into)
        assert merged not in self._rated()

    def _reset_choices(self) -> list[dict[str, Any] | None]:
        """The resets the ladder takes: none on tournament ladders and with rating periods;
        else soft and hard, and uncertainty where the system has a deviation."""
        runtime = self._runtime()
        if self.kind != "game" or self.params.get("period", "game") != "game":
            return [None]
        if self.info.whole_history:
            return [None]  # a fit of the whole history is not reset (a 422)
        choices: list[dict[str, Any] | None] = [
            None,
            {"kind": "soft", "fraction": 0.5},
            {"kind": "hard"},
        ]
        initial = runtime.rater.initial_state(runtime.rater.initial_ladder_state())
        if initial.deviation is not None:
            # Minutes apart: 0.002 days is under 3 minutes, 0.05 days 72.
            choices.append(
                {
                    "kind": "uncertainty",
                    "min": initial.deviation / 2,
                    "min_until_days": 0.002,
                    "full_after_days": 0.05,
                }
            )
        return choices

    @staticmethod
    def _resetting(seasons: dict[str, dict[str, Any]]) -> bool:
        return any(s["reset"]["kind"] != "none" for s in seasons.values())

    def _runtime(self, seasons: Iterable[dict[str, Any]] | None = None) -> Any:
        listed = list(self.seasons.values()) if seasons is None else list(seasons)
        return configure(self.system, self.params, listed)

    def _configured(self, more: dict[str, Any] | None = None) -> Any:
        return configure(self.system, {**self.params, **(more or {})}).params

    def _body(self, data: st.DataObject, when: int) -> dict[str, Any]:
        if self.kind == "game":
            return data.draw(game_body(self.system, when))
        return data.draw(tournament_body(self.system, when))

    # -- what each step re-rated, against what it had to -------------------------------

    @contextmanager
    def _step(self, changed: str | None) -> Iterator[Step]:
        """Around one step: the model and the stored change ids before and after it, and
        the events the service rated meanwhile (a spy on the one rating loop; change ids
        alone cannot tell, as SQLite hands out deleted ids again). The events rated, the
        changed one aside, must be the expected ones, every other stored event must keep
        its change rows, and the answer's counts must say so."""
        step = Step(changed, self._placed(), self._change_ids())
        rated: list[int] = []
        rate = replay_module.Replay.rate

        def spy(replay: Any, page: Any, *ids: Any) -> Any:
            rated.extend(placed.seq for placed, _ in page)
            return rate(replay, page, *ids)

        with patch.object(replay_module.Replay, "rate", spy):
            yield step
        after = self._placed()
        ids = self._change_ids()
        own = step.before.get(changed or "") or after.get(changed or "")
        others = {seq for seq in rated if own is None or seq != own.seq}
        events, count, players = self._expected(step, after)
        assert others == events
        assert len(rated) == len(set(rated))  # none twice
        kept = (step.ids.keys() & ids.keys()) - events - {own.seq if own else None}
        assert {seq: ids[seq] for seq in kept} == {seq: step.ids[seq] for seq in kept}
        assert step.events == count
        assert step.players == players

    def _expected(self, step: Step, after: dict[str, Placed]) -> tuple[set[int], int, int]:
        """(events re-rated, recomputed_events, recomputed_players) by the documented rules."""
        before, changed = step.before, step.changed
        if step.seasons is not None:
            return self._expected_of_seasons(step, after)
        if changed is None:  # a parameter change: everything, from scratch, or nothing
            if not step.changed_params:
                return set(), 0, 0
            return {p.seq for p in after.values()}, len(after), len(_keys(after.values()))
        old, new = before.get(changed), after.get(changed)
        start = min(p.at for p in (old, new) if p is not None)
        if old is None:  # posted: recomputed only when late
            assert new is not None
            later = [p for p in before.values() if p.at > new.at]
            if not self.info.ladder_scoped:
                later = [p for p in later if p.keys & new.keys]
            if not later:
                return set(), 0, 0
        named = old is None or CORRECTIONS_NAME_THEIR_EVENT
        if named and not self.info.ladder_scoped:
            found = cone(before, after, changed)
            rated = [p for p in after.values() if p.seq in found]
            own = [p for p in (old, new) if p is not None]
            return found, len(found), len(_keys([*rated, *own]))
        # The whole tail from the start: every live event there is replayed, and the
        # ratings of what stood there before and stands there now are rewritten.
        tail = {p.seq for name, p in after.items() if name != changed and p.at >= start}
        counted = len(tail) + (new is not None and not named)
        rewritten = [p for p in [*before.values(), *after.values()] if p.at >= start]
        return tail, counted, len(_keys(rewritten))

    def _expected_of_seasons(
        self, step: Step, after: dict[str, Placed]
    ) -> tuple[set[int], int, int]:
        """A season's write re-rates every live event from the earliest start whose reset
        changed, or from the beginning when the states start or stop carrying their last
        event's time (the ladder's first reset, or its last, without decay); nothing when no
        reset changed or no event stands there."""
        assert step.seasons is not None
        old, new = (self._runtime(seasons) for seasons in step.seasons)

        def resets(runtime: Any) -> set[tuple[Any, ...]]:
            return {(s.at, s.season, s.reset) for s in runtime.seasons if s.reset.kind != "none"}

        moved = resets(old) ^ resets(new)
        if old.timed != new.timed:
            start = None
        elif moved:
            start = min(at for at, _season, _reset in moved)
        else:
            return set(), 0, 0
        tail = [p for p in after.values() if start is None or p.at >= start]
        return {p.seq for p in tail}, len(tail), len(_keys(tail))

    def _placed(self) -> dict[str, Placed]:
        return {name: self._place(stored) for name, stored in self.live.items()}

    def _place(self, stored: Stored) -> Placed:
        body = stored.body
        if self.kind == "game":
            at = datetime.fromisoformat(body["played_at"].replace("Z", "+00:00"))
            players = body.get("players") or [
                member for side in body["teams"] for member in side["players"]
            ]
            keys = frozenset(
                (p["player"], (p.get("faction") or "") if self.info.per_faction else "")
                for p in players
            )
        else:
            held = date.fromisoformat(body["held_on"])
            at = datetime(held.year, held.month, held.day, tzinfo=UTC)
            keys = frozenset((entry["player"], "") for entry in body["standings"])
        return Placed(at, stored.seq, keys)

    def _change_ids(self) -> dict[int, frozenset[int]]:
        """Each stored event's change ids: a re-rated event's changes are new rows."""
        ids: dict[int, set[int]] = {}
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT event_seq, id FROM changes WHERE ladder_id = :l"),
                {"l": self.ladder},
            )
            for seq, change_id in rows:
                ids.setdefault(seq, set()).add(change_id)
        return {seq: frozenset(found) for seq, found in ids.items()}

    @invariant()
    def stored_equals_replay(self) -> None:
        runtime = self._runtime()
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
        if self.info.whole_history:
            self._stored_equals_fit(runtime, engine_events)
            return
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

    def _stored_equals_fit(self, runtime: Any, games: list[Any]) -> None:
        """A whole-history ladder: every rating row holds its player's last point of a fresh
        fit of the live rated games (a player of unrated games only: the initial state),
        once the background work has brought the fit back to convergence (a new game is
        answered by a bounded update: app/services/convergence.py); then the fit says so."""
        converge(self.database, self.ladder)
        with self.database.engine.connect() as connection:
            converged = connection.execute(
                text("SELECT converged FROM ladder_fits WHERE ladder_id = :l"), {"l": self.ladder}
            ).scalar()
        assert converged in (None, True)  # None: no rated game yet, so no fit
        fit = runtime.rater.fit([g for g in games if g.rated])
        initial = runtime.rater.initial_state({})
        expected = {
            p.player: (initial.rating, initial.deviation) for g in games for p in g.participants
        }
        for key, curve in fit.curves.items():
            expected[key.player] = (curve[-1].rating, curve[-1].deviation)
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT player, rating, deviation FROM player_ratings WHERE ladder_id = :l"),
                {"l": self.ladder},
            )
            stored = {r[0]: (r[1], r[2]) for r in rows}
        assert stored.keys() == expected.keys()
        tolerance = FIT_TOLERANCE[self.system]
        for player, (rating, deviation) in expected.items():
            assert stored[player][0] == pytest.approx(rating, abs=tolerance), player
            assert stored[player][1] == pytest.approx(deviation, abs=tolerance), player

    @invariant()
    def the_feed_mirrors_the_stored_ratings(self) -> None:
        """Applying every feed item of the ladder in cursor order to an empty mirror gives
        each stored rating's shown values and statistics (API.md "Change feed"); each item's
        ``before`` is what the mirror held."""
        with self.database.engine.connect() as connection:
            items = connection.execute(
                text("SELECT cursor, ratings FROM feed_items WHERE ladder_id = :l ORDER BY cursor"),
                {"l": self.ladder},
            ).all()
            rows = connection.execute(
                text(
                    "SELECT player, faction, rating, deviation, volatility, ranking_value, games, "
                    "wins, draws, losses FROM player_ratings "
                    "WHERE ladder_id = :l AND last_change_id IS NOT NULL"
                ),
                {"l": self.ladder},
            ).mappings()
            stored = {(r["player"], r["faction"] or None): dict(r) for r in rows}
        cursors = [cursor for cursor, _ in items]
        assert cursors == list(range(1, len(items) + 1))
        mirror: dict[tuple[str, str | None], dict[str, Any]] = {}
        for _cursor, ratings in items:
            for moved in _json(ratings):
                key = (moved["player"], moved["faction"])
                assert mirror.get(key) == moved["before"]
                if moved["after"] is None:
                    mirror.pop(key)
                else:
                    mirror[key] = moved["after"]
        fields = (
            "rating",
            "deviation",
            "volatility",
            "ranking_value",
            "games",
            "wins",
            "draws",
            "losses",
        )
        assert {k: {f: v[f] for f in fields} for k, v in mirror.items()} == {
            k: {f: v[f] for f in fields} for k, v in stored.items()
        }


@dataclass
class Step:
    """One step of the machine: the event it changes (None: the parameters), the model and
    the stored change ids before it, and what the service answered."""

    changed: str | None
    before: dict[str, Placed]
    ids: dict[int, frozenset[int]]
    events: int = -1
    players: int = -1
    changed_params: bool = False
    #: A season's write: the ladder's seasons before and after it.
    seasons: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None

    def answered(self, events: int, players: int) -> None:
        self.events, self.players = events, players


def _keys(events: Iterable[Placed]) -> set[tuple[str, str]]:
    return {key for event in events for key in event.keys}


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
