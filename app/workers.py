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
import ctypes
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import FrameType

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from app.core import metrics

log = logging.getLogger(__name__)

#: How often the supervisor looks for workers that died and for a requested restart.
POLL_SECONDS = 0.5
#: Seconds a worker gets, beyond uvicorn's graceful shutdown, before it is killed.
KILL_AFTER_SECONDS = 5.0
#: How long a new worker may take to answer its first health check (a spawned process imports
#: the whole application first, slowly on a loaded machine).
STARTUP_GRACE_SECONDS = 60.0
#: prctl(2): the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1


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


def _die_with(parent: int) -> None:
    """Be sent SIGTERM when the supervisor dies, however it dies: an orphaned worker would
    stay in the port's group and serve beside a restarted service's workers."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it died before the call
        os.kill(os.getpid(), signal.SIGTERM)


def _answer_pings(channel: Connection) -> None:
    """Answer the supervisor's health checks, from a thread of the worker's own (as uvicorn's
    workers do): a worker that stops answering is hung as a whole (stopped, or stuck holding
    the GIL), and the supervisor replaces it."""
    with contextlib.suppress(EOFError, OSError):  # the supervisor closed its end
        while True:
            channel.recv()
            channel.send(True)


def _worker(config: uvicorn.Config, parent: int, channel: Connection) -> None:
    _die_with(parent)
    threading.Thread(target=_answer_pings, args=(channel,), daemon=True).start()
    config.configure_logging()  # as uvicorn's workers do: logging is per process
    try:
        sock = listening_socket(config.host, config.port, config.backlog)
    except OSError as exc:
        log.error("cannot listen on %s:%s: %s", config.host, config.port, exc)
        sys.exit(STARTUP_FAILURE)
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: the supervisor stops us anyway
        server.run(sockets=[sock])
    if not server.started:  # the application's startup failed (uvicorn exits so too)
        sys.exit(STARTUP_FAILURE)


@dataclass(slots=True)
class Worker:
    """A worker process, the supervisor's end of its health-check pipe, and when it last
    answered (``time.monotonic()``; its start until it first answers)."""

    process: BaseProcess
    channel: Connection
    last_answer: float
    answered: bool = False
    ping_pending: bool = False

    def check(self, now: float) -> None:
        """Take its answers and send a ping if none is pending; never waits."""
        try:
            while self.channel.poll(0):
                self.channel.recv()
                self.last_answer, self.answered, self.ping_pending = now, True, False
            if not self.ping_pending:
                self.channel.send(b"ping")
                self.ping_pending = True
        except (EOFError, OSError):  # it has exited: the dead are replaced elsewhere
            pass

    def silent_for(self, now: float) -> float:
        return now - self.last_answer


class Supervisor:
    """Starts ``config.workers`` workers and keeps them running, as uvicorn's does:

    - a worker that dies is replaced; one that failed to start (exit status 3, uvicorn's
      ``STARTUP_FAILURE``: a port taken, a failing startup) stops them all, status 1;
    - a worker that does not answer health checks for ``timeout_worker_healthcheck`` seconds
      (uvicorn's setting, 5 s by default; after its start, ``STARTUP_GRACE_SECONDS``) is
      killed and replaced;
    - SIGTERM or SIGINT: each worker finishes its requests (uvicorn's graceful shutdown) and
      one still running ``timeout_graceful_shutdown`` + 5 s later is killed;
    - SIGHUP: the workers are replaced one at a time (a new one starts before the old one
      stops), e.g. to pick up new code.
    """

    def __init__(self, config: uvicorn.Config) -> None:
        self.config = config
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[Worker] = []
        # Set by the signal handlers and read by the loop: no locks in a handler.
        self.stop_requested = False
        self.restart_requested = False
        self.failed = False

    def run(self) -> int:
        """Serve until stopped; the exit status (0, or 1 when a worker failed to start)."""
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGHUP, self._restart)
        self.workers = [self._start() for _ in range(self.config.workers)]
        while not self.stop_requested:
            time.sleep(POLL_SECONDS)
            if self.restart_requested:
                self.restart_requested = False
                self._replace_all()
            self._replace_dead()
            self._kill_hung()
        self._shutdown(self.workers)
        return 1 if self.failed else 0

    def _start(self) -> Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(self.config, os.getpid(), theirs))
        process.start()
        theirs.close()  # the worker holds its own copy
        return Worker(process, ours, last_answer=time.monotonic())

    def _replace_dead(self) -> None:
        for index, worker in enumerate(self.workers):
            process = worker.process
            if process.is_alive() or self.stop_requested:
                continue
            worker.channel.close()
            metrics.forget_process(process.pid)
            if process.exitcode == STARTUP_FAILURE:
                log.error("worker %s failed to start; stopping", process.pid)
                self.failed = self.stop_requested = True
                return
            log.warning("worker %s exited (%s); starting another", process.pid, process.exitcode)
            self.workers[index] = self._start()

    def _kill_hung(self) -> None:
        """Kill the workers that stopped answering; :meth:`_replace_dead` replaces them."""
        now = time.monotonic()
        for worker in self.workers:
            if self.stop_requested or not worker.process.is_alive():
                continue
            worker.check(now)
            limit = (
                self.config.timeout_worker_healthcheck if worker.answered else STARTUP_GRACE_SECONDS
            )
            if worker.silent_for(now) > limit:
                log.error(
                    "worker %s has not answered health checks for %.0f s; killing it",
                    worker.process.pid,
                    worker.silent_for(now),
                )
                worker.process.kill()
                worker.process.join()

    def _replace_all(self) -> None:
        for index, old in enumerate(self.workers):
            self.workers[index] = self._start()
            self._shutdown([old])

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_requested = True

    def _restart(self, signum: int, frame: FrameType | None) -> None:
        self.restart_requested = True

    def _shutdown(self, workers: list[Worker]) -> None:
        for worker in workers:
            if worker.process.is_alive():
                worker.process.terminate()  # SIGTERM: uvicorn shuts down gracefully
        grace = (self.config.timeout_graceful_shutdown or 0) + KILL_AFTER_SECONDS
        deadline = time.monotonic() + grace
        for worker in workers:
            process = worker.process
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("worker %s still running after %s s; killing it", process.pid, grace)
                process.kill()
                process.join()
            worker.channel.close()
            metrics.forget_process(process.pid)
