"""Worker processes for ``ratings serve``, each with a listening socket of its own.

uvicorn's own supervisor binds one socket and every worker accepts from it. Whichever worker
wakes first takes every connection that is waiting, so a client that opens its connections
all at once (a load balancer's pool, a benchmark) may give one worker most of them, or all:
seen here with 64 connections and 2 workers as 20/44, 23/41 and 64/0. With keep-alive those
connections stay where they landed, and one worker runs at its limit (one core: the GIL)
while the other waits. Here each worker binds its own socket to the same address with
``SO_REUSEPORT``, and the kernel spreads new connections over the sockets by a hash of their
addresses (Linux; nginx's ``reuseport`` does the same).

Used on Linux with more than one worker and a fixed port; otherwise ``ratings serve`` keeps
uvicorn's supervisor.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import socket
import sys
import threading
import time
from multiprocessing.process import BaseProcess
from types import FrameType

import uvicorn

log = logging.getLogger(__name__)

#: A worker that exits sooner than this after its start failed to start: the supervisor stops
#: (restarting it would loop), as uvicorn's does on a startup failure.
MIN_UPTIME_SECONDS = 10.0
#: How often the supervisor looks for workers that died.
POLL_SECONDS = 0.5
#: Seconds a worker gets, beyond uvicorn's graceful shutdown, before it is killed.
KILL_AFTER_SECONDS = 5.0


def reuse_port_supported(config: uvicorn.Config) -> bool:
    return (
        sys.platform.startswith("linux")
        and hasattr(socket, "SO_REUSEPORT")
        and config.workers > 1
        and config.port != 0
        and config.uds is None
        and config.fd is None
    )


def listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """A socket of the port's ``SO_REUSEPORT`` group (as uvicorn binds, plus the option)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        sock.listen(backlog)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def _worker(config: uvicorn.Config) -> None:
    config.configure_logging()  # as uvicorn's workers do: logging is per process
    sock = listening_socket(config.host, config.port, config.backlog)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: the supervisor stops us anyway
        uvicorn.Server(config).run(sockets=[sock])


class Supervisor:
    """Starts ``config.workers`` workers, restarts one that dies, stops them all on SIGTERM
    or SIGINT (each finishes its requests: uvicorn's graceful shutdown)."""

    def __init__(self, config: uvicorn.Config) -> None:
        self.config = config
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[tuple[BaseProcess, float]] = []
        self.stopping = threading.Event()
        self.failed = False

    def run(self) -> int:
        """Serve until stopped; the exit status (0, or 1 when a worker failed to start)."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self._stop)
        self.workers = [self._start() for _ in range(self.config.workers)]
        while not self.stopping.wait(POLL_SECONDS):
            for index, (process, started) in enumerate(self.workers):
                if process.is_alive():
                    continue
                if time.monotonic() - started < MIN_UPTIME_SECONDS:
                    log.error(
                        "worker %s exited at start (%s); stopping", process.pid, process.exitcode
                    )
                    self.failed = True
                    self.stopping.set()
                    break
                log.warning(
                    "worker %s exited (%s); starting another", process.pid, process.exitcode
                )
                self.workers[index] = self._start()
        self._shutdown()
        return 1 if self.failed else 0

    def _start(self) -> tuple[BaseProcess, float]:
        process = self.context.Process(target=_worker, args=(self.config,), daemon=False)
        process.start()
        return process, time.monotonic()

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping.set()

    def _shutdown(self) -> None:
        for process, _ in self.workers:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn shuts down gracefully
        grace = (self.config.timeout_graceful_shutdown or 0) + KILL_AFTER_SECONDS
        deadline = time.monotonic() + grace
        for process, _ in self.workers:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("worker %s still running after %s s; killing it", process.pid, grace)
                process.kill()
                process.join()
