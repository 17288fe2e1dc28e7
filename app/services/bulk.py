"""Bulk import and export of a ladder's history (JSON Lines in the API's own shapes, or CSV).

A JSON Lines file holds one object per line: an optional header ``{"ladder": {"id", "system",
"params", "title"}}``, then games (POST /games bodies), tournaments (POST /tournaments bodies)
and adjustments (``{"adjustment": {"player", "rating", "at", ...}}``, the PUT body plus the
player). ``export`` writes exactly that, so export then import into a new ladder reproduces
its ratings. CSV holds games only, one row per player (see ``CSV_COLUMNS``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import FieldError, NotFound
from app.core.memory import collector_paused
from app.engine.types import PlayerKey
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.events import AdjustmentIn, GameIn, TournamentIn
from app.schemas.ladders import LadderIn
from app.services import batch
from app.services.conversion import ADJUSTMENT, GAME, adjustment_body, adjustment_to_engine
from app.services.ladders import create_ladder
from app.services.ledger import EVENT_PAGE
from app.services.runtime import body_hash, require_ladder, runtime_for

#: CSV columns; rows sharing an ``id`` (consecutive) are one game. Empty cells are absent.
CSV_COLUMNS = (
    "id", "played_at", "player", "rank", "faction", "centres", "eliminated_in",
    "rated", "tournament", "end_year", "event_coaches", "event_major",
)  # fmt: skip
#: Events per import transaction: large enough to amortise (each chunk rewrites the rating
#: row of every player it touches: with 5,000 a 10,000-player ladder rewrote 6,000 rows per
#: 5,000 games), small enough to keep the ladder's lock to a few seconds.
DEFAULT_CHUNK = 20_000
HEADER = "ladder"
#: Imported adjustments get an id from their content (API-made ones have none).
IMPORTED_ADJUSTMENT_PREFIX = "import-"
ADJUSTMENT_KEY = "adjustment"


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


def _kind_of(body: dict[str, Any]) -> str | None:
    if ADJUSTMENT_KEY in body:
        return ADJUSTMENT
    if "players" in body:
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
        kind = _kind_of(body)
        if kind is None:
            parsed.errors.append(
                LineError(
                    number, "neither a game (players), a tournament (standings) nor an adjustment"
                )
            )
            continue
        parsed.bodies.append((number, kind, body))
    return parsed


def _csv_value(column: str, value: str) -> Any:
    if column in ("rank", "centres", "eliminated_in", "end_year", "event_coaches"):
        return int(value)
    if column in ("rated", "event_major"):
        return value.strip().lower() in ("1", "true", "yes")
    return value


def read_csv(stream: TextIO) -> Parsed:
    parsed = Parsed()
    reader = csv.DictReader(stream)
    unknown = set(reader.fieldnames or ()) - set(CSV_COLUMNS)
    if unknown:
        parsed.errors.append(LineError(1, f"unknown columns: {', '.join(sorted(unknown))}"))
        return parsed
    current: dict[str, Any] | None = None
    for number, row in enumerate(reader, start=2):
        try:
            values = {k: _csv_value(k, v) for k, v in row.items() if v not in (None, "")}
        except ValueError as exc:
            parsed.errors.append(LineError(number, f"bad number: {exc}"))
            continue
        if current is None or current["id"] != values.get("id"):
            current = {"id": values.get("id"), "played_at": values.get("played_at"), "players": []}
            for column in ("rated", "tournament", "end_year"):
                if column in values:
                    current[column] = values[column]
            if "event_coaches" in values or "event_major" in values:
                current["event"] = {
                    k.removeprefix("event_"): values[k]
                    for k in ("event_coaches", "event_major")
                    if k in values
                }
            parsed.bodies.append((number, GAME, current))
        player = {
            k: values[k]
            for k in ("player", "rank", "faction", "centres", "eliminated_in")
            if k in values
        }
        current["players"].append(player)
    return parsed


def read(stream: TextIO, fmt: str) -> Parsed:
    with collector_paused():
        return read_csv(stream) if fmt == "csv" else read_jsonl(stream)


def _message(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
    )


def to_items(
    db: Database, ladder_id: str, parsed: Parsed
) -> tuple[list[tuple[int, batch.Item]], list[LineError]]:
    """Validate every line (shape, then the system's rules); items in file order."""
    with collector_paused():
        return _to_items(db, ladder_id, parsed)


def _to_items(
    db: Database, ladder_id: str, parsed: Parsed
) -> tuple[list[tuple[int, batch.Item]], list[LineError]]:

    def load(session: Session) -> bool:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        return runtime_for(ladder).info.per_faction

    per_faction = db.run(load, write=False)
    errors = list(parsed.errors)
    items: list[tuple[int, batch.Item]] = []
    for number, kind, raw in parsed.bodies:
        body = {**raw, "ladder": ladder_id}
        try:
            if kind == GAME:
                items.append((number, batch.game_item(GameIn.model_validate(body))))
            elif kind == ADJUSTMENT:
                data = dict(raw[ADJUSTMENT_KEY])
                player = str(data.pop("player", ""))
                adjustment = AdjustmentIn.model_validate(data)
                at = adjustment.at or datetime.now(UTC)
                key = key_for_ladder(per_faction, player, adjustment.faction)
                stored = adjustment_body(player, adjustment, at)
                items.append(
                    (
                        number,
                        batch.Item(
                            ladder=ladder_id,
                            kind=ADJUSTMENT,
                            # Named by its content, so importing a file twice applies it once.
                            external_id=IMPORTED_ADJUSTMENT_PREFIX + body_hash(stored)[:24],
                            occurred_at=at,
                            body=stored,
                            event=adjustment_to_engine(key, adjustment, at),
                        ),
                    )
                )
            else:
                items.append((number, batch.tournament_item(TournamentIn.model_validate(body))))
        except ValidationError as exc:
            errors.append(LineError(number, _message(exc)))
    checked = batch.check(db, [((number,), item) for number, item in items])
    checked.extend(_conflicts(db, ladder_id, items))
    bad_lines = {int(e.loc[0]) for e in checked}
    errors.extend(LineError(int(e.loc[0]), _field_message(e)) for e in checked)
    return [(n, i) for n, i in items if n not in bad_lines], sorted(errors, key=lambda e: e.line)


def _conflicts(
    db: Database, ladder_id: str, items: list[tuple[int, batch.Item]]
) -> list[FieldError]:
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
            and found.body_hash != item.digest
        ]

    return db.run(work, write=False)


def _field_message(error: FieldError) -> str:
    return f"{'.'.join(str(p) for p in error.loc[1:]) or 'body'}: {error.msg}"


def key_for_ladder(per_faction: bool, player: str, faction: str | None) -> PlayerKey:
    return PlayerKey(player, faction if per_faction else None)


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
    items: list[batch.Item],
    chunk: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Apply items in time order, ``chunk`` per transaction. Returns (created, existing)."""
    with collector_paused():
        return _apply_in_chunks(db, items, chunk, progress)


def _apply_in_chunks(
    db: Database,
    items: list[batch.Item],
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
    """Write the ladder as JSON Lines: a header, then every live event in history order.

    Returns the number of events written.
    """

    def work(session: Session) -> int:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        header: dict[str, Any] = {"id": ladder.id, "system": ladder.system, "params": ladder.params}
        if ladder.title:
            header["title"] = ladder.title
        out.write(json.dumps({HEADER: header}, sort_keys=True) + "\n")
        count = 0
        for page in EventRepository(session).live_pages(ladder_id, None, EVENT_PAGE):
            for event in page:
                body = {k: v for k, v in event.body.items() if k != "ladder"}
                if event.kind == ADJUSTMENT:
                    body = {ADJUSTMENT_KEY: body}
                out.write(json.dumps(body, sort_keys=True) + "\n")
                count += 1
        return count

    return db.run(work, write=False)
