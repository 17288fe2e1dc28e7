"""EventRepository lookups that bulk imports lean on."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.core.database import Database
from app.models import Ladder
from app.repositories.events import IDS_PER_ARRAY, IDS_PER_QUERY, EventRepository, LiveRow
from app.repositories.history import history_writer

STAMP = datetime(2026, 1, 1, tzinfo=UTC)
#: More ids than one lookup query takes on either database.
MANY = max(IDS_PER_ARRAY, IDS_PER_QUERY) + 1


def test_find_many_finds_stored_ids_among_many_and_none_in_an_empty_ladder(
    database: Database,
) -> None:
    empty, stored = f"empty-{uuid.uuid4().hex}", f"stored-{uuid.uuid4().hex}"
    keys = [("game", f"g{n}") for n in range(MANY)]

    def work(session: Session) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
        for ladder in (empty, stored):
            session.add(
                Ladder(
                    id=ladder, system="elo", params={}, state={}, created_at=STAMP, updated_at=STAMP
                )
            )
        session.flush()
        events = EventRepository(session)
        last = keys[-1][1]  # in the last slice of the lookup
        writer = history_writer(session)
        writer.write_events(
            [
                {
                    "seq": seq,
                    "ladder_id": stored,
                    "kind": "game",
                    "external_id": external_id,
                    "occurred_at": STAMP,
                    "body": {},
                    "body_hash": "0" * 64,
                    "rated": True,
                    "tournament": None,
                    "created_at": STAMP,
                }
                for external_id, seq in zip(("g0", last), writer.draw_seqs(2), strict=True)
            ]
        )
        writer.flush()
        assert events.has_events(stored)
        assert not events.has_events(empty)
        return set(events.find_many(empty, keys)), set(events.find_many(stored, keys))

    in_empty, in_stored = database.run(work)
    assert in_empty == set()
    assert in_stored == {("game", "g0"), ("game", f"g{MANY - 1}")}


def test_a_live_row_parses_its_document_and_names_its_event() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    game = LiveRow(7, "game", "g1", at, True, '{"id": "g1", "players": [{"player": "a"}]}')
    assert game.body == {"id": "g1", "players": [{"player": "a"}]}
    assert game.body is not game.body  # parsed on each read: a caller may change its copy
    assert game.name == "game g1"
    # An adjustment made through the API has no client id: its seq names it.
    adjustment = LiveRow(8, "adjustment", None, at, True, '{"player": "a", "rating": 1500}')
    assert adjustment.name == "adjustment 8"
    # What orjson refuses but the column may hold is read as json.loads reads it.
    assert LiveRow(9, "game", "g2", at, True, '{"big": 1e400}').body == {"big": math.inf}
