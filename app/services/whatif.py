"""What-if: replay a ladder's history under another system or parameters, storing nothing.

Maintainers compare systems on the same data: the current leaderboard and the one the
proposed configuration would give, side by side.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid
from app.engine.ledger import replay, shown
from app.engine.types import LadderEvent, PlayerKey, PlayerState
from app.models import NO_FACTION
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.ladders import Configuration, Placing, WhatIfEntry, WhatIfIn, WhatIfOut
from app.services import snapshots
from app.services.conversion import stored_to_engine
from app.services.history import EVENT_PAGE, validate
from app.services.runtime import (
    Runtime,
    configure,
    engine_refusals,
    plain,
    require_ladder,
    runtime_for,
)


def _replay(
    session: Session, ladder_id: str, proposed: Runtime
) -> tuple[int, list[snapshots.Entry]]:
    """The proposed leaderboard: the live history replayed under ``proposed``."""
    rating = [""]  # the event being rated, named in a refusal

    def events() -> Iterator[LadderEvent]:
        for page in EventRepository(session).live_rows(ladder_id, None, EVENT_PAGE):
            for row in page:
                rating[0] = f"{row.kind} {row.external_id or row.seq}"
                event = stored_to_engine(row.kind, row.body, proposed.info.per_faction)
                validate(proposed, event)
                yield event

    states: dict[PlayerKey, PlayerState] = {}
    ladder_state: Any = plain(proposed.rater.initial_ladder_state())
    replayed = 0
    try:
        with engine_refusals():
            for step in replay(proposed.info, proposed.rater, events(), None, ladder_state):
                ladder_state = step.outcome.ladder_state
                for change in step.outcome.changes:
                    states[change.key] = change.after
                replayed += 1
    except Invalid as exc:
        because = f"{rating[0]} cannot be rated by {proposed.info.id!r}: "
        raise Invalid(
            because + exc.detail,
            errors=[replace(e, msg=because + e.msg) for e in exc.errors],
        ) from exc
    entries = [
        snapshots.Entry(key.player, key.faction, shown(proposed.rater, state, ladder_state))
        for key, state in states.items()
    ]
    return replayed, entries


def _current(session: Session, ladder_id: str, runtime: Runtime) -> list[snapshots.Entry]:
    return [
        snapshots.Entry(
            row.player,
            None if row.faction == NO_FACTION else row.faction,
            snapshots.Standing(
                row.rating, row.deviation, row.volatility, row.ranking_value, row.tiebreak
            ),
        )
        for row in RatingRepository(session).all_of_ladder(ladder_id)
    ]


def what_if(db: Database, ladder_id: str, body: WhatIfIn) -> WhatIfOut:
    def work(session: Session) -> WhatIfOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        current = runtime_for(ladder)
        system = body.system or ladder.system
        # The same system keeps the ladder's parameters under the proposed ones; another
        # system starts from its own defaults.
        base: dict[str, Any] = dict(ladder.params) if system == ladder.system else {}
        proposed = configure(system, {**base, **(body.params or {})})
        if proposed.info.kind != current.info.kind:
            raise Invalid.at(
                ("system",),
                f"{system!r} rates {proposed.info.kind}s; this ladder holds {current.info.kind}s",
            )
        replayed, proposed_entries = _replay(session, ladder_id, proposed)
        now_board = {
            (e.player, e.faction): (pos, e)
            for pos, e in snapshots.ranked(
                _current(session, ladder_id, current), current.info.rank_by
            )
        }
        new_board = {
            (e.player, e.faction): (pos, e)
            for pos, e in snapshots.ranked(proposed_entries, proposed.info.rank_by)
        }
        entries = []
        for key in sorted(
            set(now_board) | set(new_board),
            key=lambda k: (
                now_board[k][0] if k in now_board else len(now_board) + 1,
                new_board[k][0] if k in new_board else len(new_board) + 1,
                k[0],
                k[1] or "",
            ),
        ):
            before = now_board.get(key)
            after = new_board.get(key)
            entries.append(
                WhatIfEntry(
                    player=key[0],
                    faction=key[1],
                    current=Placing(position=before[0], rating=before[1].standing.rating)
                    if before
                    else None,
                    proposed=Placing(position=after[0], rating=after[1].standing.rating)
                    if after
                    else None,
                    rating_difference=after[1].standing.rating - before[1].standing.rating
                    if before and after
                    else None,
                    position_difference=before[0] - after[0] if before and after else None,
                )
            )
        return WhatIfOut(
            ladder=ladder_id,
            current=Configuration(system=ladder.system, params=dict(ladder.params)),
            proposed=Configuration(system=system, params=plain(proposed.rater.params)),
            events=replayed,
            entries=entries,
        )

    return db.run(work, write=False)
