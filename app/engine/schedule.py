"""A recurring season schedule (docs/ranked.md "Recurring seasons"): a season stored with
``repeat`` ``{"every": N, "unit": "days" | "weeks" | "months"}`` stands for a season starting
at its ``starts_at`` (the anchor) and every N days, weeks or months after it, each with the
schedule's reset and ``best_of``.

The schedule is expanded into the plain seasons the rest of the service already reads
(:func:`expand`): at any time ``at``, the occurrences that have started by then and the next
one (so the current one has an end and the coming one is listed). A reset is read through when
a state is read, never stored, so a season that starts later is taken into account by the
reads after it with nothing written then, as an explicit season to come is.

Months (the rule game sites' monthly ladders and calendar libraries such as python-dateutil's
``relativedelta`` follow): the k-th occurrence is the anchor moved k·N calendar months, on the
anchor's day of the month or, where that month is shorter, on its last day, at the anchor's
time of day (UTC). Each occurrence is counted from the anchor, not from the one before, so a
schedule anchored on 31 January runs 31 Jan, 28 (29) Feb, 31 Mar, 30 Apr, … and never drifts
to the 28th.
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from app.engine.errors import InvalidParameter
from app.engine.types import Json

Unit = Literal["days", "weeks", "months"]
UNITS: tuple[Unit, ...] = ("days", "weeks", "months")
#: The longest step a schedule takes (100 years in any unit is more than any ladder needs).
MAX_EVERY = {"days": 36_600, "weeks": 5_300, "months": 1_200}
#: The key of a stored season that makes it a schedule, and of an occurrence naming its
#: schedule.
REPEAT, SCHEDULE = "repeat", "schedule"


@dataclass(frozen=True, slots=True)
class Repeat:
    every: int
    unit: Unit

    def as_json(self) -> dict[str, Json]:
        return {"every": self.every, "unit": self.unit}


def parse_repeat(value: Json) -> Repeat:
    """A schedule's ``repeat``: ``{"every": N ≥ 1, "unit": "days" | "weeks" | "months"}``."""
    if not isinstance(value, Mapping) or set(value) != {"every", "unit"}:
        raise InvalidParameter("repeat", 'must be {"every": N, "unit": "days|weeks|months"}')
    unit = value["unit"]
    if unit not in UNITS:
        raise InvalidParameter("repeat.unit", f"must be one of {', '.join(UNITS)}")
    every = value["every"]
    if isinstance(every, bool) or not isinstance(every, int):
        raise InvalidParameter("repeat.every", "must be an integer")
    if not 1 <= every <= MAX_EVERY[unit]:
        raise InvalidParameter("repeat.every", f"must be between 1 and {MAX_EVERY[unit]}")
    return Repeat(every, unit)


def add_months(anchor: datetime, months: int) -> datetime:
    """``anchor`` moved ``months`` calendar months: the same day, or the month's last day
    where the month is shorter; the same time of day."""
    year, month = divmod(anchor.month - 1 + months, 12)
    year += anchor.year
    day = min(anchor.day, calendar.monthrange(year, month + 1)[1])
    return anchor.replace(year=year, month=month + 1, day=day)


def nth(anchor: datetime, repeat: Repeat, n: int) -> datetime:
    """The start of the ``n``-th occurrence (the anchor is the 0th)."""
    if repeat.unit == "months":
        return add_months(anchor, n * repeat.every)
    days = repeat.every * (7 if repeat.unit == "weeks" else 1)
    return anchor + timedelta(days=n * days)


def started(anchor: datetime, repeat: Repeat, at: datetime) -> int:
    """How many occurrences have started by ``at`` (start ≤ at)."""
    if at < anchor:
        return 0
    if repeat.unit == "months":
        months = (at.year - anchor.year) * 12 + at.month - anchor.month
        n = max(0, months // repeat.every)
        # The estimate counts whole calendar months: one step either way at most.
        while n > 0 and nth(anchor, repeat, n) > at:
            n -= 1
        while nth(anchor, repeat, n + 1) <= at:
            n += 1
        return n + 1
    days = repeat.every * (7 if repeat.unit == "weeks" else 1)
    return (at - anchor) // timedelta(days=days) + 1


def occurrences(anchor: datetime, repeat: Repeat, at: datetime) -> list[datetime]:
    """The starts of the occurrences that have started by ``at``, and the next one."""
    return [nth(anchor, repeat, n) for n in range(started(anchor, repeat, at) + 1)]


def occurrence_id(schedule_id: str, start: datetime) -> str:
    """An occurrence's id: its schedule's and its start's date (UTC), ``monthly-2026-02-01``;
    stable while the schedule keeps its anchor and step."""
    return f"{schedule_id}-{start.date().isoformat()}"


def is_schedule(season: Mapping[str, Any]) -> bool:
    return bool(season.get(REPEAT))


def horizon(stored: Sequence[Mapping[str, Any]] | None, at: datetime) -> datetime | None:
    """The latest occurrence start at or before ``at`` of any schedule in ``stored`` (None:
    none). :func:`expand` gives the same seasons at ``at`` and at its horizon, so a ladder's
    configuration can be cached by it."""
    latest: datetime | None = None
    for season in stored or ():
        if is_schedule(season):
            anchor = datetime.fromisoformat(season["starts_at"])
            repeat = parse_repeat(season[REPEAT])
            count = started(anchor, repeat, at)
            if count:
                start = nth(anchor, repeat, count - 1)
                latest = start if latest is None or start > latest else latest
    return latest


def expand(stored: Sequence[Mapping[str, Any]] | None, at: datetime) -> list[dict[str, Any]]:
    """A ladder's stored seasons as plain seasons by start, as read at ``at``: each schedule
    replaced by its occurrences started by ``at`` and its next one (``{"id", "name",
    "starts_at", "reset", "best_of", "schedule"}``). An explicit season starting at an
    occurrence's instant takes its place (one season differs from the schedule)."""
    explicit = [dict(season) for season in stored or () if not is_schedule(season)]
    taken = {datetime.fromisoformat(season["starts_at"]) for season in explicit}
    found = list(explicit)
    for season in stored or ():
        if not is_schedule(season):
            continue
        anchor = datetime.fromisoformat(season["starts_at"])
        for start in occurrences(anchor, parse_repeat(season[REPEAT]), at):
            if start in taken:
                continue
            found.append(
                {
                    "id": occurrence_id(season["id"], start),
                    "name": f"{season['name']} {start.date().isoformat()}",
                    "starts_at": start.isoformat(),
                    "reset": season["reset"],
                    "best_of": season.get("best_of"),
                    SCHEDULE: season["id"],
                }
            )
    found.sort(key=lambda season: datetime.fromisoformat(season["starts_at"]))
    return found
