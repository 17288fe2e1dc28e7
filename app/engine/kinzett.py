"""Kinzett rating system (Nick Kinzett, ManorCon 1986).

Source: seed 002_d521cad107983002.txt (World Diplomacy Database, "Kinzett Rating System");
SYSTEMS.md ``kinzett``.

- Primary points: the winner (a solo) 2, every participant in a draw 1, everyone else 0.
- Secondary points: with n a player's supply centre count, f(n) = 0.5·(n² + n) + 4. The
  divisor is the sum of f over all seven players, an eliminated player adding f(0) = 4; a
  surviving player (n ≥ 1) gets 100·f(n)/divisor; an eliminated player's share is ignored and
  it gets instead 0.1 for each complete year survived ((eliminated_in − 1901) × 0.1).
- Standings rank by total primary points, ties split by total secondary points
  (:func:`sort_key`).

A player's state: ``rating`` = total primary points; ``extra`` = {"primary": total,
"secondary": total, "games": n}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import MAXYEAR, datetime

from app.engine.base import BaseRater, RatingSystem
from app.engine.diplomacy import (
    FULL_GAME_PLAYERS,
    START_YEAR,
    DiplomacyGame,
    DiplomacyPlayer,
    read_game,
)
from app.engine.errors import InvalidEvent
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.types import (
    Change,
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
    Standing,
    frozen,
)

#: Seed 002: "Winners are awarded 2 Primary Points".
SOLO_POINTS = 2.0
#: Seed 002: "all participants in any draw 1 Primary Point each".
DRAW_POINTS = 1.0
#: Seed 002: "100 points were divided between the surviving players".
SURVIVOR_POOL = 100.0
#: Seed 002: "they received 0.1 point for each year survived".
PER_YEAR = 0.1
#: The first game year (standard rules; an elimination in 1905 -> 4 complete years).
START_YEAR_DEFAULT = START_YEAR
#: Seed 002: f(n) = 0.5*(n^2 + n) + 4 — the factor and the constant term.
F_HALF = 0.5
F_CONSTANT = 4.0

PRIMARY_KEY = "primary"
SECONDARY_KEY = "secondary"
GAMES_KEY = "games"


def _points_param(name: str, default: float, description: str) -> ParamSpec:
    """A number of points: from 0 to :data:`SCALE_LIMIT`."""
    return ParamSpec(name, "number", default, description, minimum=0.0, maximum=SCALE_LIMIT)


PARAMS: tuple[ParamSpec, ...] = (
    _points_param("solo_points", SOLO_POINTS, "Primary points of a solo winner."),
    _points_param("draw_points", DRAW_POINTS, "Primary points of every draw participant."),
    _points_param(
        "survivor_pool",
        SURVIVOR_POOL,
        "Secondary points divided among survivors in the ratio f(n) / divisor.",
    ),
    _points_param(
        "per_year",
        PER_YEAR,
        "Secondary points of an eliminated player per complete year survived.",
    ),
    ParamSpec(
        "start_year",
        "integer",
        START_YEAR_DEFAULT,
        "The game's first year; years survived = eliminated_in − start_year.",
        minimum=1,
        # The calendar's last year: a game year past it cannot be given.
        maximum=MAXYEAR,
    ),
)

INFO = SystemInfo(
    id="kinzett",
    title="Kinzett rating system",
    kind="game",
    description=(
        "ManorCon 1986 draw-based scoring: primary points (solo 2, each draw participant 1),"
        " ties split by secondary points (survivors share 100 in the ratio"
        " f(n) = (n² + n)/2 + 4 of their centres; eliminated players 0.1 per year survived)."
    ),
    sources=("World Diplomacy Database, Kinzett Rating System (Nick Kinzett, ManorCon 1986)",),
    params=PARAMS,
    points_standings=True,
)


def f(n: int) -> float:
    """Seed 002: f(n) = 0.5·(n² + n) + 4 for a supply centre count n."""
    return F_HALF * (n * n + n) + F_CONSTANT


def _number(extra: Mapping[str, Json], key: str) -> float:
    value = extra.get(key, 0.0)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def secondary_total(state: PlayerState) -> float:
    """Total secondary points held in ``state`` (0 for a fresh state)."""
    return _number(state.extra, SECONDARY_KEY)


def games_played(state: PlayerState) -> int:
    return int(_number(state.extra, GAMES_KEY))


def sort_key(state: PlayerState) -> tuple[float, float]:
    """Standings order (seed 002): primary points, ties split by secondary points.

    Sort descending by this key (``sorted(states, key=sort_key, reverse=True)``).
    """
    return (state.rating, secondary_total(state))


def _state(primary: float, secondary: float, games: int) -> PlayerState:
    return PlayerState(
        rating=primary,
        extra=frozen({PRIMARY_KEY: primary, SECONDARY_KEY: secondary, GAMES_KEY: games}),
    )


@dataclass(frozen=True, slots=True)
class KinzettConfig:
    """A ladder's Kinzett parameters, checked and typed."""

    solo_points: float
    draw_points: float
    survivor_pool: float
    per_year: float
    start_year: int

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> KinzettConfig:
        return cls(
            solo_points=float(params["solo_points"]),
            draw_points=float(params["draw_points"]),
            survivor_pool=float(params["survivor_pool"]),
            per_year=float(params["per_year"]),
            start_year=int(params["start_year"]),
        )


@dataclass(frozen=True, slots=True)
class KinzettRater(BaseRater[KinzettConfig]):
    """Kinzett primary and secondary points with resolved parameters (seed 002)."""

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return _state(0.0, 0.0, 0)

    def standing(self, state: PlayerState) -> Standing:
        """The leaderboard rating is total primary points, ties split by secondary points."""
        primary, secondary = sort_key(state)
        return Standing(rating=primary, tiebreak=secondary)

    def check_adjusted_rating(self, rating: float) -> None:
        """An adjustment sets total primary points, which are never negative."""
        if rating < 0:
            raise InvalidEvent(("rating",), f"primary points cannot be negative, got {rating}")

    def adjusted_rating(
        self, previous: PlayerState | None, rating: float, at: datetime
    ) -> PlayerState:
        """An adjustment sets total primary points; secondary points and games are kept."""
        if previous is None:
            return _state(float(rating), 0.0, 0)
        return _state(float(rating), secondary_total(previous), games_played(previous))

    def _read(self, game: Game) -> DiplomacyGame:
        return read_game(
            game,
            min_players=FULL_GAME_PLAYERS,
            max_players=FULL_GAME_PLAYERS,
            start_year=self.config.start_year,
            zero_centres_need_elimination=True,
        )

    def validate_game(self, game: Game) -> None:
        self._read(game)

    def primary_points(self, dip: DiplomacyGame, p: DiplomacyPlayer) -> float:
        """2 for a solo winner, 1 for each draw participant, 0 otherwise (seed 002)."""
        if not p.winner:
            return 0.0
        return self.config.solo_points if dip.solo else self.config.draw_points

    def years_survived(self, p: DiplomacyPlayer) -> int | None:
        """Complete years an eliminated player survived; None for a survivor."""
        if p.eliminated_in is None:
            return None
        return p.eliminated_in - self.config.start_year

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        dip = self._read(game)
        pool = self.config.survivor_pool
        per_year = self.config.per_year
        # The divisor is the sum of f over all seven players; eliminated ones add f(0) = 4.
        divisor = sum(f(p.centres) for p in dip.players)

        changes: list[Change] = []
        for p in dip.players:
            key = PlayerKey(p.player)
            state = before[key]
            f_n = f(p.centres)
            years = self.years_survived(p)
            # An eliminated player (0 centres; read_game requires its eliminated_in) gets
            # per_year per complete year survived; a survivor its share of the pool.
            secondary = per_year * (years or 0) if p.eliminated else pool * f_n / divisor
            primary = self.primary_points(dip, p)
            after = _state(
                state.rating + primary,
                secondary_total(state) + secondary,
                games_played(state) + 1,
            )
            details: dict[str, Json] = {
                "power": p.power,
                "primary": primary,
                "secondary": secondary,
                "divisor": divisor,
                "f": f_n,
                "centres": p.centres,
                "eliminated": p.eliminated,
                "years_survived": years,
                "solo": p.winner and dip.solo,
                "winners": dip.W,
            }
            changes.append(Change(key=key, before=state, after=after, details=frozen(details)))
        return Outcome(changes=tuple(changes))


SYSTEM = RatingSystem(info=INFO, config=KinzettConfig.from_params, rater=KinzettRater)
