"""The one replay loop: events rated in history order from each rating's starting point,
through the engine's :func:`app.engine.ledger.replay`, their changes written as they are made
and the rating rows they leave written at the end. Recording one event, a group of them, a
batch or an import chunk, and recomputation all rate through :class:`Replay`, so they cannot
disagree. Writes go through the database's :class:`~app.repositories.history.HistoryWriter`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from app.engine.ledger import (
    UNRATED_DETAILS,
    event_keys,
    event_outcomes,
    event_ranks,
    event_teams,
    replay,
    shown,
)
from app.engine.protocols import Fit, WholeHistoryRater
from app.engine.types import Change, Game, LadderEvent, PlayerKey, PlayerState, Standing
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingKey, RatingRepository
from app.services.feed import Entry, Moved, entry, row_entry
from app.services.runtime import (
    Runtime,
    db_key,
    decode_state,
    encode_state,
    engine_key,
    engine_refusals,
    fresh_row,
    now,
    plain,
    state_columns,
)
from app.services.unit_of_work import LadderWrite
from app.services.whole_history import (
    EXTEND_MAX,
    WHOLE_HISTORY_DETAILS,
    extend_fit,
    fit_games,
    live_games,
    load_fit,
    store_fit,
    whole_history,
)


def db_keys(runtime: Runtime, event: LadderEvent) -> list[RatingKey]:
    return [db_key(k) for k in event_keys(runtime.info, event)]


@dataclass(frozen=True, slots=True)
class Placed:
    """Where an event stands in history."""

    seq: int
    occurred_at: datetime
    rated: bool


@dataclass(slots=True)
class Start:
    """Where a rating's replay starts: its state, chain and statistics before the first
    event replayed (no state: the system's initial one)."""

    state: PlayerState | None = None
    last_change_id: int | None = None
    last_event_at: datetime | None = None
    last_event_seq: int | None = None
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last_played_at: datetime | None = None

    def count(self, outcome: str | None, at: datetime) -> None:
        if outcome is None:
            return
        self.games += 1
        self.wins += outcome == "win"
        self.draws += outcome == "draw"
        self.losses += outcome == "loss"
        self.last_played_at = at

    def statistics(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "last_played_at": self.last_played_at,
        }


class Replay:
    """Rates events in history order from each rating's starting point, writes their
    changes as it goes, and the rating rows they leave at the end (:meth:`finish`)."""

    def __init__(
        self,
        write: LadderWrite,
        ladder_state: Any,
        lost: set[RatingKey],
        *,
        from_scratch: bool = False,
        keep: Collection[int] = (),
        per_event: bool = False,
        extends: bool = False,
    ) -> None:
        self.write = write
        self.session = write.session
        self.ladder = write.ladder
        self.runtime = write.runtime
        self.writer = write.writer
        self.ladder_state = ladder_state
        #: Events whose change rows are kept in ``write.written`` (for their responses).
        self.keep = frozenset(keep)
        #: Whether each kept event's moves are noted too (``write.moved_by_event``): a group
        #: commit publishes one feed item per game. Each rating's entry as it goes, then.
        self.per_event = per_event
        self.entries: dict[RatingKey, Entry | Any] = {}
        #: Ratings whose changes from the replay's start were deleted.
        self.lost = lost
        self.from_scratch = from_scratch
        self.starts: dict[RatingKey, Start] = {}
        #: Ratings known to have a row (read, or among ``lost``).
        self.with_rows: set[RatingKey] = set(lost)
        self.states: dict[PlayerKey, PlayerState] = {}
        #: Ratings the replay changed.
        self.changed: set[RatingKey] = set()
        self.ladder_states: list[tuple[int, Any]] = []
        self.events = 0
        #: A whole-history ladder's events of this write, rated at :meth:`finish` by a fit of
        #: the whole live history (:meth:`_finish_whole_history`).
        self.pending: list[tuple[Placed, LadderEvent]] = []
        #: The events rated are new ones after every stored event: a whole-history ladder's
        #: fit may be extended by them (:meth:`_extend_whole_history`).
        self.extends = extends

    def start_from_rows(self, rows: Mapping[RatingKey, Any]) -> None:
        """Ratings that lost no changes start from their current rows."""
        for key, row in rows.items():
            self.with_rows.add(key)
            start = Start(
                None if row.last_change_id is None else decode_state(row.state),
                row.last_change_id,
                row.last_event_at,
                row.last_event_seq,
                row.games,
                row.wins,
                row.draws,
                row.losses,
                row.last_played_at,
            )
            self._start(key, start)
            if self.per_event:
                self.entries[key] = row  # its entry is made when a game first moves it

    def _start(self, key: RatingKey, start: Start) -> None:
        self.starts[key] = start
        if start.state is not None:
            self.states[engine_key(*key)] = start.state

    def load(self, keys: Iterable[RatingKey]) -> None:
        """Bring in the starting points of ratings not seen yet: fresh in a replay from
        scratch; else from the current row when the rating lost no changes, or from its
        newest surviving change and the statistics of the others when it did."""
        wanted = sorted({k for k in keys if k not in self.starts})
        if not wanted:
            return
        if self.from_scratch:
            for key in wanted:
                self._start(key, Start())
            return
        intact = [k for k in wanted if k not in self.lost]
        self.start_from_rows(RatingRepository(self.session).rows(self.ladder.id, intact))
        lost = [k for k in wanted if k in self.lost]
        points = ChangeRepository(self.session).starting_points(self.ladder.id, lost)
        for key, (change, stats) in points.items():
            state = decode_state(change.state_after)
            self._start(key, Start(state, change.id, change.occurred_at, change.seq, **stats))
        for key in wanted:
            if key not in self.starts:
                self._start(key, Start())

    def rate(
        self,
        page: Sequence[tuple[Placed, LadderEvent]],
        change_ids: Sequence[int] | None = None,
    ) -> None:
        """Rate a page of events (their ratings started) and write their changes, keeping
        those of the events named by ``keep``. The rows go to the writer as they are made, so
        the database stores them while the next events are rated (PostgreSQL streams a large
        page by COPY). ``change_ids``: drawn already, one per change the page makes."""
        info, rater = self.runtime.info, self.runtime.rater
        if info.whole_history:
            # No event of a whole-history system is rated alone: the write's fit rates them.
            self.pending.extend(page)
            self.events += len(page)
            return
        if change_ids is None:
            change_ids = self.writer.draw_change_ids(sum(len(event_keys(info, e)) for _, e in page))
        ids = iter(change_ids)
        keep, written = self.keep, self.write.written

        def rows() -> Iterator[dict[str, Any]]:
            with engine_refusals():
                steps = replay(info, rater, [e for _, e in page], self.states, self.ladder_state)
                for (placed, event), step in zip(page, steps, strict=True):
                    made = self._change_rows(placed, event, step.outcome.changes, ids)
                    if placed.seq in keep:
                        written[placed.seq] = made
                    for change in step.outcome.changes:
                        self.states[change.key] = change.after
                    if info.ladder_scoped:
                        self.ladder_state = plain(step.outcome.ladder_state)
                        self.ladder_states.append((placed.seq, self.ladder_state))
                    self.events += 1
                    yield from made

        self.writer.write_changes(rows())

    def _change_rows(
        self, placed: Placed, event: LadderEvent, changes: Sequence[Any], ids: Iterable[int]
    ) -> list[dict[str, Any]]:
        """The ``changes`` rows of one event, each chained to its rating's previous change."""
        ranks = event_ranks(event)
        teams = event_teams(event)
        outcomes = event_outcomes(event) if placed.rated else [None] * len(ranks)
        rows = []
        # ``ids`` runs on past this event (the page's ids): zip stops at its last change.
        for position, (change, change_id) in enumerate(zip(changes, ids, strict=False)):
            key = db_key(change.key)
            start = self.starts[key]
            rows.append(
                {
                    "id": change_id,
                    "ladder_id": self.ladder.id,
                    "event_seq": placed.seq,
                    "player": key[0],
                    "faction": key[1],
                    "position": position,
                    "rank": ranks[position],
                    "team": teams[position],
                    "outcome": outcomes[position],
                    "occurred_at": placed.occurred_at,
                    "seq": placed.seq,
                    "rating_before": change.before.rating,
                    "rating_after": change.after.rating,
                    "deviation_before": change.before.deviation,
                    "deviation_after": change.after.deviation,
                    "volatility_before": change.before.volatility,
                    "volatility_after": change.after.volatility,
                    "state_after": encode_state(change.after),
                    # Frozen at the top level only, as states are (``encode_state``). From
                    # items(): a lazy ``Details`` renders its dict once, where dict() of it
                    # would look each key up through Python.
                    "details": dict(change.details.items()),
                    "prev_change_id": start.last_change_id,
                }
            )
            start.last_change_id = change_id
            start.last_event_at, start.last_event_seq = placed.occurred_at, placed.seq
            start.count(outcomes[position], placed.occurred_at)
            self.changed.add(key)
            if self.per_event and placed.seq in self.keep:
                self._note_event(placed.seq, key, change.after, start)
        return rows

    def _note_event(self, seq: int, key: RatingKey, state: PlayerState, start: Start) -> None:
        standing = shown(self.runtime.rater, state, self.ladder_state)
        after = entry(key[1], {**standing_columns(standing), **start.statistics()})
        moved = self.write.moved_by_event.setdefault(seq, Moved())
        before = self.entries.get(key)
        moved.note(key, before if isinstance(before, dict) else row_entry(before), after)
        self.entries[key] = after

    def finish(self) -> tuple[int, int]:
        """Write the rating rows the replay leaves (and the ladder's state); returns (events
        replayed, ratings rewritten)."""
        if self.runtime.info.whole_history:
            return self._finish_whole_history()
        ladder_id = self.ladder.id
        ratings = RatingRepository(self.session)
        self.load(self.lost)  # ratings that lost changes and had none replayed
        affected = self.lost | self.changed
        # A group commit notes each game's moves as it rates them (``per_event``): the
        # write's net moves would go unread.
        net = not self.per_event
        before = self._stored_entries(affected) if net else {}
        new = sorted(self.changed - self.with_rows)
        ladder_state = self.ladder.state
        ratings.ensure(ladder_id, [fresh_row(self.runtime, ladder_state, k) for k in new])
        updates: list[dict[str, Any]] = []
        orphaned: list[RatingKey] = []
        for key in sorted(affected):
            start = self.starts[key]
            state = self.states.get(engine_key(*key))
            if state is None or start.last_change_id is None:
                orphaned.append(key)  # every change it had was voided
                if net:
                    self.write.moved.note(key, before[key], None)
                continue
            update = {
                "player": key[0],
                "faction": key[1],
                **state_columns(self.runtime, state, self.ladder_state),
                "last_change_id": start.last_change_id,
                "last_event_at": start.last_event_at,
                "last_event_seq": start.last_event_seq,
                **start.statistics(),
            }
            updates.append(update)
            if net:
                self.write.moved.note(key, before[key], entry(key[1], update))
        self.writer.update_ratings(ladder_id, updates)
        ratings.delete_many(ladder_id, orphaned)
        if self.runtime.info.ladder_scoped:
            self._store_ladder_state()
        return self.events, len(affected)

    def _finish_whole_history(self) -> tuple[int, int]:
        """A whole-history ladder (``ttt``, ``whr``): new games extend the stored fit by a
        bounded update (:meth:`_extend_whole_history`); anything else refits the whole live
        history, warm from the stored fit, and serves each player's last curve point.

        The events of this write (new, corrected, late, or after a void's or a late game's
        time) get one change per player whose ``before`` is the player's served estimate
        just before this write and ``after`` the one just after it (API.md "Whole-history
        and large-field systems"); changes of earlier events are kept. Every rating row takes
        the new fit's estimate: a game moves every player it is connected to."""
        rater = whole_history(self.runtime)
        assert rater is not None
        if self.extends and not self.lost:
            extended = self._extend_whole_history(rater)
            if extended is not None:
                return extended
        return self.refit()

    def refit(self, fit: Fit | None = None, *, warm: Fit | None = None) -> tuple[int, int]:
        """:meth:`_finish_whole_history`'s refit, and the background work's
        (:func:`app.services.convergence.converge`, which passes ``fit``: the live history's
        fit, made already; else it is made here, warm from ``warm`` or the stored fit)."""
        session, ladder_id, runtime = self.session, self.ladder.id, self.runtime
        rater = whole_history(runtime)
        assert rater is not None
        ladder_state = self.ladder_state
        self.write.unit.flush()  # the live history is read back, this write's events included
        self.load(self.lost)
        if fit is None:
            fit = fit_games(
                rater,
                live_games(session, ladder_id, runtime.info.per_faction),
                warm if warm is not None else load_fit(session, ladder_id),
            )
        served = {key: rater.state_of(curve[-1]) for key, curve in fit.curves.items() if curve}
        ratings = RatingRepository(session)
        stored = {(row.player, row.faction): row for row in ratings.all_of_ladder(ladder_id)}
        initial = runtime.rater.initial_state(ladder_state)

        def before(key: RatingKey) -> PlayerState:
            row = stored.get(key)
            if row is None or row.last_change_id is None:
                return initial
            return decode_state(row.state)

        info = runtime.info
        count = sum(len(event_keys(info, event)) for _, event in self.pending)
        ids = iter(self.writer.draw_change_ids(count) if count else [])
        rows: list[dict[str, Any]] = []
        for placed, event in self.pending:
            changes = []
            for key in event_keys(info, event):
                now_key = db_key(key)
                details = WHOLE_HISTORY_DETAILS if placed.rated else UNRATED_DETAILS
                after = served.get(key, initial)
                changes.append(Change(key, before(now_key), after, details))
            made = self._change_rows(placed, event, changes, ids)
            if placed.seq in self.keep:
                self.write.written[placed.seq] = made
            rows.extend(made)
        self.writer.write_changes(iter(rows))

        affected = self.lost | self.changed
        new = sorted(self.changed - stored.keys())
        ratings.ensure(ladder_id, [fresh_row(runtime, ladder_state, k) for k in new])
        full: list[dict[str, Any]] = []
        shown_only: list[dict[str, Any]] = []
        orphaned: list[RatingKey] = []
        moved = self.write.moved
        for rkey in sorted(affected | stored.keys()):
            row = stored.get(rkey)
            state = served.get(engine_key(*rkey), initial)
            columns = state_columns(runtime, state, ladder_state)
            if rkey in affected:
                start = self.starts[rkey]
                if start.last_change_id is None:
                    orphaned.append(rkey)  # every change it had was voided
                    moved.note(rkey, row_entry(row), None)
                    continue
                update = {
                    "player": rkey[0],
                    "faction": rkey[1],
                    **columns,
                    "last_change_id": start.last_change_id,
                    "last_event_at": start.last_event_at,
                    "last_event_seq": start.last_event_seq,
                    **start.statistics(),
                }
                full.append(update)
                moved.note(rkey, row_entry(row), entry(rkey[1], update))
            elif row is not None and row.last_change_id is not None:
                shown_only.append({"player": rkey[0], "faction": rkey[1], **columns})
                shown_after = entry(rkey[1], {**_statistics(row), **columns})
                if shown_after != row_entry(row):
                    moved.note(rkey, row_entry(row), shown_after)
        self.writer.update_ratings(ladder_id, full)
        if shown_only:
            self.writer.update_ratings(ladder_id, shown_only)
        ratings.delete_many(ladder_id, orphaned)
        store_fit(session, ladder_id, fit, now())
        return self.events, len(affected)

    def _extend_whole_history(self, rater: WholeHistoryRater) -> tuple[int, int] | None:
        """New games on a whole-history ladder, answered by the bounded update of the stored
        fit (:func:`extend_fit`): each game's changes go from its players' served estimates
        just before it to those just after the update, and only their rating rows move; the
        fit stays unconverged until the background work refits it
        (:mod:`app.services.convergence`). None (refit instead) for more than
        :data:`EXTEND_MAX` rated games or a fit that cannot be extended."""
        games = [e for p, e in self.pending if p.rated]
        if len(games) > EXTEND_MAX or not all(isinstance(e, Game) for e in games):
            return None
        extended = extend_fit(self.session, self.ladder.id, rater, [cast(Game, e) for e in games])
        if extended is None:
            return None
        runtime, info, ladder_state = self.runtime, self.runtime.info, self.ladder_state
        initial = runtime.rater.initial_state(ladder_state)
        served: dict[RatingKey, PlayerState] = {}

        def before(key: RatingKey) -> PlayerState:
            if key in served:
                return served[key]
            start = self.starts.get(key)
            return start.state if start is not None and start.state is not None else initial

        points = iter(extended)
        count = sum(len(event_keys(info, event)) for _, event in self.pending)
        ids = iter(self.writer.draw_change_ids(count) if count else [])
        rows: list[dict[str, Any]] = []
        for placed, event in self.pending:
            after = next(points) if placed.rated else {}
            changes = []
            for key in event_keys(info, event):
                rkey = db_key(key)
                was = before(rkey)
                if placed.rated:
                    served[rkey] = rater.state_of(after[PlayerKey(key.player)])
                    changes.append(Change(key, was, served[rkey], WHOLE_HISTORY_DETAILS))
                else:
                    changes.append(Change(key, was, was, UNRATED_DETAILS))
            made = self._change_rows(placed, event, changes, ids)
            if placed.seq in self.keep:
                self.write.written[placed.seq] = made
            rows.extend(made)
        self.writer.write_changes(iter(rows))
        updates: list[dict[str, Any]] = []
        for rkey in sorted(self.changed):
            start = self.starts[rkey]
            update = {
                "player": rkey[0],
                "faction": rkey[1],
                **state_columns(runtime, before(rkey), ladder_state),
                "last_change_id": start.last_change_id,
                "last_event_at": start.last_event_at,
                "last_event_seq": start.last_event_seq,
                **start.statistics(),
            }
            updates.append(update)
            self.write.moved.note(
                rkey, row_entry(self.write.rows.get(rkey)), entry(rkey[1], update)
            )
        self.writer.update_ratings(self.ladder.id, updates)
        return self.events, len(self.changed)

    def _stored_entries(self, keys: Iterable[RatingKey]) -> dict[RatingKey, Entry | None]:
        """Each rating's entry as stored before this write: from the rows the write locked,
        else read (before the replay's update is sent)."""
        locked = self.write.rows
        found = {key: row_entry(locked[key]) for key in keys if key in locked}
        missing = [key for key in keys if key not in found]
        if missing:
            rows = RatingRepository(self.session).rows(self.ladder.id, missing)
            found.update({key: row_entry(rows.get(key)) for key in missing})
        return found

    def _store_ladder_state(self) -> None:
        """A ladder-wide state (NADF's base) moved: store it with each event replayed, and
        re-derive every shown rating under it (its floor may have risen or fallen)."""
        ladder_id = self.ladder.id
        self.write.unit.flush()  # every rating row is read back, with the update just made
        EventRepository(self.session).set_ladder_states(self.ladder_states)
        LadderRepository(self.session).set_state(ladder_id, self.ladder_state, now())
        updates = []
        for row in RatingRepository(self.session).all_of_ladder(ladder_id):
            columns = state_columns(self.runtime, decode_state(row.state), self.ladder_state)
            updates.append({"player": row.player, "faction": row.faction, **columns})
            if row.last_change_id is not None:  # a rating's shown values move with the base
                after = entry(row.faction, {**_statistics(row), **columns})
                self.write.moved.note((row.player, row.faction), row_entry(row), after)
        self.writer.update_ratings(ladder_id, updates)


def _statistics(row: Any) -> dict[str, Any]:
    return {
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "last_played_at": row.last_played_at,
    }


def standing_columns(standing: Standing) -> dict[str, Any]:
    return {
        "rating": standing.rating,
        "deviation": standing.deviation,
        "volatility": standing.volatility,
        "ranking_value": standing.ranking_value,
    }
