"""What is at stake before a game (or a tournament): POST /predictions. Nothing is stored.

Amounts come from the systems' own rating functions applied to hypothetical results, so a
prediction is exactly what the game would do. A table of N costs N + 1 ratings of it (one per
sole winner, and the draw), or less where ``app.engine.swings`` has a shortcut (Elo, Glicko,
Glicko-2: the terms that do not depend on the result, once per player); a tournament costs
one call of the system's standing rule per player and placement. The players' states are read
first and the connection released before anything is computed (a heavy read,
app.services.heavy).

Win probabilities are each system's p(a ahead of b) of SYSTEMS.md "Win probability of one side
over another" (``GameRater.side_win_probability``; Glicko: Glickman's prediction with both
deviations, not the update's E). For a table of N sides a side's chance to finish first alone
is Luce's choice rule over its pairwise odds, P_i = 1 / (1 + sum_j (1 - p_ij) / p_ij), which is
p for N = 2; ``quality`` is the table's (app.engine.matchmaking). A team game (``teams``) is
rated once per side winning alone, the other sides tied behind it, and once drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid
from app.engine import matchmaking, swings
from app.engine.errors import InvalidEvent
from app.engine.ledger import rate_event, validate_game
from app.engine.placements import Place, StandingRule, StandingsRater
from app.engine.protocols import GameRater, TournamentRater, key_for
from app.engine.swings import Swings
from app.engine.types import (
    FULL_WEIGHT,
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
    MemberPrediction,
    PairPrediction,
    PlacementPrediction,
    PlayerPrediction,
    PredictionIn,
    TeamPairPrediction,
    TeamPrediction,
    TeamPredictionOut,
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


def predict(
    db: Database, body: PredictionIn, cancel: Cancel | None = None
) -> Out | TeamPredictionOut:
    """The prediction: the players' states are read in a short transaction, then the amounts
    are computed with the connection back in the pool (checking ``cancel`` as they go)."""
    inputs = db.run(lambda session: read_inputs(session, body), write=False)
    return compute(inputs, body, cancel or Cancel())


def read_inputs(session: Session, body: PredictionIn) -> Inputs:
    return read_states(session, body.ladder, [(m.player, m.faction) for m in _members(body)])


def read_states(
    session: Session, ladder_id: str, players: Sequence[tuple[str, str | None]]
) -> Inputs:
    """The ladder's runtime and the states of ``players`` (player, faction): a player without
    a rating at the system's initial state."""
    ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
    runtime = runtime_for(ladder)
    keys = [key_for(runtime.info, player, faction) for player, faction in players]
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


def compute(
    inputs: Inputs, body: PredictionIn, cancel: Cancel, at: datetime | None = None
) -> Out | TeamPredictionOut:
    """The prediction from what was read, as if played ``at`` (default: now)."""
    moment = at or datetime.now(UTC)
    with engine_refusals():
        if inputs.runtime.info.kind == "tournament":
            if body.teams is not None:
                raise Invalid.at(
                    ("teams",),
                    f"system {inputs.runtime.info.id!r} ranks players in tournaments: "
                    "predict its players and placements, not teams",
                )
            return _tournament(body, inputs, cancel, moment)
        if body.teams is not None:
            return _teams(body, inputs, cancel, moment)
        return _game(body, inputs, cancel, moment)


@dataclass(frozen=True, slots=True)
class Member:
    """A player of a predicted game as the request names it, and its side (index)."""

    player: str
    faction: str | None
    weight: float | None
    side: int


def _members(body: PredictionIn) -> list[Member]:
    """The players of the prediction in input order (a team game's side after side)."""
    if body.teams is None:
        return [Member(p.player, p.faction, None, i) for i, p in enumerate(body.table)]
    return [
        Member(m.player, m.faction, m.weight, side)
        for side, team in enumerate(body.teams)
        for m in team.players
    ]


def _context(body: PredictionIn) -> EventContext | None:
    if body.event is None:
        return None
    return EventContext(id=body.event.id, coaches=body.event.coaches, major=body.event.major)


@dataclass(frozen=True, slots=True)
class Table:
    """A game to predict: its players (as the request names them), their keys, and its sides
    (their labels in a team game, None in a free-for-all, where each player is a side)."""

    members: list[Member]
    keys: list[PlayerKey]
    labels: list[str] | None
    played_at: datetime
    event: EventContext | None

    @property
    def sides(self) -> int:
        return len(self.labels) if self.labels is not None else len(self.members)

    def game(self, side_ranks: list[int]) -> Game:
        """The game with each side at its rank."""
        labels = self.labels
        return Game(
            played_at=self.played_at,
            participants=tuple(
                Participant(
                    player=k.player,
                    rank=side_ranks[m.side],
                    faction=m.faction,
                    team=None if labels is None else labels[m.side],
                    weight=FULL_WEIGHT if m.weight is None else m.weight,
                )
                for k, m in zip(self.keys, self.members, strict=True)
            ),
            event=self.event,
        )

    def sole_winner(self, winner: int) -> Game:
        """Side ``winner`` first alone, every other side tied behind it."""
        return self.game([WINNER_RANK if s == winner else LOSER_RANK for s in range(self.sides)])

    def drawn(self) -> Game:
        return self.game([WINNER_RANK] * self.sides)

    def side_states(self, states: Mapping[PlayerKey, PlayerState]) -> list[list[PlayerState]]:
        """Each side's members' states, side by side."""
        result: list[list[PlayerState]] = [[] for _ in range(self.sides)]
        for key, member in zip(self.keys, self.members, strict=True):
            result[member.side].append(states[key])
        return result

    def __len__(self) -> int:
        return len(self.keys)


def _swings(table: Table, inputs: Inputs, cancel: Cancel) -> tuple[Swings, Callable[[], bool]]:
    """The table's swings, and how to ask whether the system rates the draw (asked of a
    table, not of each of its pairs).

    ``loss[i][s]`` is player i's change when side s wins alone. Free-for-alls of systems with
    a shortcut (app.engine.swings) give them directly and rate draws; any other game has each
    outcome rated by the engine: one game per side winning alone (whose changes hold its
    members' ``if_win`` and every other player's loss to it) and the draw.
    """
    runtime = inputs.runtime
    rater = cast(GameRater, runtime.rater)
    drawn_game = table.drawn()
    for probe in (table.sole_winner(0), drawn_game):
        validate_game(runtime.info, rater, probe)
    if table.labels is None:
        fast = swings.table_swings(rater, drawn_game, inputs.states)
        if fast is not None:
            return fast, lambda: True
    outcomes = []
    for winner in range(table.sides):
        cancel.check()
        outcomes.append(_rate(table.sole_winner(winner), inputs))
    drawn = _rate(drawn_game, inputs)
    side_of = [m.side for m in table.members]
    result = Swings(
        win=tuple(outcomes[side_of[i]].changes[i].delta for i in range(len(table))),
        loss=tuple(
            tuple(
                0.0 if s == side_of[i] else outcomes[s].changes[i].delta for s in range(table.sides)
            )
            for i in range(len(table))
        ),
        draw=tuple(change.delta for change in drawn.changes),
    )
    return result, lambda: _draws_rated(table, inputs, drawn, outcomes[0])


def _table_swings(table: Table, inputs: Inputs, cancel: Cancel) -> tuple[Swings | None, bool]:
    """The table's swings and whether draws are rated; None on a whole-history ladder
    (``ttt``, ``whr``): there a result moves every estimate of the history, and what it
    would serve is known only by refitting it (API.md "Whole-history and large-field
    systems"), which a lobby's question does not do."""
    runtime = inputs.runtime
    if runtime.info.whole_history:
        # The table as a game the system could rate (every side at its own rank: a ttt ladder
        # without draws refuses a shared one).
        ranked = table.game(list(range(1, table.sides + 1)))
        validate_game(runtime.info, cast(GameRater, runtime.rater), ranked)
        return None, False
    amounts, ask_draws = _swings(table, inputs, cancel)
    return amounts, ask_draws()


def _member_swings(
    amounts: Swings | None, draws_rated: bool, i: int, sides: range, own: int
) -> tuple[float | None, float | None, LossRange | None]:
    """Player i's (if_win, if_draw, if_loss) of the table's swings (``own``: its side)."""
    if amounts is None:
        return None, None, None
    losses = [amounts.loss[i][s] for s in sides if s != own]
    return (
        amounts.win[i],
        amounts.draw[i] if draws_rated else None,
        LossRange(min=min(losses), max=max(losses)),
    )


def _rate(game: Game, inputs: Inputs) -> Outcome:
    rater = cast(GameRater, inputs.runtime.rater)
    validate_game(inputs.runtime.info, rater, game)
    return rate_event(inputs.runtime.info, rater, game, inputs.states, inputs.ladder_state)


def _changed(outcome: Outcome) -> bool:
    return any(change.after != change.before for change in outcome.changes)


def _draws_rated(table: Table, inputs: Inputs, drawn: Outcome, first_wins: Outcome) -> bool:
    """Whether the system gives a shared first place anything, asked of the engine.

    A draw that moves a state is rated. One that moves nothing may still be rated between
    equal sides (Elo: E = 1/2 against everyone), so the draw is rated again with the first
    player at the state its side's win gives it: a rated draw then moves someone (SYSTEMS.md
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


def _table(body: PredictionIn, inputs: Inputs, played_at: datetime) -> Table:
    labels = None if body.teams is None else [str(team.team) for team in body.teams]
    return Table(_members(body), inputs.keys, labels, played_at, _context(body))


def _probabilities(
    table: Table, inputs: Inputs
) -> tuple[list[list[float | None]] | None, float | None]:
    """Every ordered pair of sides' win probability (None where the system has none) and the
    table's quality."""
    rater = cast(GameRater, inputs.runtime.rater)
    sides = table.side_states(inputs.states)
    return matchmaking.pair_probabilities(rater, sides), matchmaking.quality(rater, sides)


def _game(body: PredictionIn, inputs: Inputs, cancel: Cancel, played_at: datetime) -> Out:
    keys, states, runtime = inputs.keys, inputs.states, inputs.runtime
    if len(keys) < 2:
        raise Invalid.at(("players",), "a game needs at least 2 players")
    table = _table(body, inputs, played_at)
    amounts, draws_rated = _table_swings(table, inputs, cancel)
    cancel.check()
    p, quality = _probabilities(table, inputs)
    n = len(keys)
    players: list[PlayerPrediction] = []
    for i, key in enumerate(keys):
        if_win, if_draw, if_loss = _member_swings(amounts, draws_rated, i, range(n), i)
        players.append(
            PlayerPrediction(
                player=key.player,
                faction=table.members[i].faction,
                rating=states[key].rating,
                win_probability=None if p is None else matchmaking.luce(p, i),
                if_win=if_win,
                if_draw=if_draw,
                if_loss=if_loss,
            )
        )
    pairs: list[PairPrediction] = []
    if runtime.info.duel:
        amounts_of = _pair_amounts(table, inputs, cancel, draws_rated)
        for i, key in enumerate(keys):
            for j, other in enumerate(keys):
                if i != j:
                    pair_win, pair_draw, pair_loss = amounts_of[i, j]
                    pairs.append(
                        PairPrediction(
                            player=key.player,
                            opponent=other.player,
                            win_probability=None if p is None else p[i][j],
                            if_win=pair_win,
                            if_draw=pair_draw,
                            if_loss=pair_loss,
                        )
                    )
    return Out(ladder=body.ladder, players=players, pairs=pairs, quality=quality)


def _pair_amounts(
    table: Table, inputs: Inputs, cancel: Cancel, draws_rated: bool
) -> dict[tuple[int, int], tuple[float, float | None, float]]:
    """(if_win, if_draw, if_loss) of player i in a game of i and j alone, for every ordered
    pair. A system with a shortcut gives them all from one preparation of the table
    (``swings.pair_swings``); any other rates each ordered pair, the two listed as a game of
    them would list them."""
    rater = cast(GameRater, inputs.runtime.rater)
    fast = swings.pair_swings(rater, table.drawn(), inputs.states)
    if fast is not None:
        return {
            pair: (win, draw if draws_rated else None, loss)
            for pair, (win, draw, loss) in fast.items()
        }
    n = len(table)
    amounts_of: dict[tuple[int, int], tuple[float, float | None, float]] = {}
    for i in range(n):
        cancel.check()
        for j in range(n):
            if i == j:
                continue
            pair = Table(
                [replace(table.members[i], side=0), replace(table.members[j], side=1)],
                [table.keys[i], table.keys[j]],
                None,
                table.played_at,
                table.event,
            )
            amount, _ = _swings(pair, inputs, cancel)
            amounts_of[i, j] = (
                amount.win[0],
                amount.draw[0] if draws_rated else None,
                amount.loss[0][1],
            )
    return amounts_of


def _teams(
    body: PredictionIn, inputs: Inputs, cancel: Cancel, played_at: datetime
) -> TeamPredictionOut:
    """A team game (API.md "Teams"): each member's change if its side wins alone (the other
    sides tied behind it), if every side draws, and over which other side wins alone; each
    side's chance to win, every ordered pair's, and the game's quality."""
    assert body.teams is not None
    table = _table(body, inputs, played_at)
    amounts, draws_rated = _table_swings(table, inputs, cancel)
    cancel.check()
    p, quality = _probabilities(table, inputs)
    labels = table.labels
    assert labels is not None
    members: list[list[MemberPrediction]] = [[] for _ in labels]
    for i, (key, member) in enumerate(zip(inputs.keys, table.members, strict=True)):
        sides = range(len(labels))
        if_win, if_draw, if_loss = _member_swings(amounts, draws_rated, i, sides, member.side)
        members[member.side].append(
            MemberPrediction(
                player=key.player,
                faction=member.faction,
                rating=inputs.states[key].rating,
                if_win=if_win,
                if_draw=if_draw,
                if_loss=if_loss,
            )
        )
    teams = [
        TeamPrediction(
            team=label,
            win_probability=None if p is None else matchmaking.luce(p, s),
            players=members[s],
        )
        for s, label in enumerate(labels)
    ]
    pairs = [
        TeamPairPrediction(
            team=labels[a], opponent=labels[b], win_probability=None if p is None else p[a][b]
        )
        for a in range(len(labels))
        for b in range(len(labels))
        if a != b
    ]
    return TeamPredictionOut(ladder=body.ladder, teams=teams, pairs=pairs, quality=quality)


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
    for number, (key, player) in enumerate(zip(inputs.keys, body.table, strict=True)):
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
