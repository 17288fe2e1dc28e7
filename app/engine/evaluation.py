"""How well a system predicts a ladder's history (SYSTEMS.md "Evaluation").

Two steps, both pure:

* :func:`predictions` replays a history with :func:`app.engine.ledger.replay` (the replay of
  recomputation and what-if) and, before each rated game is handed to the replay, predicts
  every counted pair of its sides from the states the replay will rate it from:
  ``(p, s)`` with p = ``rater.side_win_probability(a, b)`` and s = 1 / ½ / 0 by the sides'
  ranks, a before b in the game's input order.
* :func:`score` turns the pairs of each counted game into the metrics: per game the mean over
  its pairs, then the mean over games, for the log loss (p clipped to [1e-6, 1 - 1e-6]), the
  Brier score and the accuracy; and the ten calibration bins, each pair entering as (p, s)
  and as (1 - p, 1 - s). The baseline p = ½ is scored over the same pairs.

Every sum is exact until it is read (:class:`_ExactSum`, rounded once by ``math.fsum``), and
every mean is that one rounded sum divided once by its count: the metrics do not depend on
the order of the additions, so any implementation that sums exactly gives the same digits.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from app.engine.errors import NonFiniteResult, arithmetic_refused
from app.engine.ledger import PLAYERS, replay
from app.engine.protocols import Fit, GameRater, SystemInfo, WholeHistoryRater, key_for
from app.engine.ranked import Timed
from app.engine.types import Game, Json, LadderEvent, PlayerKey, PlayerState

#: One prediction of a pair of sides: (p, s), p = p(a ahead of b), s = 1 / ½ / 0.
Pair = tuple[float, float]

#: SYSTEMS.md "Evaluation": the log loss reads p clipped to [CLIP, 1 - CLIP], so a certain
#: prediction that fails costs -ln(1e-6) ≈ 13.8 rather than an infinite loss.
CLIP = 1e-6
_HIGHEST = 1.0 - CLIP
#: The trivial predictor every candidate must beat (SYSTEMS.md "Evaluation": the baseline).
EVEN = 0.5
#: s of a pair: a finished ahead of b, level with it, behind it.
AHEAD = 1.0
LEVEL = 0.5
BEHIND = 0.0
#: SYSTEMS.md "Evaluation": ten calibration bins [0, 0.1), ..., [0.8, 0.9), [0.9, 1].
BINS = 10
#: The bins' bounds: k / 10 as the nearest double (0.3 is the double 0.3, as a client writes
#: it); a p equal to a bound falls in the bin above it, 1 in the last.
BOUNDS: tuple[float, ...] = tuple(k / BINS for k in range(BINS + 1))
_INNER_BOUNDS = BOUNDS[1:-1]
#: Terms an exact sum keeps before it is compacted (memory per sum stays bounded, whatever
#: the history's length: a 100-player game alone brings 9,900 calibration entries).
COMPACT_AFTER = 4_096


@dataclass(frozen=True, slots=True)
class CalibrationBin:
    """One bin of predicted probabilities: how many entries, their mean p and mean s
    (None for an empty bin)."""

    low: float
    high: float
    count: int
    predicted: float | None
    observed: float | None


@dataclass(frozen=True, slots=True)
class Metrics:
    """SYSTEMS.md "Evaluation" of one predictor over one history. The means are None when
    no game counted (``accuracy``: when no counted game had a decisive pair)."""

    games: int
    pairs: int
    log_loss: float | None
    brier: float | None
    accuracy: float | None
    calibration: tuple[CalibrationBin, ...]


@dataclass(frozen=True, slots=True)
class Scores:
    """A candidate's metrics, and the baseline's (p = ½) over the same pairs (None when it
    was not asked for)."""

    candidate: Metrics
    baseline: Metrics | None


def pair_outcome(rank_a: int, rank_b: int) -> float:
    """s of a pair of sides: 1 if a's rank is better (lower), ½ if equal, 0 if worse."""
    if rank_a < rank_b:
        return AHEAD
    if rank_a > rank_b:
        return BEHIND
    return LEVEL


def log_loss(p: float, s: float) -> float:
    """-(s ln p̂ + (1 - s) ln(1 - p̂)), p̂ = p clipped to [CLIP, 1 - CLIP] (the logarithmic
    scoring rule; SYSTEMS.md "Evaluation")."""
    clipped = min(max(p, CLIP), _HIGHEST)
    return -(s * math.log(clipped) + (1.0 - s) * math.log(1.0 - clipped))


def brier(p: float, s: float) -> float:
    """(p - s)², Brier's score of one forecast (G. W. Brier, "Verification of forecasts
    expressed in terms of probability", Monthly Weather Review 78, 1950)."""
    d = p - s
    return d * d


def hit(p: float, s: float) -> float:
    """Of a decisive pair (s ≠ ½): 1 if the favoured side (p > ½ favours a) finished ahead,
    ½ if neither is favoured (p = ½), 0 otherwise."""
    if p == EVEN:
        return LEVEL
    return 1.0 if (p > EVEN) == (s == AHEAD) else 0.0


def bin_of(p: float) -> int:
    """The calibration bin of p in [0, 1]: k with BOUNDS[k] <= p < BOUNDS[k + 1], 1 in the
    last bin."""
    return bisect.bisect_right(_INNER_BOUNDS, p)


class _ExactSum:
    """A sum of floats kept exact until it is read.

    The terms are kept and ``math.fsum`` rounds their exact sum once (Shewchuk's algorithm,
    "Adaptive precision floating-point arithmetic", 1997). Past :data:`COMPACT_AFTER` terms they
    are replaced by a few floats of exactly the same sum (:func:`_compacted`), so memory
    stays bounded. Private to one :func:`score`, which owns it.
    """

    __slots__ = ("terms",)

    def __init__(self) -> None:
        self.terms: list[float] = []

    def compact(self) -> None:
        if len(self.terms) > COMPACT_AFTER:
            self.terms = _compacted(self.terms)

    def value(self) -> float:
        return math.fsum(self.terms)


def _compacted(terms: list[float]) -> list[float]:
    """Floats whose exact sum is exactly that of ``terms``: the rounded sum, then the rounded
    remainders until none is left (each takes 53 more bits of the exact sum, so there are
    a handful, at most about 40 for sums spanning the whole double range)."""
    rest = list(terms)
    parts: list[float] = []
    while (part := math.fsum(rest)) != 0.0:
        parts.append(part)
        rest.append(-part)
    return parts


class _Tally:
    """The running sums of one predictor's metrics (private to :func:`score`)."""

    __slots__ = (
        "bins",
        "brier",
        "decisive",
        "entries",
        "games",
        "halves",
        "hits",
        "log_loss",
        "pairs",
    )

    def __init__(self) -> None:
        self.games = 0
        self.pairs = 0
        self.log_loss = _ExactSum()
        self.brier = _ExactSum()
        self.hits = _ExactSum()
        #: Games with a decisive counted pair (the accuracy's count).
        self.decisive = 0
        #: Per bin: the sum of its p, and its s counted in halves (s is 0, ½ or 1, so an
        #: integer holds the sum exactly).
        self.bins = [_ExactSum() for _ in range(BINS)]
        self.halves = [0] * BINS
        self.entries = [0] * BINS

    def add(self, pairs: Sequence[Pair], times: int = 1) -> None:
        """One counted game (``times`` such games): its per-pair terms, and its means as
        the game's values."""
        bins, halves, entries = self.bins, self.halves, self.entries
        for p, s in pairs:
            twice = int(s + s)  # 2s, and 2(1 - s) = 2 - 2s for the mirrored entry
            k, m = bin_of(p), bin_of(1.0 - p)
            if times == 1:
                bins[k].terms.append(p)
                bins[m].terms.append(1.0 - p)
            else:
                bins[k].terms.extend([p] * times)
                bins[m].terms.extend([1.0 - p] * times)
            halves[k] += twice * times
            halves[m] += (2 - twice) * times
            entries[k] += times
            entries[m] += times
        n = len(pairs)
        self.games += times
        self.pairs += n * times
        accuracy: float | None  # None: no decisive pair
        if n == 1:  # a duel: the game's means are its one pair's terms (most games)
            p, s = pairs[0]
            loss, square = log_loss(p, s), brier(p, s)
            accuracy = hit(p, s) if s != LEVEL else None
        else:
            loss = math.fsum([log_loss(p, s) for p, s in pairs]) / n
            square = math.fsum([brier(p, s) for p, s in pairs]) / n
            hits = [hit(p, s) for p, s in pairs if s != LEVEL]
            accuracy = math.fsum(hits) / len(hits) if hits else None
        if times == 1:
            self.log_loss.terms.append(loss)
            self.brier.terms.append(square)
            if accuracy is not None:
                self.decisive += 1
                self.hits.terms.append(accuracy)
        else:
            self.log_loss.terms.extend([loss] * times)
            self.brier.terms.extend([square] * times)
            if accuracy is not None:
                self.decisive += times
                self.hits.terms.extend([accuracy] * times)

    def compact(self) -> None:
        for total in (self.log_loss, self.brier, self.hits, *self.bins):
            total.compact()

    def metrics(self) -> Metrics:
        games = self.games
        calibration = tuple(
            CalibrationBin(
                low=BOUNDS[k],
                high=BOUNDS[k + 1],
                count=self.entries[k],
                predicted=self.bins[k].value() / self.entries[k] if self.entries[k] else None,
                # The exact sum of s over the bin is halves / 2: one rounding of the mean.
                observed=self.halves[k] / (2 * self.entries[k]) if self.entries[k] else None,
            )
            for k in range(BINS)
        )
        return Metrics(
            games=games,
            pairs=self.pairs,
            log_loss=self.log_loss.value() / games if games else None,
            brier=self.brier.value() / games if games else None,
            accuracy=self.hits.value() / self.decisive if self.decisive else None,
            calibration=calibration,
        )


#: A tally adds entries between two compactions at most about this many (a check per game).
_ENTRIES_PER_COMPACTION = COMPACT_AFTER // 2


def score(games: Iterable[Sequence[Pair]], *, baseline: bool = True) -> Scores:
    """The metrics of the counted games' pairs (each game a non-empty sequence of pairs),
    and those of p = ½ over the same pairs (SYSTEMS.md "Evaluation"; ``baseline`` False
    leaves them out, as a tuning does, and ``Scores.baseline`` is None).

    The baseline's terms depend only on each game's outcomes (the s of its pairs), so its
    games are tallied once per distinct outcomes, times their number: the same exact sums
    as one by one, without a second pass over every pair."""
    candidate = _Tally()
    outcomes: Counter[tuple[float, ...]] = Counter()
    since_compaction = 0
    for pairs in games:
        candidate.add(pairs)
        if baseline:
            outcomes[tuple([s for _, s in pairs])] += 1
        since_compaction += len(pairs)
        if since_compaction >= _ENTRIES_PER_COMPACTION:
            candidate.compact()
            since_compaction = 0
    if not baseline:
        return Scores(candidate.metrics(), None)
    even = _Tally()
    for game, times in outcomes.items():
        even.add([(EVEN, s) for s in game], times)
        even.compact()
    return Scores(candidate.metrics(), even.metrics())


def predictions(
    info: SystemInfo,
    rater: GameRater,
    events: Iterable[LadderEvent],
    *,
    min_games: int = 0,
    start: datetime | None = None,
    end: datetime | None = None,
    ladder_state: Mapping[str, Json] | None = None,
) -> Iterator[tuple[Pair, ...]]:
    """The counted pairs of each counted game of ``events`` replayed from an empty ladder
    (SYSTEMS.md "Evaluation"), one tuple per counted game, in history order.

    Each game is predicted before the replay rates it, from the states the replay holds at
    that point (a key not seen yet: the rater's initial state, as the replay starts it).
    Every event is replayed, adjustments and unrated games included; only rated games with
    ``played_at`` in [``start``, ``end``] are scored. A pair counts when every player of both
    sides had at least ``min_games`` rated games before this one (counted per player, not per
    rating: the counted pairs are the history's, the same for every candidate).
    """
    states: dict[PlayerKey, PlayerState] = {}
    #: Rated games per player so far (kept only when min_games asks for them).
    played: dict[str, int] | None = {} if min_games > 0 else None
    current = [rater.initial_ladder_state() if ladder_state is None else ladder_state]
    #: The pairs of the game being rated, predicted before the replay rates it.
    predicted: list[tuple[Pair, ...]] = []

    windowed = start is not None or end is not None

    def fed() -> Iterator[LadderEvent]:
        # A system's arithmetic failing in a prediction is the game's refusal, as in a
        # rating (once around the loop: the events themselves raise no arithmetic error).
        with arithmetic_refused(PLAYERS):
            for event in events:
                if (
                    isinstance(event, Game)
                    and event.rated
                    and (not windowed or _in_window(event, start, end))
                ):
                    pairs = _predict(info, rater, event, states, current[0], played, min_games)
                    if pairs:
                        predicted.append(pairs)
                yield event

    for step in replay(info, rater, fed(), None, current[0]):
        outcome = step.outcome
        for change in outcome.changes:
            states[change.key] = change.after
        current[0] = outcome.ladder_state
        event = step.event
        if played is not None and isinstance(event, Game) and event.rated:
            for participant in event.participants:
                played[participant.player] = played.get(participant.player, 0) + 1
        if predicted:
            yield predicted.pop()


def whole_history_predictions(
    info: SystemInfo,
    rater: WholeHistoryRater,
    events: Iterable[LadderEvent],
    *,
    min_games: int = 0,
    start: datetime | None = None,
    end: datetime | None = None,
) -> Iterator[tuple[Pair, ...]]:
    """:func:`predictions` for a whole-history system (``ttt``, ``whr``), without leaking
    the future: each game is predicted from a fit of the games before it only, the served
    states of that fit (each player's last curve point; a new player: the initial state).

    That fit is kept up to date by the engine's bounded ``add_game`` after each game and
    refitted in full, warm, whenever the history has doubled since the last full fit (after
    1, 2, 4, 8, ... games): never a game after the predicted one, and the full fits cost
    about twice one fit of the whole history. Unrated games and adjustments are not part of
    a whole-history fit (the service refuses adjustments on these systems).
    """
    games: list[Game] = []
    fit: Fit = rater.fit(games)
    states: dict[PlayerKey, PlayerState] = {}
    played: dict[str, int] | None = {} if min_games > 0 else None
    ladder_state = rater.initial_ladder_state()
    windowed = start is not None or end is not None
    refit_at = 1
    keys: Iterable[PlayerKey]
    with arithmetic_refused(PLAYERS):
        for event in events:
            if not (isinstance(event, Game) and event.rated):
                continue
            if not windowed or _in_window(event, start, end):
                pairs = _predict(
                    info, cast(GameRater, rater), event, states, ladder_state, played, min_games
                )
                if pairs:
                    yield pairs
            games.append(event)
            if len(games) >= refit_at:
                fit = rater.fit(games, fit)
                refit_at = 2 * len(games)
                keys = fit.curves.keys()
            else:
                fit = rater.add_game(fit, event)
                keys = [key_for(info, p.player, p.faction) for p in event.participants]
            for key in keys:
                curve = fit.curves.get(key)
                if curve:
                    states[key] = rater.state_of(curve[-1])
            if played is not None:
                for participant in event.participants:
                    played[participant.player] = played.get(participant.player, 0) + 1


def _in_window(game: Game, start: datetime | None, end: datetime | None) -> bool:
    at = game.played_at
    return (start is None or at >= start) and (end is None or at <= end)


def _predict(
    info: SystemInfo,
    rater: GameRater,
    game: Game,
    states: dict[PlayerKey, PlayerState],
    ladder_state: Mapping[str, Json],
    played: dict[str, int] | None,
    min_games: int,
) -> tuple[Pair, ...]:
    """The counted pairs of ``game`` from ``states`` (before the game is rated): its sides
    in input order (a free-for-all: each participant a side of its own), each with its rank,
    its members' states, and whether all its players had ``min_games`` rated games."""
    participants = game.participants
    per_faction = info.per_faction
    known = states.get
    initial: PlayerState | None = None
    before: list[PlayerState] = []
    # A ladder whose states read differently with time (a season's reset, decay) predicts
    # from the states its next game starts from: the stored ones read at the game's time.
    read = rater.at if isinstance(rater, Timed) else None
    for member in participants:
        state = known(PlayerKey(member.player, member.faction if per_faction else None))
        if state is None:
            if initial is None:
                initial = rater.initial_state(ladder_state)
            state = initial
        elif read is not None:
            state = read(state, game.played_at)
        before.append(state)
    if played is None and len(participants) == 2:
        a, b = participants
        if a.team is None and b.team is None:
            # A duel, most games: its one pair, without the general path's lists.
            return (
                (
                    _probability(info, rater, (before[0],), (before[1],)),
                    pair_outcome(a.rank, b.rank),
                ),
            )
    ranks: list[int]
    members: list[tuple[PlayerState, ...]]
    #: Whether each side's players all had min_games rated games (None: every side counts).
    counted: list[bool] | None = None
    if game.has_teams:
        sides = game.sides
        ranks = [side.rank for side in sides]
        members = [tuple(before[i] for i in side.indices) for side in sides]
        if played is not None:
            counted = [
                all(played.get(participants[i].player, 0) >= min_games for i in side.indices)
                for side in sides
            ]
    else:
        ranks = [member.rank for member in participants]
        members = [(state,) for state in before]
        if played is not None:
            counted = [played.get(member.player, 0) >= min_games for member in participants]
    pairs: list[Pair] = []
    count = len(ranks)
    for i in range(count):
        if counted is not None and not counted[i]:
            continue
        for j in range(i + 1, count):
            if counted is None or counted[j]:
                p = _probability(info, rater, members[i], members[j])
                pairs.append((p, pair_outcome(ranks[i], ranks[j])))
    return tuple(pairs)


def _probability(
    info: SystemInfo,
    rater: GameRater,
    side: tuple[PlayerState, ...],
    other: tuple[PlayerState, ...],
) -> float:
    """p(``side`` ahead of ``other``), which must be a probability."""
    p = rater.side_win_probability(side, other)
    if p is None or not 0.0 <= p <= 1.0:
        raise NonFiniteResult(
            (PLAYERS,),
            f"system {info.id!r} gives no win probability in [0, 1] for these sides (got {p!r})",
        )
    return p
