"""A ladder's seasons (API.md and SYSTEMS.md "Seasons"): create, change, delete and list.

A ladder keeps its seasons on its row (``ladders.seasons``), read with the ladder by every
write and read, and they configure its rater as its parameters do
(:func:`app.services.runtime.configure`): a season's reset is applied to a player's stored
state when it is read at or after the season's start, and as the starting state of the
player's next game (:class:`app.engine.ranked.Timed`), as decay is. So a season that starts in
the future takes effect at its time with no request and nothing written then, and
recomputation, as-of reads and what-if keep every reset.

Creating, changing or deleting a season changes the ladder's history from the earliest start
whose reset changed: every stored result from there is re-rated (the whole tail, under the
ladder's exclusive lock, in the same transaction), like a late result; one that changes no
reset (a name, ``best_of``, a ``none`` season) re-rates nothing. The first reset of a ladder
that has no decay re-rates everything: its states start carrying their last event's time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, Invalid, NotFound
from app.engine import ranked, schedule
from app.engine.errors import InvalidParameter
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.schemas.seasons import SeasonChanged, SeasonIn, SeasonOut
from app.services import feed
from app.services.auth import ADMIN, Caller
from app.services.history import recompute
from app.services.runtime import Runtime, now, require_ladder
from app.services.unit_of_work import Lock, UnitOfWork, run_write

#: The systems awarding points per event, and the detail of a change that holds them: a
#: circuit (``best_of``) sums each player's best N (SYSTEMS.md "Seasons").
EVENT_POINTS: Mapping[str, str] = {"cdiplo": "points", "wpe": "points", "daanz": "masterpoints"}
#: The most seasons a ladder keeps (each is read with the ladder).
MAX_SEASONS = 1_000
#: A stored season's mark: its start has been announced in the feed (``season.started``),
#: or it was written after its start. Not shown, not exported.
ANNOUNCED = "announced"
#: A stored schedule's mark: the start up to which its occurrences were announced.
ANNOUNCED_UNTIL = "announced_until"
#: The marks an export leaves out.
MARKS = (ANNOUNCED, ANNOUNCED_UNTIL)

Stored = dict[str, Any]


def season_out(seasons: Sequence[Mapping[str, Any]], index: int, at: datetime) -> SeasonOut:
    """A stored season (``seasons`` by start) as the API shows it at ``at``."""
    season = seasons[index]
    starts = datetime.fromisoformat(season["starts_at"])
    ends = (
        datetime.fromisoformat(seasons[index + 1]["starts_at"])
        if index + 1 < len(seasons)
        else None
    )
    status = (
        "upcoming" if starts > at else "closed" if ends is not None and ends <= at else "current"
    )
    return SeasonOut(
        id=season["id"],
        name=season["name"],
        starts_at=starts,
        ends_at=ends,
        status=status,
        reset=season["reset"],
        best_of=season.get("best_of"),
        schedule=season.get(schedule.SCHEDULE),
    )


def schedule_out(season: Mapping[str, Any], at: datetime) -> SeasonOut:
    """A stored schedule as the API shows it: its anchor, its step; no end."""
    starts = datetime.fromisoformat(season["starts_at"])
    return SeasonOut(
        id=season["id"],
        name=season["name"],
        starts_at=starts,
        ends_at=None,
        status="upcoming" if starts > at else "current",
        reset=season["reset"],
        best_of=season.get("best_of"),
        repeat=season[schedule.REPEAT],
    )


def shown(stored: Sequence[Mapping[str, Any]], season_id: str, ladder_id: str) -> SeasonOut:
    """The season or schedule ``season_id`` of the stored seasons, as read now (404 when
    there is none)."""
    at = now()
    for season in stored:
        if season["id"] == season_id and schedule.is_schedule(season):
            return schedule_out(season, at)
    seasons = schedule.expand(stored, at)
    return season_out(seasons, find(seasons, season_id, ladder_id), at)


def find(seasons: Sequence[Mapping[str, Any]], season_id: str, ladder_id: str) -> int:
    """The index of the season ``season_id`` (404 when the ladder has none)."""
    for index, season in enumerate(seasons):
        if season["id"] == season_id:
            return index
    raise NotFound(f"season {season_id!r} does not exist in ladder {ladder_id!r}")


def find_stored(seasons: Sequence[Mapping[str, Any]], season_id: str, ladder_id: str) -> int:
    """The index of the stored season or schedule ``season_id``, which a write may change
    (409 for a schedule's occurrence, 404 for none)."""
    for season in seasons:
        if (
            schedule.is_schedule(season)
            and season_id.startswith(f"{season['id']}-")
            and not any(other["id"] == season_id for other in seasons)
        ):
            raise Conflict(
                f"season {season_id!r} is an occurrence of the schedule {season['id']!r}: "
                "change or delete the schedule, or create a season at its start, which "
                "takes its place"
            )
    return find(seasons, season_id, ladder_id)


def list_seasons(
    db: Database, ladder_id: str, *, limit: int, offset: int
) -> tuple[int, list[SeasonOut]]:
    """How many seasons the ladder has (a schedule's: its occurrences so far and the next),
    and the page of ``limit`` from ``offset``, by start."""

    def work(session: Any) -> tuple[int, list[SeasonOut]]:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        at = now()
        seasons = schedule.expand(ladder.seasons, at)
        indexes = range(offset, min(len(seasons), offset + limit))
        return len(seasons), [season_out(seasons, index, at) for index in indexes]

    return db.run(work, write=False)


def get_season(db: Database, ladder_id: str, season_id: str) -> SeasonOut:
    def work(session: Any) -> SeasonOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        return shown(ladder.seasons or [], season_id, ladder_id)

    return db.run(work, write=False)


def create_season(
    db: Database, ladder_id: str, body: SeasonIn, caller: Caller = ADMIN
) -> SeasonChanged:
    def edit(runtime: Runtime, seasons: list[Stored]) -> list[Stored]:
        if any(season["id"] == body.id for season in seasons):
            raise Conflict(
                f"season {body.id!r} already exists in ladder {ladder_id!r}; use PUT to change it"
            )
        if len(seasons) >= MAX_SEASONS:
            raise Invalid.at(("id",), f"a ladder keeps at most {MAX_SEASONS} seasons")
        return [*seasons, checked(runtime, body, seasons)]

    return _write(db, ladder_id, body.id, edit, caller)


def replace_season(
    db: Database, ladder_id: str, season_id: str, body: SeasonIn, caller: Caller = ADMIN
) -> SeasonChanged:
    if body.id != season_id:
        raise Invalid.at(("id",), f"must equal the path's season id {season_id!r}")

    def edit(runtime: Runtime, seasons: list[Stored]) -> list[Stored]:
        index = find_stored(seasons, season_id, ladder_id)
        others = seasons[:index] + seasons[index + 1 :]
        return [*others, checked(runtime, body, others)]

    return _write(db, ladder_id, season_id, edit, caller)


def delete_season(
    db: Database, ladder_id: str, season_id: str, caller: Caller = ADMIN
) -> SeasonChanged:
    """Remove a season; the answer is the season as it stood, and what was re-rated."""

    def edit(runtime: Runtime, seasons: list[Stored]) -> list[Stored]:
        index = find_stored(seasons, season_id, ladder_id)
        return seasons[:index] + seasons[index + 1 :]

    return _write(db, ladder_id, season_id, edit, caller)


def checked(runtime: Runtime, body: SeasonIn, others: Sequence[Mapping[str, Any]]) -> Stored:
    """The season as stored, once its reset and ``best_of`` suit the ladder (422 naming the
    field otherwise)."""
    rater = runtime.rater
    initial = rater.initial_state(rater.initial_ladder_state())
    try:
        reset = ranked.parse_reset(body.reset, initial)
    except InvalidParameter as exc:
        raise Invalid.at(tuple(exc.name.split(".")), exc.message) from exc
    if reset.kind != "none":
        if runtime.info.kind != "game":
            raise Invalid.at(
                ("reset", "kind"),
                f"the tournament system {runtime.info.id!r} ranks by its own formula: a "
                "season on it takes the reset none only",
            )
        if rater.params.get("period", "game") != "game":
            raise Invalid.at(
                ("reset", "kind"),
                "needs period 'game': a rating period's open results would not be reset",
            )
    if body.best_of is not None and runtime.info.id not in EVENT_POINTS:
        raise Invalid.at(
            ("best_of",),
            f"only systems awarding points per event ({', '.join(EVENT_POINTS)}) rank a "
            f"season by its best events, not {runtime.info.id!r}",
        )
    starts_at = body.starts_at.isoformat()
    for other in others:
        if other["starts_at"] == starts_at and not schedule.is_schedule(other):
            raise Invalid.at(
                ("starts_at",), f"season {other['id']!r} starts then: seasons start apart"
            )
    stored: Stored = {
        "id": body.id,
        "name": body.name if body.name is not None else body.id,
        "starts_at": starts_at,
        "reset": reset.as_json(),
        "best_of": body.best_of,
    }
    schedules = [other for other in others if schedule.is_schedule(other)]
    if body.repeat is not None:
        try:
            repeat = schedule.parse_repeat(body.repeat)
        except InvalidParameter as exc:
            raise Invalid.at(tuple(exc.name.split(".")), exc.message) from exc
        if schedules:
            raise Invalid.at(
                ("repeat",),
                f"the ladder has the schedule {schedules[0]['id']!r} already: one a ladder",
            )
        taken = [o["id"] for o in others if o["id"].startswith(f"{body.id}-")]
        if taken:
            raise Invalid.at(
                ("id",), f"its occurrences' ids ({body.id}-DATE) would clash with {taken[0]!r}"
            )
        # The occurrences started by now were announced by this write (season.changed).
        return stored | {schedule.REPEAT: repeat.as_json(), ANNOUNCED_UNTIL: now().isoformat()}
    for other in schedules:
        if body.id.startswith(f"{other['id']}-"):
            raise Invalid.at(
                ("id",), f"ids {other['id']}-DATE are the schedule {other['id']!r}'s occurrences"
            )
    # A season written after its start was announced by that write (season.changed); one to
    # come is announced when its time comes (:func:`announce_started`).
    return stored | {ANNOUNCED: body.starts_at <= now()}


def _changed_from(before: Runtime, after: Runtime) -> tuple[bool, datetime | None]:
    """Whether the ladder's history changed, and from where: the earliest start whose reset
    differs (None: from the beginning, when the states start or stop carrying their last
    event's time)."""
    if before.timed != after.timed:
        return True, None
    differ = set(_resets(before)) ^ set(_resets(after))
    return bool(differ), min((at for at, _season, _reset in differ), default=None)


def _resets(runtime: Runtime) -> list[tuple[datetime, str, ranked.Reset]]:
    return [(s.at, s.season, s.reset) for s in runtime.seasons if s.reset.kind != "none"]


def _write(
    db: Database,
    ladder_id: str,
    season_id: str,
    edit: Callable[[Runtime, list[Stored]], list[Stored]],
    caller: Caller,
) -> SeasonChanged:
    """Store the ladder's seasons as ``edit`` leaves them and re-rate what their resets
    changed, under the ladder's exclusive lock, publishing one feed item."""

    def work(unit: UnitOfWork) -> tuple[SeasonChanged, str]:
        unit.admit(caller, ladder_id)
        write = unit.ladder(ladder_id)
        ladder = write.ladder
        before = write.runtime
        stored = list(ladder.seasons or [])
        seasons = sorted(edit(before, stored), key=_start)
        ladder.seasons = seasons or None
        ladder.updated_at = now()
        write.session.flush()
        write = unit.reopen(ladder)
        changed, start = _changed_from(before, write.runtime)
        latest = EventRepository(write.session).latest(ladder_id)
        recomputed = (0, 0)
        if changed and latest is not None and (start is None or latest[0] >= start):
            recomputed = recompute(write, start)
        write.publish(feed.SEASON_CHANGED, ("season", season_id))
        # The season as it stands now, or as it stood (deleted).
        shown_in = seasons if any(s["id"] == season_id for s in seasons) else stored
        out = SeasonChanged(
            **shown(shown_in, season_id, ladder_id).model_dump(),
            recomputed_events=recomputed[0],
            recomputed_players=recomputed[1],
        )
        return out, ladder.system

    changed, system = run_write(db, work, lock=Lock.EXCLUSIVE)
    metrics.record_recomputed(ladder_id, system, changed.recomputed_events)
    return changed


def _start(season: Mapping[str, Any]) -> datetime:
    return datetime.fromisoformat(season["starts_at"])


def announce_started(db: Database, at: datetime) -> int:
    """Publish a ``season.started`` feed item for every season whose start has come by
    ``at`` and that no item announced yet; the number published. Run by every process's
    feed dispatcher (app/services/delivery.py): each ladder's are marked and published in
    one write holding the ladder, so two processes never announce a season twice. The item
    lists no rating: a reset changes no stored state (it is read through, docs/ranked.md)."""

    def due(seasons: Sequence[Mapping[str, Any]]) -> list[str]:
        found = [
            s["id"]
            for s in seasons
            if not schedule.is_schedule(s) and not s.get(ANNOUNCED, True) and _start(s) <= at
        ]
        for s in seasons:
            if schedule.is_schedule(s):
                since = datetime.fromisoformat(s[ANNOUNCED_UNTIL])
                found += [
                    o["id"]
                    for o in schedule.expand(seasons, at)
                    if o.get(schedule.SCHEDULE) == s["id"] and since < _start(o) <= at
                ]
        return found

    found = db.run(lambda session: LadderRepository(session).seasons(), write=False)
    published = 0
    for ladder_id, seasons in found:
        if not due(seasons):
            continue

        def work(unit: UnitOfWork, ladder_id: str = ladder_id) -> int:
            write = unit.ladder(ladder_id)
            ladder = write.ladder
            stored = list(ladder.seasons or [])
            ids = due(stored)
            if ids:
                ladder.seasons = [
                    {**s, ANNOUNCED_UNTIL: at.isoformat()}
                    if schedule.is_schedule(s)
                    else {**s, ANNOUNCED: True}
                    if s["id"] in ids
                    else s
                    for s in stored
                ]
                write.session.flush()
                for season_id in ids:
                    write.publish(feed.SEASON_STARTED, ("season", season_id), feed.Moved())
            return len(ids)

        published += run_write(db, work, lock=Lock.EXCLUSIVE)
    return published
