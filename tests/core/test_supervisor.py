"""``ratings serve`` with several workers on Linux (app/workers.py): the supervisor replaces a
worker that dies or hangs, stops when one cannot start, stops gracefully on SIGTERM, and its
workers do not outlive it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.helpers import free_port

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the supervisor is used on Linux only"
)

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
#: Seconds to wait for a start, a replacement or an exit (a worker's start imports the app).
PATIENCE = 30.0


def _workers(supervisor: int) -> set[int]:
    """The supervisor's worker processes (multiprocessing's resource tracker left out)."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{supervisor}/task")
    except FileNotFoundError:  # the supervisor has exited
        return found
    for task in tasks:
        with contextlib.suppress(FileNotFoundError):
            for child in Path(f"/proc/{supervisor}/task/{task}/children").read_text().split():
                with contextlib.suppress(FileNotFoundError):
                    command = Path(f"/proc/{child}/cmdline").read_bytes()
                    if b"spawn_main" in command:
                        found.add(int(child))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(FileNotFoundError):  # a zombie is dead, waiting to be reaped
        if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
            return False
    return True


def _until(condition: object, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {PATIENCE} s: {what}")


def _healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def _serve(tmp_path: Path, port: int, **extra_env: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGS_")}
    env.update(extra_env)
    env.update(
        RATINGS_DATABASE_URL=f"sqlite:///{tmp_path / 'ratings.db'}",
        RATINGS_HOST="127.0.0.1",
        RATINGS_PORT=str(port),
        RATINGS_WORKERS=str(WORKERS),
        RATINGS_ADMIN_TOKEN="supervisor-test-token",
        PYTHONPATH=str(ROOT),
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=PATIENCE)


def test_a_dead_worker_is_replaced_and_sigterm_stops_all(tmp_path: Path) -> None:
    port = free_port()
    # The workers' metrics: each has its live gauges (the pool's) in a file of its own.
    samples = tmp_path / "metrics"
    samples.mkdir()
    with _serve(tmp_path, port, PROMETHEUS_MULTIPROC_DIR=str(samples)) as server:
        _until(lambda: len(_workers(server.pid)) == WORKERS and _healthy(port), "serving")
        first = _workers(server.pid)
        victim = min(first)
        gauges = samples / f"gauge_livesum_{victim}.db"
        assert gauges.exists()
        os.kill(victim, signal.SIGKILL)
        _until(
            lambda: len(_workers(server.pid)) == WORKERS and victim not in _workers(server.pid),
            "a new worker in place of the killed one",
        )
        _until(lambda: _healthy(port), "serving again")
        # The dead worker's pool no longer counts in /metrics' sums (the supervisor forgets
        # it when it reaps the worker, which a loaded machine may see after the new one serves).
        _until(lambda: not gauges.exists(), "the dead worker's gauges forgotten")
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=PATIENCE) == 0
        assert not any(_alive(pid) for pid in first | _workers(server.pid))


def test_a_hung_worker_is_killed_and_replaced(tmp_path: Path) -> None:
    """A stopped worker stands for a hung one (stuck holding the GIL): it answers no health
    check, so after uvicorn's ``timeout_worker_healthcheck`` (5 s) it is killed and
    replaced, and the service serves on both sockets again."""
    port = free_port()
    with _serve(tmp_path, port) as server:
        _until(lambda: len(_workers(server.pid)) == WORKERS and _healthy(port), "serving")
        time.sleep(1.0)  # a health check answered by each since they serve
        victim = min(_workers(server.pid))
        os.kill(victim, signal.SIGSTOP)
        try:
            _until(lambda: not _alive(victim), "the hung worker killed")
            _until(
                lambda: len(_workers(server.pid)) == WORKERS and victim not in _workers(server.pid),
                "a new worker in place of the hung one",
            )
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(victim, signal.SIGCONT)
        _until(lambda: _healthy(port), "serving again")


def test_workers_do_not_outlive_a_killed_supervisor(tmp_path: Path) -> None:
    port = free_port()
    with _serve(tmp_path, port) as server:
        _until(lambda: len(_workers(server.pid)) == WORKERS and _healthy(port), "serving")
        workers = _workers(server.pid)
        server.kill()  # SIGKILL to the supervisor alone: no chance to stop its workers
        server.wait(timeout=PATIENCE)
        _until(lambda: not any(_alive(pid) for pid in workers), "the workers gone")


def test_a_port_that_cannot_be_shared_stops_the_service(tmp_path: Path) -> None:
    with socket.socket() as taken:  # bound without SO_REUSEPORT: no worker can join it
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with _serve(tmp_path, taken.getsockname()[1]) as server:
            assert server.wait(timeout=PATIENCE) == 1
