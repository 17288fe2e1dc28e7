"""``ratings serve`` as it runs in production (granian), in a process group of its own on
127.0.0.1: for tests of what only the real server shows (timeouts, how a connection is
closed, workers, reloads)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.conftest import ADMIN_TOKEN
from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
#: Seconds to wait for a start, a replacement or an exit (a worker's start imports the app).
PATIENCE = 60.0
#: How long a test waits for the server to act before calling it a failure.
GRACE_SECONDS = 3.0


@dataclass(frozen=True)
class Served:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/healthz", timeout=GRACE_SECONDS).status_code == 200
        except httpx.HTTPError:
            return False

    def listeners(self) -> int:
        """Sockets listening on the port: one per worker that is ready (each has its own)."""
        local = f"0100007F:{self.port:04X}"  # 127.0.0.1, as /proc/net/tcp writes it
        rows = [row.split() for row in Path("/proc/net/tcp").read_text().splitlines()[1:]]
        return sum(1 for row in rows if row[1] == local and row[3] == "0A")  # 0A: LISTEN

    def workers(self) -> set[int]:
        """The server's worker processes (spawned interpreters; zombies left out)."""
        found: set[int] = set()
        with contextlib.suppress(FileNotFoundError):  # the server has exited
            for task in os.listdir(f"/proc/{self.process.pid}/task"):
                with contextlib.suppress(FileNotFoundError):
                    path = Path(f"/proc/{self.process.pid}/task/{task}/children")
                    for child in path.read_text().split():
                        if _alive(int(child)) and b"spawn_main" in _cmdline(int(child)):
                            found.add(int(child))
        return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie is dead, waiting to be reaped


def until(condition: object, what: str, patience: float = PATIENCE) -> None:
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"not within {patience} s: {what}")


@contextlib.contextmanager
def serving(directory: Path, wait: bool = True, **settings: str | None) -> Iterator[Served]:
    """``ratings serve`` on a free port, on a SQLite file in ``directory``, with the admin
    token of the tests; ``settings`` are environment variables (None: unset). Yields once it
    answers ``/healthz`` (``wait``); stopped with its whole process group."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RATINGS_", "PROMETHEUS_"))}
    env.update(
        RATINGS_DATABASE_URL=f"sqlite:///{directory / 'ratings.db'}",
        RATINGS_HOST="127.0.0.1",
        RATINGS_PORT=str(port),
        RATINGS_ADMIN_TOKEN=ADMIN_TOKEN,
        RATINGS_ADMIN_TOKEN_FILE=str(directory / "admin_token"),
        PYTHONPATH=str(ROOT),
    )
    for name, value in settings.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    log = directory / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve"],
            cwd=directory,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    served = Served(process, port, log)
    try:
        if wait:
            until(lambda: served.healthy() or process.poll() is not None, "serving")
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
        yield served
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=PATIENCE)
        finally:
            with contextlib.suppress(ProcessLookupError):  # whatever is left of the group
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=PATIENCE)
