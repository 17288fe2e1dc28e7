"""Group commit: the games a process receives at the same time share one transaction.

A transaction per game costs a pool checkout, a dozen statements, a commit (a WAL flush) and
a thread hand-off per request. Under load most of that is the same work repeated, so each
process has one writer thread: requests queue their games and wait; the writer takes what
has queued up (at most ``max_group``), records each ladder's games together with
:func:`app.services.history.append_group` in one unit of work (which also verifies and counts
the callers' API keys), commits once, and wakes every waiter. A lone request is written at
once (no waiting for company), so latency at low load is unchanged. The app owns its
committer (``app.state``), created on first use.

Nothing is acknowledged before its commit: a waiter learns its result only after it.

Late games, handed back by a group, queue again, per ladder (:class:`LateCommitters`): those
that arrive while a recomputation runs are recorded together by the next, one recomputation
from the earliest instead of one each. So do the games handed back because their ladder or
one of their rows was busy: on a hot ladder that is a late game's recomputation, and on their
own they would each wait for it and then, late too, each recompute alone, one after another
behind the ladder's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.core import metrics
from app.core.database import Database
from app.core.errors import Conflict, DomainError, Invalid, NotFound
from app.core.shutdown import CURRENT, Fanout, InFlight
from app.services import feed
from app.services.auth import ADMIN, Caller
from app.services.history import Appended, NewEvent, append_group, record_late
from app.services.unit_of_work import (
    Created,
    Deferred,
    Lock,
    Recomputed,
    UnitOfWork,
    Why,
    run_write,
)

log = logging.getLogger(__name__)

#: A writer thread with nothing to do for this long exits (a new one starts on demand).
IDLE_SECONDS = 5.0

#: Why a game handed back by a group queues on its ladder's :class:`LateCommitters`.
QUEUED = frozenset({Why.LATE, Why.LADDER_BUSY, Why.ROW_HELD})


@dataclass(frozen=True, slots=True)
class _Waiter:
    new: NewEvent
    caller: Caller
    future: asyncio.Future[Appended]
    loop: asyncio.AbstractEventLoop
    #: The request waiting (app/core/shutdown.py): told when its game is committed.
    request: InFlight | None


#: Takes the games of the ladder being recorded that queued since its group was taken (at
#: most up to the group's limit), which the caller then answers with the group.
More = Callable[[], list[tuple[NewEvent, Caller]]]

#: How a committer records one ladder's share of what it took: ``record_group`` or
#: ``record_late_group``.
Recorder = Callable[
    [Database, str, Sequence[NewEvent], Sequence[Caller], More | None], list[Appended]
]


class GroupCommitter:
    """One per app and kind (new games, late games): a queue of games and the thread that
    writes them."""

    def __init__(self, db: Database, max_group: int, record: Recorder | None = None) -> None:
        self.db = db
        self.max_group = max_group
        self.record: Recorder = record or record_group
        self._wake = threading.Condition()
        self._queue: deque[_Waiter] = deque()
        self._writer: threading.Thread | None = None

    async def submit(self, new: NewEvent, caller: Caller) -> Appended:
        """Record ``new`` with whatever else is waiting; its result once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Appended] = loop.create_future()
        with self._wake:
            request = CURRENT.get()
            waiting = request if isinstance(request, InFlight) else None
            self._queue.append(_Waiter(new, caller, future, loop, waiting))
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._run, name=f"ratings-{self.record.__name__}", daemon=True
                )
                self._writer.start()
            self._wake.notify()
        return await future

    def _run(self) -> None:
        while True:
            with self._wake:
                if not self._queue:
                    self._wake.wait(IDLE_SECONDS)
                if not self._queue:
                    self._writer = None
                    return
                taken = min(len(self._queue), self.max_group)
                group = [self._queue.popleft() for _ in range(taken)]
            self._write(group)

    def _write(self, group: Sequence[_Waiter]) -> None:
        by_ladder: dict[str, list[_Waiter]] = {}
        for waiter in group:
            by_ladder.setdefault(waiter.new.ladder_id, []).append(waiter)
        for ladder_id, waiters in by_ladder.items():
            results: Sequence[Appended | BaseException]
            # The commit writes for every waiter: none of them may be answered 503 at
            # shutdown once it has (a deferred one is refused its own commit then).
            fanout = Fanout(w.request for w in waiters)
            token = CURRENT.set(fanout)
            try:
                results = self.record(
                    self.db,
                    ladder_id,
                    [w.new for w in waiters],
                    [w.caller for w in waiters],
                    functools.partial(self._more, ladder_id, waiters, fanout),
                )
            except Exception as exc:  # every waiter of the group learns the failure
                results = [exc] * len(waiters)
            finally:
                CURRENT.reset(token)
            _settle_soon(list(zip(waiters, results, strict=True)))

    def _more(
        self, ladder_id: str, waiters: list[_Waiter], fanout: Fanout
    ) -> list[tuple[NewEvent, Caller]]:
        """:data:`More` for the group of ``waiters``: they and ``fanout`` take the drawn."""
        with self._wake:
            room = self.max_group - len(waiters)
            drawn = [w for w in self._queue if w.new.ladder_id == ladder_id][: max(room, 0)]
            for waiter in drawn:
                self._queue.remove(waiter)
        waiters.extend(drawn)
        fanout.requests.extend(w.request for w in drawn if w.request is not None)
        return [(w.new, w.caller) for w in drawn]


def record_group(
    db: Database,
    ladder_id: str,
    items: Sequence[NewEvent],
    callers: Sequence[Caller] | None = None,
    _more: More | None = None,
) -> list[Appended]:
    """One unit of work for ``items`` (a race lost to another replica runs it again, and the
    ids it stored are then handed back as repeats). ``callers``: who sent each (the admin
    where not given); a caller refused (401, 403, 404, 429) gets its refusal. It never
    waits, so it takes no more (``_more``)."""
    callers = list(callers) if callers is not None else [ADMIN] * len(items)

    def work(unit: UnitOfWork) -> list[Appended]:
        admitted = unit.admission.admit(callers, ladder_id)
        results: list[Appended] = [
            refusal if isinstance(refusal, DomainError) else Deferred(Why.LADDER_BUSY)
            for refusal in admitted
        ]
        taken = [i for i, refusal in enumerate(admitted) if not isinstance(refusal, DomainError)]
        if not taken:
            return results
        try:
            write = unit.ladder_unless_busy(ladder_id)
        except (NotFound, Conflict) as exc:  # no such ladder, or an archived one
            return [exc if i in taken else result for i, result in enumerate(results)]
        if write is None:
            return results
        for index, done in zip(taken, append_group(write, [items[i] for i in taken]), strict=True):
            results[index] = done
            if isinstance(done, Created):  # one feed item per game: each its own request
                ref = (items[index].kind, items[index].external_id or "")
                write.publish(feed.GAME_RATED, ref, write.moved_by_event[done.seq])
        return results

    try:
        return run_write(db, work)
    except Invalid:
        # One of them cannot be rated (its result overflows): it must not fail the others,
        # so each goes its own way, where only that one is refused.
        if len(items) == 1:
            raise
        return [Deferred(Why.UNRATABLE) for _ in items]


class LateCommitters:
    """Late games (and those :data:`QUEUED` with them) queue per ladder
    (:func:`record_late_group`): one ladder's long recomputation never holds up another's,
    and each ladder's games that arrive while one runs are recorded together by the next."""

    def __init__(self, db: Database, max_group: int) -> None:
        self.db = db
        self.max_group = max_group
        self._lock = threading.Lock()
        self._by_ladder: dict[str, GroupCommitter] = {}

    async def submit(self, new: NewEvent, caller: Caller) -> Appended:
        with self._lock:
            committer = self._by_ladder.get(new.ladder_id)
            if committer is None:
                committer = GroupCommitter(self.db, self.max_group, record_late_group)
                self._by_ladder[new.ladder_id] = committer
        return await committer.submit(new, caller)


def record_late_group(
    db: Database,
    ladder_id: str,
    items: Sequence[NewEvent],
    callers: Sequence[Caller],
    more: More | None = None,
) -> list[Appended]:
    """One unit of work for the games of one ladder that queued (:func:`history.record_late`),
    waiting for the ladder and their rows like a game on its own. A caller refused gets its
    refusal; what cannot go with the others goes on its own (:class:`Deferred`). The results
    answer ``items`` and then what ``more`` gave."""
    items, callers = list(items), list(callers)

    def work(unit: UnitOfWork) -> list[Appended]:
        if unit.lock is Lock.EXCLUSIVE and more is not None:
            # Escalated (another writer, e.g. another server's late games, held the cone):
            # this attempt waits for the whole ladder, and the games that queued meanwhile
            # (on a hot ladder, of the same cone) go in its one recomputation, not the next.
            with contextlib.suppress(NotFound, Conflict):  # answered below, per game
                unit.ladder(ladder_id)
            for new, caller in more():
                items.append(new)
                callers.append(caller)
        admitted = unit.admission.admit(callers, ladder_id)
        results: list[Appended] = [
            refusal if isinstance(refusal, DomainError) else Deferred(Why.LADDER_BUSY)
            for refusal in admitted
        ]
        taken = [i for i, refusal in enumerate(admitted) if not isinstance(refusal, DomainError)]
        if not taken:
            return results
        try:
            write = unit.ladder(ladder_id)
        except (NotFound, Conflict) as exc:  # no such ladder, or an archived one
            return [exc if i in taken else result for i, result in enumerate(results)]
        done = record_late(write, [items[i] for i in taken])
        for index, result in zip(taken, done, strict=True):
            results[index] = result
            if isinstance(result, Created):  # extended history: its own moves
                ref = (items[index].kind, items[index].external_id or "")
                write.publish(feed.GAME_RATED, ref, write.moved_by_event[result.seq])
        recorded = [(i, d) for i, d in zip(taken, done, strict=True) if isinstance(d, Recomputed)]
        # One feed item per game, each its own request's: every one names its own players'
        # moves, and the last also every other rating the shared recomputation moved.
        for n, (index, result) in enumerate(recorded):
            own = [(change["player"], change["faction"]) for change in result.changes]
            moved = write.moved if n == len(recorded) - 1 else write.moved.only(own)
            ref = (items[index].kind, items[index].external_id or "")
            write.publish(feed.GAME_RATED, ref, moved)
        return results

    try:
        results = run_write(db, work)
    except Invalid:
        # One of them cannot be rated (its result overflows): each goes its own way.
        if len(items) == 1:
            raise
        return [Deferred(Why.UNRATABLE) for _ in items]
    shared = next((r for r in results if isinstance(r, Recomputed)), None)
    if shared is not None:
        metrics.record_recomputed(ladder_id, shared.runtime.info.id, shared.events)
    return results


def _settle_soon(settled: Sequence[tuple[_Waiter, Appended | BaseException]]) -> None:
    """Hand the results to their event loops: one wake-up per loop, not one per waiter
    (each ``call_soon_threadsafe`` writes to the loop's wake-up pipe)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Waiter, Appended | BaseException]]]
    by_loop = {}
    for waiter, result in settled:
        by_loop.setdefault(waiter.loop, []).append((waiter, result))
    for loop, pairs in by_loop.items():
        try:
            loop.call_soon_threadsafe(_settle_all, pairs)
        except RuntimeError:  # the waiters' event loop has closed: nobody is listening
            log.debug("group commit results dropped: event loop closed")


def _settle_all(pairs: Sequence[tuple[_Waiter, Appended | BaseException]]) -> None:
    for waiter, result in pairs:
        future = waiter.future
        if future.done():  # the request was cancelled (client gone); the write stands
            continue
        if isinstance(result, BaseException):
            future.set_exception(result)
        else:
            future.set_result(result)
