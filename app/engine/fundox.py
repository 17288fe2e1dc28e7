"""Fundox ratings (seed 003_2f9c47745724d002.txt; SYSTEMS.md "fundox").

The seed's formula (proposed by the player badtoper): when A beats B, A gains and B loses

    amount(A beats B) = 16 / (1 + 10^((R_A - R_B) / 800))

(2000 beats 1600 -> 3.84; 1600 beats 2000 -> 12.16; the two always sum to 16). With
``E_A = 1 / (1 + 10^((R_B - R_A) / 800))`` this is ``16 (1 - E_A)``: an Elo exchange with
K = 16 and scale 800, so ``E_A`` is the win probability the formula implies (used for the lobby).

Games of 3 or 4 players have one winner: "each loser gives the winner the points he would have
lost if he had played against them in a 1 vs 1 game"; losers exchange nothing among themselves,
whatever their ranks below the winner.

Draws (a shared best rank) are not in the seed; the ``draw_policy`` parameter decides:

* ``"none"`` (default): the game changes nothing.
* ``"pairwise_half"``: every drawer beats every loser (the pair amount above) and each pair of
  drawers scores 1/2 each, exchanging the Elo-style half amount ``16 (1/2 - E_A)`` (A gains it,
  B loses it; it is zero when the ratings are equal and favours the lower-rated drawer).
  This is the same ``16 (S - E)`` rule that gives the decisive amount for ``S = 1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engine.base import DRAW, WIN, RatingSystem, rated_change, require_player_count
from app.engine.elo_family import (
    EloFamilyConfig,
    EloFamilyRater,
    duel_delta,
    initial_rating_param,
    logistic_expected_score,
    positive_param,
)
from app.engine.params import ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.types import Change, Game, Json, Outcome, PlayerKey, PlayerState, frozen

#: Seed 003: "The initial rating for each player is 1600 points."
INITIAL_RATING = 1600.0
#: Seed 003: the numerator 16 — the most one pair can exchange ("gain + loss = 16 points").
MAX_EXCHANGE = 16.0
#: Seed 003: the divisor 800 of the rating difference in the exponent.
DIVISOR = 800.0
#: Seed 003: "In games of 3 or 4 players ..."; two-player games are 1 vs 1.
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: Leaderboard default, seed 003: "connected at least once ... in the last 30 days".
ACTIVE_WITHIN_DAYS = 30

#: SYSTEMS.md "fundox": draws are not in the seed; the product's two readings.
DRAW_POLICY_NONE = "none"
DRAW_POLICY_PAIRWISE_HALF = "pairwise_half"
DRAW_POLICIES = (DRAW_POLICY_NONE, DRAW_POLICY_PAIRWISE_HALF)

ROLE_WINNER = "winner"
ROLE_DRAW = "draw"
ROLE_LOSER = "loser"

PARAMS: tuple[ParamSpec, ...] = (
    initial_rating_param(INITIAL_RATING, "Rating of a player before its first game."),
    positive_param(
        "max_exchange",
        MAX_EXCHANGE,
        "The numerator of the pair amount: what a win and a loss of one pair add up to.",
    ),
    positive_param(
        "divisor", DIVISOR, "The divisor of the rating difference in the pair amount's exponent."
    ),
    ParamSpec(
        "draw_policy",
        "string",
        DRAW_POLICY_NONE,
        "A game whose best rank is shared: 'none' changes nothing; 'pairwise_half' makes each "
        "drawer beat every loser and pairs of drawers exchange max_exchange * (1/2 - E).",
        choices=DRAW_POLICIES,
    ),
)

INFO = SystemInfo(
    id="fundox",
    title="Fundox",
    kind="game",
    description=(
        "Fundox: when A beats B, B pays A 16 / (1 + 10^((R_A - R_B) / 800)). In 3-4 player "
        "games each loser pays the single winner what it would lose 1 vs 1; losers exchange "
        "nothing. Shared first places follow the draw_policy parameter. Zero-sum."
    ),
    sources=("Fundox, Ratings (the site's help page; formula by the player badtoper)",),
    params=PARAMS,
    default_active_within_days=ACTIVE_WITHIN_DAYS,
    duel=True,
)


@dataclass(frozen=True, slots=True)
class FundoxConfig(EloFamilyConfig):
    """A ladder's Fundox parameters, checked and typed. ``scale`` is the ``divisor`` 800 of the
    pair amount: the scale of E = 1 / (1 + 10^((R_opp - R) / 800)), the win probability the pair
    amount implies (a win is worth ``max_exchange * (1 - E)``)."""

    max_exchange: float
    draw_policy: str

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> FundoxConfig:
        return cls(
            initial=float(params["initial"]),
            scale=float(params["divisor"]),
            max_exchange=float(params["max_exchange"]),
            draw_policy=str(params["draw_policy"]),
        )


@dataclass(frozen=True, slots=True)
class FundoxRater(EloFamilyRater[FundoxConfig]):
    """Fundox configured with ``initial``, ``max_exchange``, ``divisor`` and ``draw_policy``."""

    @property
    def rates_draws(self) -> bool:
        """A shared first place changes ratings unless ``draw_policy`` is ``"none"``."""
        return self.config.draw_policy != DRAW_POLICY_NONE

    def validate_game(self, game: Game) -> None:
        require_player_count(game.participants, MIN_PLAYERS, MAX_PLAYERS)

    def pair_amount(self, R_A: float, R_B: float, S_A: float) -> float:
        """What A gains (B loses) from a pair result S_A: max_exchange * (S_A - E_A).

        For S_A = 1 this is the seed's 16 / (1 + 10^((R_A - R_B) / 800)).
        """
        E_A = logistic_expected_score(R_A, R_B, self.config.scale)
        return duel_delta(self.config.max_exchange, S_A, E_A)

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        players = game.participants
        policy = self.config.draw_policy
        keys = [PlayerKey(p.player) for p in players]
        states = [before[key] for key in keys]
        R = [state.rating for state in states]

        best = min(p.rank for p in players)
        top = [i for i, p in enumerate(players) if p.rank == best]
        shared = len(top) > 1
        top_role = ROLE_DRAW if shared else ROLE_WINNER
        roles = [top_role if i in top else ROLE_LOSER for i in range(len(players))]

        if shared and policy == DRAW_POLICY_NONE:
            reason = "the best rank is shared and draw_policy 'none' rates no draw"
            return Outcome(
                changes=tuple(
                    Change(
                        key=keys[i],
                        before=states[i],
                        after=states[i],
                        details=frozen(
                            {
                                "role": roles[i],
                                "draw_policy": policy,
                                "pairs": [],
                                "reason": reason,
                            }
                        ),
                    )
                    for i in range(len(players))
                )
            )

        # The exchanging pairs (a, b, S_a): each top player beats every loser; top players
        # (drawers under pairwise_half) score 1/2 against each other. Losers never exchange.
        exchanges: list[tuple[int, int, float]] = []
        for position, a in enumerate(top):
            exchanges.extend((a, b, DRAW) for b in top[position + 1 :])
            exchanges.extend((a, b, WIN) for b in range(len(players)) if roles[b] == ROLE_LOSER)

        pairs: list[list[dict[str, Json]]] = [[] for _ in players]
        delta = [0.0] * len(players)
        for a, b, S_a in exchanges:
            amount = self.pair_amount(R[a], R[b], S_a)
            delta[a] += amount
            delta[b] -= amount
            pairs[a].append(self._pair(players[b].player, R[b], S_a, amount))
            pairs[b].append(self._pair(players[a].player, R[a], 1.0 - S_a, -amount))

        return Outcome(
            changes=tuple(
                rated_change(
                    keys[i],
                    states[i],
                    R[i] + delta[i],
                    {"role": roles[i], "draw_policy": policy, "pairs": pairs[i], "reason": None},
                )
                for i in range(len(players))
            )
        )

    @staticmethod
    def _pair(opponent: str, opponent_rating: float, S: float, amount: float) -> dict[str, Json]:
        return {
            "opponent": opponent,
            "opponent_rating": opponent_rating,
            "score": S,
            "amount": amount,
        }


SYSTEM = RatingSystem(info=INFO, config=FundoxConfig.from_params, rater=FundoxRater)
