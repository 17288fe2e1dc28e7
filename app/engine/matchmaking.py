"""How even a proposed game is, and the most even split of players into sides (API.md
"Matchmaking"; SYSTEMS.md "Win probability of one side over another" and ``trueskill``'s match
quality).

**Quality** of a proposed game of sides: the system's own match quality where it has one
(TrueSkill's: the draw probability of the match relative to that of equal sides), otherwise
1 - |2p - 1| for the least even pair of sides, p being the pair's win probability (1 = a coin
flip, 0 = a foregone result). None where the system defines no pair probability.

**Balance**: the players are split into ``teams`` sides whose sizes differ by at most one,
every party (players who queue together) on one side, with the highest quality.

**Parties** (:data:`SPREAD`, the default, or :data:`TOGETHER`): premade players, those in a
party of two or more, coordinate in ways their ratings do not show, so a split that puts every
premade on one side against solo players is unfair even at equal ratings (teiserver's balancer
penalises such "stacked" parties for the same reason). Under ``spread`` a split's **stacking**,
the largest number of premade players on one side minus the smallest, is minimised first, and
the quality decides among the splits of least stacking: ten players with parties of three and
two get the three on one side and the two on the other (stacking 1), never five premades
against five solos (stacking 5). Under ``together`` only the quality counts (stacking 0 for
every split), as before the policy existed.

- Up to :data:`EXACT_PLAYERS` players the search is exhaustive, within
  :data:`MAX_EXACT_WORK` (always for two sides). Sides are unlabelled, so each
  split is generated once: side 1 holds the first player not yet placed, side 2 the first
  player left after side 1, and so on (for 16 players in two sides of 8 that is C(15, 7) =
  6435 splits, not 2^16). It is also a branch and bound: a split's quality is at most the
  quality of any two of its sides (for the least-even-pair quality by definition; for
  TrueSkill's because the density of k performances all equal, relative to equal sides, only
  shrinks as sides are added: each added side multiplies it by a factor of at most one), so a
  partial split whose completed sides already hold a pair below the fourth best split found is
  not completed. A greedy split (below) seeds the search, which makes that bound bite early.
  A search that would need more work than its budget (three sides or more of 13 to 16
  players) stops there, and the heuristic finishes it (the answer is then not exact).
- Beyond, a heuristic, deterministic and bounded: a greedy split (parties first, largest
  first, each onto the side with the most room left; then single players from the highest
  rating down, each onto the side of the lowest total rating that has room), then a local
  search: round after round, for the pairs of sides from the least even, the swaps of two
  units of equal size between the two and the moves of a single player that keep the sizes,
  taking the first that improves the quality; where none does, a few random steps (from a
  seeded generator: the same request gives the same answer) and again, until its budget
  (:data:`MAX_SEARCH_WORK`) is spent. It finds good splits, not provably the best.

``alternatives`` are the next best splits (up to :data:`MAX_ALTERNATIVES`): exactly the next
best in the exhaustive search, the best other splits the local search evaluated beyond it.
Splits of equal quality are ordered by their sides' player indices, so the answer never depends
on the order the search met them in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from itertools import combinations
from random import Random
from statistics import fmean
from typing import Protocol

from app.engine.errors import InvalidEvent
from app.engine.types import PlayerState

#: API.md "Matchmaking": the search is exact up to this many players.
EXACT_PLAYERS = 16
#: API.md "Matchmaking": up to three next best splits.
MAX_ALTERNATIVES = 3
#: The work either search may do, counted in players read by quality evaluations: a pair of
#: sides reads the players of both, a split of k sides (k - 1) times its players (the least
#: even pair compares each side with k - 1 others). Reading a player costs 0.1 to 2
#: microseconds for the systems here (Elo to Weng-Lin), so each search stays under about half
#: a second. The exhaustive search of two sides always fits (16 players in two sides of 8:
#: 6,435 splits of 16 players, about 103,000 reads); three sides fit up to 12 players (about
#: 185,000) and, with the bound's help, sometimes more. A search that would exceed it is
#: finished by the heuristic.
MAX_EXACT_WORK = 300_000
#: The local search's budget, in the same unit: 3,000 splits of 100 players in two sides,
#: more than a whole cycle of their 2,500 swaps; fewer players, more splits.
MAX_SEARCH_WORK = 300_000
#: How many splits the exhaustive search completes between two checks of ``check``
#: (whether the client is still there): a few milliseconds of work.
CHECK_EVERY = 512

#: A split: its sides, each a sorted tuple of player indices, sorted by their first index.
SplitKey = tuple[tuple[int, ...], ...]
#: Party policies (module docstring).
SPREAD = "spread"
TOGETHER = "together"
Check = Callable[[], None]


class Predictor(Protocol):
    """What matchmaking asks of a system: its pair probability and its own match quality
    (``app.engine.protocols.GameRater`` has both)."""

    def side_win_probability(
        self, side: Sequence[PlayerState], other: Sequence[PlayerState]
    ) -> float | None: ...

    def match_quality(self, sides: Sequence[Sequence[PlayerState]]) -> float | None: ...


def _nothing() -> None:
    """The default ``check``: never interrupts."""


def evenness(p: float) -> float:
    """1 - |2p - 1|: 1 for a coin flip, 0 for a foregone result (API.md "Teams")."""
    return 1.0 - abs(2.0 * p - 1.0)


def pair_probabilities(
    rater: Predictor, sides: Sequence[Sequence[PlayerState]]
) -> list[list[float | None]] | None:
    """p[a][b] = the system's p(side a ahead of side b) for every ordered pair (the diagonal
    None), or None where the system defines no pair probability. Both p(a, b) and p(b, a) are
    the system's own numbers (their sum is 1 up to rounding)."""
    n = len(sides)
    p: list[list[float | None]] = [[None] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            if a != b:
                value = rater.side_win_probability(sides[a], sides[b])
                if value is None:
                    return None
                p[a][b] = value
    return p


def luce(p: Sequence[Sequence[float | None]], side: int) -> float:
    """The chance that ``side`` finishes first alone, by Luce's choice rule over its pairwise
    odds: P_i = 1 / (1 + sum_j (1 - p_ij) / p_ij), which is p_ij itself for two sides
    (R. D. Luce, *Individual Choice Behavior*, 1959)."""
    odds_against = 0.0
    for other, value in enumerate(p[side]):
        if other == side:
            continue
        assert value is not None
        if value <= 0.0:
            return 0.0
        odds_against += (1.0 - value) / value
    return 1.0 / (1.0 + odds_against)


def quality(rater: Predictor, sides: Sequence[Sequence[PlayerState]]) -> float | None:
    """The quality of a game of ``sides`` (module docstring), None where the system defines
    no pair probability."""
    own = rater.match_quality(sides)
    if own is not None:
        return own
    least: float | None = None
    for a in range(len(sides)):
        for b in range(a + 1, len(sides)):
            p = rater.side_win_probability(sides[a], sides[b])
            if p is None:
                return None
            value = evenness(p)
            least = value if least is None else min(least, value)
    return least


@dataclass(frozen=True, slots=True)
class Split:
    """A split of the players into sides (player indices, as :data:`SplitKey`), its quality
    and, under the ``spread`` policy, its stacking (module docstring; 0 otherwise)."""

    sides: SplitKey
    quality: float
    stacking: int = 0

    @property
    def rank(self) -> tuple[int, float, SplitKey]:
        """Better splits first: least stacking, then highest quality, then by sides."""
        return (self.stacking, -self.quality, self.sides)


@dataclass(frozen=True, slots=True)
class Balance:
    """The best split, the next best ones, and whether the search was exhaustive."""

    best: Split
    alternatives: tuple[Split, ...]
    exact: bool


def side_sizes(players: int, teams: int) -> tuple[int, int, int]:
    """(smaller size, larger size, how many sides have the larger size) for ``players`` in
    ``teams`` sides whose sizes differ by at most one."""
    small, larger = divmod(players, teams)
    return small, small + 1 if larger else small, larger


class _Best:
    """The best splits found so far, at most ``1 + MAX_ALTERNATIVES``, best first; equal
    qualities by key."""

    def __init__(self) -> None:
        self.splits: list[Split] = []
        self.keys: set[SplitKey] = set()

    @property
    def full(self) -> bool:
        return len(self.splits) > MAX_ALTERNATIVES

    def excludes(self, stacking: int, quality: float) -> bool:
        """Whether no split of at least ``stacking`` and at most ``quality`` can enter (only
        once full)."""
        worst = self.splits[-1]
        return self.full and (stacking, -quality) > (worst.stacking, -worst.quality)

    def offer(self, split: Split) -> None:
        if split.sides in self.keys:
            return
        if self.full and split.rank >= self.splits[-1].rank:
            return
        self.splits.append(split)
        self.keys.add(split.sides)
        self.splits.sort(key=lambda s: s.rank)
        while len(self.splits) > MAX_ALTERNATIVES + 1:
            self.keys.discard(self.splits.pop().sides)


class _OverBudget(Exception):
    """The search's evaluations reached its budget."""


@dataclass(slots=True)
class _Problem:
    """A balance problem: the units (parties, and single players as parties of one) in a
    fixed order, how to score sides, and the evaluations spent on it against ``budget``."""

    states: Sequence[PlayerState]
    units: tuple[tuple[int, ...], ...]
    teams: int
    rater: Predictor
    budget: int = 0
    spent: int = 0
    spread: bool = True

    def premades(self, side: Sequence[int]) -> int:
        """The players of a side (its units) who are in a party of two or more."""
        return sum(len(self.units[u]) for u in side if len(self.units[u]) > 1)

    def stacking(self, counts: Sequence[int]) -> int:
        """The stacking of sides holding ``counts`` premades (0 under ``together``)."""
        return max(counts) - min(counts) if self.spread and counts else 0

    def members(self, units: Sequence[int]) -> list[PlayerState]:
        """The states of a side's players, in player order (so that a split's quality is
        computed from the same operands in the same order however it was found)."""
        return [self.states[i] for i in sorted(i for u in units for i in self.units[u])]

    def size(self, units: Sequence[int]) -> int:
        return sum(len(self.units[u]) for u in units)

    def key(self, sides: Sequence[Sequence[int]]) -> SplitKey:
        return tuple(
            sorted(tuple(sorted(i for u in side for i in self.units[u])) for side in sides)
        )

    def quality(self, sides: Sequence[Sequence[int]]) -> float:
        """The quality of a split, its sides taken in key order."""
        return self.quality_of([[self.states[i] for i in side] for side in self.key(sides)])

    def quality_of(self, sides: Sequence[Sequence[PlayerState]]) -> float:
        """The quality of sides given by their members; raises _OverBudget once the search
        has spent its budget."""
        if self.spent >= self.budget:
            raise _OverBudget
        self.spent += (len(sides) - 1) * sum(len(side) for side in sides)
        value = quality(self.rater, sides)
        if value is None:
            raise InvalidEvent(
                ("ladder",), "the ladder's system defines no win probability to balance sides by"
            )
        return value

    def split(self, sides: Sequence[Sequence[int]]) -> Split:
        stacking = self.stacking([self.premades(side) for side in sides])
        return Split(self.key(sides), self.quality(sides), stacking)

    def sizes_fit(self, sizes: Sequence[int]) -> bool:
        small, large, larger = side_sizes(len(self.states), self.teams)
        return all(s in (small, large) for s in sizes) and (
            small == large or sum(s == large for s in sizes) == larger
        )


def balance(
    states: Sequence[PlayerState],
    teams: int,
    parties: Sequence[Sequence[int]],
    rater: Predictor,
    check: Check = _nothing,
    policy: str = SPREAD,
) -> Balance:
    """The most even split of ``states`` (players by index) into ``teams`` sides whose sizes
    differ by at most one, each of ``parties`` (lists of player indices, disjoint) on one
    side, under the party ``policy`` (module docstring).

    Raises InvalidEvent (``teams``, ``parties``) when no such split exists, and on
    ``ladder`` when the system defines no win probability. ``check`` is called now and then
    and may raise to abandon the search.
    """
    n = len(states)
    if not 2 <= teams <= n:
        raise InvalidEvent(("teams",), f"must be between 2 and the number of players ({n})")
    large = side_sizes(n, teams)[1]
    in_party: set[int] = set()
    for index, party in enumerate(parties):
        if len(party) > large:
            raise InvalidEvent(
                ("parties", index),
                f"a party of {len(party)} players cannot be on one side: {n} players in "
                f"{teams} sides make sides of at most {large}",
            )
        if any(not 0 <= i < n for i in party):
            raise InvalidEvent(("parties", index), f"names a player outside the {n} given")
        overlap = in_party.intersection(party)
        if overlap or len(set(party)) != len(party):
            raise InvalidEvent(("parties", index), "a player may be in one party only, once")
        in_party.update(party)
    units = tuple(
        sorted(
            [tuple(sorted(party)) for party in parties if party]
            + [(i,) for i in range(n) if i not in in_party]
        )
    )
    problem = _Problem(states, units, teams, rater, budget=MAX_EXACT_WORK, spread=policy == SPREAD)
    best = _Best()
    seed = _greedy(problem)
    if seed is not None:
        best.offer(problem.split(seed))
    exact = n <= EXACT_PLAYERS
    if exact:
        try:
            _exhaustive(problem, best, check)
        except _OverBudget:
            exact = False
    if not exact:
        if seed is None:
            raise _no_split(problem)
        problem.budget, problem.spent = MAX_SEARCH_WORK, 0
        # Over budget, the best splits found so far stand.
        with suppress(_OverBudget):
            _local_search(problem, seed, best, check)
    if not best.splits:
        raise _no_split(problem)
    return Balance(best.splits[0], tuple(best.splits[1:]), exact)


def _no_split(problem: _Problem) -> InvalidEvent:
    small, large, _ = side_sizes(len(problem.states), problem.teams)
    sizes = f"{small}" if small == large else f"{small} or {large}"
    return InvalidEvent(
        ("parties",),
        f"the parties cannot be placed in {problem.teams} sides of {sizes} players each "
        "without splitting one",
    )


def _greedy(problem: _Problem) -> list[list[int]] | None:
    """The greedy split (module docstring), or None when its placement of the parties leaves
    no room for one of them."""
    small, large, larger = side_sizes(len(problem.states), problem.teams)
    capacity = [large] * larger + [small] * (problem.teams - larger)
    sides: list[list[int]] = [[] for _ in range(problem.teams)]
    room = list(capacity)
    totals = [0.0] * problem.teams
    parties = [u for u, unit in enumerate(problem.units) if len(unit) > 1]
    singles = [u for u, unit in enumerate(problem.units) if len(unit) == 1]
    parties.sort(key=lambda u: (-len(problem.units[u]), -_rating(problem, u), u))
    singles.sort(key=lambda u: (-_rating(problem, u), u))
    for u in parties + singles:
        size = len(problem.units[u])
        open_sides = [s for s in range(problem.teams) if room[s] >= size]
        if not open_sides:
            return None
        if size > 1:
            side = max(open_sides, key=lambda s: (room[s], -s))
        else:
            side = min(open_sides, key=lambda s: (totals[s], s))
        sides[side].append(u)
        room[side] -= size
        totals[side] += _rating(problem, u) * size
    return sides


def _rating(problem: _Problem, unit: int) -> float:
    return fmean([problem.states[i].rating for i in problem.units[unit]])


def _exhaustive(problem: _Problem, best: _Best, check: Check) -> None:
    """Every split once, sides filled one after the other, each holding the first unit not
    yet placed; partial splits whose completed sides hold a pair below the fourth best are
    not completed (module docstring)."""
    small, large, larger = side_sizes(len(problem.states), problem.teams)
    teams = problem.teams
    # Sides are filled in key order (each holds the first player left), their members in
    # player order, so bounds and qualities are computed exactly as _Problem.quality does.
    # Whether the quality of a split is the least of its pairs' (the bound is then exact);
    # known at the first complete split.
    pairwise: list[bool] = []
    completed = 0

    def bounded(
        bound: float, sides: Sequence[list[PlayerState]], side: list[PlayerState], stacking: int
    ) -> float | None:
        """``bound`` lowered to the quality of ``side`` with each of ``sides`` (their
        members); None once nothing completing them can enter: the bound falls below the
        fourth best split, or their ``stacking`` (which more sides only raise) exceeds its."""
        if best.full and best.excludes(stacking, bound):
            return None
        for other in sides:
            bound = min(bound, problem.quality_of([other, side]))
            if best.full and best.excludes(stacking, bound):
                return None
        return bound

    def leaf(sides: list[list[int]], bound: float, stacking: int) -> None:
        nonlocal completed
        if not pairwise:
            own = problem.rater.match_quality([problem.members(side) for side in sides])
            pairwise.append(own is None)
        exact = pairwise[0] or teams == 2
        value = bound if exact else problem.quality(sides)
        best.offer(Split(problem.key(sides), value, stacking))
        completed += 1
        if completed % CHECK_EVERY == 0:
            check()

    def fill(
        sides: list[list[int]],
        members: list[list[PlayerState]],
        premades: list[int],
        remaining: list[int],
        bound: float,
        large_left: int,
    ) -> None:
        if len(sides) == teams - 1:
            # The sizes chosen so far leave the last side exactly its size.
            stacking = problem.stacking([*premades, problem.premades(remaining)])
            last = bounded(bound, members, problem.members(remaining), stacking)
            if last is not None:
                leaf([*sides, remaining], last, stacking)
            return
        anchor, rest = remaining[0], remaining[1:]
        sides_left = teams - len(sides)
        targets = []
        if large_left > 0:
            targets.append(large)
        if sides_left > large_left and small != large:
            targets.append(small)
        for target in targets:
            for chosen in _subsets(problem, rest, target - len(problem.units[anchor])):
                if not sides:
                    check()
                side = [anchor, *chosen]
                side_members = problem.members(side)
                counts = [*premades, problem.premades(side)]
                value = bounded(bound, members, side_members, problem.stacking(counts))
                if value is None:
                    continue
                taken = set(chosen)
                left = [u for u in rest if u not in taken]
                fill(
                    [*sides, side],
                    [*members, side_members],
                    counts,
                    left,
                    value,
                    large_left - (target == large),
                )

    # With equal sizes every side is "large": large_left counts all of them.
    fill([], [], [], list(range(len(problem.units))), 1.0, larger if small != large else teams)


def _subsets(problem: _Problem, units: Sequence[int], need: int) -> Iterator[list[int]]:
    """The subsets of ``units`` whose players number exactly ``need``, in a fixed order:
    each choice of the parties among them that fits, completed by every combination of the
    single players."""
    singles = [u for u in units if len(problem.units[u]) == 1]
    parties = [u for u in units if len(problem.units[u]) > 1]
    for how_many in range(len(parties) + 1):
        for chosen in combinations(parties, how_many):
            rest = need - problem.size(chosen)
            if 0 <= rest <= len(singles):
                for others in combinations(singles, rest):
                    yield [*chosen, *others]


def _local_search(problem: _Problem, start: list[list[int]], best: _Best, check: Check) -> None:
    """Iterated first-improvement local search from ``start`` (module docstring), until the
    problem's budget is spent (_OverBudget) or no step is left to try. Every split evaluated
    is offered to ``best``.

    A descent: each round orders the pairs of sides from the least even (by the quality of
    the two alone) and tries the steps between the sides of each pair in turn (swaps of two
    units of equal size, moves of a single player that keep the sizes), from where the last
    improving step was found; the first step that improves the split's quality is taken. The
    least even pair first: under the least-even-pair quality only a step that evens that pair
    can improve the split, and under TrueSkill's it is where the most is to gain. At a split
    no step improves, :data:`KICK_STEPS` steps drawn by a seeded generator (so the search is
    deterministic) move it elsewhere, and the descent starts again from there."""
    draw = Random(KICK_SEED)
    current = [list(side) for side in start]
    current_split = problem.split(current)
    teams = len(current)
    offset = 0
    while True:
        check()
        pairs = list(combinations(range(teams), 2))
        if teams > 2:
            members = [problem.members(side) for side in current]
            evenness_of = {(a, b): problem.quality_of([members[a], members[b]]) for a, b in pairs}
            pairs.sort(key=lambda pair: (evenness_of[pair], pair))
        improved = False
        for a, b in pairs:
            steps = _steps(problem, current, a, b)
            for n in range(len(steps)):
                step = steps[(offset + n) % len(steps)]
                candidate = _apply(current, step)
                split = problem.split(candidate)
                best.offer(split)
                if split.rank[:2] < current_split.rank[:2]:
                    current, current_split = candidate, split
                    offset = (offset + n) % len(steps)
                    improved = True
                    break
            if improved:
                break
        if not improved:
            kicked = _kick(problem, current, draw)
            if kicked is None:
                return
            current = kicked
            current_split = problem.split(current)
            best.offer(current_split)


#: Steps of a kick (a few: enough to leave the local optimum's neighbourhood, not so many
#: that the search starts from nowhere) and the generator's seed (any fixed value).
KICK_STEPS = 3
KICK_SEED = 20


def _kick(problem: _Problem, sides: list[list[int]], draw: Random) -> list[list[int]] | None:
    """``sides`` after KICK_STEPS steps between random pairs of sides, or None when there is
    no step at all (every side a single party)."""
    moved = sides
    for _ in range(KICK_STEPS):
        a, b = sorted(draw.sample(range(len(moved)), 2))
        steps = _steps(problem, moved, a, b)
        if not steps:
            steps = [
                step
                for x, y in combinations(range(len(moved)), 2)
                for step in _steps(problem, moved, x, y)
            ]
            if not steps:
                return None
        moved = _apply(moved, steps[draw.randrange(len(steps))])
    return moved


SWAP = "swap"
MOVE = "move"
#: A step of the local search: (SWAP, side a, index in a, side b, index in b) or (MOVE,
#: from side, index in it, to side, 0).
Step = tuple[str, int, int, int, int]


def _steps(problem: _Problem, sides: list[list[int]], a: int, b: int) -> list[Step]:
    """Every swap of two units of equal size between sides ``a`` and ``b``, then every move of
    a single player from one to the other that keeps the sizes, in a fixed order."""
    steps: list[Step] = [
        (SWAP, a, i, b, j)
        for i, u in enumerate(sides[a])
        for j, v in enumerate(sides[b])
        if len(problem.units[u]) == len(problem.units[v])
    ]
    sizes = [problem.size(side) for side in sides]
    for source, target in ((a, b), (b, a)):
        moved = list(sizes)
        moved[source] -= 1
        moved[target] += 1
        if problem.sizes_fit(moved):
            steps.extend(
                (MOVE, source, i, target, 0)
                for i, u in enumerate(sides[source])
                if len(problem.units[u]) == 1
            )
    return steps


def _apply(sides: list[list[int]], step: Step) -> list[list[int]]:
    """``sides`` after ``step`` (a new list; ``sides`` is left as it is)."""
    kind, a, i, b, j = step
    result = [list(side) for side in sides]
    if kind == SWAP:
        result[a][i], result[b][j] = sides[b][j], sides[a][i]
    else:
        result[b].append(result[a].pop(i))
    return result
