"""Bringing whole-history fits back to convergence (``ttt``, ``whr``: API.md "Whole-history
and large-field systems"), by the service's own background work (a task of every server
process, as the feed's deliveries: :mod:`app.services.delivery`).

A new game is answered after a bounded update of its players (:func:`extend_fit`), which
leaves the ladder's fit marked unconverged (``ladder_fits.converged`` false). A process takes
such a ladder by a **lease** (one atomic update of ``ladder_fits``; it runs out after
``RATINGS_CONVERGENCE_LEASE_SECONDS``), so two replicas do not refit one ladder at once, and
the state is in the database: after a restart any process finds the unconverged fit and
resumes. :func:`converge` refits in two steps:

1. without a lock: the live history and the stored fit are read, and the whole history is
   fitted, warm from the stored fit (the long part: seconds on a 100,000-game ladder);
2. under the ladder's exclusive lock, briefly: if no write stored a fit since step 1 (the
   fit's ``at`` is the one read), that fit is served; else the history is refitted warm from
   it (the few games added since cost a few sweeps). Every rating row takes the fit's
   estimate, and the ratings that moved are announced in the feed (``fit.converged``).

Writes on the ladder are kept out only during step 2, so the fit is always of the live
history when it is stored, as a synchronous refit's is.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

import anyio.to_thread
from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Unavailable
from app.core.settings import Settings
from app.engine.protocols import Fit
from app.repositories.fits import FitRepository
from app.repositories.ladders import LadderRepository
from app.services.feed import FIT_CONVERGED
from app.services.replay import Replay
from app.services.runtime import now, runtime_for
from app.services.unit_of_work import Lock, UnitOfWork, run_write
from app.services.whole_history import fit_games, live_games, load_fit, whole_history

log = logging.getLogger(__name__)

#: Ladders one look takes at most (each is refitted in turn).
LADDERS_PER_LOOK = 8


def converge(db: Database, ladder_id: str) -> bool:
    """Refit the ladder's whole live history if its fit is not converged, warm from it, and
    serve it (the module's two steps). Whether it refitted (False: nothing to do)."""

    def read(session: Session) -> tuple[datetime, Fit] | None:
        head = FitRepository(session).head(ladder_id)
        ladder = LadderRepository(session).get(ladder_id)
        if head is None or head.converged or ladder is None:
            return None
        runtime = runtime_for(ladder)
        rater = whole_history(runtime)
        if rater is None:
            return None
        games = live_games(session, ladder_id, runtime.info.per_faction)
        return head.at, fit_games(rater, games, load_fit(session, ladder_id))

    fitted = db.run(read, write=False)
    if fitted is None:
        return False

    def serve(unit: UnitOfWork) -> bool:
        write = unit.ladder(ladder_id, archived=True)
        head = FitRepository(unit.session).head(ladder_id)
        if head is None or head.converged or whole_history(write.runtime) is None:
            return False  # a write refitted it meanwhile
        work = Replay(write, write.ladder.state, set())
        work.refit(fitted[1] if head.at == fitted[0] else None, warm=fitted[1])
        if write.moved:
            write.publish(FIT_CONVERGED, None)
        return True

    return run_write(db, serve, lock=Lock.EXCLUSIVE)


class Converger:
    """The convergence of unconverged fits in one process: every
    ``convergence_poll_seconds`` it looks for them, leases each in turn and refits it."""

    def __init__(
        self, db: Database, settings: Settings, clock: Callable[[], datetime] = now
    ) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock

    async def run(self) -> None:
        """Converge until cancelled."""
        while True:
            try:
                await self.step()
            except Unavailable as exc:  # a database outage: expected, the next look retries
                log.warning("convergence waits for the database", extra={"error": str(exc)})
            except Exception:  # a bug worth its traceback; the next look goes on all the same
                log.exception("convergence step failed")
            await asyncio.sleep(self.settings.convergence_poll_seconds)

    async def step(self) -> int:
        """One look: each unconverged fit not leased by another process, leased and
        refitted. How many were refitted."""
        due = await anyio.to_thread.run_sync(self._due)
        done = 0
        for ladder_id in due:
            lease = await anyio.to_thread.run_sync(self._lease, ladder_id)
            if lease is None:
                continue
            try:
                done += await anyio.to_thread.run_sync(converge, self.db, ladder_id)
            finally:
                # Cancelled mid-fit (shutdown): the lease runs out and another process resumes.
                with contextlib.suppress(Exception):
                    await anyio.to_thread.run_sync(self._release, ladder_id, lease)
        return done

    def _due(self) -> list[str]:
        def work(session: Session) -> list[str]:
            return FitRepository(session).unconverged(self.clock(), LADDERS_PER_LOOK)

        return self.db.run(work, write=False)

    def _lease(self, ladder_id: str) -> str | None:
        lease = secrets.token_hex(8)
        moment = self.clock()
        until = moment + timedelta(seconds=self.settings.convergence_lease_seconds)

        def work(session: Session) -> bool:
            return FitRepository(session).take_lease(ladder_id, lease, moment, until)

        return lease if self.db.run(work) else None

    def _release(self, ladder_id: str, lease: str) -> None:
        self.db.run(functools.partial(_release, ladder_id=ladder_id, lease=lease))


def _release(session: Session, *, ladder_id: str, lease: str) -> None:
    FitRepository(session).release(ladder_id, lease)
