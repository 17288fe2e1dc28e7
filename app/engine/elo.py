"""Classic Elo, with the pairwise free-for-all extension (SYSTEMS.md "elo").

Two players (Elo, *The Rating of Chessplayers, Past and Present*, 1978):

    E_a = 1 / (1 + 10^((R_b - R_a) / scale))
    R'_a = R_a + K (S_a - E_a),   S = 1 win / 0.5 draw / 0 loss

A table of N >= 2 players is read as N (N - 1) / 2 virtual duels decided by rank (equal ranks
draw). Each player sums its N - 1 duels with ``K / (N - 1)`` in place of ``K``:

    R'_i = R_i + K / (N - 1) * sum_j (S_ij - E_ij)

so a two-player game is plain Elo and the table is zero-sum (E_ij + E_ji = S_ij + S_ji = 1).

Teams (SYSTEMS.md "Teams", elo): each side is rated as one player whose rating is the mean of its
members' ratings, the table of N sides exactly as above (every ordered pair of sides one duel by
their ranks, K / (N - 1) per duel), and every member receives its side's change times its
weight w (partial play, 1 unless given):

    R'_m = R_m + w_m * K / (N - 1) * sum_b (S_ab - E_ab),   E_ab on the sides' mean ratings

The sides' changes sum to zero, so the game is zero-sum when every side has the same total
weight (equal sizes, all weights 1); otherwise it is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engine.base import RatingSystem, duel_score, rated_change, require_player_count
from app.engine.elo_family import (
    EloFamilyConfig,
    EloFamilyRater,
    duel_delta,
    initial_rating_param,
    logistic_expected_score,
    positive_param,
    side_rating,
)
from app.engine.errors import InvalidEvent
from app.engine.params import ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.types import (
    FULL_WEIGHT,
    Change,
    Details,
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
)

#: SYSTEMS.md "elo": defaults initial 1500, K 32, scale 400 (the usual chess-club values).
INITIAL_RATING = 1500.0
K_FACTOR = 32.0
SCALE = 400.0
#: A game needs at least two players (a team game two sides) to hold a duel.
MIN_PLAYERS = 2
MIN_SIDES = 2

PARAMS: tuple[ParamSpec, ...] = (
    initial_rating_param(INITIAL_RATING, "Rating of a player before its first game."),
    positive_param(
        "k",
        K_FACTOR,
        "K: the most a two-player game can move a rating; a table of N players shares "
        "K / (N - 1) per virtual duel.",
    ),
    positive_param(
        "scale",
        SCALE,
        "Rating difference at which the stronger player is expected to score 10 to 1.",
    ),
)

INFO = SystemInfo(
    id="elo",
    title="Elo",
    kind="game",
    description=(
        "Classic Elo: E = 1 / (1 + 10^((R_opp - R) / scale)), R' = R + K (S - E). A table of "
        "N players is rated as virtual duels between every pair by rank (equal ranks draw), "
        "each weighted K / (N - 1). Zero-sum. Teams: each side is one player rated at its "
        "members' mean rating; each member receives the side's change times its weight."
    ),
    sources=(
        "A. E. Elo, The Rating of Chessplayers, Past and Present (1978)",
        "SYSTEMS.md: elo",
    ),
    params=PARAMS,
    duel=True,
    sides=True,
    weights=True,
)


@dataclass(frozen=True, slots=True)
class EloConfig(EloFamilyConfig):
    """A ladder's Elo parameters, checked and typed."""

    k: float

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> EloConfig:
        return cls(
            initial=float(params["initial"]), scale=float(params["scale"]), k=float(params["k"])
        )


@dataclass(frozen=True, slots=True)
class EloRater(EloFamilyRater[EloConfig]):
    """Elo configured with a ladder's ``initial``, ``k`` and ``scale``."""

    def validate_game(self, game: Game) -> None:
        require_player_count(game.participants, MIN_PLAYERS, None)
        if game.has_teams and len(game.sides) < MIN_SIDES:
            raise InvalidEvent(("teams",), f"a team game needs at least {MIN_SIDES} sides")

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        players = game.participants
        # A free-for-all of full players (every game before teams) takes the per-player loop
        # below; sides or weights take the side rule, which gives the same numbers for them.
        for p in players:  # a plain loop: cheaper than any() over the usual two players
            if p.team is not None or p.weight != FULL_WEIGHT:
                return self.rate_sides(game, before)
        N = len(players)
        K = self.config.k
        scale = self.config.scale
        K_per_duel = K / (N - 1)
        keys = [PlayerKey(p.player) for p in players]
        states = [before[key] for key in keys]
        R = [state.rating for state in states]

        changes: list[Change] = []
        for i, me in enumerate(players):
            duels: list[Duel] = []
            S_sum = 0.0
            E_sum = 0.0
            for j, opponent in enumerate(players):
                if j == i:
                    continue
                S = duel_score(me, opponent)
                E = logistic_expected_score(R[i], R[j], scale)
                S_sum += S
                E_sum += E
                duels.append((opponent.player, R[j], E, S))
            rating = R[i] + duel_delta(K_per_duel, S_sum, E_sum)
            details = Details(free_for_all_details, K, K_per_duel, E_sum, S_sum, duels)
            changes.append(rated_change(keys[i], states[i], rating, details))
        return Outcome(changes=tuple(changes))

    def rate_sides(self, game: Game, before: Mapping[PlayerKey, PlayerState]) -> Outcome:
        """The team rule (module docstring): the free-for-all of the sides at their mean
        ratings, each member receiving its side's change times its weight. A game of sides of
        one at weight 1 gives the free-for-all's floats (a mean of one is the rating itself,
        the sums run in the same order, and 1.0 * x == x)."""
        sides = game.sides
        N = len(sides)
        K = self.config.k
        scale = self.config.scale
        K_per_duel = K / (N - 1)
        keys = [PlayerKey(p.player) for p in game.participants]
        states = [before[key] for key in keys]
        R = [side_rating([states[i] for i in side.indices]) for side in sides]
        names = [side.team if side.team is not None else side.members[0].player for side in sides]

        changes: list[Change | None] = [None] * len(keys)
        for a, side in enumerate(sides):
            duels: list[dict[str, Json]] = []
            S_sum = 0.0
            E_sum = 0.0
            for b, other in enumerate(sides):
                if b == a:
                    continue
                # Members carry their side's rank, so the first ones decide the duel.
                S = duel_score(side.members[0], other.members[0])
                E = logistic_expected_score(R[a], R[b], scale)
                S_sum += S
                E_sum += E
                duels.append(
                    {
                        "opponent": names[b],
                        "opponent_rating": R[b],
                        "expected_score": E,
                        "score": S,
                        "amount": duel_delta(K_per_duel, S, E),
                        "opponent_players": [m.player for m in other.members],
                    }
                )
            side_change = duel_delta(K_per_duel, S_sum, E_sum)
            for i, member in zip(side.indices, side.members, strict=True):
                details: dict[str, Json] = {
                    "k": K,
                    "k_per_duel": K_per_duel,
                    "expected_score": E_sum,
                    "score": S_sum,
                    "duels": duels,
                    "side_rating": R[a],
                    "side_change": side_change,
                    "weight": member.weight,
                }
                rating = states[i].rating + member.weight * side_change
                changes[i] = rated_change(keys[i], states[i], rating, details)
        return Outcome(changes=tuple(change for change in changes if change is not None))


#: One virtual duel of a free-for-all as a change keeps it: the opponent, its rating, E and S.
Duel = tuple[str, float, float, float]


def free_for_all_details(
    K: float, K_per_duel: float, E_sum: float, S_sum: float, duels: list[Duel]
) -> dict[str, Json]:
    """The details of a free-for-all change, from the terms :meth:`EloRater.rate_game` kept
    (each duel's amount K / (N - 1) (S - E) is the same product as the rating's terms)."""
    return {
        "k": K,
        "k_per_duel": K_per_duel,
        "expected_score": E_sum,
        "score": S_sum,
        "duels": [
            {
                "opponent": opponent,
                "opponent_rating": R_j,
                "expected_score": E,
                "score": S,
                "amount": duel_delta(K_per_duel, S, E),
            }
            for opponent, R_j, E, S in duels
        ],
    }


SYSTEM = RatingSystem(info=INFO, config=EloConfig.from_params, rater=EloRater)
