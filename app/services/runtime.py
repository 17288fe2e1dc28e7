"""A ladder's configured rating system, and (de)serialisation of engine values."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from app.core.errors import Conflict, FieldError, Invalid, NotFound
from app.engine import ranked, schedule
from app.engine.errors import InvalidEvent, InvalidParameter
from app.engine.ledger import shown
from app.engine.protocols import Rater, System, SystemInfo
from app.engine.registry import SYSTEMS
from app.engine.types import PlayerKey, PlayerState, Standing, frozen
from app.models import NO_FACTION, Ladder

#: A game ladder's own limit on the players of one game (docs/api.md "Large fields"): the
#: default keeps the limit every ladder had before it (100); a ladder of large fields raises it,
#: up to :data:`FIELD_PLAYERS_LIMIT`. On a large-field system (Elo-MMR) it is null by default:
#: its games are bounded only by the service's RATINGS_MAX_FIELD_PLAYERS (API.md).
MAX_FIELD_PLAYERS = "max_field_players"
DEFAULT_FIELD_PLAYERS = 100
#: The most a ladder may allow: the largest Codeforces rounds have about 30,000 ranked
#: players; a game body is also bounded by RATINGS_MAX_BODY_BYTES (1 MiB holds about 25,000).
FIELD_PLAYERS_LIMIT = 100_000


def describe_field_limit(info: SystemInfo) -> dict[str, Any]:
    """What ``GET /systems`` shows of ``max_field_players`` on a game system."""
    if info.large_fields:
        return {
            "type": "integer",
            "nullable": True,
            "default": None,
            "minimum": 2,
            "maximum": FIELD_PLAYERS_LIMIT,
            "description": "The most players one game of the ladder may have; null: as many "
            "as the service takes (RATINGS_MAX_FIELD_PLAYERS, 20,000 by default).",
        }
    return {
        "type": "integer",
        "default": DEFAULT_FIELD_PLAYERS,
        "minimum": 2,
        "maximum": FIELD_PLAYERS_LIMIT,
        "description": "The most players one game of the ladder may have (a free-for-all's "
        "players; a team game's sides stay within 100 players in all).",
    }


def _field_limit(info: SystemInfo, given: dict[str, Any]) -> int | None:
    default = None if info.large_fields else DEFAULT_FIELD_PLAYERS
    value = given.pop(MAX_FIELD_PLAYERS, default)
    if value is None and info.large_fields:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParameter(MAX_FIELD_PLAYERS, "must be an integer")
    if not 2 <= value <= FIELD_PLAYERS_LIMIT:
        raise InvalidParameter(MAX_FIELD_PLAYERS, f"must be between 2 and {FIELD_PLAYERS_LIMIT}")
    return value


@dataclass(frozen=True, slots=True)
class Runtime:
    """What a ladder's writes and reads need: the system's description, its rater, its
    ranked-play policy (provisional status, decay, divisions), its seasons and, on a game
    ladder, the most players a game may have."""

    info: SystemInfo
    rater: Rater
    policy: ranked.Policy = field(default_factory=ranked.Policy)
    #: The ladder's seasons, by start (SYSTEMS.md "Seasons").
    seasons: tuple[ranked.SeasonStart, ...] = ()
    #: None: only the service's RATINGS_MAX_FIELD_PLAYERS bounds a game (large-field systems).
    max_field_players: int | None = DEFAULT_FIELD_PLAYERS

    def standing(self, state: PlayerState) -> Standing:
        return self.rater.standing(state)

    @property
    def params(self) -> dict[str, Any]:
        """The ladder's complete parameters, as stored and shown: the system's and, on a game
        ladder, ranked play's."""
        params: dict[str, Any] = plain(self.rater.params)
        if self.info.kind == "game":
            params.update(plain(self.policy.params))
            params[MAX_FIELD_PLAYERS] = self.max_field_players
        return params

    @property
    def plain(self) -> bool:
        """No ranked play and no seasons: boards read the stored rows as they are."""
        return self.policy.plain and not self.seasons

    @property
    def timed(self) -> bool:
        """Whether a stored state reads differently with time (decay, a season's reset)."""
        return isinstance(self.rater, ranked.Timed)

    def read(self, state: PlayerState, at: datetime) -> PlayerState:
        """A stored state as read at ``at``: through the season resets since its player's
        last event, and decayed by its idle time (SYSTEMS.md "Ranked play", "Seasons")."""
        rater = self.rater
        return rater.at(state, at) if isinstance(rater, ranked.Timed) else state

    def season_at(self, at: datetime) -> ranked.SeasonStart | None:
        """The season running at ``at`` (None before the first)."""
        found = None
        for season in self.seasons:
            if season.at > at:
                break
            found = season
        return found


def now() -> datetime:
    """The time as every write stamps it (UTC)."""
    return datetime.now(UTC)


#: How far east of UTC a calendar day starts first (UTC+14, Kiribati): a date is in the past
#: or present somewhere on Earth until it is later than today there.
EARLIEST_OFFSET = timedelta(hours=14)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def future_refusal(
    loc: tuple[str | int, ...], value: datetime | date, tolerance: float, current: datetime
) -> FieldError | None:
    """The refusal of a result's time that lies in the future: later than ``current`` plus
    ``tolerance`` seconds (clocks drift), or for a date (a tournament's ``held_on``) later
    than today anywhere on Earth. A future result would stand after every real one of its
    players, so each of their later games would arrive "late" and replay it."""
    limit = current + timedelta(seconds=tolerance)
    if isinstance(value, datetime):
        if value <= limit:
            return None
        return FieldError(
            loc,
            f"is in the future: got {_iso(value)}, and the server's time is {_iso(current)} "
            f"(a result may be at most {tolerance:g} s ahead of it)",
        )
    if value <= (limit + EARLIEST_OFFSET).date():
        return None
    return FieldError(
        loc,
        f"is in the future: got {value.isoformat()}, a day that has begun nowhere on Earth; "
        f"the server's time is {_iso(current)}",
    )


def refuse_future(
    times: Sequence[tuple[tuple[str | int, ...], datetime | date | None]], tolerance: float
) -> None:
    """422 naming every time of ``times`` (where in the body, the time) in the future."""
    current = now()
    errors = [
        error
        for loc, value in times
        if value is not None and (error := future_refusal(loc, value, tolerance, current))
    ]
    if errors:
        detail = "; ".join(f"{'.'.join(str(p) for p in e.loc)}: {e.msg}" for e in errors)
        raise Invalid(detail, errors=errors)


def get_system(system_id: str) -> System:
    system = SYSTEMS.get(system_id)
    if system is None:
        known = ", ".join(SYSTEMS)
        raise Invalid.at(("system",), f"unknown system {system_id!r} (known: {known})")
    return system


def configure(
    system_id: str,
    params: Mapping[str, Any] | None,
    seasons: Sequence[Mapping[str, Any]] | None = None,
    at: datetime | None = None,
) -> Runtime:
    """Validate parameters and build the rater (wrapped to decay and to reset at the start of
    each season where the ladder asks); errors name the parameter (422). ``seasons``: as the
    ladder stores them (validated when they were stored), a schedule's as read at ``at``
    (default now: :func:`app.engine.schedule.expand`)."""
    system = get_system(system_id)
    given = dict(params or {})
    game = system.info.kind == "game"
    wanted = {name: given.pop(name) for name in ranked.NAMES if name in given} if game else {}
    try:
        field_limit = _field_limit(system.info, given) if game else DEFAULT_FIELD_PLAYERS
        rater: Rater = system.configure(given)
        initial = rater.initial_state(rater.initial_ladder_state())
        policy = (
            ranked.parse_policy(system_id, initial.deviation is not None, wanted)
            if game
            else ranked.Policy()
        )
        starts = season_starts(seasons, at)
        resets = any(season.reset.kind != "none" for season in starts)
        if system.info.whole_history and (policy.decay is not None or resets):
            # A whole-history rating is a fit of every game; a state decayed or reset at a
            # given time has no place in the model (as an adjustment has none).
            raise InvalidParameter(
                ranked.DECAY if policy.decay is not None else "reset",
                f"{system_id} ratings are a fit of the whole history: they are not decayed "
                "or reset by a season",
            )
        if policy.decay is not None or resets:
            if policy.decay is not None and rater.params.get("period", "game") != "game":
                raise InvalidParameter(
                    ranked.DECAY,
                    "needs period 'game': with rating periods the deviation grows by the "
                    "system's own no-game step",
                )
            if resets and rater.params.get("period", "game") != "game":
                raise InvalidParameter(
                    "period",
                    "must be 'game' while a season resets ratings: a rating period's open "
                    "results would not be reset",
                )
            growth = rater.params.get("c") if system_id == "glicko" else None
            rater = ranked.Timed(rater, policy.decay, initial, growth, starts)
    except InvalidParameter as exc:
        raise Invalid.at(("params", exc.name), exc.message) from exc
    return Runtime(system.info, rater, policy, starts, field_limit)


def season_starts(
    seasons: Sequence[Mapping[str, Any]] | None, at: datetime | None = None
) -> tuple[ranked.SeasonStart, ...]:
    """The stored seasons as the engine sees them at ``at`` (default now), by start: a
    schedule's are its occurrences so far and the next one."""
    if seasons and any(schedule.is_schedule(season) for season in seasons):
        seasons = schedule.expand(seasons, now() if at is None else at)
    found = [
        ranked.SeasonStart(
            str(season["id"]),
            datetime.fromisoformat(season["starts_at"]),
            ranked.parse_reset(season.get("reset")),
        )
        for season in seasons or ()
    ]
    return tuple(sorted(found, key=lambda season: season.at))


@lru_cache(maxsize=256)
def _cached(
    system_id: str, params_json: str, seasons_json: str, horizon: datetime | None
) -> Runtime:
    # A schedule's seasons are the same at any time from its latest start to its next one.
    return configure(system_id, json.loads(params_json), json.loads(seasons_json), horizon)


@contextmanager
def engine_refusals(prefix: str = "") -> Iterator[None]:
    """The one place an engine refusal becomes a 422: an event breaking a system's rule, or
    a result the system cannot represent (``NonFiniteResult``), named by its field;
    ``prefix`` says which event, where several are rated."""
    try:
        yield
    except InvalidEvent as exc:
        raise refused(exc, prefix) from exc


def refused(exc: InvalidEvent, prefix: str = "") -> Invalid:
    """The 422 of an engine refusal (:func:`engine_refusals`), for a caller that catches it
    itself."""
    return Invalid.at(exc.loc, prefix + exc.message)


def runtime_for(ladder: Ladder, at: datetime | None = None) -> Runtime:
    """The ladder's runtime, cached by (system, parameters, seasons and, with a schedule, its
    latest start so far): raters are immutable. ``at``: a read's ``as_of``, whose schedule's
    seasons are those up to it where it lies ahead of now."""
    seasons = ladder.seasons
    read_at = now() if at is None else max(now(), at)
    horizon = schedule.horizon(seasons, read_at) if seasons else None
    return _cached(ladder.system, canonical_json(ladder.params), canonical_json(seasons), horizon)


#: The encoder every stored body hash is taken of: ``json``'s, keys sorted, no spaces, no NaN.
#: It stays ``json``'s, not orjson's (which the bulk writes use): orjson writes non-ASCII and
#: some floats differently, and every stored hash would stop matching its body. Built once, as
#: ``json.dumps`` with these arguments would build one at every call; bodies are trees, so
#: the circular-reference check has nothing to find.
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), allow_nan=False, check_circular=False
)


def canonical_json(value: Any) -> str:
    """The text every stored body hash is taken of: exactly
    ``json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)``."""
    return _CANONICAL.encode(value)


def body_hash(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def encode_state(state: PlayerState) -> dict[str, Any]:
    """A state as stored (JSON). Systems freeze only the top level of their mappings (the
    values inside are plain JSON), so one level of copying makes it plain."""
    return {
        "rating": state.rating,
        "deviation": state.deviation,
        "volatility": state.volatility,
        "extra": dict(state.extra),
    }


def decode_state(data: Mapping[str, Any]) -> PlayerState:
    return PlayerState(
        rating=float(data["rating"]),
        deviation=None if data.get("deviation") is None else float(data["deviation"]),
        volatility=None if data.get("volatility") is None else float(data["volatility"]),
        extra=frozen(data.get("extra") or {}),
    )


#: Exact types that ``_plain`` returns as they are (checked first: most values are these).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> Any:
    """Engine JSON (read-only mappings, tuples) as plain dicts and lists."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    scalars = _SCALARS
    if kind is dict or kind is MappingProxyType or isinstance(value, Mapping):
        return {
            (k if type(k) is str else str(k)): (v if type(v) in scalars else _plain(v))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [v if type(v) in scalars else _plain(v) for v in value]
    return value


def plain(value: Any) -> Any:
    return _plain(value)


def state_columns(runtime: Runtime, state: PlayerState, ladder_state: Any) -> dict[str, Any]:
    """A state as the columns of its rating row: shown values, and the state itself."""
    standing = shown(runtime.rater, state, ladder_state)
    return {
        "rating": standing.rating,
        "deviation": standing.deviation,
        "volatility": standing.volatility,
        "ranking_value": standing.ranking_value,
        "tiebreak": standing.tiebreak,
        "state": encode_state(state),
    }


def fresh_row(runtime: Runtime, ladder_state: Any, key: tuple[str, str]) -> dict[str, Any]:
    """The rating row of a rating that has no change yet: the system's initial state."""
    state = runtime.rater.initial_state(ladder_state)
    return {"player": key[0], "faction": key[1], **state_columns(runtime, state, ladder_state)}


def db_key(key: PlayerKey) -> tuple[str, str]:
    return key.player, key.faction if key.faction is not None else NO_FACTION


def engine_key(player: str, faction: str) -> PlayerKey:
    return PlayerKey(player, None if faction == NO_FACTION else faction)


def require_ladder(ladder: Ladder | None, ladder_id: str) -> Ladder:
    if ladder is None:
        raise NotFound(f"ladder {ladder_id!r} does not exist")
    return ladder


def refuse_archived(ladder: Ladder) -> None:
    """An archived ladder is read-only: every write to it is a 409 naming the rule."""
    if ladder.archived_at is not None:
        raise Conflict(
            f"ladder {ladder.id!r} is archived, and an archived ladder is read-only "
            '(PATCH it with {"archived": false} to write to it again)'
        )
