"""Reading import files into lines: JSON Lines in the API's own shapes, or CSV.

A JSON Lines file holds one object per line: an optional header ``{"ladder": {"id", "system",
"params", "title"}}``, then games (POST /games bodies), tournaments (POST /tournaments bodies)
and adjustments (``{"adjustment": {"player", "rating", "at", ...}}``, the PUT body plus the
player), and player profiles (``{"profile": {"player", "name"?, "country"?}}``, the PUT
/players body plus the player: the whole profile). CSV holds games or tournaments, one row per
player, with the player's profile in the columns ``name`` and ``country``. Games: see
``CSV_COLUMNS``; a game whose rows name a ``team`` is a team game (API.md "Teams"), its sides in
the order their first rows come, each row's ``rank`` its side's. Tournaments (a header naming
``held_on``): see ``TOURNAMENT_CSV_COLUMNS``. Reading checks only the file's syntax and shape;
``app/services/bulk.py`` validates the lines and applies them.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

from app.core.memory import collector_paused
from app.services.conversion import ADJUSTMENT, GAME, TOURNAMENT

#: CSV columns; rows sharing an ``id`` (consecutive) are one game. Empty cells are absent.
CSV_COLUMNS = (
    "id", "played_at", "player", "rank", "faction", "centres", "eliminated_in",
    "rated", "tournament", "end_year", "event_coaches", "event_major", "name", "country",
    "team", "weight",
)  # fmt: skip

#: A tournament file's columns: consecutive rows with the same ``tournament`` are its
#: standings, one row per player. ``tournament_name`` is the event's ``name`` (``name`` is the
#: player's, as in a game file); ``world_championship`` (DPTR), ``class`` (WPE), ``major`` and
#: ``centres`` (DAANZ) where the system takes them (docs/reference/systems.md).
TOURNAMENT_CSV_COLUMNS = (
    "tournament", "held_on", "rounds", "player", "rank", "centres", "tournament_name",
    "world_championship", "class", "major", "name", "country",
)  # fmt: skip
#: What a tournament file needs, and the column that says a CSV file holds tournaments.
TOURNAMENT_CSV_REQUIRED = ("tournament", "held_on", "player", "rank")
#: Columns of the tournament rather than of one player (every row of it must agree), with
#: the body's name of each.
CSV_TOURNAMENT_FIELDS = {
    "held_on": "held_on", "rounds": "rounds", "tournament_name": "name",
    "world_championship": "world_championship", "class": "class", "major": "major",
}  # fmt: skip
CSV_STANDING_COLUMNS = ("player", "rank", "centres")

HEADER = "ladder"

ADJUSTMENT_KEY = "adjustment"
PROFILE_KEY = "profile"

#: A player's profile in a CSV row (every row of the player that has them must agree).
CSV_PROFILE_COLUMNS = ("name", "country")


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


def _kind_of(body: dict[str, Any]) -> str | None:
    if ADJUSTMENT_KEY in body:
        return ADJUSTMENT
    if "players" in body or "teams" in body:
        return GAME
    if "standings" in body:
        return TOURNAMENT
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
CSV_INTEGERS = frozenset(
    {"rank", "centres", "eliminated_in", "end_year", "event_coaches", "rounds"}
)
CSV_NUMBERS = frozenset({"weight"})
CSV_FLAGS = frozenset({"rated", "event_major", "world_championship", "major"})
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
    rank). A game with a bad row is reported once, at its first bad row, and left out whole.
    A header naming ``held_on`` makes it a file of tournaments (:func:`_read_tournaments`)."""
    parsed = Parsed()
    reader = csv.DictReader(stream)
    if "held_on" in (reader.fieldnames or ()):
        return _read_tournaments(reader, parsed)
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


def _read_tournaments(reader: csv.DictReader[str], parsed: Parsed) -> Parsed:
    """Tournaments, one row per player; consecutive rows with the same ``tournament`` are
    its standings, and must agree on the tournament's own columns. A tournament with a bad row
    is reported once, at its first bad row, and left out whole (as a game is)."""
    names = reader.fieldnames or ()
    unknown = set(names) - set(TOURNAMENT_CSV_COLUMNS)
    if unknown:
        parsed.errors.append(
            LineError(1, f"unknown columns in a tournament file: {', '.join(sorted(unknown))}")
        )
        return parsed
    missing = [c for c in TOURNAMENT_CSV_REQUIRED if c not in names]
    if missing:
        parsed.errors.append(
            LineError(1, f"missing columns in a tournament file: {', '.join(missing)}")
        )
        return parsed
    current: tuple[int, dict[str, Any], dict[str, Any]] | None = None  # line, body, columns
    refused: object = None
    profiles = _CsvProfiles()
    for row in reader:
        cells = _csv_cells(row, len(names))
        tournament_id = row.get("tournament") or None
        if refused is not None and tournament_id == refused:
            continue
        continuing = current is not None and current[1]["id"] == tournament_id
        problem = cells if isinstance(cells, str) else None
        values = {} if isinstance(cells, str) else cells
        if problem is None and current is not None and continuing:
            line, _, columns = current
            for column in CSV_TOURNAMENT_FIELDS:
                if values.get(column) != columns[column]:
                    problem = (
                        f"{column}: {values.get(column)!r} differs from {columns[column]!r} on "
                        f"line {line}, the first row of tournament {tournament_id!r}"
                    )
                    break
        if problem is None:
            problem = profiles.disagreement(values)
        if problem is not None:
            parsed.errors.append(LineError(reader.line_num, problem))
            if continuing:
                parsed.bodies.pop()
            refused, current = tournament_id, None
            continue
        refused = None
        profiles.add(reader.line_num, values)
        if current is None or not continuing:
            body: dict[str, Any] = {"id": values.get("tournament"), "standings": []}
            body.update({f: values[c] for c, f in CSV_TOURNAMENT_FIELDS.items() if c in values})
            columns = {c: values.get(c) for c in CSV_TOURNAMENT_FIELDS}
            current = (reader.line_num, body, columns)
            parsed.bodies.append((reader.line_num, TOURNAMENT, body))
        standing = {k: values[k] for k in CSV_STANDING_COLUMNS if k in values}
        current[1]["standings"].append(standing)
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
