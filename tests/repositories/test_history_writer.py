"""The history writer's contract, on both databases: ids drawn in order and never twice,
rows read back exactly as written, rating updates that set their columns and nothing else,
and a unique-key violation raised as SQLAlchemy's IntegrityError (which the transaction
runner retries)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import Change, Event, Ladder, PlayerRating
from app.repositories.history import CHANGE_COLUMNS, EVENT_COLUMNS, history_writer

STAMP = datetime(2026, 1, 1, tzinfo=UTC)
PLAYED = datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
#: Floats with 17 significant digits and non-ASCII text: read back through JSON exactly.
STATE = {
    "rating": 1516.0000000000002,
    "deviation": None,
    "volatility": None,
    "extra": {"k": [1, 0.1], "name": "Zoë"},
}
DETAILS = {"expected": 0.5000000000000001, "k": 32.0, "note": "tab\there, newline\nthere"}


def _ladder(session: Session, ladder_id: str) -> None:
    session.add(
        Ladder(id=ladder_id, system="elo", params={}, state={}, created_at=STAMP, updated_at=STAMP)
    )
    session.flush()


def _event(seq: int, external_id: str, ladder_id: str = "club") -> dict[str, Any]:
    return {
        "seq": seq,
        "ladder_id": ladder_id,
        "kind": "game",
        "external_id": external_id,
        "occurred_at": PLAYED,
        "body": {"id": external_id, "players": [{"player": "Zoë", "rank": 1}]},
        "body_hash": "0" * 64,
        "rated": True,
        "tournament": None,
        "created_at": STAMP,
    }


def _change(change_id: int, seq: int, prev: int | None, player: str) -> dict[str, Any]:
    return {
        "id": change_id,
        "ladder_id": "club",
        "event_seq": seq,
        "player": player,
        "faction": "",
        "position": 0,
        "rank": 1,
        "team": None,
        "outcome": "win",
        "occurred_at": PLAYED,
        "seq": seq,
        "rating_before": 1500.0,
        "rating_after": 1516.0000000000002,
        "deviation_before": None,
        "deviation_after": None,
        "volatility_before": None,
        "volatility_after": None,
        "state_after": STATE,
        "details": DETAILS,
        "prev_change_id": prev,
    }


def test_drawn_ids_increase_and_are_never_drawn_twice(database: Database) -> None:
    """One kind at a time or both at once (``draw``), one after another."""

    def work(session: Session) -> list[tuple[list[int], list[int]]]:
        writer = history_writer(session)
        return [
            (writer.draw_seqs(3), writer.draw_change_ids(4)),
            writer.draw(2, 5),
            (writer.draw_seqs(2), writer.draw_change_ids(1)),
            writer.draw(0, 2),
            writer.draw(1, 0),
        ]

    draws = database.run(work)
    assert [(len(seqs), len(ids)) for seqs, ids in draws] == [
        (3, 4),
        (2, 5),
        (2, 1),
        (0, 2),
        (1, 0),
    ]
    for drawn in ([s for seqs, _ in draws for s in seqs], [i for _, ids in draws for i in ids]):
        assert drawn == sorted(drawn)
        assert len(set(drawn)) == len(drawn)


def test_rows_read_back_as_written(database: Database) -> None:
    def work(session: Session) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        _ladder(session, "club")
        writer = history_writer(session)
        seqs = writer.draw_seqs(2)
        ids = writer.draw_change_ids(2)
        events = [_event(seqs[0], "g1"), _event(seqs[1], "g2")]
        changes = [_change(ids[0], seqs[0], None, "Zoë"), _change(ids[1], seqs[1], ids[0], "Zoë")]
        writer.write_events(events)
        writer.write_changes(changes)
        writer.flush()
        session.expire_all()
        stored_events = [
            {name: getattr(e, name) for name in EVENT_COLUMNS}
            for e in session.query(Event).order_by(Event.seq)
        ]
        stored_changes = [
            {name: getattr(c, name) for name in CHANGE_COLUMNS}
            for c in session.query(Change).order_by(Change.id)
        ]
        assert stored_events == events
        assert stored_changes == changes
        return stored_events, stored_changes

    _events, changes = database.run(work)
    assert [c["prev_change_id"] for c in changes] == [None, changes[0]["id"]]
    assert changes[1]["state_after"]["rating"] == 1516.0000000000002


def test_rating_updates_set_their_columns_and_nothing_else(database: Database) -> None:
    """Two rows with the same columns in one call, a third with others in another; the same
    player in another ladder keeps its row."""
    new_state = {**STATE, "rating": 1484.0000000000002}

    def work(session: Session) -> dict[tuple[str, str, str], tuple[object, ...]]:
        _ladder(session, "club")
        _ladder(session, "other")
        for name, player in (("club", "a"), ("club", "b"), ("club", "c"), ("other", "a")):
            session.add(
                PlayerRating(ladder_id=name, player=player, faction="", rating=1500.0, state={})
            )
        session.flush()
        writer = history_writer(session)
        writer.update_ratings(
            "club",
            [
                {"player": "a", "faction": "", "rating": 1484.0000000000002, "state": new_state,
                 "last_played_at": PLAYED, "games": 1},
                {"player": "b", "faction": "", "rating": 1516.0, "state": STATE,
                 "last_played_at": None, "games": 2},
            ],
        )  # fmt: skip
        writer.update_ratings("club", [{"player": "c", "faction": "", "wins": 3}])
        writer.flush()
        session.expire_all()
        return {
            (row.ladder_id, row.player, row.faction): (
                row.rating, row.state, row.last_played_at, row.games, row.wins
            )
            for row in session.query(PlayerRating)
        }  # fmt: skip

    assert database.run(work) == {
        ("club", "a", ""): (1484.0000000000002, new_state, PLAYED, 1, 0),
        ("club", "b", ""): (1516.0, STATE, None, 2, 0),
        ("club", "c", ""): (1500.0, {}, None, 0, 3),
        ("other", "a", ""): (1500.0, {}, None, 0, 0),
    }


def test_a_taken_event_id_is_an_integrity_error(database: Database) -> None:
    """Raised by the write, or (held back) by the flush that sends it."""
    with database.session(write=True) as session:
        _ladder(session, "club")
        writer = history_writer(session)
        writer.write_events([_event(writer.draw_seqs(1)[0], "g1")])
        writer.flush()

    def again() -> None:
        with database.session(write=True) as session:
            writer = history_writer(session)
            writer.write_events([_event(writer.draw_seqs(1)[0], "g1")])
            writer.flush()

    with pytest.raises(IntegrityError):
        again()


def test_writes_are_committed_and_a_rollback_drops_them(database: Database) -> None:
    """Written and flushed just before the commit: stored. Written and rolled back: not sent
    with the next transaction either (it may run on the same connection)."""
    with database.session(write=True) as session:
        _ladder(session, "club")
        writer = history_writer(session)
        [seq] = writer.draw_seqs(1)
        [change_id] = writer.draw_change_ids(1)
        writer.write_events([_event(seq, "kept")])
        writer.write_changes([_change(change_id, seq, None, "Zoë")])
        writer.flush()
    for _attempt in range(3):
        with database.session(write=True) as session:
            writer = history_writer(session)
            writer.write_events([_event(writer.draw_seqs(1)[0], "dropped")])
            session.rollback()
        with database.session(write=True) as session:
            history_writer(session).flush()
    with database.session(write=False) as session:
        assert [e.external_id for e in session.query(Event)] == ["kept"]
        assert [c.id for c in session.query(Change)] == [change_id]


def test_many_rows_read_back_as_written(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past what PostgreSQL holds back, the rest of a write streams; both parts arrive, and
    a rating update after them sees the changes it names."""
    monkeypatch.setattr("app.repositories.history.HELD_ROWS", 3)

    def work(session: Session) -> tuple[list[int], list[int], tuple[object, ...]]:
        _ladder(session, "club")
        session.add(
            PlayerRating(ladder_id="club", player="Zoë", faction="", rating=1500.0, state={})
        )
        session.flush()
        writer = history_writer(session)
        seqs = writer.draw_seqs(2)
        ids = writer.draw_change_ids(4)
        writer.write_events([_event(seqs[0], "g1"), _event(seqs[1], "g2")])
        prev = [None, *ids[:-1]]
        writer.write_changes(
            _change(i, seqs[n // 2], p, "Zoë")
            for n, (i, p) in enumerate(zip(ids, prev, strict=True))
        )
        writer.update_ratings("club", [{"player": "Zoë", "faction": "", "last_change_id": ids[-1]}])
        writer.flush()
        row = session.query(PlayerRating).one()
        return (
            [e.seq for e in session.query(Event).order_by(Event.seq)],
            [c.id for c in session.query(Change).order_by(Change.id)],
            (row.last_change_id,),
        )

    with database.session(write=True) as session:
        events, changes, rating = work(session)
    assert len(events) == 2
    assert len(changes) == 4
    assert rating == (changes[-1],)


def test_a_streaming_transaction_streams_its_later_pages_and_the_next_holds_again(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a transaction has gone past what PostgreSQL holds back, its later pages go by
    COPY at once, after what was held (a change's event first); the next transaction starts
    afresh. Every row of both arrives, and the changes keep their chain."""
    monkeypatch.setattr("app.repositories.history.HELD_ROWS", 3)
    with database.session(write=True) as session:
        _ladder(session, "club")
        writer = history_writer(session)
        seqs = writer.draw_seqs(3)
        ids = writer.draw_change_ids(5)
        writer.write_events([_event(seqs[0], "g1"), _event(seqs[1], "g2")])
        prev = [None, *ids[:3]]
        writer.write_changes(  # past the 3 held rows: the transaction streams from here
            _change(i, seqs[n // 2], p, "Zoë")
            for n, (i, p) in enumerate(zip(ids[:4], prev, strict=True))
        )
        writer.write_events([_event(seqs[2], "g3")])  # a later page, small
        writer.write_changes([_change(ids[4], seqs[2], ids[3], "Zoë")])
        writer.flush()
    with database.session(write=True) as session:
        writer = history_writer(session)
        [seq] = writer.draw_seqs(1)
        [change_id] = writer.draw_change_ids(1)
        writer.write_events([_event(seq, "g4")])
        writer.write_changes([_change(change_id, seq, ids[4], "Zoë")])
        writer.flush()
    with database.session(write=False) as session:
        assert [e.external_id for e in session.query(Event).order_by(Event.seq)] == [
            "g1", "g2", "g3", "g4"
        ]  # fmt: skip
        chain = [(c.id, c.prev_change_id) for c in session.query(Change).order_by(Change.id)]
        assert chain == list(zip([*ids, change_id], [None, *ids], strict=True))
