"""What-if: replay a ladder's history under another system or parameters, storing nothing.

Maintainers compare systems on the same data: the current leaderboard and the one the
proposed configuration would give, side by side.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid
from app.engine.errors import arithmetic_refused
from app.engine.ledger import PLAYERS, replay, shown
from app.engine.protocols import WholeHistoryRater, key_for
from app.engine.types import Game, LadderEvent, PlayerKey, PlayerState
from app.models import NO_FACTION, Ladder
from app.repositories.events import EventRepository, LiveRow
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.ladders import Configuration, Placing, WhatIfEntry, WhatIfIn, WhatIfOut
from app.services import snapshots
from app.services.conversion import stored_to_engine
from app.services.heavy import Cancel
from app.services.history import EVENT_PAGE, validate
from app.services.runtime import (
    Runtime,
    configure,
    engine_refusals,
    plain,
    require_ladder,
    runtime_for,
)

#: Events replayed between two checks that the client is still there.
EVENTS_PER_CHECK = 1_000


@dataclass(frozen=True, slots=True)
class _History:
    """What a what-if reads, in one short transaction: the replay needs no connection."""

    ladder: Ladder
    current: list[snapshots.Entry]
    #: The live events in history order.
    events: list[LiveRow]


def _read(session: Session, ladder_id: str) -> _History:
    ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
    current = [
        snapshots.Entry(
            player,
            None if faction == NO_FACTION else faction,
            snapshots.Standing(rating, deviation, volatility, ranking_value, tiebreak),
        )
        for player, faction, rating, deviation, volatility, ranking_value, tiebreak in (
            RatingRepository(session).standings_of_ladder(ladder_id)
        )
    ]
    events = [
        row
        for page in EventRepository(session).live_rows(ladder_id, None, EVENT_PAGE)
        for row in page
    ]
    return _History(ladder, current, events)


def _replay(
    history: _History, proposed: Runtime, cancel: Cancel
) -> tuple[int, list[snapshots.Entry]]:
    """The proposed leaderboard: the live history replayed under ``proposed``."""
    rating = [0]  # the index of the event being rated, named in a refusal

    def events() -> Iterator[LadderEvent]:
        for index, row in enumerate(history.events):
            if index % EVENTS_PER_CHECK == 0:
                cancel.check()
            rating[0] = index
            event = stored_to_engine(row.kind, row.body, proposed.info.per_faction)
            validate(proposed, event)
            yield event

    states: dict[PlayerKey, PlayerState] = {}
    ladder_state: Any = plain(proposed.rater.initial_ladder_state())
    replayed = 0
    try:
        with engine_refusals():
            if proposed.info.whole_history:
                replayed = _fit(proposed, events(), states)
            else:
                for step in replay(proposed.info, proposed.rater, events(), None, ladder_state):
                    ladder_state = step.outcome.ladder_state
                    for change in step.outcome.changes:
                        states[change.key] = change.after
                    replayed += 1
    except Invalid as exc:
        because = f"{history.events[rating[0]].name} cannot be rated by {proposed.info.id!r}: "
        raise Invalid(
            because + exc.detail,
            errors=[replace(e, msg=because + e.msg) for e in exc.errors],
        ) from exc
    entries = [
        snapshots.Entry(key.player, key.faction, shown(proposed.rater, state, ladder_state))
        for key, state in states.items()
    ]
    return replayed, entries


def _fit(
    proposed: Runtime, events: Iterator[LadderEvent], states: dict[PlayerKey, PlayerState]
) -> int:
    """A whole-history system's leaderboard: the fit of the whole live history, each player
    at its last curve point, as the service serves it (a player whose games are all unrated:
    the initial state). Returns the events read."""
    rater = cast(WholeHistoryRater, proposed.rater)
    games: list[Game] = []
    count = 0
    for event in events:
        count += 1
        if isinstance(event, Game):
            if event.rated:
                games.append(event)
            initial = rater.initial_state({})
            for p in event.participants:
                states.setdefault(key_for(proposed.info, p.player, p.faction), initial)
    with arithmetic_refused(PLAYERS):
        fit = rater.fit(games)
    for key, curve in fit.curves.items():
        if curve:
            states[key] = rater.state_of(curve[-1])
    return count


def what_if(
    db: Database, ladder_id: str, body: WhatIfIn, cancel: Cancel | None = None
) -> WhatIfOut:
    """The ladder's history replayed under ``body``'s system and parameters beside its own
    leaderboard. The history is read in one short transaction; the replay holds no
    connection and stops (``Abandoned``) once ``cancel`` says the client has gone."""
    history = db.run(lambda session: _read(session, ladder_id), write=False, heavy=True)
    ladder = history.ladder
    current = runtime_for(ladder)
    system = body.system or ladder.system
    # The same system keeps the ladder's parameters under the proposed ones; another
    # system starts from its own defaults.
    base: dict[str, Any] = dict(ladder.params) if system == ladder.system else {}
    # The ladder's seasons stay: their resets are part of its history.
    proposed = configure(system, {**base, **(body.params or {})}, ladder.seasons)
    if proposed.info.kind != current.info.kind:
        raise Invalid.at(
            ("system",),
            f"{system!r} rates {proposed.info.kind}s; this ladder holds {current.info.kind}s",
        )
    replayed, proposed_entries = _replay(history, proposed, cancel or Cancel())
    now_board = {
        (e.player, e.faction): (pos, e)
        for pos, e in snapshots.ranked(history.current, current.info.rank_by)
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
        proposed=Configuration(system=system, params=proposed.params),
        events=replayed,
        entries=entries,
    )
