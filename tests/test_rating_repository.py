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


def test_update_many_writes_each_rows_columns_and_nothing_else(database: Database) -> None:
    """Two rows with the same columns (one statement joined to their values on SQLite), a
    third with others; the same player in another ladder keeps its row."""
    ladder, other = f"upd-{uuid.uuid4().hex}", f"other-{uuid.uuid4().hex}"
    new_state = {**STATE, "rating": 1484.0000000000002}

    def work(session: Session) -> dict[tuple[str, str, str], tuple[object, ...]]:
        for name in (ladder, other):
            session.add(
                Ladder(
                    id=name, system="elo", params={}, state={}, created_at=STAMP, updated_at=STAMP
                )
            )
        for name, player in ((ladder, "a"), (ladder, "b"), (ladder, "c"), (other, "a")):
            session.add(
                PlayerRating(ladder_id=name, player=player, faction="", rating=1500.0, state={})
            )
        session.flush()
        RatingRepository(session).update_many(
            ladder,
            [
                {"player": "a", "faction": "", "rating": 1484.0000000000002, "state": new_state,
                 "last_played_at": PLAYED, "games": 1},
                {"player": "b", "faction": "", "rating": 1516.0, "state": STATE,
                 "last_played_at": None, "games": 2},
                {"player": "c", "faction": "", "wins": 3},
            ],
        )  # fmt: skip
        session.expire_all()
        return {
            (row.ladder_id, row.player, row.faction): (
                row.rating, row.state, row.last_played_at, row.games, row.wins
            )
            for row in session.query(PlayerRating).filter(
                PlayerRating.ladder_id.in_([ladder, other])
            )
        }  # fmt: skip

    assert database.run(work) == {
        (ladder, "a", ""): (1484.0000000000002, new_state, PLAYED, 1, 0),
        (ladder, "b", ""): (1516.0, STATE, None, 2, 0),
        (ladder, "c", ""): (1500.0, {}, None, 0, 3),
        (other, "a", ""): (1500.0, {}, None, 0, 0),
    }
