"""The schema itself refuses a change that does not fit its history (migrations at head)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from app.core.database import Database
from app.models import Change, Event, Ladder

AT = datetime(2026, 11, 30, tzinfo=UTC)


def _ladder(connection: Connection, ladder_id: str) -> None:
    connection.execute(
        insert(Ladder).values(
            id=ladder_id, system="elo", params={}, state={}, created_at=AT, updated_at=AT
        )
    )


def _event(connection: Connection, ladder_id: str, external_id: str) -> int:
    return int(
        connection.execute(
            insert(Event)
            .values(
                ladder_id=ladder_id,
                kind="game",
                external_id=external_id,
                occurred_at=AT,
                body={},
                body_hash="0" * 64,
                created_at=AT,
            )
            .returning(Event.seq)
        ).scalar_one()
    )


def _change(ladder_id: str, event_seq: int, prev_change_id: int | None) -> dict[str, Any]:
    return {
        "ladder_id": ladder_id,
        "event_seq": event_seq,
        "player": "A",
        "faction": "",
        "position": 1,
        "occurred_at": AT,
        "seq": event_seq,
        "rating_before": 1500.0,
        "rating_after": 1516.0,
        "state_after": {},
        "details": {},
        "prev_change_id": prev_change_id,
    }


def test_a_change_must_name_the_ladder_of_its_event(database: Database) -> None:
    with database.engine.begin() as connection:
        _ladder(connection, "club")
        _ladder(connection, "other")
        seq = _event(connection, "club", "g1")
    with pytest.raises(IntegrityError), database.engine.begin() as connection:
        connection.execute(insert(Change).values(_change("other", seq, None)))
    with database.engine.begin() as connection:  # its own ladder: accepted
        connection.execute(insert(Change).values(_change("club", seq, None)))


def test_a_rating_has_one_start_and_each_change_one_successor(database: Database) -> None:
    with database.engine.begin() as connection:
        _ladder(connection, "club")
        first, second, third = (_event(connection, "club", name) for name in ("g1", "g2", "g3"))
        start = connection.execute(
            insert(Change).values(_change("club", first, None)).returning(Change.id)
        ).scalar_one()
        connection.execute(insert(Change).values(_change("club", second, start)))
    with pytest.raises(IntegrityError), database.engine.begin() as connection:
        connection.execute(insert(Change).values(_change("club", third, None)))  # a 2nd start
    with pytest.raises(IntegrityError), database.engine.begin() as connection:
        connection.execute(insert(Change).values(_change("club", third, start)))  # a fork
