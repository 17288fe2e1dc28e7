"""Matchmaking (API.md "Matchmaking"): balanced sides and the most even opponents.

Both are heavy reads like predictions (app.services.heavy): the states are read in one short
transaction, the connection goes back to the pool, and the search runs checking ``cancel``.
The arithmetic is the engine's (app.engine.matchmaking: quality, Luce, the split search); the
amounts of an opponent are a two-player prediction (app.services.predictions), so they are what
a game of the two would do.

Opponents are weighed among the ratings nearest the player's: the
:data:`CANDIDATES_PER_SIDE` closest at or above it and as many below (one query on the
ladder's rating index), so the cost does not grow with the ladder. For the Elo family, whose
pair probability depends on the rating gap alone, the most even opponents are always among
them; for Glicko and TrueSkill, where deviations move the probability too, the answer is the
most even among those candidates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from statistics import fmean
from typing import cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import FieldError, Invalid, NotFound
from app.engine import matchmaking
from app.engine.errors import InvalidEvent
from app.engine.ledger import check_sides
from app.engine.protocols import GameRater
from app.engine.types import Game, Json, Participant, PlayerKey, PlayerState
from app.models import PlayerRating
from app.repositories.ladders import LadderRepository
from app.repositories.opponents import OpponentRepository
from app.repositories.ratings import RatingRepository
from app.schemas.matchmaking import (
    BalancedSplit,
    BalancedTeam,
    BalanceIn,
    BalanceOut,
    OpponentOut,
    OpponentsOut,
)
from app.schemas.predictions import PredictionIn, PredictionOut
from app.services import predictions
from app.services.heavy import Cancel
from app.services.runtime import (
    Runtime,
    decode_state,
    engine_key,
    engine_refusals,
    now,
    require_ladder,
    runtime_for,
)

#: Opponents are weighed among this many ratings at or above the player's and as many below
#: (module docstring): enough for the most even MAX_OPPONENTS (100) under the Elo family
#: whichever side of the player they fall, and a fixed cost on a ladder of any size.
CANDIDATES_PER_SIDE = 100
#: A probe game's rank for every side: the sides rule does not depend on the ranks.
PROBE_RANK = 1


def _game_system(runtime: Runtime) -> GameRater:
    if runtime.info.kind != "game":
        raise Invalid.at(
            ("ladder",),
            f"system {runtime.info.id!r} ranks tournaments: matchmaking needs a game system",
        )
    return cast(GameRater, runtime.rater)


# --- Balance -----------------------------------------------------------------------------------


def balance(db: Database, ladder_id: str, body: BalanceIn, cancel: Cancel) -> BalanceOut:
    """The most even split of the body's players (API.md "Matchmaking")."""
    named = [(p.player, p.faction) for p in body.players]
    inputs = db.run(lambda session: predictions.read_states(session, ladder_id, named), write=False)
    return compute_balance(inputs, ladder_id, body, cancel)


def compute_balance(
    inputs: predictions.Inputs, ladder_id: str, body: BalanceIn, cancel: Cancel
) -> BalanceOut:
    rater = _game_system(inputs.runtime)
    states = [inputs.states[key] for key in inputs.keys]
    index = {p.player: i for i, p in enumerate(body.players)}
    parties = [[index[player] for player in party] for party in body.parties]
    with engine_refusals():
        _check_sides(inputs, body)
        result = matchmaking.balance(
            states, body.teams, parties, rater, cancel.check, policy=body.party_policy
        )
    best = _split(rater, body, states, result.best)
    return BalanceOut(
        ladder=ladder_id,
        party_policy=body.party_policy,
        teams=best.teams,
        quality=best.quality,
        alternatives=[_split(rater, body, states, split) for split in result.alternatives],
        exact=result.exact,
    )


def _check_sides(inputs: predictions.Inputs, body: BalanceIn) -> None:
    """Sides of several players where the system rates individuals only: the engine's rule
    (``check_sides``), asked of a game of sides of the sizes the split will have."""
    small, large, larger = matchmaking.side_sizes(len(body.players), body.teams)
    sizes = [large] * larger + [small] * (body.teams - larger)
    participants = []
    player = 0
    for side, size in enumerate(sizes):
        for key in inputs.keys[player : player + size]:
            participants.append(Participant(key.player, PROBE_RANK, team=str(side + 1)))
        player += size
    try:
        check_sides(inputs.runtime.info, Game(now(), tuple(participants)))
    except InvalidEvent as exc:
        raise InvalidEvent(("teams",), exc.message) from exc


def _split(
    rater: GameRater, body: BalanceIn, states: Sequence[PlayerState], split: matchmaking.Split
) -> BalancedSplit:
    sides = [[states[i] for i in side] for side in split.sides]
    p = matchmaking.pair_probabilities(rater, sides)
    assert p is not None  # the search scored these sides by the same probabilities
    teams = [
        BalancedTeam(
            team=str(number + 1),
            players=[body.players[i].player for i in side],
            rating=fmean([states[i].rating for i in side]),
            win_probability=matchmaking.luce(p, number),
        )
        for number, side in enumerate(split.sides)
    ]
    return BalancedSplit(teams=teams, quality=split.quality)


# --- Opponents ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidates:
    """What an opponents search reads: the player's rating and those nearest it."""

    runtime: Runtime
    ladder_state: Mapping[str, Json]
    key: PlayerKey
    state: PlayerState
    others: list[tuple[PlayerKey, PlayerState]]


@dataclass(frozen=True, slots=True)
class OpponentQuery:
    """``GET .../opponents``'s parameters."""

    faction: str | None
    limit: int
    active_within_days: int | None
    coaches: int | None
    major: bool


def opponents(
    db: Database, ladder_id: str, player: str, query: OpponentQuery, cancel: Cancel
) -> OpponentsOut:
    """The rated players ``player`` would meet most evenly (API.md "Matchmaking")."""
    read = db.run(lambda session: read_candidates(session, ladder_id, player, query), write=False)
    return compute_opponents(read, ladder_id, query, cancel)


def read_candidates(
    session: Session, ladder_id: str, player: str, query: OpponentQuery
) -> Candidates:
    ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
    runtime = runtime_for(ladder)
    _game_system(runtime)
    mine = _own_rating(
        RatingRepository(session).of_player(ladder.id, player), player, ladder_id, query, runtime
    )
    days = query.active_within_days
    if days is None:
        days = runtime.info.default_active_within_days or 0
    rows = OpponentRepository(session).nearest(
        ladder.id,
        mine.rating,
        besides=player,
        # The route bounds days to a century, so the subtraction stays within the calendar.
        active_since=now() - timedelta(days=days) if days else None,
        per_side=CANDIDATES_PER_SIDE,
    )
    others = [(engine_key(row.player, row.faction), decode_state(row.state)) for row in rows]
    return Candidates(
        runtime,
        dict(ladder.state),
        engine_key(mine.player, mine.faction),
        decode_state(mine.state),
        others,
    )


def _own_rating(
    rows: list[PlayerRating], player: str, ladder_id: str, query: OpponentQuery, runtime: Runtime
) -> PlayerRating:
    """The player's rating to match: its only one, or on a per-faction ladder the one of
    ``faction`` (which must be named when the player has several)."""
    rated = [row for row in rows if row.last_change_id is not None]
    if runtime.info.per_faction and query.faction is not None:
        rated = [row for row in rated if row.faction == query.faction]
    if not rated:
        of = "" if query.faction is None else f" as {query.faction!r}"
        raise NotFound(f"player {player!r} has no rating{of} in ladder {ladder_id!r}")
    if len(rated) > 1:
        factions = ", ".join(repr(row.faction) for row in rated)
        raise Invalid.at(
            ("query", "faction"),
            f"player {player!r} has a rating for each of {factions}: name the faction to match",
        )
    return rated[0]


def compute_opponents(
    read: Candidates, ladder_id: str, query: OpponentQuery, cancel: Cancel
) -> OpponentsOut:
    """The candidates by quality (best first; equal ones by player and faction), the first
    ``limit`` of them with their amounts."""
    rater = _game_system(read.runtime)
    scored: list[tuple[float, PlayerKey, PlayerState]] = []
    for key, state in read.others:
        value = matchmaking.quality(rater, [[read.state], [state]])
        if value is None:
            raise Invalid.at(
                ("ladder",),
                f"system {read.runtime.info.id!r} defines no win probability to match players by",
            )
        scored.append((value, key, state))
    scored.sort(key=lambda item: (-item[0], item[1].player, item[1].faction or ""))
    found = []
    for value, key, state in scored[: query.limit]:
        cancel.check()
        pair = _pair(read, ladder_id, key, state, query, cancel)
        me = pair.players[0]
        # A game system's two-player prediction has its probability (the quality above was
        # computed from it); its amounts too, but on a whole-history ladder (null there).
        assert me.win_probability is not None
        found.append(
            OpponentOut(
                player=key.player,
                faction=key.faction,
                rating=state.rating,
                quality=value,
                win_probability=me.win_probability,
                if_win=me.if_win,
                if_draw=me.if_draw,
                if_loss=None if me.if_loss is None else me.if_loss.min,
            )
        )
    return OpponentsOut(
        ladder=ladder_id,
        player=read.key.player,
        faction=read.key.faction,
        rating=read.state.rating,
        candidates=len(read.others),
        opponents=found,
    )


def _pair(
    read: Candidates,
    ladder_id: str,
    key: PlayerKey,
    state: PlayerState,
    query: OpponentQuery,
    cancel: Cancel,
) -> PredictionOut:
    """The two-player prediction of the player against ``key``. A rule of the system about
    the event (NAF's coaches) names the query parameter that gives it."""
    event = None if query.coaches is None else {"coaches": query.coaches, "major": query.major}
    body = PredictionIn.model_validate(
        {
            "ladder": ladder_id,
            "players": [
                {"player": read.key.player, "faction": read.key.faction},
                {"player": key.player, "faction": key.faction},
            ],
            "event": event,
        }
    )
    inputs = predictions.Inputs(
        read.runtime, read.ladder_state, [read.key, key], {read.key: read.state, key: state}
    )
    try:
        out = predictions.compute(inputs, body, cancel)
    except Invalid as exc:
        if exc.errors and exc.errors[0].loc[:1] == ("event",):
            error = exc.errors[0]
            where = ("query", str(error.loc[-1]))
            raise Invalid(
                f"{'.'.join(where)}: {error.msg}", errors=[FieldError(where, error.msg)]
            ) from exc
        raise
    assert isinstance(out, PredictionOut)
    return out
