"""One unit of work per write to ladders' history: its transaction, what it locked and read
once, and what it wrote.

Every use case that changes history (a game, a group of games, a tournament, a batch or an
import chunk, a correction, a void, an adjustment, new parameters) runs as ``work(unit)``
under :func:`run_write`. For each attempt the runner opens a transaction and hands the work a
fresh :class:`UnitOfWork`, which

- admits the callers: an API key is verified, checked against its scope, ladders and rate
  limit, and counted, all in this transaction (:class:`app.services.auth.Admission`), so a
  key costs a write no transaction of its own;
- locks and reads each ladder once (:meth:`UnitOfWork.ladder`), at the unit's :class:`Lock`,
  with its runtime (system and parameters), into a :class:`LadderWrite`;
- holds the rating rows the work locked, and the change rows the replay wrote for the events
  whose responses are wanted (:attr:`LadderWrite.written`), so a response is built from
  memory;
- owns the transaction's history writer, whose held writes are sent explicitly
  (:meth:`UnitOfWork.flush`): before the commit, and by the history code before it reads
  what it wrote (app/services/history.py names each place).

Before the commit the runner counts the admitted keys' requests and flushes the writer. A
change feed's rows (an outbox) belong here too: written by :meth:`UnitOfWork.finish` in the
same transaction as the ratings they describe.

**Outcomes.** What the history operations return (app/services/history.py), in one place:

- :class:`Created`: stored at the end of its ratings' histories; its changes as written.
- :class:`Existing`: its id was stored already with the same body: nothing changed (200).
- :class:`Recomputed`: stored before something already in history, or a correction or a void;
  what depends on it was re-rated; its changes as written.
- :class:`Deferred`: a group commit did not take it (:class:`Why` says why); it goes on its
  own, starting at the lock it needs (:attr:`Deferred.lock`), already known to be late where
  it is.

and one signal: :class:`Escalate`, raised by work that needs more of its ladder than the unit
holds. The attempt is rolled back and run again holding :attr:`Escalate.lock`. Refusals are
domain errors (app/core/errors.py), raised, which roll the attempt back.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import NotFound
from app.models import Ladder
from app.repositories.feed import FeedRepository
from app.repositories.history import HistoryWriter, history_writer
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingKey, RatingRepository
from app.services.auth import Admission, Caller, Principal
from app.services.feed import Moved, Published
from app.services.runtime import Runtime, fresh_row, now, refuse_archived, runtime_for

T = TypeVar("T")


class Lock(IntEnum):
    """How much of its ladder a write holds, least first."""

    #: The ladder shared, and the rating rows the write touches: the event's own, or a late
    #: result's, a correction's or a void's dependency cone. Writers of other ratings go on.
    SHARED = 0
    #: The ladder exclusively: a ladder-wide system (NADF), a cone whose rows another writer
    #: holds, a batch or an import, new parameters.
    EXCLUSIVE = 1


class Why(Enum):
    """Why a group commit handed a game back to be written on its own."""

    #: Earlier than something already applied to one of its ratings: it re-rates its cone.
    LATE = "late"
    #: Its id is stored already, or came earlier in the group: 200 or 409, one by one.
    REPEAT = "repeat"
    #: Its system orders the whole ladder (NADF): it needs the ladder exclusively.
    LADDER_WIDE = "ladder-wide"
    #: Another write holds the ladder exclusively: the group's writer never waits for it.
    LADDER_BUSY = "ladder-busy"
    #: Another write holds one of its rating rows (or an earlier game of the group did).
    ROW_HELD = "row-held"
    #: A game of the group could not be rated (a result the system cannot represent): each
    #: goes on its own, so that only that one is refused.
    UNRATABLE = "unratable"


@dataclass(frozen=True, slots=True)
class Created:
    """Stored at the end of its ratings' histories: its changes, as written."""

    seq: int
    changes: list[dict[str, Any]]
    runtime: Runtime


@dataclass(frozen=True, slots=True)
class Existing:
    """Its id was stored already, with the same body: nothing changed."""

    seq: int


@dataclass(frozen=True, slots=True)
class Recomputed:
    """Stored before something already in history (or corrected, or voided): what depends on
    it was re-rated, ``events`` stored events and ``players`` ratings; its own changes as
    written (none for a void)."""

    seq: int
    changes: list[dict[str, Any]]
    events: int
    players: int
    runtime: Runtime


@dataclass(frozen=True, slots=True)
class Deferred:
    """Handed back by a group commit, to be written on its own."""

    why: Why

    @property
    def lock(self) -> Lock:
        """The lock its own write starts at."""
        return Lock.EXCLUSIVE if self.why is Why.LADDER_WIDE else Lock.SHARED

    @property
    def late(self) -> bool | None:
        """Whether it is known to be late (None: its own write finds out)."""
        return True if self.why is Why.LATE else None


class Escalate(Exception):
    """Roll the attempt back and run it again holding ``lock``."""

    def __init__(self, lock: Lock, reason: str) -> None:
        super().__init__(reason)
        self.lock = lock
        self.reason = reason


@dataclass(slots=True)
class LadderWrite:
    """One ladder in a unit of work: read once, locked at the unit's lock."""

    unit: UnitOfWork
    ladder: Ladder
    runtime: Runtime
    #: Rating rows locked so far, by (player, faction).
    rows: dict[RatingKey, Any] = field(default_factory=dict)
    #: Change rows the replay wrote for the events whose responses are wanted, by seq.
    written: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: The ratings the write moved, before and after (its feed item's ``ratings``); per
    #: event too where a group commit asked (one item per game).
    moved: Moved = field(default_factory=Moved)
    moved_by_event: dict[int, Moved] = field(default_factory=dict)

    def publish(
        self, type_: str, event: tuple[str, str] | None, moved: Moved | None = None
    ) -> None:
        """Publish the write's feed item (``moved``: the ratings it moved, by default all the
        write moved); written by :meth:`UnitOfWork.finish`, with the write."""
        ratings = (moved if moved is not None else self.moved).listed()
        self.unit.published.setdefault(self.ladder.id, []).append(Published(type_, event, ratings))

    @property
    def session(self) -> Session:
        return self.unit.session

    @property
    def writer(self) -> HistoryWriter:
        return self.unit.writer

    @property
    def lock(self) -> Lock:
        return self.unit.lock

    def lock_rows(
        self, keys: Sequence[RatingKey], *, lock: bool = True, skip_locked: bool = False
    ) -> dict[RatingKey, Any]:
        """The rating rows of ``keys``, locked in sorted order (so writers sharing players
        queue instead of deadlocking); missing ones are created first (another writer may
        create the same ones meanwhile: its insert wins, ours is ignored). ``lock=False``
        under the ladder's exclusive lock, which keeps every other writer out already.
        ``skip_locked``: rows another transaction holds are left out instead of waited for.
        The rows got are kept in :attr:`rows`."""
        ratings = RatingRepository(self.session)
        wanted = sorted(set(keys))
        got = ratings.rows(self.ladder.id, wanted, lock=lock, skip_locked=skip_locked)
        missing = [key for key in wanted if key not in got]
        if missing:
            ratings.ensure(
                self.ladder.id, [fresh_row(self.runtime, self.ladder.state, key) for key in missing]
            )
            got.update(ratings.rows(self.ladder.id, missing, lock=lock, skip_locked=skip_locked))
        self.rows.update(got)
        return got


class UnitOfWork:
    """One attempt of one write: its transaction, the callers it admitted, the ladders it
    locked and read, and its history writer."""

    def __init__(self, session: Session, lock: Lock) -> None:
        self.session = session
        self.lock = lock
        self.writer: HistoryWriter = history_writer(session)
        self.admission = Admission(session)
        self._ladders: dict[str, LadderWrite] = {}
        #: Feed items to write, by ladder, in the order published.
        self.published: dict[str, list[Published]] = {}

    def admit(self, caller: Caller, ladder_id: str) -> Principal:
        """The caller's principal for a write to ``ladder_id`` (401, 403, 404 or 429)."""
        return self.admission.admit_one(caller, ladder_id)

    def ladder(self, ladder_id: str, *, archived: bool = False) -> LadderWrite:
        """The ladder, locked at the unit's lock (shared or exclusive) and read, once; 404,
        and 409 for an archived ladder unless ``archived`` (the work may touch one: un-archiving,
        deleting, an operator's recomputation)."""
        found = self._ladders.get(ladder_id)
        if found is None:
            exclusive = self.lock is Lock.EXCLUSIVE
            ladder = LadderRepository(self.session).get_locked(ladder_id, exclusive=exclusive)
            if ladder is None:
                raise NotFound(f"ladder {ladder_id!r} does not exist")
            found = self._open(ladder)
        if not archived:
            refuse_archived(found.ladder)
        return found

    def ladder_unless_busy(self, ladder_id: str) -> LadderWrite | None:
        """The ladder shared, unless another write holds it exclusively (then None, at once:
        a group commit's writer serves every ladder and must not wait for one); 404."""
        taken, ladder = LadderRepository(self.session).try_lock_shared_and_get(ladder_id)
        if ladder is None:
            raise NotFound(f"ladder {ladder_id!r} does not exist")
        refuse_archived(ladder)
        return self._open(ladder) if taken else None

    def reopen(self, ladder: Ladder) -> LadderWrite:
        """The ladder again, as the work changed it (new parameters: a new runtime)."""
        return self._open(ladder)

    def _open(self, ladder: Ladder) -> LadderWrite:
        opened = self._ladders[ladder.id] = LadderWrite(self, ladder, runtime_for(ladder))
        return opened

    def flush(self) -> None:
        """Send the writes the history writer holds back."""
        self.writer.flush()

    def close(self) -> None:
        """Let go of what the attempt read and wrote: a unit and its ladders refer to each
        other, and a cycle waits for the garbage collector, which bulk paths pause (an
        import kept every chunk's rows until its end)."""
        self._ladders.clear()
        self.published.clear()

    def finish(self) -> None:
        """What every write does last, in its transaction: send what is held, write its feed
        items (taking each ladder's next cursors: the ladder's row stays locked until the
        commit, so cursors follow the order writes commit in) and count the admitted keys'
        requests (their windows' rows, too, stay locked only until the commit)."""
        self.flush()
        feed = FeedRepository(self.session)
        stamp = now()
        for ladder_id, items in sorted(self.published.items()):
            feed.append(
                ladder_id,
                [
                    {
                        "id": f"fi_{secrets.token_hex(16)}",
                        "type": item.type,
                        "at": stamp,
                        "event_kind": item.event[0] if item.event else None,
                        "event_id": item.event[1] if item.event else None,
                        "ratings": item.ratings,
                    }
                    for item in items
                ],
            )
        self.admission.settle()


def run_write(db: Database, work: Callable[[UnitOfWork], T], *, lock: Lock = Lock.SHARED) -> T:
    """Run ``work`` in a transaction with a fresh :class:`UnitOfWork` per attempt, starting at
    ``lock``: transient failures and lost races run it again (:meth:`Database.run`), and an
    :class:`Escalate` runs it again holding more. Nothing is kept between attempts."""
    while True:
        try:
            result, unit = db.run(functools.partial(_attempt, work, lock))
        except Escalate as escalation:
            if escalation.lock <= lock:
                raise AssertionError(f"escalation to no more than {lock!r}") from escalation
            lock = escalation.lock
            continue
        unit.admission.committed()
        return result


def _attempt(work: Callable[[UnitOfWork], T], lock: Lock, session: Session) -> tuple[T, UnitOfWork]:
    unit = UnitOfWork(session, lock)
    try:
        result = work(unit)
        unit.finish()
    finally:
        unit.close()
    return result, unit
