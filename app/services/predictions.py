"""What is at stake before a game (or a tournament): POST /predictions. Nothing is stored.

Amounts come from the systems' own rating functions applied to hypothetical results, so a
prediction is exactly what the game would do. A table of N costs N + 1 ratings of it (one per
sole winner, and the draw), or less where ``app.engine.swings`` has a shortcut (Elo, Glicko,
Glicko-2: the terms that do not depend on the result, once per player); a tournament costs
one call of the system's standing rule per player and placement. The players' states are read
first and the connection released before anything is computed (a heavy read,
app.services.heavy). Win probabilities use each duel system's
expected score E; for a table of N players the per-player probability is Luce's choice rule
over the pairwise odds, P_i = 1 / (1 + sum_j (1 - E_ij) / E_ij), which is E for N = 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid
from app.engine import swings
from app.engine.errors import InvalidEvent
from app.engine.ledger import rate_event
from app.engine.placements import Place, StandingRule, StandingsRater
from app.engine.protocols import DuelRater, GameRater, TournamentRater, key_for
from app.engine.swings import Swings
from app.engine.types import (
    EventContext,
    Game,
    Json,
    Outcome,
    Participant,
    Placement,
    PlayerKey,
    PlayerState,
    Tournament,
)
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.predictions import (
    LossRange,
    PairPrediction,
    PlacementPrediction,
    PlayerPrediction,
    PredictionIn,
    PredictionPlayerIn,
)
from app.schemas.predictions import PredictionOut as Out
from app.services.heavy import Cancel
from app.services.runtime import (
    Runtime,
    db_key,
    decode_state,
    engine_refusals,
    require_ladder,
    runtime_for,
)

WINNER_RANK = 1
LOSER_RANK = 2
#: Player ids no client can use (ids allow no "~"), for the other places of a preview.
PLACEHOLDER_PREFIX = "~"


@dataclass(frozen=True, slots=True)
class Inputs:
    """What a prediction reads from the database; the computation needs no connection."""

    runtime: Runtime
    ladder_state: Mapping[str, Json]
    keys: list[PlayerKey]
    states: dict[PlayerKey, PlayerState]


def predict(db: Database, body: PredictionIn, cancel: Cancel | None = None) -> Out:
    """The prediction: the players' states are read in a short transaction, then the amounts
    are computed with the connection back in the pool (checking ``cancel`` as they go)."""
    inputs = db.run(lambda session: read_inputs(session, body), write=False)
    return compute(inputs, body, cancel or Cancel())


def read_inputs(session: Session, body: PredictionIn) -> Inputs:
    ladder = require_ladder(LadderRepository(session).get(body.ladder), body.ladder)
    runtime = runtime_for(ladder)
    keys = [key_for(runtime.info, p.player, p.faction) for p in body.players]
    rows = RatingRepository(session).rows(ladder.id, [db_key(k) for k in keys])
    ladder_state: Mapping[str, Json] = dict(ladder.state)
    states: dict[PlayerKey, PlayerState] = {}
    for key in keys:
        row = rows.get(db_key(key))
        if row is not None and row.last_change_id is not None:
            states[key] = decode_state(row.state)
        else:
            states[key] = runtime.rater.initial_state(ladder_state)
    return Inputs(runtime, ladder_state, keys, states)


def compute(inputs: Inputs, body: PredictionIn, cancel: Cancel, at: datetime | None = None) -> Out:
    """The prediction from what was read, as if played ``at`` (default: now)."""
    moment = at or datetime.now(UTC)
    with engine_refusals():
        if inputs.runtime.info.kind == "tournament":
            return _tournament(body, inputs, cancel, moment)
        return _game(body, inputs, cancel, moment)


def _context(body: PredictionIn) -> EventContext | None:
    if body.event is None:
        return None
    return EventContext(id=body.event.id, coaches=body.event.coaches, major=body.event.major)


@dataclass(frozen=True, slots=True)
class Table:
    """A table to predict: its players (as the request names them) and their states."""

    players: list[PredictionPlayerIn]
    keys: list[PlayerKey]
    played_at: datetime
    event: EventContext | None

    def game(self, ranks: list[int]) -> Game:
        return Game(
            played_at=self.played_at,
            participants=tuple(
                Participant(player=k.player, rank=r, faction=p.faction)
                for k, r, p in zip(self.keys, ranks, self.players, strict=True)
            ),
            event=self.event,
        )

    def sole_winner(self, winner: int) -> Game:
        return self.game([WINNER_RANK if j == winner else LOSER_RANK for j in range(len(self))])

    def drawn(self) -> Game:
        return self.game([WINNER_RANK] * len(self))

    def __len__(self) -> int:
        return len(self.keys)


def _swings(table: Table, inputs: Inputs, cancel: Cancel) -> tuple[Swings, Callable[[], bool]]:
    """The table's swings, and how to ask whether the system rates the draw (asked of a
    table, not of each of its pairs).

    Systems with a shortcut (app.engine.swings) give them directly and rate draws; any other
    game system has each outcome rated by the engine: one game per sole winner (whose changes
    hold the winner's ``if_win`` and every other player's loss to it) and the draw.
    """
    runtime = inputs.runtime
    rater = cast(GameRater, runtime.rater)
    drawn_game = table.drawn()
    for probe in (table.sole_winner(0), drawn_game):
        rater.validate_game(probe)
    fast = swings.table_swings(rater, drawn_game, inputs.states)
    if fast is not None:
        return fast, lambda: True
    outcomes = []
    for winner in range(len(table)):
        cancel.check()
        outcomes.append(_rate(table.sole_winner(winner), inputs))
    drawn = _rate(drawn_game, inputs)
    n = len(table)
    result = Swings(
        win=tuple(outcomes[i].changes[i].delta for i in range(n)),
        loss=tuple(
            tuple(0.0 if j == i else outcomes[j].changes[i].delta for j in range(n))
            for i in range(n)
        ),
        draw=tuple(change.delta for change in drawn.changes),
    )
    return result, lambda: _draws_rated(table, inputs, drawn, outcomes[0])


def _rate(game: Game, inputs: Inputs) -> Outcome:
    rater = cast(GameRater, inputs.runtime.rater)
    rater.validate_game(game)
    return rate_event(inputs.runtime.info, rater, game, inputs.states, inputs.ladder_state)


def _changed(outcome: Outcome) -> bool:
    return any(change.after != change.before for change in outcome.changes)


def _draws_rated(table: Table, inputs: Inputs, drawn: Outcome, first_wins: Outcome) -> bool:
    """Whether the system gives a shared first place anything, asked of the engine.

    A draw that moves a state is rated. One that moves nothing may still be rated between
    equal players (Elo: E = 1/2 against everyone), so the draw is rated again with the first
    player at the state its win gives it: a rated draw then moves someone (SYSTEMS.md
    "fundox": under ``draw_policy`` "none" nothing moves either way).
    """
    if _changed(drawn):
        return True
    winner = first_wins.changes[0]
    if winner.after == winner.before:
        return False
    apart = Inputs(
        inputs.runtime,
        inputs.ladder_state,
        inputs.keys,
        {**inputs.states, winner.key: winner.after},
    )
    return _changed(_rate(table.drawn(), apart))


def _game(body: PredictionIn, inputs: Inputs, cancel: Cancel, played_at: datetime) -> Out:
    keys, states, runtime = inputs.keys, inputs.states, inputs.runtime
    if len(keys) < 2:
        raise Invalid.at(("players",), "a game needs at least 2 players")
    event = _context(body)
    table = Table(list(body.players), keys, played_at, event)
    amounts, ask_draws = _swings(table, inputs, cancel)
    draws_rated = ask_draws()
    n = len(keys)
    players: list[PlayerPrediction] = []
    for i, key in enumerate(keys):
        losses = [amounts.loss[i][j] for j in range(n) if j != i]
        players.append(
            PlayerPrediction(
                player=key.player,
                faction=body.players[i].faction,
                rating=states[key].rating,
                win_probability=_table_win_probability(runtime, keys, states, i),
                if_win=amounts.win[i],
                if_draw=amounts.draw[i] if draws_rated else None,
                if_loss=LossRange(min=min(losses), max=max(losses)),
            )
        )
    pairs: list[PairPrediction] = []
    if runtime.info.duel:
        # A system with a shortcut gives both players' amounts from one rating of the pair;
        # any other rates each ordered pair, the two listed as a game of them would list them.
        both = swings.has_shortcut(cast(GameRater, runtime.rater))
        amounts_of: dict[tuple[int, int], tuple[float, float | None, float]] = {}
        for i in range(n):
            cancel.check()
            for j in range(n):
                if i == j or (both and (i, j) in amounts_of):
                    continue
                pair = Table(
                    [body.players[i], body.players[j]], [keys[i], keys[j]], played_at, event
                )
                amount, _ = _swings(pair, inputs, cancel)
                for me, (a, b) in enumerate(((i, j), (j, i))[: 2 if both else 1]):
                    amounts_of[a, b] = (
                        amount.win[me],
                        amount.draw[me] if draws_rated else None,
                        amount.loss[me][1 - me],
                    )
        duel = cast(DuelRater, runtime.rater)
        for i, key in enumerate(keys):
            for j, other in enumerate(keys):
                if i != j:
                    if_win, if_draw, if_loss = amounts_of[i, j]
                    pairs.append(
                        PairPrediction(
                            player=key.player,
                            opponent=other.player,
                            win_probability=duel.expected_score(states[key], states[other]),
                            if_win=if_win,
                            if_draw=if_draw,
                            if_loss=if_loss,
                        )
                    )
    return Out(ladder=body.ladder, players=players, pairs=pairs)


def _table_win_probability(
    runtime: Runtime, keys: list[PlayerKey], states: dict[PlayerKey, PlayerState], i: int
) -> float | None:
    if not runtime.info.duel:
        return None
    duel = cast(DuelRater, runtime.rater)
    odds_against = 0.0
    for j, other in enumerate(keys):
        if j == i:
            continue
        expected = duel.expected_score(states[keys[i]], states[other])
        if expected <= 0.0:
            return 0.0
        odds_against += (1.0 - expected) / expected
    return 1.0 / (1.0 + odds_against)


def _tournament(body: PredictionIn, inputs: Inputs, cancel: Cancel, at: datetime) -> Out:
    """Each player's change at each placement, alone at that place among ``size`` players
    (the others placeholders at the system's initial state).

    Every tournament system rates each standing on its own (``StandingsRater``): the event
    (size, rounds, class, date) binds the rule once, and each (player, placement) is one call
    of it, the same call ``rate_tournament`` makes for that standing. The event is checked
    once per distinct ``centres`` among the players (placeholders hold the player's centres,
    so the checks concern the player's own standing).
    """
    if body.size is None:
        raise Invalid.at(("size",), "a tournament prediction needs the event's size")
    if not body.placements:
        raise Invalid.at(("placements",), "name at least one placement to predict")
    for index, placement in enumerate(body.placements):
        if not 1 <= placement <= body.size:
            raise Invalid.at(("placements", index), f"must be between 1 and size ({body.size})")
    size = body.size
    rater = cast(TournamentRater, inputs.runtime.rater)
    held_on = body.held_on or at.date()
    event_class = body.event_class

    def event(player: Placement, placement: int) -> Tournament:
        """The event with ``player`` at ``placement``, placeholders (holding its centres)
        at every other place."""
        others = (
            Placement(f"{PLACEHOLDER_PREFIX}{rank}", rank, player.centres)
            for rank in range(1, size + 1)
            if rank != placement
        )
        return Tournament(
            held_on=held_on,
            rounds=body.rounds,
            standings=(player, *others),
            world_championship=body.world_championship,
            event_class=event_class,
        )

    rules: dict[int | None, StandingRule | None] = {}
    players: list[PlayerPrediction] = []
    for number, (key, player) in enumerate(zip(inputs.keys, body.players, strict=True)):
        cancel.check()
        first = body.placements[0]
        standing = Placement(key.player, first, player.centres)
        if player.centres not in rules:
            tournament = event(standing, first)
            try:
                rater.validate_tournament(tournament)
            except InvalidEvent as exc:
                # The rule concerns the player's own standing (the first; the others hold
                # its centres): name it in the prediction's body.
                if exc.loc[:1] == ("standings",):
                    raise Invalid.at(("players", number, *exc.loc[2:]), exc.message) from exc
                raise
            rules[player.centres] = (
                rater.standing_rule(tournament) if isinstance(rater, StandingsRater) else None
            )
        rule = rules[player.centres]
        before = inputs.states[key]
        by_placement: list[PlacementPrediction] = []
        for placement in body.placements:
            standing = Placement(key.player, placement, player.centres)
            if rule is not None:
                after, _ = rule(standing, Place(placement, 1), before)
                if not math.isfinite(after.rating):
                    raise Invalid.at(
                        ("players", number),
                        f"placement {placement} gives {after.rating!r}: the ratings or the "
                        "ladder's parameters involved are too large for the system",
                    )
            else:
                # A system that rates the standings together: the whole event, rated.
                cancel.check()
                outcome = rate_event(
                    inputs.runtime.info,
                    rater,
                    event(standing, placement),
                    inputs.states,
                    inputs.ladder_state,
                )
                after = outcome.changes[0].after
            by_placement.append(
                PlacementPrediction(
                    placement=placement,
                    delta=after.rating - before.rating,
                    rating_after=after.rating,
                )
            )
        players.append(
            PlayerPrediction(
                player=key.player, faction=None, rating=before.rating, by_placement=by_placement
            )
        )
    return Out(ladder=body.ladder, players=players, pairs=[])
