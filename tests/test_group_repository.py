"""Pure parts of the group commit's repository (app/repositories/groups.py)."""

from __future__ import annotations

from collections import namedtuple
from datetime import UTC, datetime, timedelta, timezone

from app.repositories.groups import _in_utc

#: A rating row as the driver returns it in a session whose time zone is UTC+9.
Row = namedtuple("Row", ["player", "last_event_at", "last_played_at", "rating"])
TOKYO = timezone(timedelta(hours=9))


def test_rating_rows_come_back_in_utc_as_the_orm_gives_them() -> None:
    local = datetime(2026, 11, 30, 9, 0, tzinfo=TOKYO)
    row = _in_utc(Row("A", local, None, 1500.0))
    assert row.last_event_at == datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
    assert row.last_event_at.utcoffset() == timedelta(0)
    assert row.last_played_at is None
    assert (row.player, row.rating) == ("A", 1500.0)
