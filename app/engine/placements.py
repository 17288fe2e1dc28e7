"""Final placements of a tournament: places with ties, N, and the checks every standing obeys.

Shared by the tournament ranking systems (``dptr``, ``cdiplo``, ``wpe``, ``daanz``; SYSTEMS.md
"Tournament ranking systems"; the World Diplomacy Database's DPTR page and Edi Birsan's
article on ranking systems).

Ranks are *competition ranks*, as the seed 000 table publishes them: tied players share the
best place of their group and the next rank skips the places they occupy (1, 2, 2, 4, ...).
So a rank r held by t players occupies the places r, r + 1, ..., r + t − 1, and N (the number
of ranked players) is the number of standings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from app.engine.base import BaseRater, ConfigT
from app.engine.errors import InvalidEvent
from app.engine.types import (
    Change,
    Json,
    Outcome,
    Placement,
    PlayerKey,
    PlayerState,
    Tournament,
    frozen,
)

#: Tie rule "shared": tied players take the shared (best) place (seed 000's WBC 2012 table:
#: three players 7th of 33 all score 80.30).
TIES_SHARED = "shared"
#: Tie rule "average": tied players take the mean of the places they occupy.
TIES_AVERAGE = "average"
TIE_RULES: tuple[str, ...] = (TIES_SHARED, TIES_AVERAGE)

#: A ranking needs somebody to be ranked against (SYSTEMS.md, API.md: fewer than two players
#: is a 422).
MIN_STANDINGS = 2
#: The best possible rank (API.md: rank 1 is best).
BEST_RANK = 1
#: The fewest rounds an event can have (DPTR distinguishes one round from more).
MIN_ROUNDS = 1
#: A place past the end of a by-place table earns nothing (seed 001, C-Diplo: "If you're at
#: another place, you have no bonus point").
PAST_TABLE = 0.0


@dataclass(frozen=True, slots=True)
class Place:
    """Where one standing finished: its (shared, best) place and how many share it."""

    #: The shared best place, equal to the competition rank.
    rank: int
    #: How many players hold this rank (1 when untied).
    tied: int

    @property
    def occupied(self) -> range:
        """The places the tied group occupies: rank, rank + 1, ..., rank + tied − 1."""
        return range(self.rank, self.rank + self.tied)

    @property
    def average(self) -> float:
        """The mean of the occupied places."""
        return self.rank + (self.tied - 1) / 2

    def value(self, ties: str) -> float:
        """The place a formula uses under the tie rule ``ties``."""
        if ties == TIES_AVERAGE:
            return self.average
        return float(self.rank)

    def mean_over(self, f: Callable[[int], float]) -> float:
        """The average of ``f`` over the occupied places (tied players share the total)."""
        return sum(f(k) for k in self.occupied) / self.tied


def places(standings: Sequence[Placement]) -> tuple[Place, ...]:
    """The place of each standing, in input order."""
    tied = Counter(s.rank for s in standings)
    return tuple(Place(rank=s.rank, tied=tied[s.rank]) for s in standings)


def by_place(table: Sequence[float], place: int) -> float:
    """The entry of ``place`` (1-based) in a by-place table (entry 1 for 1st, ...), nothing
    past its end: C-Diplo's bonus (seed 001), DAANZ's placing bonus."""
    return float(table[place - 1]) if place <= len(table) else PAST_TABLE


#: How a system rates one standing: ``(standing, place, state before)`` -> (state after,
#: the change's details).
StandingRule = Callable[[Placement, Place, PlayerState], tuple[PlayerState, Mapping[str, Json]]]


@dataclass(frozen=True, slots=True)
class StandingsRater(BaseRater[ConfigT]):
    """A tournament system that rates each standing on its own (DPTR, C-Diplo, WPE, DAANZ):
    a change per standing, in input order, by the :meth:`standing_rule` of the event."""

    def standing_rule(self, tournament: Tournament) -> StandingRule:
        """How this system rates one standing of ``tournament`` (the event's terms bound)."""
        raise NotImplementedError

    def rate_tournament(
        self,
        tournament: Tournament,
        before: Mapping[str, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        rule = self.standing_rule(tournament)
        standings = tournament.standings
        changes = []
        for s, p in zip(standings, places(standings), strict=True):
            old = before[s.player]
            after, details = rule(s, p, old)
            changes.append(
                Change(key=PlayerKey(s.player), before=old, after=after, details=frozen(details))
            )
        return Outcome(changes=tuple(changes))


def player_count(standings: Sequence[Placement]) -> int:
    """N, the number of ranked players."""
    return len(standings)


def validate_standings(tournament: Tournament) -> None:
    """Raise InvalidEvent unless the standings are a consistent competition ranking.

    Rules: at least two standings; each player once; every rank >= 1; and every rank equals
    1 + the number of players ranked strictly better (so ties share the best place and the
    following rank skips the places they fill: 1, 2, 2, 4 — never 1, 2, 2, 3).
    """
    standings = tournament.standings
    n = len(standings)
    if n < MIN_STANDINGS:
        raise InvalidEvent(
            ("standings",), f"a tournament needs at least {MIN_STANDINGS} players, got {n}"
        )
    seen: set[str] = set()
    for i, s in enumerate(standings):
        if s.player in seen:
            raise InvalidEvent(("standings", i, "player"), f"player {s.player!r} is listed twice")
        seen.add(s.player)
        if s.rank < BEST_RANK:
            raise InvalidEvent(("standings", i, "rank"), f"rank must be at least 1, got {s.rank}")
    counts = Counter(s.rank for s in standings)
    better = 0
    expected: dict[int, int] = {}
    for rank in sorted(counts):
        expected[rank] = better + 1
        better += counts[rank]
    for i, s in enumerate(standings):
        if s.rank != expected[s.rank]:
            raise InvalidEvent(
                ("standings", i, "rank"),
                f"ranks must be competition ranks (tied players share the best place and the "
                f"next rank skips the places they fill, e.g. 1, 2, 2, 4): rank {s.rank} has "
                f"{expected[s.rank] - 1} players ranked better, so it should be "
                f"{expected[s.rank]}",
            )


def validate_rounds(tournament: Tournament) -> None:
    """Raise InvalidEvent unless the event has at least one round."""
    if tournament.rounds < MIN_ROUNDS:
        raise InvalidEvent(
            ("rounds",), f"rounds must be at least {MIN_ROUNDS}, got {tournament.rounds}"
        )


def validate_centres(tournament: Tournament, maximum: int) -> None:
    """Raise InvalidEvent unless every standing gives its centres, within 0..maximum."""
    for i, s in enumerate(tournament.standings):
        if s.centres is None:
            raise InvalidEvent(("standings", i, "centres"), "centres are required")
        if not 0 <= s.centres <= maximum:
            raise InvalidEvent(
                ("standings", i, "centres"),
                f"centres must be between 0 and {maximum}, got {s.centres}",
            )
