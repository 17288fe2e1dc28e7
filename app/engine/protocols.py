"""The small protocols a rating system implements, one per kind of system.

A *system* (module-level singleton) describes itself and, given a ladder's parameters,
returns a *rater* that does the arithmetic. Raters are pure: the same inputs give the same
outputs, and nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, Protocol

from app.engine.params import ParamSpec
from app.engine.types import (
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
    Standing,
    Tournament,
)

SystemKind = Literal["game", "tournament"]


@dataclass(frozen=True, slots=True)
class SystemInfo:
    """What ``GET /systems`` shows of a system."""

    id: str
    title: str
    kind: SystemKind
    description: str
    sources: tuple[str, ...]
    params: tuple[ParamSpec, ...]
    #: One rating per player per faction (NAF: per coach per race).
    per_faction: bool = False
    #: Whether an event's result depends on ladder-wide state (NADF's rising base), so
    #: events of the ladder must be applied one at a time in ladder order.
    ladder_scoped: bool = False
    #: The leaderboard's default activity filter in days (Fundox: 30), None for none.
    default_active_within_days: int | None = None
    #: Pairwise duel systems (Elo and Glicko families) give head-to-head lobby amounts.
    duel: bool = False
    #: How the leaderboard ranks: by "rating" or by "ranking_value".
    rank_by: Literal["rating", "ranking_value"] = "rating"
    #: Games score primary and secondary points (``details``) that tournaments total up.
    points_standings: bool = False
    #: Rates sides of several players (SYSTEMS.md "Teams"); other systems refuse them.
    sides: bool = False
    #: Takes partial play (a member's ``weight`` below 1); other systems refuse weights.
    weights: bool = False
    #: Rates fields of thousands (Elo-MMR): its ladders take games as large as the service
    #: allows unless they set a limit of their own (API.md "Whole-history and large-field").
    large_fields: bool = False
    #: A whole-history system (:class:`WholeHistoryRater`: ttt, whr): its ratings are a fit of
    #: the ladder's whole live history, extended by a new game's bounded update and refitted
    #: by any other write and by the service's background work, under the ladder's exclusive
    #: lock (so such a system is ``ladder_scoped`` too).
    whole_history: bool = False


class Rater(Protocol):
    """Operations common to every configured system."""

    @property
    def params(self) -> Mapping[str, Json]:
        """The ladder's complete parameters (defaults filled in), as stored and shown. Only
        the system's own module reads their meaning, through its typed ``config``."""
        ...

    def initial_ladder_state(self) -> Mapping[str, Json]:
        """Ladder-wide state before any event (NADF: the base). Usually empty."""
        ...

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        """The state of a player before its first event."""
        ...

    def standing(self, state: PlayerState) -> Standing:
        """What a leaderboard shows for ``state``."""
        ...

    def rating_floor(self, ladder_state: Mapping[str, Json]) -> float | None:
        """A ladder-wide minimum every shown rating is raised to (NADF's base), or None."""
        ...

    def adjusted_state(
        self,
        previous: PlayerState | None,
        rating: float,
        deviation: float | None,
        volatility: float | None,
        at: datetime,
    ) -> PlayerState:
        """The state set by an administrator's adjustment at ``at`` (API.md).

        Raises InvalidEvent when a value is out of range for the system.
        """
        ...


class GameRater(Rater, Protocol):
    """A configured game system (Elo, Glicko, NADF, Kinzett ...)."""

    @property
    def rates_draws(self) -> bool:
        """Whether a game whose best rank is shared changes ratings (a prediction's if_draw)."""
        ...

    def validate_game(self, game: Game) -> None:
        """Raise InvalidEvent when ``game`` breaks a rule of the system. (Whether the system
        takes sides and weights at all is checked before, by ``ledger.check_sides``.)"""
        ...

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        """p(``side`` finishes ahead of ``other``), SYSTEMS.md "Win probability of one side
        over another": p(a, b) + p(b, a) = 1. None where the system defines no pair
        probability (the Diplomacy systems). A side is its members' states."""
        ...

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None:
        """The system's own match quality of a proposed game (TrueSkill's), or None: the
        service then uses 1 - |2p - 1| of the least even pair (API.md "Teams")."""
        ...

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        """Rate a validated, rated game. ``before`` holds a state for every participant."""
        ...


class DuelRater(GameRater, Protocol):
    """A game system built on duels: gives head-to-head amounts for the lobby."""

    def expected_score(
        self, player: PlayerState, opponent: PlayerState, game: Game | None = None
    ) -> float:
        """The player's expected score against the opponent (the system's E)."""
        ...


class TournamentRater(Rater, Protocol):
    """A configured tournament ranking system (DPTR, C-Diplo, WPE, DAANZ)."""

    def validate_tournament(self, tournament: Tournament) -> None:
        """Raise InvalidEvent when ``tournament`` breaks a rule of the system."""
        ...

    def rate_tournament(
        self,
        tournament: Tournament,
        before: Mapping[str, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        """Rate a validated tournament. ``before`` holds a state for every ranked player."""
        ...


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One day of a player's skill curve in a whole-history fit (API.md "curve")."""

    day: date
    rating: float
    deviation: float


@dataclass(frozen=True, slots=True)
class Fit:
    """A whole-history fit of a ladder (SYSTEMS.md "Whole-history and large-field systems").

    ``curves`` hold one point per UTC day on which the player played, in day order; the last
    point is the player's served rating. ``converged`` says whether the last sweep moved no
    estimate by more than the system's tolerance; ``max_step`` is that sweep's largest move.
    ``state`` is the system's own JSON (lists and dicts of numbers and strings) needed to
    resume the iteration, bounded by the size of the history; the service stores it.
    """

    curves: Mapping[PlayerKey, tuple[CurvePoint, ...]]
    converged: bool
    sweeps: int
    max_step: float
    state: Json


class WholeHistoryRater(Rater, Protocol):
    """A configured whole-history system (TrueSkill Through Time, Whole-History Rating):
    its ratings are a fit of the ladder's whole history, re-estimated by every result."""

    def validate_game(self, game: Game) -> None:
        """Raise InvalidEvent when ``game`` breaks a rule of the system."""
        ...

    def fit(self, games: Sequence[Game], warm: Fit | None = None, *, max_sweeps: int = 1000) -> Fit:
        """Fit the whole history ``games`` (validated, rated, in ladder order) until converged
        or ``max_sweeps`` sweeps. ``warm`` is a fit of another version of the history (games
        added, corrected or removed): it may seed the iteration, by player and day, and never
        changes the fixed point reached (within the system's tolerance)."""
        ...

    def extends(self, state: Mapping[str, Json]) -> bool:
        """Whether :meth:`add_game` can extend a fit whose state but the per-player part is
        ``state`` (False: it was made by an older version of the engine; refit it)."""
        ...

    def add_game_reads(self, fit: Fit, game: Game) -> Collection[PlayerKey]:
        """The players besides ``game``'s whose curves :meth:`add_game` reads, given a
        ``fit`` holding at least the game's players' curves and per-player state (whr: their
        opponents'; ttt: none). A service holding the fit in parts loads just these."""
        ...

    def add_game(self, fit: Fit, game: Game) -> Fit:
        """A bounded update after ``game`` was added to the history ``fit`` was made of: only
        the game's players' estimates move, at a cost independent of the ladder's size; the
        result says ``converged=False``. ``fit`` need hold only the game's players' curves
        and per-player state and the curves of :meth:`add_game_reads`; the result holds what
        ``fit`` held, the game's players' parts replaced."""
        ...

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None:
        """p(``side`` finishes ahead of ``other``) from the players' served states."""
        ...

    def state_of(self, point: CurvePoint) -> PlayerState:
        """The served state of a player whose curve ends at ``point``."""
        ...


class System(Protocol):
    """A rating system: its description, and a rater for given parameters."""

    @property
    def info(self) -> SystemInfo: ...

    def configure(self, params: Mapping[str, Json] | None = None) -> Rater:
        """Validate ``params`` (raising InvalidParameter) and return the configured rater."""
        ...


def key_for(info: SystemInfo, player: str, faction: str | None) -> PlayerKey:
    """The rating key of a player in a ladder of this system."""
    return PlayerKey(player, faction if info.per_faction else None)


def sorted_keys(keys: Sequence[PlayerKey]) -> list[PlayerKey]:
    """A fixed order over keys, used wherever locks or outputs need one."""
    return sorted(keys, key=lambda k: (k.player, k.faction or ""))
