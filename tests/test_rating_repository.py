"""RatingRepository reads that a replay leans on."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import Ladder, PlayerRating
from app.repositories.events import EventRepository
from app.repositories.ratings import CurrentRow, RatingRepository

STAMP = datetime(2026, 1, 1, tzinfo=UTC)
PLAYED = datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
#: A state whose float has 17 significant digits: read back through JSON text, exactly.
STATE = {"rating": 1516.0000000000002, "deviation": None, "volatility": None, "extra": {"k": [1]}}


def test_rows_read_by_the_stream_thread_equal_the_rows_read_directly(
    database: Database,
) -> None:
    """On SQLite the stream's thread reads the same starting rows as the session does (none
    for a key without a row); on PostgreSQL there is no such read."""
    ladder = f"rows-{uuid.uuid4().hex}"
    stored = {
        ("a", ""): {"last_change_id": 7, "last_event_at": PLAYED, "last_event_seq": 3,
                    "games": 5, "wins": 2, "draws": 1, "losses": 2, "last_played_at": PLAYED},
        ("a", "France"): {"last_change_id": None, "last_event_at": None,
                          "last_event_seq": None, "games": 0, "wins": 0, "draws": 0,
                          "losses": 0, "last_played_at": None},
    }  # fmt: skip
    keys = [*stored, ("nobody", "")]

    def work(session: Session) -> tuple[dict[object, object], dict[object, object] | None]:
        session.add(
            Ladder(id=ladder, system="elo", params={}, state={}, created_at=STAMP, updated_at=STAMP)
        )
        for (player, faction), values in stored.items():
            session.add(
                PlayerRating(
                    ladder_id=ladder, player=player, faction=faction, rating=1516.0, state=STATE,
                    **values,
                )
            )  # fmt: skip
        session.flush()
        ratings = RatingRepository(session)
        direct = ratings.current_rows(ladder, keys)
        with EventRepository(session).change_stream() as stream:
            read = ratings.current_rows_beside(stream, ladder, keys)
            beside = None if read is None else read()
        fields = CurrentRow._fields
        return (
            {key: tuple(getattr(row, name) for name in fields) for key, row in direct.items()},
            None if beside is None else {key: tuple(row) for key, row in beside.items()},
        )

    direct, beside = database.run(work)
    expected = {
        key: (STATE, *(values[name] for name in CurrentRow._fields[1:]))
        for key, values in stored.items()
    }
    assert direct == expected
    if database.is_sqlite:
        assert beside == expected
    else:
        assert beside is None
