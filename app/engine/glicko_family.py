"""What ``glicko`` and ``glicko2`` share around Glickman's formulas (SYSTEMS.md "Glicko family").

Both systems (M. E. Glickman, "The Glicko system" and "Example of the Glicko-2 system", Boston
University, 2013):

* hold a rating r and a deviation RD, starting at the ``initial_rating`` / ``initial_deviation``
  parameters; RD never grows past the initial RD;
* rate a player's games in a rating period together from its period-start state, opponents
  entering with their period-start values (:mod:`app.engine.periods`), multiplayer games being
  pairwise by rank;
* rank the leaderboard by ``ranking_value = r - ranking_multiplier * RD`` (seed
  004_3c56f4e0f8d4dd82.txt, the NAF presentation: "subtracting 2.5 * phi from mu");
* accept an administrator's rating and RD within the same bounds.

:class:`GlickoFamilyRater` holds that; each system's module keeps its paper's mathematics (Glicko-1:
q, g, E, d^2, r', RD'; Glicko-2: mu, phi, g, E, v, Delta, sigma', phi*, phi', mu') and plugs it in
through :meth:`~GlickoFamilyRater.idle_periods`, :meth:`~GlickoFamilyRater.grown_deviation`,
:meth:`~GlickoFamilyRater.rate_results` and :meth:`~GlickoFamilyRater.adjusted_values`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from statistics import fmean
from typing import Any, TypeVar

from app.engine.base import BaseRater, duel_score, require_finite, require_player_count
from app.engine.errors import InvalidEvent
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.periods import (
    PERIOD_CHOICES,
    PERIOD_GAME,
    PeriodResult,
    Position,
    adjusted_extra,
    extra_for,
    locate,
    pairwise_scores,
    period_index,
)
from app.engine.types import Change, Game, Json, Outcome, PlayerKey, PlayerState, Standing, frozen

#: Glickman, both papers: an unrated player's rating and RD.
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
#: Seed 004 (the NAF presentation, for both systems): rank by r - 2.5 RD.
RANKING_MULTIPLIER = 2.5
#: Not from the sources, numerical guard: a deviation below one rating point carries no
#: meaning, and keeps 1 / RD^2 finite.
DEVIATION_MIN = 1.0
#: Not from the sources, numerical guard: the largest initial RD (Glickman's unrated player has
#: 350). One surprising result moves a rating by up to about RD^2 / 173.7 points (Glicko-1's
#: q RD^2, Glicko-2's phi^2 on the display scale): about 5,800 at 1,000, a tenth of the rating
#: gap (about 60,000) at which E (1 - E) underflows and v or d^2 overflows. Larger values broke
#: ordinary histories: 30,000 overflowed Glicko-2 and 100,000 divided Glicko-1 by zero.
DEVIATION_MAX = 1000.0
#: Not from the sources: the leaderboard's ranking value r - m RD needs no more than ten
#: deviations (NAF: 2.5; TrueSkill's convention: 3).
RANKING_MULTIPLIER_MAX = 10.0
#: Not from the sources: an adjusted rating must lie within this distance of the initial rating,
#: so that E (1 - E) stays far from float underflow (which would make Glicko-1's d^2 or
#: Glicko-2's v infinite).
MAX_RATING_OFFSET = 5000.0
#: A game needs two players (a team game two sides) to hold a duel.
MIN_PLAYERS = 2
MIN_SIDES = 2


def composite(members: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """A side as one opponent (SYSTEMS.md "Teams", glicko and glicko2; ShieldBattery's
    composite opponent): the mean rating and the mean deviation of its members' (r, RD).
    ``fmean`` sums with ``math.fsum`` (correctly rounded), so the members' order changes
    nothing, and a side of one is its member's values exactly."""
    return fmean([r for r, _ in members]), fmean([RD for _, RD in members])


@dataclass(frozen=True, slots=True)
class PeriodStep:
    """A system's update of one player over its rating period, on the Glicko scale.

    ``g`` and ``E`` hold the system's g and E for each result of the period, in order; ``terms``
    the paper's intermediate values, as the change's details show them.
    """

    rating: float
    deviation: float
    volatility: float | None
    g: tuple[float, ...]
    E: tuple[float, ...]
    terms: Mapping[str, Json]


def initial_rating_param(description: str) -> ParamSpec:
    """The family's ``initial_rating`` (Glickman: 1500), within +-:data:`SCALE_LIMIT`."""
    return ParamSpec(
        "initial_rating",
        "number",
        INITIAL_RATING,
        description,
        minimum=-SCALE_LIMIT,
        maximum=SCALE_LIMIT,
    )


def initial_deviation_param(description: str) -> ParamSpec:
    """The family's ``initial_deviation`` (Glickman: 350), between :data:`DEVIATION_MIN` and
    :data:`DEVIATION_MAX`."""
    return ParamSpec(
        "initial_deviation",
        "number",
        INITIAL_DEVIATION,
        description,
        minimum=DEVIATION_MIN,
        maximum=DEVIATION_MAX,
    )


def period_param(description: str) -> ParamSpec:
    """The family's ``period``: each game, or a UTC calendar day, ISO week or month."""
    return ParamSpec("period", "string", PERIOD_GAME, description, choices=PERIOD_CHOICES)


def ranking_multiplier_param(description: str) -> ParamSpec:
    """The family's ``ranking_multiplier`` (NAF: 2.5), from 0 to
    :data:`RANKING_MULTIPLIER_MAX`."""
    return ParamSpec(
        "ranking_multiplier",
        "number",
        RANKING_MULTIPLIER,
        description,
        minimum=0.0,
        maximum=RANKING_MULTIPLIER_MAX,
    )


@dataclass(frozen=True, slots=True)
class GlickoFamilyConfig:
    """The parameters common to the family, checked and typed."""

    initial_rating: float
    initial_deviation: float
    period: str
    ranking_multiplier: float

    @staticmethod
    def family_values(params: Mapping[str, Json]) -> dict[str, Any]:
        """The family's fields from a ladder's (checked) parameters, for a system's config."""
        return {
            "initial_rating": float(params["initial_rating"]),
            "initial_deviation": float(params["initial_deviation"]),
            "period": str(params["period"]),
            "ranking_multiplier": float(params["ranking_multiplier"]),
        }


ConfigT = TypeVar("ConfigT", bound=GlickoFamilyConfig)


@dataclass(frozen=True, slots=True)
class GlickoFamilyRater(BaseRater[ConfigT]):
    """A Glicko-family system configured with a ladder's parameters.

    The parameters ``initial_rating``, ``initial_deviation``, ``period`` and
    ``ranking_multiplier`` are common to the family (:class:`GlickoFamilyConfig`); a subclass
    supplies the system's growth over idle periods, its rating-period update and its volatility.
    """

    def _RD(self, state: PlayerState) -> float:
        return self.config.initial_deviation if state.deviation is None else state.deviation

    def _sigma(self, state: PlayerState) -> float | None:
        """The volatility sigma of ``state``; None for a system without one (Glicko-1)."""
        return None

    def ranking_value(self, state: PlayerState) -> float:
        """r - ranking_multiplier * RD (seed 004: mu - 2.5 phi on the display scale)."""
        return state.rating - self.config.ranking_multiplier * self._RD(state)

    def standing(self, state: PlayerState) -> Standing:
        return Standing(
            rating=state.rating,
            deviation=self._RD(state),
            volatility=self._sigma(state),
            ranking_value=self.ranking_value(state),
        )

    def validate_game(self, game: Game) -> None:
        require_player_count(game.participants, MIN_PLAYERS, None)
        if game.has_teams and len(game.sides) < MIN_SIDES:
            raise InvalidEvent(("teams",), f"a team game needs at least {MIN_SIDES} sides")

    # --- Win probability -----------------------------------------------------------------------

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float:
        """p(``side`` ahead of ``other``): Glickman's prediction with both deviations
        (:meth:`pair_win_probability`), each side as its composite (mean r, mean RD) as in
        :meth:`rate_sides` (SYSTEMS.md "Win probability of one side over another"). On
        current states: a prediction is made now, not within a rating period."""
        r_a, RD_a = composite([(state.rating, self._RD(state)) for state in side])
        r_b, RD_b = composite([(state.rating, self._RD(state)) for state in other])
        return self.pair_win_probability(r_a, RD_a, r_b, RD_b)

    def pair_win_probability(self, r_a: float, RD_a: float, r_b: float, RD_b: float) -> float:
        """p(a ahead of b) for two players (or composites) on the display scale."""
        raise NotImplementedError

    # --- Adjustments ---------------------------------------------------------------------------

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """The state an administrator sets at ``at`` (API.md "Rating adjustments").

        The rating must lie within :data:`MAX_RATING_OFFSET` of the initial rating; the system
        checks deviation and volatility (:meth:`adjusted_values`), an omitted one keeping the
        previous (or initial) value. In a calendar period mode the state is the start of the
        period containing ``at``: that period's games are rated from it with no idle growth. In
        ``"game"`` mode the next game is rated from it without growth.
        """
        require_finite(("rating",), rating)
        initial_rating = self.config.initial_rating
        if abs(rating - initial_rating) > MAX_RATING_OFFSET:
            raise InvalidEvent(
                ("rating",),
                f"must be within {MAX_RATING_OFFSET:g} of the initial rating "
                f"{initial_rating:g}, got {rating:g}",
            )
        state = self.adjusted_values(previous, rating, deviation, volatility)
        return replace(state, extra=adjusted_extra(period_index(at, self.config.period), state))

    def adjusted_values(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
    ) -> PlayerState:
        """The adjusted state's values for a checked ``rating`` (InvalidEvent when one is out
        of range for the system)."""
        raise NotImplementedError

    def adjusted_deviation(self, previous: PlayerState | None, deviation: float | None) -> float:
        """An adjustment's RD: the previous (or initial) RD when omitted; it must lie between
        :data:`DEVIATION_MIN` and the initial RD."""
        initial_deviation = self.config.initial_deviation
        if deviation is None:
            deviation = initial_deviation if previous is None else self._RD(previous)
        require_finite(("deviation",), deviation)
        if not DEVIATION_MIN <= deviation <= initial_deviation:
            raise InvalidEvent(
                ("deviation",),
                f"must be between {DEVIATION_MIN:g} and the initial deviation "
                f"{initial_deviation:g}, got {deviation:g}",
            )
        return deviation

    # --- Rating periods ------------------------------------------------------------------------

    def idle_periods(self, position: Position) -> int:
        """The number of periods over which the deviation of ``position``'s state grows."""
        raise NotImplementedError

    def grown_deviation(self, state: PlayerState, periods: int) -> float:
        """The RD of ``state`` after growing over ``periods`` >= 1 idle periods."""
        raise NotImplementedError

    def rate_results(self, base: PlayerState, results: tuple[PeriodResult, ...]) -> PeriodStep:
        """The system's update of a player from its period-start state ``base`` with all the
        period's ``results``."""
        raise NotImplementedError

    def period_start(self, position: Position) -> tuple[PlayerState, int]:
        """The period-start state for ``position`` and the number of idle periods grown over
        (:meth:`idle_periods`; none: the state as it is)."""
        state = position.state
        idle = max(self.idle_periods(position), 0)
        # grown_deviation reads the state's RD and sigma through _RD and _sigma, which give
        # the values the base state is built with.
        deviation = self.grown_deviation(state, idle) if idle else self._RD(state)
        base = PlayerState(rating=state.rating, deviation=deviation, volatility=self._sigma(state))
        return base, idle

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        """Rate each player's period with this game's results added to the results it already
        has in the period (opponents at their period-start values): pairwise by rank in a
        free-for-all, against each other side as one composite opponent in a team game
        (:meth:`rate_sides`)."""
        players = game.participants
        for p in players:  # a plain loop: cheaper than Game.has_teams's any()
            if p.team is not None:
                return self.rate_sides(game, before)
        period, keys, states, positions, starts, start_values = self._game_starts(game, before)
        duels = pairwise_scores(players)

        changes: list[Change] = []
        for i, (state, position, (base, idle)) in enumerate(
            zip(states, positions, starts, strict=True)
        ):
            new_results = tuple(
                PeriodResult(start_values[j][0], start_values[j][1], S) for j, S in duels[i]
            )
            names = [players[j].player for j, _ in duels[i]]
            changes.append(
                self._period_change(
                    keys[i], state, position, base, idle, period, new_results, names, None
                )
            )
        return Outcome(changes=tuple(changes))

    def _game_starts(
        self, game: Game, before: Mapping[PlayerKey, PlayerState]
    ) -> tuple[
        int | None,
        list[PlayerKey],
        list[PlayerState],
        list[Position],
        list[tuple[PlayerState, int]],
        list[tuple[float, float]],
    ]:
        """Where each participant stands for ``game``: the game's period, the participants'
        keys, states and positions (:func:`locate`), their period starts
        (:meth:`period_start`) and their period-start r and RD, what opponents rate them at."""
        period = period_index(game.played_at, self.config.period)
        keys = [PlayerKey(p.player) for p in game.participants]
        states = [before[key] for key in keys]
        positions = [locate(state, period) for state in states]
        starts = [self.period_start(position) for position in positions]
        start_values = [(base.rating, self._RD(base)) for base, _ in starts]
        return period, keys, states, positions, starts, start_values

    def rate_sides(self, game: Game, before: Mapping[PlayerKey, PlayerState]) -> Outcome:
        """The team rule (SYSTEMS.md "Teams", glicko and glicko2; the composite-opponent
        method of ShieldBattery's matchmaking ratings): each member is rated against every
        other side as one opponent with the mean period-start rating and the mean period-start
        deviation of that side's members (:func:`composite`), scoring by the sides' ranks.
        These results join the member's period like any other, so a rating period batches
        them with its individual games. A game of sides of one gives the free-for-all's
        floats (a composite of one is the player's own period-start values)."""
        period, keys, states, positions, starts, start_values = self._game_starts(game, before)
        sides = game.sides
        composites = [composite([start_values[i] for i in side.indices]) for side in sides]
        changes: list[Change | None] = [None] * len(keys)
        for a, side in enumerate(sides):
            against = [(b, other) for b, other in enumerate(sides) if b != a]
            # Members carry their side's rank, so the first ones decide each result.
            new_results = tuple(
                PeriodResult(*composites[b], duel_score(side.members[0], other.members[0]))
                for b, other in against
            )
            names = [
                other.team if other.team is not None else other.members[0].player
                for _, other in against
            ]
            members = [[m.player for m in other.members] for _, other in against]
            for i in side.indices:
                base, idle = starts[i]
                changes[i] = self._period_change(
                    keys[i],
                    states[i],
                    positions[i],
                    base,
                    idle,
                    period,
                    new_results,
                    names,
                    members,
                )
        return Outcome(changes=tuple(change for change in changes if change is not None))

    def _period_change(
        self,
        key: PlayerKey,
        state: PlayerState,
        position: Position,
        base: PlayerState,
        idle: int,
        period: int | None,
        new_results: tuple[PeriodResult, ...],
        names: Sequence[str],
        members: Sequence[list[str]] | None,
    ) -> Change:
        """The change of one player whose period gains ``new_results``: this game's results,
        one per opponent, named in ``names`` (a player, or a side's label) and in a team game
        with the side's ``members``."""
        results = position.results + new_results
        step = self.rate_results(base, results)
        after = PlayerState(
            rating=step.rating,
            deviation=step.deviation,
            volatility=step.volatility,
            extra=extra_for(period, base, results),
        )
        first_new = len(position.results)
        per_opponent: list[dict[str, Json]] = [
            {
                "opponent": name,
                "score": result.score,
                "rating": result.opponent_rating,
                "deviation": result.opponent_deviation,
                "g": step.g[first_new + n],
                "E": step.E[first_new + n],
            }
            for n, (name, result) in enumerate(zip(names, new_results, strict=True))
        ]
        if members is not None:
            for entry, players in zip(per_opponent, members, strict=True):
                entry["players"] = players
        details: dict[str, Json] = {
            "period": period,
            "period_results": len(results),
            "idle_periods": idle,
            "rating_start": base.rating,
            "deviation_start": self._RD(base),
            **step.terms,
            "opponents": per_opponent,
            "deviation_before": self._RD(state),
            "deviation_after": after.deviation,
            "volatility_before": self._sigma(state),
            "volatility_after": after.volatility,
            "ranking_value_before": self.ranking_value(state),
            "ranking_value_after": self.ranking_value(after),
        }
        return Change(key=key, before=state, after=after, details=frozen(details))
