"""Machinery shared by the load and fault tests (docs/testing-load.md).

- :class:`ServerLauncher` starts real ``ratings serve`` processes on free loopback ports, waits
  until they answer, keeps each one's stderr in ``tests/artifacts/`` and kills them all (the
  whole process group) when the test ends, also when it fails;
- :func:`build_workload` makes the games (Fundox, 2-4 players, one winner) and the order they are
  sent in, with duplicates re-sent to another server, half of them concurrently with the original;
- :func:`run_load` sends them from concurrent clients (httpx + asyncio), retrying the same body
  after a 503 or a connection error, and records every attempt;
- :func:`verify` checks what the service acknowledged against what it stored, what every server
  answers, and the ratings against a serial replay of the stored history with the engine;
- :func:`finish` prints the summary, writes ``tests/artifacts/load-<test>.json`` and fails the test
  with every problem found.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from app.cli import migrate
from app.engine.ledger import final_states
from app.engine.registry import SYSTEMS
from app.models import Event
from app.schemas.events import GameIn
from app.services.conversion import game_to_engine
from app.services.runtime import configure
from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
POSTGRES_ENV = "RATINGS_TEST_POSTGRES_URL"
#: A directory holding another build (``app/``, ``migrations/``, ``alembic.ini``) for the servers
#: to run instead of this checkout's; used to show that the tests catch a broken build.
APP_ROOT_ENV = "RATINGS_LOAD_APP_ROOT"
#: "1": run the issue's full sizes (5,000 games; 3,000 in the fault test) instead of the quick
#: ones that keep tests/load within about four minutes on a 2-core machine.
FULL_ENV = "RATINGS_LOAD_FULL"

#: Creates the ladder and the writers' key, and reads back for the checks; the games are
#: posted with an API key of scope results:write, as clients post them (:func:`writer_key`).
ADMIN_TOKEN = "load-test-admin-token-0123456789"
LADDER = "load-fundox"
SYSTEM = "fundox"
INITIAL_RATING = 1600.0

#: Seconds a server may take to answer /readyz after it was started.
START_TIMEOUT = 60.0
#: Seconds SIGTERM gets before the process group is killed.
STOP_TIMEOUT = 10.0
#: Attempts per send (a 503 or a connection error is retried with the same body).
MAX_ATTEMPTS = 30
#: Longest pause between two attempts (seconds), whatever Retry-After says.
MAX_BACKOFF = 2.0
#: Per-request timeout (seconds); a timeout counts as a connection error and is retried.
REQUEST_TIMEOUT = 60.0
#: Upper bound for one whole load run (seconds).
LOAD_TIMEOUT = 600.0
#: The load stops early once this many sends were given up (a broken build fails fast).
ABORT_AFTER = 100
#: How many non-2xx answers are kept verbatim in the artifact.
KEPT_FAILURES = 30


def load_size(*, full: int, quick: int) -> int:
    """How many games a test sends: ``full`` with RATINGS_LOAD_FULL=1, else ``quick``."""
    return full if os.environ.get(FULL_ENV) == "1" else quick


# -- databases -----------------------------------------------------------------------------------


def postgres_base_url() -> str:
    """RATINGS_TEST_POSTGRES_URL, with tests/conftest.py's rule: skip without it, fail under CI."""
    url = os.environ.get(POSTGRES_ENV)
    if url:
        return url
    if os.environ.get("CI") == "true":
        pytest.fail(f"{POSTGRES_ENV} must be set under CI: PostgreSQL tests may not be skipped")
    pytest.skip(f"PostgreSQL load tests need {POSTGRES_ENV}")


@contextlib.contextmanager
def postgres_schema(base: str) -> Iterator[str]:
    """A fresh schema, migrated once; dropped at the end (with a fresh connection, since a
    fault test may have restarted PostgreSQL in between)."""
    schema = f"ratings_load_{uuid.uuid4().hex[:12]}"
    _admin_execute(base, f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in base else "?"
    url = f"{base}{separator}options=-csearch_path%3D{schema}"
    try:
        migrate(url)
        yield url
    finally:
        _admin_execute(base, f'DROP SCHEMA "{schema}" CASCADE')


def _admin_execute(base: str, statement: str) -> None:
    engine = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection.execute(text(statement))
    finally:
        engine.dispose()


def postgres_connection_budget(base: str, needed: int) -> dict[str, int]:
    """max_connections against what the servers may open; fails early when they cannot fit."""
    engine = create_engine(base, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            maximum = int(connection.execute(text("SHOW max_connections")).scalar_one())
            reserved = int(
                connection.execute(text("SHOW superuser_reserved_connections")).scalar_one()
            )
            in_use = int(
                connection.execute(text("SELECT count(*) FROM pg_stat_activity")).scalar_one()
            )
    finally:
        engine.dispose()
    budget = {"max_connections": maximum, "reserved": reserved, "in_use": in_use, "needed": needed}
    assert needed <= maximum - reserved - 5, f"the servers' pools do not fit: {budget}"
    return budget


def sqlite_url(directory: Path) -> str:
    url = f"sqlite:///{directory / 'ratings.db'}"
    migrate(url)
    return url


# -- servers -------------------------------------------------------------------------------------


def app_root() -> Path:
    """The build the servers run: this checkout, or RATINGS_LOAD_APP_ROOT."""
    other = os.environ.get(APP_ROOT_ENV)
    return Path(other).resolve() if other else ROOT


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when pytest dies (even killed), so no server outlives
    the run that started it (Linux; elsewhere the fixture's teardown has to do)."""
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class ServerLauncher:
    """Starts ``ratings serve`` processes and guarantees they are stopped (see the fixture)."""

    def __init__(self, artifact_prefix: str) -> None:
        self.artifact_prefix = artifact_prefix
        self.servers: list[Server] = []

    def start(
        self,
        database_url: str,
        *,
        count: int,
        workers: int,
        pool_size: int = 5,
        pool_overflow: int = 3,
        settings: dict[str, str] | None = None,
    ) -> list[Server]:
        """``count`` servers of ``workers`` workers each; ``settings``: more RATINGS_ variables
        (or overrides of these)."""
        root = app_root()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        started: list[Server] = []
        for index in range(count):
            port = free_port()
            env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGS_")}
            env.update(
                {
                    "RATINGS_DATABASE_URL": database_url,
                    "RATINGS_HOST": "127.0.0.1",
                    "RATINGS_PORT": str(port),
                    "RATINGS_WORKERS": str(workers),
                    "RATINGS_ADMIN_TOKEN": ADMIN_TOKEN,
                    "RATINGS_PUBLIC_READS": "false",
                    "RATINGS_POOL_SIZE": str(pool_size),
                    "RATINGS_POOL_OVERFLOW": str(pool_overflow),
                    # Every request of the key is counted, as in service, but the limit is
                    # out of the load's reach (its default, 1,200 a minute, is not).
                    "RATINGS_RATE_LIMIT_PER_MINUTE": str(10**9),
                    "PYTHONPATH": str(root),
                    "PYTHONUNBUFFERED": "1",
                    **(settings or {}),
                }
            )
            name = f"server{index}"
            log_path = ARTIFACTS / f"{self.artifact_prefix}-{name}.log"
            with log_path.open("wb") as log:
                process = subprocess.Popen(
                    [sys.executable, "-m", "app.cli", "serve"],
                    cwd=root,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group: stopped as a whole
                    preexec_fn=_die_with_parent,
                )
            server = Server(name, port, process, log_path)
            self.servers.append(server)
            started.append(server)
        for server in started:
            self._wait_ready(server)
        return started

    def _wait_ready(self, server: Server) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise AssertionError(
                    f"{server.name} exited with {server.process.returncode}:\n"
                    + tail(server.log_path)
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{server.url}/readyz", timeout=2.0).status_code == 200:
                    return
            time.sleep(0.2)
        raise AssertionError(
            f"{server.name} not ready in {START_TIMEOUT} s:\n{tail(server.log_path)}"
        )

    def stop_all(self) -> None:
        for server in self.servers:
            if server.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(server.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for server in self.servers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            # The workers share the group: kill whatever is left of it, even after a clean exit.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.process.wait(timeout=5)
        self.servers.clear()


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


def server_errors(servers: Sequence[Server], limit: int = 20) -> list[str]:
    """The servers' error and warning log lines (JSON), to report with a failure."""
    found: list[str] = []
    for server in servers:
        try:
            text_lines = server.log_path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            continue
        for line in text_lines:
            if '"level": "error"' in line or '"level": "warning"' in line or "Traceback" in line:
                found.append(f"{server.name}: {line[:600]}")
    return found[:limit]


# -- the workload --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Job:
    """One send of a game: to one server, or to two at once (a duplicate racing the original)."""

    game: int
    servers: tuple[int, ...]
    duplicate: bool = False


@dataclass(frozen=True)
class Workload:
    ladder: str
    bodies: list[dict[str, Any]]
    jobs: list[Job]
    servers: int
    hot_player: str | None

    @property
    def duplicates(self) -> int:
        return sum(len(job.servers) for job in self.jobs) - len(self.bodies)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def build_workload(
    *,
    games: int,
    players: int,
    servers: int,
    seed: int,
    hot_player: str | None = None,
    duplicate_share: float = 0.1,
    ladder: str = LADDER,
) -> Workload:
    """``games`` Fundox games among ``players`` players, sent round-robin over the servers.

    played_at grows with the game's index (one second apart), so a game is late only when it
    overtakes an earlier one of a shared player in flight. About ``duplicate_share`` of the games
    are sent twice to different servers: half of them at the same moment as the original, the
    other half a little later (10-300 sends after it).
    """
    rng = random.Random(seed)
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(days=30)
    pool = [f"p{index:03d}" for index in range(players)]
    bodies: list[dict[str, Any]] = []
    for index in range(games):
        size = rng.randint(2, 4)
        if hot_player is None:
            table = rng.sample(pool, size)
        else:
            table = [hot_player, *rng.sample(pool, size - 1)]
            rng.shuffle(table)
        winner = rng.randrange(size)
        bodies.append(
            {
                "ladder": ladder,
                "id": f"g{index:05d}",
                "played_at": iso(base + timedelta(seconds=index)),
                "players": [
                    {"player": player, "rank": 1 if seat == winner else 2}
                    for seat, player in enumerate(table)
                ],
            }
        )
    keyed: list[tuple[float, Job]] = []
    for index in range(games):
        home = index % servers
        other = (home + 1) % servers
        if rng.random() >= duplicate_share:
            keyed.append((index, Job(index, (home,))))
        elif rng.random() < 0.5:
            keyed.append((index, Job(index, (home, other), duplicate=True)))
        else:
            keyed.append((index, Job(index, (home,))))
            keyed.append((index + rng.uniform(10, 300), Job(index, (other,), duplicate=True)))
    keyed.sort(key=lambda pair: pair[0])
    return Workload(ladder, bodies, [job for _, job in keyed], servers, hot_player)


# -- the client ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Attempt:
    """One HTTP attempt of a send (``status`` None: a connection error or a timeout)."""

    game: str
    server: int
    at: float
    status: int | None
    error: str | None = None
    retry_after: str | None = None
    seq: int | None = None
    recomputed: int = 0
    locked: bool = False
    detail: str | None = None
    #: A connection error of the client's own pool: its socket closed at this end.
    closed_here: bool = False


@dataclass
class LoadRun:
    """Everything the clients saw."""

    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    attempts: list[Attempt] = field(default_factory=list)
    #: Sends that ended without an acknowledgement: (game, server, last status or error).
    unacknowledged: list[tuple[str, int, str]] = field(default_factory=list)
    jobs_done: int = 0
    sends: int = 0
    #: Why the load stopped before the end (None: it did not).
    aborted: str | None = None
    #: Sends acknowledged after at least one 503 or connection error.
    retried_to_success: int = 0
    timed_out: bool = False

    def clock(self) -> float:
        return time.monotonic() - self.started

    @property
    def duration(self) -> float:
        return (self.finished or time.monotonic()) - self.started


def _backoff(attempt: int, retry_after: str | None) -> float:
    delay = min(0.05 * 2.0 ** (attempt - 1), MAX_BACKOFF)
    if retry_after is not None:
        with contextlib.suppress(ValueError):
            delay = min(float(retry_after), MAX_BACKOFF)
    return delay * random.uniform(0.5, 1.0)


async def post_game(
    client: httpx.AsyncClient,
    urls: Sequence[str],
    server: int,
    body: dict[str, Any],
    run: LoadRun,
    *,
    max_attempts: int = MAX_ATTEMPTS,
) -> bool:
    """POST /games until acknowledged (201/200); 503s and connection errors are retried with the
    same body, anything else ends the send. Every attempt is recorded in ``run``."""
    run.sends += 1
    last = "never sent"
    for attempt in range(1, max_attempts + 1):
        try:
            response = await client.post(f"{urls[server]}/games", json=body)
        except httpx.TransportError as exc:
            last = type(exc).__name__
            run.attempts.append(
                Attempt(
                    body["id"],
                    server,
                    run.clock(),
                    None,
                    error=last,
                    detail=_cause(exc),
                    closed_here=_closed_here(exc),
                )
            )
            if attempt < max_attempts:
                await asyncio.sleep(_backoff(attempt, None))
            continue
        status = response.status_code
        record = Attempt(
            body["id"],
            server,
            run.clock(),
            status,
            retry_after=response.headers.get("retry-after"),
            locked="locked" in response.text.lower(),
        )
        run.attempts.append(record)
        last = str(status)
        if status in (200, 201):
            data = response.json()
            record.seq = int(data["seq"])
            record.recomputed = int(data.get("recomputed_events") or 0)
            run.retried_to_success += attempt > 1
            return True
        record.detail = response.text[:500]
        if status != 503:
            break
        if attempt < max_attempts:
            await asyncio.sleep(_backoff(attempt, record.retry_after))
    run.unacknowledged.append((body["id"], server, last))
    return False


def _cause(exc: BaseException) -> str:
    """The exception and what raised it (a reset by the server, an end of stream, a socket
    closed at this end: httpcore turns each into the same ReadError)."""
    chain = [repr(exc)]
    inner = exc.__cause__ or exc.__context__
    while inner is not None and len(chain) < 4:
        chain.append(repr(inner))
        inner = inner.__cause__ or inner.__context__
    return " <- ".join(chain)


def _closed_here(exc: BaseException) -> bool:
    """Whether the error is a socket this process closed (anyio's ``ClosedResourceError``).

    httpcore 1.0.9's pool closes a connection whose keep-alive has expired even just after
    handing it to a request that has not started (``has_expired`` does not ask whether it
    is handed out); with the client's one core saturated that window opens, and CI saw two
    sends fail so at one moment (``ReadError <- ClosedResourceError <- IndexError('pop from
    an empty deque')``). No server had closed anything. Never expiring the connections
    instead kept every idle one open, and the pool polls each of them on every request:
    the client's CPU per game rose from 4.7 to 7.7 ms and the load tests slowed by a tenth.
    """
    inner: BaseException | None = exc
    for _ in range(8):  # a chain is short; bounded all the same
        if inner is None:
            return False
        if isinstance(inner, anyio.ClosedResourceError):
            return True
        inner = inner.__cause__ or inner.__context__
    return False


#: Idle seconds before the client drops a pooled connection: below the servers' keep-alive
#: timeout (RATINGS_KEEP_ALIVE_TIMEOUT, 20 s), so that the client never sends on a
#: connection the server is closing.
CLIENT_KEEPALIVE_SECONDS = 2.0
#: The most requests one job sends at once: a duplicate races the original.
SENDS_PER_JOB = 2


def http_client(concurrency: int, token: str = ADMIN_TOKEN) -> httpx.AsyncClient:
    """A client for up to ``concurrency`` requests at once, with a connection for each,
    sending ``token`` (the admin token unless told otherwise).

    httpcore 1.0.9's pool can close a connection it has just handed to a request waiting
    for one (its issue 1110, open); once that request has started, it fails with a ReadError
    from a socket closed at this end (``ClosedResourceError``), which the load tests counted
    as a connection error of the servers. The pool closes an idle connection to make room
    when all of its connections are open, and whenever more are open than
    ``max_keepalive_connections`` (it counts all of them, idle or not: most requests opened
    a new connection, 2,230 of 3,529 in one run of the load tests served one request). Room
    for every request at once, all of it kept alive, leaves it neither reason.
    """
    connections = concurrency + 10
    limits = httpx.Limits(
        max_connections=connections,
        max_keepalive_connections=connections,
        keepalive_expiry=CLIENT_KEEPALIVE_SECONDS,
    )
    timeout = httpx.Timeout(REQUEST_TIMEOUT, connect=5.0)
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.AsyncClient(headers=headers, limits=limits, timeout=timeout)


async def create_ladder(urls: Sequence[str], ladder: str = LADDER) -> None:
    async with http_client(1) as client:
        response = await client.post(f"{urls[0]}/ladders", json={"id": ladder, "system": SYSTEM})
        assert response.status_code == 201, response.text


async def writer_key(urls: Sequence[str]) -> str:
    """A new API key of scope ``results:write`` on every ladder, made with the admin token."""
    async with http_client(1) as client:
        body = {"name": "load writer", "scopes": ["results:write"], "ladders": ["*"]}
        response = await client.post(f"{urls[0]}/keys", json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["key"])


async def run_load(
    urls: Sequence[str],
    workload: Workload,
    *,
    key: str,
    clients: int = 50,
    run: LoadRun | None = None,
    alongside: Callable[[LoadRun], Awaitable[None]] | None = None,
) -> LoadRun:
    """Send every job from ``clients`` concurrent clients (a shared queue) with the API key
    ``key``; ``alongside`` runs at the same time (the fault test's restart). Bounded by
    LOAD_TIMEOUT."""
    run = run or LoadRun()
    queue: asyncio.Queue[Job] = asyncio.Queue()
    for job in workload.jobs:
        queue.put_nowait(job)

    async with http_client(SENDS_PER_JOB * clients, key) as client:

        async def worker() -> None:
            while True:
                if len(run.unacknowledged) >= ABORT_AFTER:
                    run.aborted = f"stopped early: {len(run.unacknowledged)} sends were given up"
                    return
                try:
                    job = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                body = workload.bodies[job.game]
                await asyncio.gather(*(post_game(client, urls, s, body, run) for s in job.servers))
                run.jobs_done += 1

        async def everything() -> None:
            tasks: list[Awaitable[None]] = [worker() for _ in range(clients)]
            if alongside is not None:
                tasks.append(alongside(run))
            await asyncio.gather(*tasks)

        try:
            await asyncio.wait_for(everything(), LOAD_TIMEOUT)
        except TimeoutError:
            run.timed_out = True
    run.finished = time.monotonic()
    return run


# -- PostgreSQL restart (fault test) -------------------------------------------------------------


def postgres_cluster() -> tuple[str, str, int]:
    """(version, host, port) of the local cluster that pg_ctlcluster can restart."""
    base = make_url(postgres_base_url())
    host = base.host or "127.0.0.1"
    reason = None
    if host not in ("127.0.0.1", "localhost", "::1"):
        reason = f"PostgreSQL at {host} is not local"
    elif shutil.which("pg_ctlcluster") is None or shutil.which("pg_isready") is None:
        reason = "pg_ctlcluster/pg_isready not installed"
    elif not Path("/etc/postgresql").is_dir() or not os.listdir("/etc/postgresql"):
        reason = "no cluster under /etc/postgresql"
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the fault test cannot restart PostgreSQL under CI: {reason}")
        pytest.skip(f"the fault test needs a local cluster: {reason}")
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    return version, host, base.port or 5432


async def _pg_ctlcluster(version: str, action: str) -> None:
    process = await asyncio.create_subprocess_exec(
        "pg_ctlcluster",
        "--skip-systemctl-redirect",
        version,
        "main",
        action,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), 60)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode == 0, f"pg_ctlcluster {action} failed: {output.decode()}"


async def restart_postgres(version: str, down_seconds: float = 0.0) -> None:
    """``pg_ctlcluster ... restart`` (fast shutdown: every connection is dropped); with
    ``down_seconds``, stop, stay down that long, then start (an outage longer than the
    service's own retries)."""
    if down_seconds <= 0:
        await _pg_ctlcluster(version, "restart")
        return
    await _pg_ctlcluster(version, "stop")
    try:
        await asyncio.sleep(down_seconds)
    finally:
        await _pg_ctlcluster(version, "start")


async def wait_postgres_ready(host: str, port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        process = await asyncio.create_subprocess_exec(
            "pg_isready",
            "-q",
            "-h",
            host,
            "-p",
            str(port),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        if await process.wait() == 0:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"PostgreSQL not ready {timeout} s after the restart")


async def await_recovery(
    urls: Sequence[str],
    ladder: str,
    played_at: datetime,
    run: LoadRun,
    key: str,
    limit: float = 30.0,
) -> float | None:
    """Seconds until every server (probed concurrently) answers GET /readyz with 200 and then
    acknowledges a new game (POST /games: 201, or 200 when an earlier attempt of it was
    stored); None after ``limit``. The probe games (two new players each) are recorded in
    ``run`` like the load's, so the checks cover them too."""
    begin = time.monotonic()

    async def probe(client: httpx.AsyncClient, index: int) -> float | None:
        body = {
            "ladder": ladder,
            "id": f"probe-{index}",
            "played_at": iso(played_at + timedelta(seconds=index + 1)),
            "players": [
                {"player": f"probe-{index}-a", "rank": 1},
                {"player": f"probe-{index}-b", "rank": 2},
            ],
        }
        ready = False
        while time.monotonic() - begin < limit:
            with contextlib.suppress(httpx.TransportError):
                if not ready:
                    response = await client.get(f"{urls[index]}/readyz", timeout=2.0)
                    ready = response.status_code == 200
                if ready:
                    if await post_game(client, urls, index, body, run, max_attempts=1):
                        return time.monotonic() - begin
                    run.unacknowledged.pop()  # not given up: tried again below, until the limit
            await asyncio.sleep(0.1)
        return None

    async with http_client(len(urls), key) as client:
        times = await asyncio.gather(*(probe(client, index) for index in range(len(urls))))
    if any(t is None for t in times):
        return None
    return max(t for t in times if t is not None)


# -- checks --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    seq: int
    body: dict[str, Any]


def stored_games(database_url: str, ladder: str) -> list[StoredGame]:
    """The ladder's live games in history order (occurred_at, seq), straight from the table."""
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with Session(engine) as session:
            rows = session.scalars(
                select(Event)
                .where(Event.ladder_id == ladder, Event.kind == "game", Event.voided_at.is_(None))
                .order_by(Event.occurred_at, Event.seq)
            ).all()
            return [StoredGame(str(row.external_id), row.seq, dict(row.body)) for row in rows]
    finally:
        engine.dispose()


@dataclass
class Expectations:
    """What a test tolerates beyond the always-true rules."""

    #: Every game got exactly one 201 (no fault: nothing committed without its answer).
    exactly_one_201: bool = True
    #: 503 answers may occur (each retried to success).
    allow_503: bool = True
    #: Connection errors may occur (each retried to success).
    allow_connection_errors: bool = False
    #: Ids asked of every server (the others of one server each, round-robin).
    sample_all_servers: int = 300


async def _get_json(
    client: httpx.AsyncClient, url: str, problems: list[str]
) -> dict[str, Any] | None:
    for attempt in range(1, 6):
        try:
            response = await client.get(url)
        except httpx.TransportError as exc:
            if attempt == 5:
                problems.append(f"GET {url}: {type(exc).__name__}")
            await asyncio.sleep(_backoff(attempt, None))
            continue
        if response.status_code == 503 and attempt < 5:
            await asyncio.sleep(_backoff(attempt, response.headers.get("retry-after")))
            continue
        if response.status_code != 200:
            problems.append(f"GET {url}: {response.status_code} {response.text[:300]}")
            return None
        data: dict[str, Any] = response.json()
        return data
    return None


async def _served_seqs(
    urls: Sequence[str], stored: list[StoredGame], ladder: str, sample: int, problems: list[str]
) -> int:
    """GET every stored game from one server (round-robin) and a sample from every server:
    each answer must carry the stored seq. Returns the number of GETs."""
    rng = random.Random(len(stored))
    sampled = {g.id for g in rng.sample(stored, min(sample, len(stored)))}
    checks: list[tuple[str, int, int]] = []
    for index, game in enumerate(stored):
        servers = range(len(urls)) if game.id in sampled else [index % len(urls)]
        checks.extend((game.id, game.seq, s) for s in servers)
    limit = asyncio.Semaphore(30)
    wrong: list[str] = []

    async with http_client(30) as client:

        async def check(game_id: str, seq: int, server: int) -> None:
            async with limit:
                data = await _get_json(
                    client, f"{urls[server]}/ladders/{ladder}/games/{game_id}", problems
                )
            if data is not None and data.get("seq") != seq:
                wrong.append(f"{game_id}: server{server} says seq {data.get('seq')}, stored {seq}")

        await asyncio.gather(*(check(*c) for c in checks))
    if wrong:
        problems.append(f"{len(wrong)} GETs disagree with the stored seq: {wrong[:5]}")
    return len(checks)


def status_key(attempt: Attempt) -> str:
    return str(attempt.status) if attempt.status is not None else f"error:{attempt.error}"


async def verify(
    urls: Sequence[str],
    database_url: str,
    workload: Workload,
    run: LoadRun,
    expect: Expectations,
) -> tuple[dict[str, Any], list[str]]:
    """Every check of the issue; returns (summary, problems)."""
    problems: list[str] = []
    ladder = workload.ladder
    if run.timed_out:
        problems.append(
            f"the load did not finish in {LOAD_TIMEOUT} s: {run.jobs_done}/{len(workload.jobs)}"
            f" jobs done ({run.jobs_done / run.duration:.1f} jobs/s)"
        )
    if run.aborted:
        problems.append(f"the load {run.aborted} ({run.jobs_done}/{len(workload.jobs)} jobs done)")
    statuses = Counter(status_key(a) for a in run.attempts)
    acks: dict[str, list[Attempt]] = defaultdict(list)
    for attempt in run.attempts:
        if attempt.status in (200, 201):
            acks[attempt.game].append(attempt)

    # Answers: nothing but 201/200, retried 503s (with Retry-After), connection errors if allowed.
    kept = [a for a in run.attempts if a.status not in (200, 201, 503) and a.status is not None]
    if kept:
        problems.append(
            f"{len(kept)} answers other than 200/201/503: "
            f"{dict(Counter(status_key(a) for a in kept))}; first: "
            + "; ".join(f"{a.game}@server{a.server} {a.status} {a.detail}" for a in kept[:5])
        )
    unavailable = [a for a in run.attempts if a.status == 503]
    if unavailable and not expect.allow_503:
        problems.append(f"{len(unavailable)} answers were 503")
    no_retry_after = [a for a in unavailable if not a.retry_after]
    if no_retry_after:
        problems.append(f"{len(no_retry_after)} 503 answers without Retry-After")
    # Sockets the client's own pool closed are its fault, not the servers': counted in the
    # summary (``client_pool_closes``), retried like any connection error, not a problem.
    transport = [a for a in run.attempts if a.status is None and not a.closed_here]
    if transport and not expect.allow_connection_errors:
        problems.append(
            f"{len(transport)} connection errors/timeouts: "
            f"{dict(Counter(a.error for a in transport))}; first: "
            + "; ".join(
                f"{a.game}@server{a.server} at {a.at:.2f} s: {a.detail}" for a in transport[:5]
            )
        )
    locked = [a for a in run.attempts if a.locked]
    if locked:
        problems.append(f'{len(locked)} answers mention "locked": {[a.detail for a in locked[:3]]}')
    if run.unacknowledged:
        problems.append(
            f"{len(run.unacknowledged)} sends never acknowledged: {run.unacknowledged[:10]}"
        )

    # Acknowledgements: one seq per game, at most (or exactly) one 201 per game.
    created = Counter(a.game for a in run.attempts if a.status == 201)
    twice = [g for g, n in created.items() if n > 1]
    if twice:
        problems.append(f"{len(twice)} games got 201 more than once: {twice[:10]}")
    if expect.exactly_one_201:
        # A send whose socket this process closed (``_closed_here``) may have lost a 201 the
        # server did send; its retry then finds the game stored (200), as it must.
        dropped = {a.game for a in run.attempts if a.closed_here}
        never = [g for g in acks if created[g] == 0 and g not in dropped]
        if never:
            problems.append(f"{len(never)} acknowledged games never got a 201: {never[:10]}")
    split = {
        g: sorted({a.seq for a in answers if a.seq is not None}) for g, answers in acks.items()
    }
    split = {g: seqs for g, seqs in split.items() if len(seqs) > 1}
    if split:
        problems.append(
            f"{len(split)} games acknowledged with different seqs: {list(split.items())[:5]}"
        )
    sent = {body["id"] for body in workload.bodies}
    missing_ack = sorted(sent - set(acks))
    if missing_ack and not run.unacknowledged:
        problems.append(f"{len(missing_ack)} games never acknowledged: {missing_ack[:10]}")

    # Storage: every acknowledged game stored exactly once, under the acknowledged seq.
    stored = stored_games(database_url, ladder)
    stored_ids = Counter(g.id for g in stored)
    doubled = [g for g, n in stored_ids.items() if n > 1]
    if doubled:
        problems.append(f"{len(doubled)} games stored twice: {doubled[:10]}")
    lost = sorted(set(acks) - set(stored_ids))
    if lost:
        problems.append(f"{len(lost)} acknowledged games are not stored: {lost[:10]}")
    extra = sorted(set(stored_ids) - set(acks) - sent)
    if extra:
        problems.append(f"{len(extra)} stored games nobody sent: {extra[:10]}")
    unacked_stored = sorted((set(stored_ids) & sent) - set(acks))
    seq_of = {g.id: g.seq for g in stored}
    wrong_seq = [
        (g, answers[0].seq, seq_of[g])
        for g, answers in acks.items()
        if g in seq_of and answers[0].seq != seq_of[g]
    ]
    if wrong_seq:
        problems.append(f"{len(wrong_seq)} games acknowledged with another seq: {wrong_seq[:5]}")

    async with http_client(4) as client:
        ladder_out = await _get_json(client, f"{urls[0]}/ladders/{ladder}", problems)
        board = await _get_json(
            client,
            f"{urls[-1]}/ladders/{ladder}/leaderboard?active_within_days=0&limit=500",
            problems,
        )
    if ladder_out is not None and ladder_out.get("games") != len(acks):
        problems.append(
            f"GET /ladders/{ladder} says {ladder_out.get('games')} games, "
            f"{len(acks)} distinct games were acknowledged"
        )
    gets = await _served_seqs(urls, stored, ladder, expect.sample_all_servers, problems)

    # Ratings: zero-sum, and exactly the serial replay of the stored history.
    replay_mismatches = 0
    rating_sum = math.nan
    players = 0
    if board is not None and ladder_out is not None:
        entries = {e["player"]: e for e in board["entries"]}
        players = len(entries)
        if board["total"] != players:
            problems.append(f"leaderboard total {board['total']} but {players} entries (limit?)")
        rating_sum = math.fsum(e["rating"] for e in entries.values())
        if rating_sum != pytest.approx(INITIAL_RATING * players, abs=1e-6 * max(players, 1)):
            problems.append(
                f"ratings sum to {rating_sum!r}, not {INITIAL_RATING} x {players} = "
                f"{INITIAL_RATING * players!r} (lost or doubled update)"
            )
        system = SYSTEMS[SYSTEM]
        # The ladder's parameters as the service reads them (the system's, ranked play's,
        # the field limit): the replay rates with the same rater.
        rater = configure(SYSTEM, ladder_out["params"]).rater
        events = [game_to_engine(GameIn.model_validate(g.body)) for g in stored]
        states = final_states(system.info, rater, events)
        expected = {key.player: rater.standing(state).rating for key, state in states.items()}
        games_of = Counter(p["player"] for g in stored for p in g.body["players"])
        if set(expected) != set(entries):
            problems.append(
                f"players differ: replay has {len(expected)}, leaderboard {len(entries)}: "
                f"{sorted(set(expected) ^ set(entries))[:10]}"
            )
        mismatched = [
            f"{p}: served {entries[p]['rating']!r}, replay {expected[p]!r}"
            for p in sorted(set(expected) & set(entries))
            if entries[p]["rating"] != expected[p]
        ]
        replay_mismatches = len(mismatched)
        if mismatched:
            problems.append(
                f"{len(mismatched)} ratings differ from the serial replay: {mismatched[:5]}"
            )
        wrong_games = [p for p, e in entries.items() if e["games"] != games_of.get(p)]
        if wrong_games:
            problems.append(f"{len(wrong_games)} players' game counts are wrong: {wrong_games[:5]}")

    duration = run.duration
    summary: dict[str, Any] = {
        "servers": len(urls),
        "games": len(workload.bodies),
        "duplicate_sends": workload.duplicates,
        "sends": run.sends,
        "requests": len(run.attempts),
        "load_seconds": round(duration, 2),
        "games_per_second": round(len(acks) / duration, 1) if duration else None,
        "requests_per_second": round(len(run.attempts) / duration, 1) if duration else None,
        "status_counts": dict(sorted(statuses.items())),
        "retries": len(run.attempts) - run.sends,
        "client_pool_closes": sum(1 for a in run.attempts if a.closed_here),
        "sends_retried_to_success": run.retried_to_success,
        "answers_503": len(unavailable),
        # Games whose posting re-rated stored events (a late game whose dependency cone is
        # empty re-rates none, so this counts fewer than the games that arrived late).
        "games_rerating_others": sum(
            1 for a in run.attempts if a.status == 201 and a.recomputed > 0
        ),
        "acknowledged_games": len(acks),
        "stored_games": len(stored),
        "stored_without_ack": len(unacked_stored),
        "get_checks": gets,
        "players": players,
        "rating_sum": rating_sum,
        "replay_mismatches": replay_mismatches,
        "failures": [asdict(a) for a in run.attempts if a.status not in (200, 201)][:KEPT_FAILURES],
    }
    return summary, problems


def finish(
    name: str,
    summary: dict[str, Any],
    problems: list[str],
    servers: Sequence[Server] = (),
) -> None:
    """Print the summary, write tests/artifacts/load-<name>.json, fail with every problem."""
    summary = {
        "test": name,
        "app_root": str(app_root()),
        "full_size": os.environ.get(FULL_ENV) == "1",
        **summary,
        "problems": problems,
    }
    if problems:
        summary["server_log_errors"] = server_errors(servers)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"load-{name}.json"
    path.write_text(json.dumps(summary, indent=2, default=str) + "\n")
    shown = {k: v for k, v in summary.items() if k not in ("failures", "server_log_errors")}
    print(f"\n[load] {name}: " + json.dumps(shown, default=str))
    if problems:
        logs = ", ".join(str(s.log_path) for s in servers)
        pytest.fail(
            f"{len(problems)} problem(s) (details in {path}; server logs: {logs}):\n- "
            + "\n- ".join(problems)
            + ("\nserver log lines:\n" + "\n".join(summary["server_log_errors"]) if servers else "")
        )
