"""Bulk import and export of a ladder's history.

Import validates the lines read by ``app/services/import_files.py`` (JSON Lines in the API's
own shapes, or CSV; the formats are described there) and applies them in chunks; ``export``
writes the JSON Lines form, so export then import into a new ladder reproduces its ratings and
its players' profiles.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TextIO

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import FieldError, Invalid, NotFound
from app.core.memory import collector_paused
from app.engine.protocols import key_for
from app.models import Ladder
from app.models.tables import DEFAULT_COMMUNITY
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.profiles import ProfileRepository
from app.schemas.common import IDENTIFIER_PATTERN, Identifier
from app.schemas.events import AdjustmentIn, GameIn, TournamentIn
from app.schemas.ladders import LadderIn
from app.schemas.profiles import ProfileIn
from app.schemas.seasons import SeasonIn
from app.services import batch, seasons
from app.services.conversion import (
    ADJUSTMENT,
    GAME,
    TOURNAMENT,
    adjustment_body,
    adjustment_to_engine,
)
from app.services.events import correct_event, new_game_event, new_tournament_event
from app.services.history import EVENT_PAGE, NewEvent
from app.services.import_files import ADJUSTMENT_KEY, HEADER, PROFILE_KEY, LineError, Parsed
from app.services.ladders import create_ladder
from app.services.runtime import (
    Runtime,
    body_hash,
    configure,
    future_refusal,
    now,
    require_ladder,
    runtime_for,
)

#: Events per import transaction: large enough to amortise (each chunk rewrites the rating
#: row of every player it touches: with 5,000 a 10,000-player ladder rewrote 6,000 rows per
#: 5,000 games), small enough to keep the ladder's lock to a few seconds.
DEFAULT_CHUNK = 20_000
#: Imported adjustments get an id from their content (API-made ones have none).
IMPORTED_ADJUSTMENT_PREFIX = "import-"


class _ProfileLine(ProfileIn):
    """A profile in a file: the PUT /players body plus the player."""

    player: Identifier


@dataclass(frozen=True, slots=True)
class ProfileItem:
    player: str
    name: str | None
    country: str | None


def _message(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
    )


def to_items(
    db: Database,
    ladder_id: str,
    parsed: Parsed,
    future_tolerance: float,
    *,
    update: bool = False,
) -> tuple[list[tuple[int, NewEvent]], list[LineError]]:
    """Validate every line (shape, times not in the future, then the system's rules); items
    in file order. ``future_tolerance``: seconds a time may lie ahead of the clock. An id
    already stored with a different body is an error, unless ``update`` (the line is then a
    correction: :func:`split_corrections`)."""
    with collector_paused():
        return _to_items(db, ladder_id, parsed, future_tolerance, update)


def _to_items(
    db: Database, ladder_id: str, parsed: Parsed, future_tolerance: float, update: bool
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
    if not update:
        checked.extend(_conflicts(db, ladder_id, items))
    checked.extend(_future(items, future_tolerance))
    bad_lines = {int(e.loc[0]) for e in checked}
    errors.extend(LineError(int(e.loc[0]), _field_message(e)) for e in checked)
    return [(n, i) for n, i in items if n not in bad_lines], sorted(errors, key=lambda e: e.line)


#: Where a line gives its time, by kind.
_TIME_FIELDS = {GAME: ("played_at",), TOURNAMENT: ("held_on",), ADJUSTMENT: (ADJUSTMENT_KEY, "at")}


def _future(items: list[tuple[int, NewEvent]], tolerance: float) -> list[FieldError]:
    """The lines whose time lies in the future (``runtime.future_refusal``)."""
    current = now()
    errors = []
    for number, item in items:
        # A tournament's held_on is stored as 00:00 UTC of that day.
        at = item.occurred_at
        value: datetime | date = at.date() if item.kind == TOURNAMENT else at
        error = future_refusal((number, *_TIME_FIELDS[item.kind]), value, tolerance, current)
        if error is not None:
            errors.append(error)
    return errors


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


def import_community(session: Session, ladder_id: str, header: dict[str, Any] | None) -> str:
    """The community an import into ``ladder_id`` acts in: the ladder's (fixed once created),
    or for a ladder the file will create, its header's (default ``default``)."""
    community = LadderRepository(session).community_of(ladder_id)
    if community is not None:
        return community
    named = (header or {}).get("community", DEFAULT_COMMUNITY)
    if not isinstance(named, str) or not re.fullmatch(IDENTIFIER_PATTERN, named):
        raise Invalid.at(("community",), "the header's community must be an identifier")
    return named


def apply_profiles(
    db: Database,
    ladder_id: str,
    profiles: list[ProfileItem],
    header: dict[str, Any] | None = None,
) -> int:
    """Replace each player's profile in the community of ``ladder_id`` (the import's target:
    no other community's player is touched; nothing is recomputed: no rating depends on a
    profile)."""

    def work(session: Session) -> int:
        community = import_community(session, ladder_id, header)
        repo = ProfileRepository(session)
        at = now()
        for item in profiles:
            repo.put(community, item.player, item.name, item.country, at)
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
    runtime = configure(str(header.get("system", "")), header.get("params"))
    for season in header_seasons(header):
        seasons.checked(runtime, season, [])
    return runtime


def header_seasons(header: dict[str, Any]) -> list[SeasonIn]:
    """The seasons of an export's header (``seasons``, as ``GET .../seasons`` lists them
    without ``ends_at`` and ``status``), each checked as ``POST .../seasons`` would."""
    found = header.get("seasons") or []
    if not isinstance(found, list):
        raise Invalid.at(("ladder", "seasons"), "must be a list of seasons")
    parsed = []
    for index, season in enumerate(found):
        try:
            parsed.append(SeasonIn.model_validate(season))
        except ValidationError as exc:
            error = exc.errors()[0]
            loc = ("ladder", "seasons", index, *error["loc"])
            raise Invalid.at(loc, error["msg"]) from None
    return parsed


def _conflicts(db: Database, ladder_id: str, items: list[tuple[int, NewEvent]]) -> list[FieldError]:
    """Lines whose id is already stored with a different body (they would be a 409)."""

    def work(session: Session) -> list[FieldError]:
        keys = [(i.kind, i.external_id) for _, i in items if i.external_id is not None]
        stored = EventRepository(session).find_many(ladder_id, keys)
        return [
            FieldError(
                (number, "id"),
                f"{item.kind} {item.external_id!r} is already stored with a different body"
                " (import with --update to apply it as a correction)",
            )
            for number, item in items
            if item.external_id is not None
            and (found := stored.get((item.kind, item.external_id))) is not None
            and found.body_hash != item.body_hash
        ]

    return db.run(work, write=False)


def split_corrections(
    db: Database, ladder_id: str, items: list[NewEvent]
) -> tuple[list[NewEvent], list[NewEvent]]:
    """An update's items: (corrections: ids stored with a different body, the rest: new ones
    and those stored with the same body, which storing leaves as they are)."""

    def work(session: Session) -> tuple[list[NewEvent], list[NewEvent]]:
        keys = [key for i in items if (key := i.id_key)]
        stored = EventRepository(session).find_many(ladder_id, keys)
        corrections: list[NewEvent] = []
        rest: list[NewEvent] = []
        for item in items:
            found = stored.get(item.id_key) if item.id_key else None
            changed = found is not None and found.body_hash != item.body_hash
            (corrections if changed else rest).append(item)
        return corrections, rest

    return db.run(work, write=False)


def apply_corrections(db: Database, ladder_id: str, corrections: list[NewEvent]) -> int:
    """Apply each correction as ``PUT`` does (its own transaction, re-rating its dependency
    cone; a voided result is restored), in time order. Returns how many."""
    for item in sorted(corrections, key=lambda i: i.occurred_at):
        assert item.external_id is not None  # only results with ids are corrected
        correct_event(db, ladder_id, item.external_id, item)
    return len(corrections)


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
            community=db.run(lambda session: import_community(session, ladder_id, header)),
        ),
    )
    for season in header_seasons(header):
        seasons.create_season(db, ladder_id, season)
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
        if ladder.community != DEFAULT_COMMUNITY:  # files of the default one are as before
            header["community"] = ladder.community
        if ladder.seasons:  # their resets are part of the history (SYSTEMS.md "Seasons")
            header["seasons"] = [
                {k: v for k, v in season.items() if k not in seasons.MARKS}
                for season in ladder.seasons
            ]
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

    # A whole ladder's history in one read: a heavy read, which a read replica may serve.
    return db.run(work, write=False, heavy=True)
