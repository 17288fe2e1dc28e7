"""Prometheus metrics (prometheus-client), correct across worker processes.

With several workers, ``ratings serve`` points PROMETHEUS_MULTIPROC_DIR at a fresh directory
before the workers start; each process then writes its samples there and ``/metrics``
aggregates them (prometheus-client's multiprocess mode).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: Request latency buckets (seconds): a write is milliseconds; recomputations take longer.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter(
    "ratings_http_requests_total",
    "HTTP requests by route and status.",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "ratings_http_request_duration_seconds",
    "HTTP request latency by route.",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
EVENTS_APPLIED = Counter(
    "ratings_events_applied_total",
    "Games, tournaments and adjustments recorded, by ladder and system.",
    ["ladder", "system", "kind"],
)
RECOMPUTATIONS = Counter(
    "ratings_recomputations_total", "Recomputations of a ladder's history.", ["ladder", "system"]
)
RECOMPUTED_EVENTS = Counter(
    "ratings_recomputed_events_total",
    "Stored events re-rated by recomputations.",
    ["ladder", "system"],
)
DB_ERRORS = Counter(
    "ratings_db_errors_total", "Database errors seen by transactions, by kind.", ["kind"]
)
DB_RETRIES = Counter("ratings_db_retries_total", "Transactions retried after a transient error.")
HEAVY_READS = Counter(
    "ratings_heavy_reads_total",
    "Heavy reads (what-if, evaluation, as-of boards), by the database that served them: "
    "replica (RATINGS_READ_DATABASE_URL) or primary.",
    ["database"],
)
POOL_IN_USE = Gauge(
    "ratings_db_pool_connections_in_use",
    "Database connections checked out of the pool.",
    multiprocess_mode="livesum",
)
POOL_SIZE = Gauge(
    "ratings_db_pool_size", "Configured connections per process.", multiprocess_mode="livesum"
)


def _ended(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # the number taken by another user's process since
        return True
    return False


def forget_ended_processes(directory: str) -> None:
    """Drop the live gauges (the pool's) of the workers that ended, however they ended
    (replaced on SIGHUP, crashed, killed), so that ``livesum`` sums live workers only; their
    counters stay, as counts. The server's supervisor tells no one when a worker ends."""
    for path in Path(directory).glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[1]
        if pid.isdigit() and _ended(int(pid)):
            multiprocess.mark_process_dead(int(pid), directory)  # type: ignore[no-untyped-call]


def render() -> tuple[bytes, str]:
    """The exposition text for /metrics (aggregated over workers in multiprocess mode)."""
    directory = os.environ.get(MULTIPROCESS_ENV)
    if directory:
        forget_ended_processes(directory)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST


#: Most label combinations whose children are kept for a plain lookup. ``labels()`` checks
#: its arguments and takes a lock at every call, which each request paid for three times;
#: past this many combinations (odd methods sent by clients) it is called as before.
CACHED_CHILDREN = 4096
_children: dict[tuple[Any, ...], Any] = {}


def _child(metric: Any, *values: str) -> Any:
    key = (id(metric), *values)
    child = _children.get(key)
    if child is None:
        child = metric.labels(*values)
        if len(_children) < CACHED_CHILDREN:
            _children[key] = child
    return child


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """Count a finished request and its latency."""
    _child(REQUESTS, method, route, str(status)).inc()
    _child(LATENCY, method, route).observe(seconds)


def record_applied(ladder: str, system: str, kind: str, count: int = 1) -> None:
    """Call after the transaction committed, so retried attempts are not counted twice."""
    if count:
        _child(EVENTS_APPLIED, ladder, system, kind).inc(count)


def record_recomputed(ladder: str, system: str, events: int) -> None:
    if events:
        RECOMPUTATIONS.labels(ladder, system).inc()
        RECOMPUTED_EVENTS.labels(ladder, system).inc(events)
