"""Value types shared by every rating system.

All are frozen; a system never mutates its inputs and returns new values instead.
Mappings held by these types are read-only by contract (systems build fresh dicts).
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, field
from datetime import date, datetime
from types import MappingProxyType
from typing import Any, NamedTuple

#: A JSON value (what details, extras and parameters may hold).
Json = Any

EMPTY: Mapping[str, Json] = MappingProxyType({})


def frozen(mapping: Mapping[str, Json] | None = None) -> Mapping[str, Json]:
    """A read-only view of ``mapping`` (a copy, so later changes to the source do not leak)."""
    return MappingProxyType(dict(mapping or {}))


class Details(Mapping[str, Json]):
    """A change's ``details``, rendered from the terms a system kept the first time they are
    read.

    The details of a change are a pure function of the event, the states before it and the
    ladder's parameters (issue 21), so a replay that never reads them (a what-if, the final
    states of a history) need not build their dicts: a system keeps the numbers it computed
    anyway (``terms``) and ``render(*terms)`` builds the same dict from them on the first read.
    ``render`` must return a fresh dict of JSON values and be pure; it runs at most once per
    change (two threads reading at once may both run it, and keep equal dicts). Read-only like
    every mapping here: a reader sees a Mapping, equal to the dict it renders.
    """

    __slots__ = ("_render", "_rendered", "_terms")

    def __init__(self, render: Callable[..., dict[str, Json]], *terms: Any) -> None:
        self._render = render
        self._terms = terms
        self._rendered: dict[str, Json] | None = None

    def _dict(self) -> dict[str, Json]:
        rendered = self._rendered
        if rendered is None:
            rendered = self._rendered = self._render(*self._terms)
        return rendered

    def __getitem__(self, key: str) -> Json:
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __contains__(self, key: object) -> bool:
        return key in self._dict()

    def keys(self) -> KeysView[str]:
        return self._dict().keys()

    def items(self) -> ItemsView[str, Json]:
        return self._dict().items()

    def values(self) -> ValuesView[Json]:
        return self._dict().values()

    def __repr__(self) -> str:
        return f"Details({self._dict()!r})"


class PlayerKey(NamedTuple):
    """Who a rating belongs to: a player, and on per-faction ladders one of its factions.

    Immutable like the dataclasses here, but a named tuple: it keys every dict of a replay,
    and a tuple's hash and equality run in C (a frozen dataclass's are Python methods, which
    took about a tenth of a Glicko-2 replay).
    """

    player: str
    faction: str | None = None


@dataclass(frozen=True, slots=True, init=False)
class PlayerState:
    """A player's rating state after some prefix of the ladder's history.

    ``rating`` is the headline number. ``deviation``/``volatility`` are used by the Glicko
    family. ``extra`` holds system-specific JSON state (for example an open Glicko rating
    period, NADF solos, a DAANZ classification); it is stored and handed back verbatim.
    """

    rating: float
    deviation: float | None = None
    volatility: float | None = None
    extra: Mapping[str, Json] = field(default_factory=lambda: EMPTY)

    def __init__(
        self,
        rating: float,
        deviation: float | None = None,
        volatility: float | None = None,
        extra: Mapping[str, Json] = EMPTY,
    ) -> None:
        # The generated __init__ of a frozen dataclass stores each field through
        # object.__setattr__; the slots' own descriptors store the same values in about half
        # the time (one state per player of every replayed game; see _slot_setters).
        set_rating, set_deviation, set_volatility, set_extra = _STATE_SETTERS
        set_rating(self, rating)
        set_deviation(self, deviation)
        set_volatility(self, volatility)
        set_extra(self, extra)


@dataclass(frozen=True, slots=True)
class Standing:
    """What leaderboards show for a state."""

    rating: float
    deviation: float | None = None
    volatility: float | None = None
    #: A conservative display value where the system defines one (NAF Glicko: mu - 2.5 phi).
    ranking_value: float | None = None
    #: Second sort key where equal ratings are split (Kinzett: secondary points).
    tiebreak: float | None = None


@dataclass(frozen=True, slots=True)
class EventContext:
    """The event a game belongs to (NAF K-value: number of coaches and whether it is a major)."""

    id: str | None = None
    coaches: int | None = None
    major: bool = False


#: A player's share of a game it played in full (SYSTEMS.md "Teams": weights in (0, 1]).
FULL_WEIGHT = 1.0


@dataclass(frozen=True, slots=True)
class Participant:
    """One player's result in a game. Rank 1 is best; equal ranks tie.

    In a team game ``team`` names the player's side and ``rank`` is the side's rank; in a
    free-for-all ``team`` is None and the player is a side of its own. ``weight`` is the
    share of the game the player played (partial play), 1 unless given.
    """

    player: str
    rank: int
    faction: str | None = None
    centres: int | None = None
    eliminated_in: int | None = None
    team: str | None = None
    weight: float = FULL_WEIGHT

    @property
    def key_any_faction(self) -> PlayerKey:
        return PlayerKey(self.player, self.faction)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a game (SYSTEMS.md "Teams"): its label, its rank, and its members with
    their indices in :attr:`Game.participants`. A free-for-all is sides of one player."""

    team: str | None
    rank: int
    members: tuple[Participant, ...]
    indices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Game:
    """One game result as a rating system sees it."""

    played_at: datetime
    participants: tuple[Participant, ...]
    rated: bool = True
    event: EventContext | None = None
    tournament: str | None = None
    end_year: int | None = None

    @property
    def sides(self) -> tuple[Side, ...]:
        """The game's sides in input order: participants grouped by ``team`` (a participant
        without a team is a side of its own). Built on each call: only systems that rate
        sides ask for it, once per game."""
        grouped: dict[str | None, list[int]] = {}
        order: list[list[int]] = []
        for index, p in enumerate(self.participants):
            if p.team is None:
                order.append([index])
                continue
            members = grouped.get(p.team)
            if members is None:
                members = grouped[p.team] = []
                order.append(members)
            members.append(index)
        parts = self.participants
        return tuple(
            Side(
                parts[indices[0]].team,
                parts[indices[0]].rank,
                tuple(parts[i] for i in indices),
                tuple(indices),
            )
            for indices in order
        )

    @property
    def has_teams(self) -> bool:
        """Whether the result was given as teams (``POST /games`` with ``teams``)."""
        return any(p.team is not None for p in self.participants)

    def where(self, index: int) -> tuple[str | int, ...]:
        """Where participant ``index`` stands in the request body: ``("players", i)`` in a
        free-for-all, ``("teams", side, "players", member)`` in a team game."""
        if self.participants[index].team is None:
            return ("players", index)
        for side_index, side in enumerate(self.sides):
            if index in side.indices:
                return ("teams", side_index, "players", side.indices.index(index))
        raise IndexError(index)


@dataclass(frozen=True, slots=True)
class Placement:
    """One player's final place in a tournament. Equal ranks are ties."""

    player: str
    rank: int
    centres: int | None = None


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's final standings as a ranking system sees them."""

    held_on: date
    rounds: int
    standings: tuple[Placement, ...]
    world_championship: bool = False
    event_class: str | None = None
    major: bool = False
    name: str | None = None


@dataclass(frozen=True, slots=True, init=False)
class Change:
    """One player's rating change in an event, with the formula's terms in ``details``."""

    key: PlayerKey
    before: PlayerState
    after: PlayerState
    details: Mapping[str, Json] = field(default_factory=lambda: EMPTY)

    def __init__(
        self,
        key: PlayerKey,
        before: PlayerState,
        after: PlayerState,
        details: Mapping[str, Json] = EMPTY,
    ) -> None:
        # As PlayerState's: one change per player of every replayed game.
        set_key, set_before, set_after, set_details = _CHANGE_SETTERS
        set_key(self, key)
        set_before(self, before)
        set_after(self, after)
        set_details(self, details)

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True, slots=True, init=False)
class Outcome:
    """The result of rating one event: the changes (in input order) and the new ladder state."""

    changes: tuple[Change, ...]
    ladder_state: Mapping[str, Json] = field(default_factory=lambda: EMPTY)

    def __init__(
        self, changes: tuple[Change, ...], ladder_state: Mapping[str, Json] = EMPTY
    ) -> None:
        # As PlayerState's: one outcome per replayed event.
        set_changes, set_ladder_state = _OUTCOME_SETTERS
        set_changes(self, changes)
        set_ladder_state(self, ladder_state)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An administrator setting a rating's state at a time (API.md "Rating adjustments")."""

    key: PlayerKey
    at: datetime
    rating: float
    deviation: float | None = None
    volatility: float | None = None
    reason: str | None = None


def _slot_setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each named slot of ``cls``: how a frozen slots dataclass's own
    ``__init__`` stores its fields (a frozen class refuses ``self.name = value``; the slot's
    descriptor is what ``object.__setattr__`` would reach, without its lookup)."""
    return tuple(vars(cls)[name].__set__ for name in names)


_STATE_SETTERS = _slot_setters(PlayerState, "rating", "deviation", "volatility", "extra")
_CHANGE_SETTERS = _slot_setters(Change, "key", "before", "after", "details")
_OUTCOME_SETTERS = _slot_setters(Outcome, "changes", "ladder_state")

#: Anything that can stand in a ladder's history.
LadderEvent = Game | Tournament | Adjustment
