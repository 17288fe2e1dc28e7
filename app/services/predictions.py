"""What is at stake before a game (or a tournament): POST /predictions. Nothing is stored.

Amounts come from the systems' own rating functions applied to hypothetical results, so a
prediction is exactly what the game would do. Win probabilities use each duel system's
expected score E; for a table of N players the per-player probability is Luce's choice rule
over the pairwise odds, P_i = 1 / (1 + sum_j (1 - E_ij) / E_ij), which is E for N = 2.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid
from app.engine.errors import InvalidEvent
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
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.predictions import (
    LossRange,
    PairPrediction,
    PlacementPrediction,
    PlayerPrediction,
    PredictionIn,
)
from app.schemas.predictions import PredictionOut as Out
from app.services.runtime import (
    Runtime,
    db_key,
    decode_state,
    rate,
    require_ladder,
    runtime_for,
)

WINNER_RANK = 1
LOSER_RANK = 2
#: Player ids no client can use (ids allow no "~"), for the other places of a preview.
PLACEHOLDER_PREFIX = "~"
#: Draw policies under which a shared first place changes nothing (SYSTEMS.md "fundox").
NO_DRAW_POLICIES = frozenset({"none"})


def predict(db: Database, body: PredictionIn) -> Out:
    def work(session: Session) -> Out:
        ladder = require_ladder(LadderRepository(session).get(body.ladder), body.ladder)
        runtime = runtime_for(ladder)
        keys = [key_for(runtime.info, p.player, p.faction) for p in body.players]
        rows = RatingRepository(session).rows(ladder.id, [db_key(k) for k in keys])
        states: dict[PlayerKey, PlayerState] = {}
        for key in keys:
            row = rows.get(db_key(key))
            if row is not None and row.last_change_id is not None:
                states[key] = decode_state(row.state)
            else:
                states[key] = runtime.rater.initial_state(ladder.state)
        try:
            if runtime.info.kind == "tournament":
                return _tournament(body, runtime, keys, states, ladder.state)
            return _game(body, runtime, keys, states, ladder.state)
        except InvalidEvent as exc:
            raise Invalid.at(exc.loc, exc.message) from exc

    return db.run(work, write=False)


def _context(body: PredictionIn) -> EventContext | None:
    if body.event is None:
        return None
    return EventContext(id=body.event.id, coaches=body.event.coaches, major=body.event.major)


def _delta_of(
    runtime: Runtime,
    body: PredictionIn,
    keys: list[PlayerKey],
    ranks: list[int],
    states: dict[PlayerKey, PlayerState],
    ladder_state: object,
    who: int,
) -> float:
    game = Game(
        played_at=datetime.now(UTC),
        participants=tuple(
            Participant(player=k.player, rank=r, faction=p.faction)
            for k, r, p in zip(keys, ranks, body.players, strict=True)
        ),
        event=_context(body),
    )
    rater = cast(DuelRater, runtime.rater)
    rater.validate_game(game)
    outcome = rate(runtime.info, rater, game, states, cast(dict[str, object], ladder_state))
    return outcome.changes[who].delta


def _game(
    body: PredictionIn,
    runtime: Runtime,
    keys: list[PlayerKey],
    states: dict[PlayerKey, PlayerState],
    ladder_state: object,
) -> Out:
    if len(keys) < 2:
        raise Invalid.at(("players",), "a game needs at least 2 players")
    rater = runtime.rater
    draws_rated = rater.params.get("draw_policy") not in NO_DRAW_POLICIES
    n = len(keys)
    players: list[PlayerPrediction] = []
    for i, key in enumerate(keys):
        win_ranks = [WINNER_RANK if j == i else LOSER_RANK for j in range(n)]
        if_win = _delta_of(runtime, body, keys, win_ranks, states, ladder_state, i)
        losses = [
            _delta_of(
                runtime,
                body,
                keys,
                [WINNER_RANK if m == j else LOSER_RANK for m in range(n)],
                states,
                ladder_state,
                i,
            )
            for j in range(n)
            if j != i
        ]
        if_draw = (
            _delta_of(runtime, body, keys, [WINNER_RANK] * n, states, ladder_state, i)
            if draws_rated
            else None
        )
        players.append(
            PlayerPrediction(
                player=key.player,
                faction=body.players[i].faction,
                rating=states[key].rating,
                win_probability=_table_win_probability(runtime, keys, states, i),
                if_win=if_win,
                if_draw=if_draw,
                if_loss=LossRange(min=min(losses), max=max(losses)),
            )
        )
    pairs: list[PairPrediction] = []
    if runtime.info.duel:
        duel = cast(DuelRater, rater)
        for i, key in enumerate(keys):
            for j, other in enumerate(keys):
                if i == j:
                    continue
                pair_body = body.model_copy(update={"players": [body.players[i], body.players[j]]})
                pair_keys = [key, other]
                pairs.append(
                    PairPrediction(
                        player=key.player,
                        opponent=other.player,
                        win_probability=duel.expected_score(states[key], states[other]),
                        if_win=_delta_of(
                            runtime, pair_body, pair_keys, [1, 2], states, ladder_state, 0
                        ),
                        if_draw=_delta_of(
                            runtime, pair_body, pair_keys, [1, 1], states, ladder_state, 0
                        )
                        if draws_rated
                        else None,
                        if_loss=_delta_of(
                            runtime, pair_body, pair_keys, [2, 1], states, ladder_state, 0
                        ),
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


def _tournament(
    body: PredictionIn,
    runtime: Runtime,
    keys: list[PlayerKey],
    states: dict[PlayerKey, PlayerState],
    ladder_state: object,
) -> Out:
    if body.size is None:
        raise Invalid.at(("size",), "a tournament prediction needs the event's size")
    if not body.placements:
        raise Invalid.at(("placements",), "name at least one placement to predict")
    for index, placement in enumerate(body.placements):
        if not 1 <= placement <= body.size:
            raise Invalid.at(("placements", index), f"must be between 1 and size ({body.size})")
    held_on = body.held_on or datetime.now(UTC).date()
    event_class = body.event_class or ("world" if body.world_championship else None)
    players: list[PlayerPrediction] = []
    for number, (key, player) in enumerate(zip(keys, body.players, strict=True)):
        by_placement: list[PlacementPrediction] = []
        for placement in body.placements:
            others = [r for r in range(1, body.size + 1) if r != placement]
            standings = (
                Placement(key.player, placement, player.centres),
                *(Placement(f"{PLACEHOLDER_PREFIX}{r}", r, player.centres) for r in others),
            )
            tournament = Tournament(
                held_on=held_on,
                rounds=body.rounds,
                standings=standings,
                world_championship=body.world_championship,
                event_class=event_class,
            )
            try:
                cast(TournamentRater, runtime.rater).validate_tournament(tournament)
            except InvalidEvent as exc:
                # The rule concerns the player's own standing (the first): name it in
                # the prediction's body, not in the standings it stands in for.
                if exc.loc[:1] == ("standings",):
                    raise Invalid.at(("players", number, *exc.loc[2:]), exc.message) from exc
                raise
            outcome = rate(
                runtime.info,
                runtime.rater,
                tournament,
                states,
                cast(dict[str, object], ladder_state),
            )
            change = outcome.changes[0]
            by_placement.append(
                PlacementPrediction(
                    placement=placement, delta=change.delta, rating_after=change.after.rating
                )
            )
        players.append(
            PlayerPrediction(
                player=key.player,
                faction=None,
                rating=states[key].rating,
                by_placement=by_placement,
            )
        )
    return Out(ladder=body.ladder, players=players, pairs=[])
