"""Bulk import and export of a ladder's history (JSON Lines in the API's own shapes, or CSV).

A JSON Lines file holds one object per line: an optional header ``{"ladder": {"id", "system",
"params", "title"}}``, then games (POST /games bodies), tournaments (POST /tournaments bodies)
and adjustments (``{"adjustment": {"player", "rating", "at", ...}}``, the PUT body plus the
player), and player profiles (``{"profile": {"player", "name"?, "country"?}}``, the PUT
/players body plus the player: the whole profile). ``export`` writes exactly that, so export
then import into a new ladder reproduces its ratings and its players' profiles. CSV holds
games only, one row per player (see ``CSV_COLUMNS``), with the player's profile in the
columns ``name`` and ``country``; a game whose rows name a ``team`` is a team game (API.md
"Teams"), its sides in the order their first rows come, each row's ``rank`` its side's.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TextIO, cast

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import FieldError, NotFound
from app.core.memory import collector_paused
from app.engine.protocols import key_for
from app.models import Ladder
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.profiles import ProfileRepository
from app.schemas.common import Identifier
from app.schemas.events import AdjustmentIn, GameIn, TournamentIn
from app.schemas.ladders import LadderIn
from app.schemas.profiles import ProfileIn
from app.services import batch
from app.services.conversion import (
    ADJUSTMENT,
    GAME,
    adjustment_body,
    adjustment_to_engine,
)
from app.services.events import new_game_event, new_tournament_event
from app.services.history import EVENT_PAGE, NewEvent
from app.services.ladders import create_ladder
from app.services.runtime import Runtime, body_hash, configure, now, require_ladder, runtime_for

#: CSV columns; rows sharing an ``id`` (consecutive) are one game. Empty cells are absent.
CSV_COLUMNS = (
    "id", "played_at", "player", "rank", "faction", "centres", "eliminated_in",
    "rated", "tournament", "end_year", "event_coaches", "event_major", "name", "country",
    "team", "weight",
)  # fmt: skip
#: Events per import transaction: large enough to amortise (each chunk rewrites the rating
#: row of every player it touches: with 5,000 a 10,000-player ladder rewrote 6,000 rows per
#: 5,000 games), small enough to keep the ladder's lock to a few seconds.
DEFAULT_CHUNK = 20_000
HEADER = "ladder"
#: Imported adjustments get an id from their content (API-made ones have none).
IMPORTED_ADJUSTMENT_PREFIX = "import-"
ADJUSTMENT_KEY = "adjustment"
PROFILE_KEY = "profile"
#: A player's profile in a CSV row (every row of the player that has them must agree).
CSV_PROFILE_COLUMNS = ("name", "country")


class _ProfileLine(ProfileIn):
    """A profile in a file: the PUT /players body plus the player."""

    player: Identifier


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    message: str


@dataclass(slots=True)
class Parsed:
    header: dict[str, Any] | None = None
    #: (line number, raw body) of each event, in file order.
    bodies: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    #: (line number, raw profile with its player) of each profile, in file order.
    profiles: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ProfileItem:
    player: str
    name: str | None
    country: str | None


def _kind_of(body: dict[str, Any]) -> str | None:
    if ADJUSTMENT_KEY in body:
        return ADJUSTMENT
    if "players" in body or "teams" in body:
        return GAME
    if "standings" in body:
        return "tournament"
    return None


def read_jsonl(stream: TextIO) -> Parsed:
    parsed = Parsed()
    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            parsed.errors.append(LineError(number, f"not JSON: {exc.msg}"))
            continue
        if not isinstance(body, dict):
            parsed.errors.append(LineError(number, "each line must be a JSON object"))
            continue
        if HEADER in body and isinstance(body[HEADER], dict):
            parsed.header = body[HEADER]
            continue
        if PROFILE_KEY in body:
            profile = body[PROFILE_KEY]
            if len(body) != 1 or not isinstance(profile, dict):
                shape = '{"profile": {"player", "name", "country"}}'
                parsed.errors.append(LineError(number, f"a profile line is {shape}"))
            else:
                parsed.profiles.append((number, profile))
            continue
        kind = _kind_of(body)
        if kind is None:
            parsed.errors.append(
                LineError(
                    number,
                    "neither a game (players or teams), a tournament (standings) nor an adjustment",
                )
            )
            continue
        parsed.bodies.append((number, kind, body))
    return parsed


#: CSV columns holding whole numbers, those holding (finite) numbers, and those holding yes/no.
CSV_INTEGERS = frozenset({"rank", "centres", "eliminated_in", "end_year", "event_coaches"})
CSV_NUMBERS = frozenset({"weight"})
CSV_FLAGS = frozenset({"rated", "event_major"})
#: Columns that describe the game rather than one player: every row of a game must agree.
CSV_GAME_COLUMNS = (
    "played_at", "rated", "tournament", "end_year", "event_coaches", "event_major"
)  # fmt: skip
CSV_PLAYER_COLUMNS = ("player", "rank", "faction", "centres", "eliminated_in", "weight")
#: A team game's row is one member of its side: the side takes ``team`` and ``rank``, the
#: member the rest (``centres`` and ``eliminated_in`` are kept so that the body's check
#: refuses them, naming them, rather than losing them unseen).
CSV_MEMBER_COLUMNS = tuple(c for c in CSV_PLAYER_COLUMNS if c != "rank")
CSV_EVENT_COLUMNS = ("event_coaches", "event_major")
CSV_TRUE = frozenset({"1", "true", "yes"})
CSV_FALSE = frozenset({"0", "false", "no"})


def _csv_value(column: str, value: str) -> Any:
    """A cell as the game body holds it; ValueError naming the rule it breaks."""
    if column in CSV_INTEGERS:
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{column}: {value!r} is not a whole number") from None
    if column in CSV_NUMBERS:
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise ValueError(f"{column}: {value!r} is not a number")
        return number
    if column in CSV_FLAGS:
        flag = value.strip().lower()
        if flag not in CSV_TRUE | CSV_FALSE:
            raise ValueError(f"{column}: {value!r} is not one of 1/0, true/false, yes/no")
        return flag in CSV_TRUE
    return value


@dataclass(slots=True)
class _CsvGame:
    """A game being read from CSV: its body, where it began, its own columns and, in a team
    game, each side's first line and entry in the body (by label)."""

    line: int
    body: dict[str, Any]
    columns: dict[str, Any]
    sides: dict[str, tuple[int, dict[str, Any]]] | None = None

    @classmethod
    def starting(cls, line: int, values: dict[str, Any]) -> _CsvGame:
        body: dict[str, Any] = {"id": values.get("id"), "played_at": values.get("played_at")}
        teams = "team" in values
        body["teams" if teams else "players"] = []
        body.update({c: values[c] for c in ("rated", "tournament", "end_year") if c in values})
        event = {k.removeprefix("event_"): values[k] for k in CSV_EVENT_COLUMNS if k in values}
        if event:
            body["event"] = event
        columns = {c: values.get(c) for c in CSV_GAME_COLUMNS}
        return cls(line, body, columns, {} if teams else None)

    def _first_row(self) -> str:
        return f"line {self.line}, the first row of game {self.body['id']!r}"

    def disagreement(self, values: dict[str, Any]) -> str | None:
        """How a further row contradicts the game's earlier rows, if it does: the game's own
        columns, whether a row names its side, and the rank of its side."""
        for column in CSV_GAME_COLUMNS:
            if values.get(column) != self.columns[column]:
                return (
                    f"{column}: {values.get(column)!r} differs from {self.columns[column]!r} "
                    f"on {self._first_row()}"
                )
        team = values.get("team")
        if self.sides is None:
            if team is not None:
                return (
                    f"team: {team!r}, but {self._first_row()}, names none: a game's rows all "
                    "name their side (a team game) or none does (a free-for-all)"
                )
            return None
        if team is None:
            return (
                f"team: empty, but {self._first_row()}, names a side: every row of a team "
                "game names its side"
            )
        side = self.sides.get(team)
        if side is not None and values.get("rank") != side[1].get("rank"):
            return (
                f"rank: {values.get('rank')!r} differs from {side[1].get('rank')!r} on line "
                f"{side[0]}, the first row of side {team!r} of game {self.body['id']!r} (a "
                "side has one rank)"
            )
        return None

    def add(self, line: int, values: dict[str, Any]) -> None:
        """The row's player: a free-for-all's next player, or a member of its side."""
        if self.sides is None:
            self.body["players"].append({k: values[k] for k in CSV_PLAYER_COLUMNS if k in values})
            return
        team = values["team"]
        if team not in self.sides:
            side: dict[str, Any] = {"team": team, "players": []}
            if "rank" in values:
                side["rank"] = values["rank"]
            self.sides[team] = (line, side)
            self.body["teams"].append(side)
        member = {k: values[k] for k in CSV_MEMBER_COLUMNS if k in values}
        self.sides[team][1]["players"].append(member)


def _csv_cells(row: dict[Any, Any], width: int) -> dict[str, Any] | str:
    """A row's non-empty cells as the body holds them, or the rule the row breaks."""
    extra = row.get(None)  # DictReader's key for the cells past the header
    if extra:
        return f"{width + len(extra)} cells, but the header names {width} columns"
    try:
        return {k: _csv_value(k, v) for k, v in row.items() if v not in (None, "")}
    except ValueError as exc:
        return str(exc)


def read_csv(stream: TextIO) -> Parsed:
    """Games, one row per player; consecutive rows with the same ``id`` are one game, and
    must agree on the game's own columns (and in a team game, the rows of a side on its
    rank). A game with a bad row is reported once, at its first bad row, and left out whole."""
    parsed = Parsed()
    reader = csv.DictReader(stream)
    unknown = set(reader.fieldnames or ()) - set(CSV_COLUMNS)
    if unknown:
        parsed.errors.append(LineError(1, f"unknown columns: {', '.join(sorted(unknown))}"))
        return parsed
    width = len(reader.fieldnames or ())
    current: _CsvGame | None = None
    refused: object = None  # the id of the game being left out
    profiles = _CsvProfiles()
    for row in reader:
        cells = _csv_cells(row, width)
        game_id = row.get("id") or None
        if refused is not None and game_id == refused:
            continue  # the rest of a game already reported
        continuing = current is not None and current.body["id"] == game_id
        problem = cells if isinstance(cells, str) else None
        if problem is None and current is not None and continuing:
            problem = current.disagreement(cast(dict[str, Any], cells))
        if problem is None:
            problem = profiles.disagreement(cast(dict[str, Any], cells))
        if problem is not None:
            parsed.errors.append(LineError(reader.line_num, problem))
            if continuing:
                parsed.bodies.pop()
            refused, current = game_id, None
            continue
        values = cast(dict[str, Any], cells)
        refused = None
        profiles.add(reader.line_num, values)
        if current is None or not continuing:
            current = _CsvGame.starting(reader.line_num, values)
            parsed.bodies.append((reader.line_num, GAME, current.body))
        current.add(reader.line_num, values)
    parsed.profiles = profiles.lines()
    return parsed


@dataclass(slots=True)
class _CsvProfiles:
    """The players' profiles met in CSV rows: per player, the first line that gave one and
    the values its rows gave (a blank cell says nothing)."""

    found: dict[str, tuple[int, dict[str, str]]] = field(default_factory=dict)

    @staticmethod
    def _cells(values: dict[str, Any]) -> dict[str, str]:
        return {c: values[c] for c in CSV_PROFILE_COLUMNS if c in values}

    def disagreement(self, values: dict[str, Any]) -> str | None:
        """How a row's profile cells contradict an earlier row of the same player."""
        player = values.get("player")
        if not isinstance(player, str) or player not in self.found:
            return None
        line, known = self.found[player]
        for column, value in self._cells(values).items():
            if column in known and known[column] != value:
                return (
                    f"{column}: {value!r} differs from {known[column]!r} on line {line}, "
                    f"an earlier row of player {player!r}"
                )
        return None

    def add(self, line: int, values: dict[str, Any]) -> None:
        player, cells = values.get("player"), self._cells(values)
        if isinstance(player, str) and cells:
            self.found.setdefault(player, (line, {}))[1].update(cells)

    def lines(self) -> list[tuple[int, dict[str, Any]]]:
        return [(line, {"player": p, **cells}) for p, (line, cells) in self.found.items()]


def read(stream: TextIO, fmt: str) -> Parsed:
    with collector_paused():
        return read_csv(stream) if fmt == "csv" else read_jsonl(stream)


def _message(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
    )


def to_items(
    db: Database, ladder_id: str, parsed: Parsed
) -> tuple[list[tuple[int, NewEvent]], list[LineError]]:
    """Validate every line (shape, then the system's rules); items in file order."""
    with collector_paused():
        return _to_items(db, ladder_id, parsed)


def _to_items(
    db: Database, ladder_id: str, parsed: Parsed
) -> tuple[list[tuple[int, NewEvent]], list[LineError]]:
    runtime = _runtime_of(db, ladder_id, parsed.header)
    errors = list(parsed.errors)
    items: list[tuple[int, NewEvent]] = []
    adjustments: list[tuple[int, dict[str, Any]]] = []
    for number, kind, raw in parsed.bodies:
        named = raw.get(HEADER)
        if named is not None and named != ladder_id:
            errors.append(
                LineError(number, f"ladder: {named!r}, but this import is into {ladder_id!r}")
            )
            continue
        body = {**raw, "ladder": ladder_id}
        try:
            if kind == GAME:
                items.append((number, new_game_event(GameIn.model_validate(body))))
            elif kind == ADJUSTMENT:
                adjustments.append((number, raw))
            else:
                items.append((number, new_tournament_event(TournamentIn.model_validate(body))))
        except ValidationError as exc:
            errors.append(LineError(number, _message(exc)))
    times = _times_before(items, [number for number, _ in adjustments])
    for number, raw in adjustments:
        try:
            adjustment = _adjustment(runtime, ladder_id, raw, times.get(number))
        except ValidationError as exc:
            errors.append(LineError(number, _message(exc)))
            continue
        if adjustment is None:
            errors.append(
                LineError(
                    number,
                    "adjustment.at: needed in a file without games or tournaments "
                    "(elsewhere it defaults to the time of the result before it)",
                )
            )
            continue
        items.append((number, adjustment))
    items.sort(key=lambda pair: pair[0])
    checked = batch.check(db, [((number,), item) for number, item in items], {ladder_id: runtime})
    checked.extend(_conflicts(db, ladder_id, items))
    bad_lines = {int(e.loc[0]) for e in checked}
    errors.extend(LineError(int(e.loc[0]), _field_message(e)) for e in checked)
    return [(n, i) for n, i in items if n not in bad_lines], sorted(errors, key=lambda e: e.line)


def _adjustment(
    runtime: Runtime, ladder_id: str, raw: dict[str, Any], default_at: datetime | None
) -> NewEvent | None:
    """An adjustment line as an event (None: it has no time, and the file gives none)."""
    data = dict(raw[ADJUSTMENT_KEY])
    player = str(data.pop("player", ""))
    adjustment = AdjustmentIn.model_validate(data)
    at = adjustment.at or default_at
    if at is None:
        return None
    key = key_for(runtime.info, player, adjustment.faction)
    stored = adjustment_body(player, adjustment, at)
    return NewEvent(
        ladder_id=ladder_id,
        kind=ADJUSTMENT,
        # Named by its content, so importing a file twice applies it once.
        external_id=IMPORTED_ADJUSTMENT_PREFIX + body_hash(stored)[:24],
        occurred_at=at,
        body=stored,
        event=adjustment_to_engine(key, adjustment, at),
    )


def _times_before(results: list[tuple[int, NewEvent]], lines: list[int]) -> dict[int, datetime]:
    """The time each adjustment line takes when it gives none: that of the game or tournament
    before it in the file, or for lines ahead of every result, that of the first one. From the
    file rather than the clock, so importing it twice applies it once."""
    times: dict[int, datetime] = {}
    at = 0
    for line in sorted(lines):
        while at + 1 < len(results) and results[at + 1][0] < line:
            at += 1
        if results:
            times[line] = results[at][1].occurred_at
    return times


def to_profiles(parsed: Parsed) -> tuple[list[ProfileItem], list[LineError]]:
    """Validate the file's profiles (the PUT /players body plus the player); a player's
    profiles must agree where a file gives several."""
    items: dict[str, tuple[int, ProfileItem]] = {}
    errors: list[LineError] = []
    for number, raw in parsed.profiles:
        try:
            line = _ProfileLine.model_validate(raw)
        except ValidationError as exc:
            errors.append(LineError(number, _message(exc)))
            continue
        item = ProfileItem(line.player, line.name, line.country)
        earlier = items.get(item.player)
        if earlier is not None and earlier[1] != item:
            errors.append(
                LineError(
                    number,
                    f"profile: differs from line {earlier[0]}, player {item.player!r}'s "
                    "profile there",
                )
            )
            continue
        items.setdefault(item.player, (number, item))
    return [item for _, item in items.values()], errors


def apply_profiles(db: Database, profiles: list[ProfileItem]) -> int:
    """Replace each player's profile (nothing is recomputed: no rating depends on one)."""

    def work(session: Session) -> int:
        repo = ProfileRepository(session)
        at = now()
        for item in profiles:
            repo.put(item.player, item.name, item.country, at)
        return len(profiles)

    return db.run(work) if profiles else 0


def _runtime_of(db: Database, ladder_id: str, header: dict[str, Any] | None) -> Runtime:
    """The ladder's configured system; for a ladder the import will create, its header's
    (nothing is created before every line is checked)."""

    def load(session: Session) -> Ladder | None:
        return LadderRepository(session).get(ladder_id)

    ladder = db.run(load, write=False)
    if ladder is not None:
        return runtime_for(ladder)
    if header is None:
        raise NotFound(
            f"ladder {ladder_id!r} does not exist and the file has no header line to create it"
        )
    return configure(str(header.get("system", "")), header.get("params"))


def _conflicts(db: Database, ladder_id: str, items: list[tuple[int, NewEvent]]) -> list[FieldError]:
    """Lines whose id is already stored with a different body (they would be a 409)."""

    def work(session: Session) -> list[FieldError]:
        keys = [(i.kind, i.external_id) for _, i in items if i.external_id is not None]
        stored = EventRepository(session).find_many(ladder_id, keys)
        return [
            FieldError(
                (number, "id"),
                f"{item.kind} {item.external_id!r} is already stored with a different body",
            )
            for number, item in items
            if item.external_id is not None
            and (found := stored.get((item.kind, item.external_id))) is not None
            and found.body_hash != item.body_hash
        ]

    return db.run(work, write=False)


def _field_message(error: FieldError) -> str:
    return f"{'.'.join(str(p) for p in error.loc[1:]) or 'body'}: {error.msg}"


def ladder_exists(db: Database, ladder_id: str) -> bool:
    def work(session: Session) -> bool:
        return LadderRepository(session).get(ladder_id) is not None

    return db.run(work, write=False)


def ensure_ladder(db: Database, ladder_id: str, header: dict[str, Any] | None) -> bool:
    """Create the ladder from the file's header when it does not exist. True if created."""
    if ladder_exists(db, ladder_id):
        return False
    if header is None:
        raise NotFound(
            f"ladder {ladder_id!r} does not exist and the file has no header line to create it"
        )
    create_ladder(
        db,
        LadderIn(
            id=ladder_id,
            system=str(header.get("system", "")),
            params=header.get("params"),
            title=header.get("title"),
        ),
    )
    return True


def apply_in_chunks(
    db: Database,
    items: list[NewEvent],
    chunk: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Apply items in time order, ``chunk`` per transaction. Returns (created, existing)."""
    with collector_paused():
        return _apply_in_chunks(db, items, chunk, progress)


def _apply_in_chunks(
    db: Database,
    items: list[NewEvent],
    chunk: int,
    progress: Callable[[int], None] | None,
) -> tuple[int, int]:
    ordered = sorted(enumerate(items), key=lambda pair: (pair[1].occurred_at, pair[0]))
    created = existing = 0
    analyzed_at = 0
    for begin in range(0, len(ordered), chunk):
        part = [item for _, item in ordered[begin : begin + chunk]]
        out = batch.store(db, part)
        created += out.created
        existing += out.existing
        if created - analyzed_at >= max(chunk, analyzed_at):
            # The tables at least doubled since the planner last looked: let it look again,
            # so lookups keep using the indexes (each ANALYZE samples a bounded number of
            # rows, and this happens about log2(events / chunk) times).
            db.run(lambda session: EventRepository(session).refresh_lookup_statistics())
            analyzed_at = created
        if progress is not None:
            progress(len(part))
    if analyzed_at:
        # Once for all the tables, so the reads and recomputations after it plan well.
        db.run(lambda session: EventRepository(session).refresh_statistics())
    return created, existing


def write_export(db: Database, ladder_id: str, out: TextIO) -> int:
    """Write the ladder as JSON Lines: a header, its players' profiles, then every live
    event in history order.

    Returns the number of events written.
    """

    def work(session: Session) -> int:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        header: dict[str, Any] = {"id": ladder.id, "system": ladder.system, "params": ladder.params}
        if ladder.title:
            header["title"] = ladder.title
        out.write(json.dumps({HEADER: header}, sort_keys=True) + "\n")
        for profile in ProfileRepository(session).of_ladder(ladder_id):
            line = {"player": profile.player, "name": profile.name, "country": profile.country}
            shown = {k: v for k, v in line.items() if v is not None}
            out.write(json.dumps({PROFILE_KEY: shown}, sort_keys=True) + "\n")
        count = 0
        for page in EventRepository(session).live_rows(ladder_id, None, EVENT_PAGE):
            for event in page:
                body = {k: v for k, v in event.body.items() if k != "ladder"}
                if event.kind == ADJUSTMENT:
                    body = {ADJUSTMENT_KEY: body}
                out.write(json.dumps(body, sort_keys=True) + "\n")
                count += 1
        return count

    return db.run(work, write=False)
