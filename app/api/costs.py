"""What a request costs its caller's rate limit, and where it runs (docs/operations.md,
"Request classes and costs").

Every request counts one unit when its caller is identified (app/api/deps.py). A request that
may compute for long is also charged:

- **up front, by its estimate** (app/services/heavy.py: a prediction by the amounts it shows,
  a replay by the events it reads), so that a spent window refuses it before it computes;
- **after the fact, by its measured time**: one unit per ``RATINGS_COST_UNIT_MS`` of
  computing (its wait for a slot excluded), less what the estimate already charged. An as-of
  board's time depends on the ladder, the database and its plan more than on any count the
  request shows; measuring charges every class by what it really took, with one rule.

The after-the-fact charge never refuses the answer already computed: a window it fills
refuses the caller's next request. With the default unit (50 ms) the default limit (1,200 a
minute) buys a key about one slot computing all the time.

Light requests (an estimate of one unit: a two-player prediction, a page of a board) run at
once in a worker thread; heavy ones (a larger estimate, and every as-of read, replay,
evaluation and tuning) wait for a fair slot (app/api/heavy.py), so a light request never
queues behind another caller's heavy one.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import TypeVar

import anyio.to_thread
from fastapi import Request, Response

from app.api.deps import CLIENT_CLOSED_REQUEST, charge, client_address
from app.api.heavy import HeavySlots
from app.core.database import Database
from app.core.errors import TooManyRequests
from app.core.logging import note
from app.core.settings import Settings
from app.services import auth
from app.services.auth import Principal
from app.services.heavy import Abandoned, Cancel, rerate_weight

T = TypeVar("T")


def fairness_key(request: Request, caller: Principal) -> str:
    """Whose turn a heavy request takes in the slots: its key, the admin, or the address of
    a reader without a key."""
    if caller.is_admin:
        return "admin"
    if caller.key_id is not None:
        return f"key:{caller.key_id}"
    return f"address:{client_address(request)}"


def measured_units(seconds: float, unit_ms: int) -> int:
    """The units ``seconds`` of computing cost: one per started ``unit_ms``, at least 1."""
    return max(1, math.ceil(seconds * 1000 / unit_ms))


async def charge_measured(
    request: Request, caller: Principal, settings: Settings, seconds: float, charged: int
) -> None:
    """Charge what ``seconds`` of computing cost beyond the ``charged`` units (the request
    itself and its estimate); never refuses (the answer is computed)."""
    units = max(charged, measured_units(seconds, settings.cost_unit_ms))
    note(cost_units=units)
    extra = units - charged
    if extra <= 0:
        return
    # Counted even past the limit (``charge`` raises after counting): the caller's next
    # request is refused. ``charge`` counts ``weight - 1``: the request's own unit is counted.
    with contextlib.suppress(TooManyRequests):
        await charge(request, caller, settings, extra + 1)


async def run_costed(
    request: Request,
    caller: Principal,
    settings: Settings,
    slots: HeavySlots,
    work: Callable[[Cancel], T],
    *,
    charged: int,
    heavy: bool,
) -> T | Response:
    """``work`` as its class runs (``heavy``: in a fair slot, abandoned with its client;
    light: at once in a worker thread), then charged by its measured time beyond the
    ``charged`` units. An empty 499 once a heavy request's client has gone (nobody reads it,
    but the access log and metrics show the request as abandoned)."""
    if heavy:
        try:
            value, seconds = await slots.run_timed(request, work, fairness_key(request, caller))
        except Abandoned:
            return Response(status_code=CLIENT_CLOSED_REQUEST)
    else:
        started = time.perf_counter()
        value = await anyio.to_thread.run_sync(work, Cancel())
        seconds = time.perf_counter() - started
    await charge_measured(request, caller, settings, seconds, charged)
    return value


def charge_rerated(db: Database, settings: Settings, caller: auth.Caller, recomputed: int) -> None:
    """After a write committed: charge its key one unit per whole 1,000 stored events it
    re-rated (app.services.heavy.rerate_weight). Blocking (call it from a worker thread);
    never refuses the write, which is done: a window it fills refuses the next request.

    Estimated by events rather than measured by time: a write's time includes its waits for
    the ladder's locks, which another caller's writes cause."""
    extra = rerate_weight(recomputed)
    if not extra:
        return
    note(cost_units=1 + extra)
    principal = caller if isinstance(caller, Principal) else caller.principal
    if principal is None or principal.is_admin:
        return
    with contextlib.suppress(TooManyRequests):
        auth.count_request(db, principal, settings.rate_limit_per_minute, extra)


def is_light(estimate: int) -> bool:
    """A request estimated at one unit is light: it takes no slot."""
    return estimate <= 1
