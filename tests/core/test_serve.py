"""``ratings serve`` with several workers (granian): a reload replaces them one at a time
without refusing a connection, a worker that dies is replaced and its gauges forgotten,
SIGTERM stops all, a port taken stops the service, a generated admin token reaches the
workers through its file, never through the environment, and behind a trusted proxy the
forwarded client address is the one counted."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.core.database import SQLITE_POOL_SIZE
from tests.api.live_server import PATIENCE, Served, serving, until

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the server's processes in /proc"
)

WORKERS = 2
#: The reload's probe: one new connection every PROBE_EVERY seconds, each answered within
#: PROBE_BOUND (issue 34: the previous supervisor's SIGHUP refused connections for 0.9-2.1 s).
PROBE_EVERY = 0.05
PROBE_BOUND = 1.0


def _probe(url: str) -> tuple[int | str, float]:
    """GET /healthz on a connection of its own: the status, or the error; and the seconds."""
    started = time.monotonic()
    try:
        with httpx.Client(timeout=10.0) as client:
            status: int | str = client.get(f"{url}/healthz").status_code
    except httpx.HTTPError as error:
        status = repr(error)
    return status, time.monotonic() - started


@pytest.mark.slow
def test_a_reload_replaces_the_workers_one_at_a_time_and_refuses_no_connection(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, RATINGS_WORKERS=str(WORKERS)) as server:
        until(lambda: len(server.workers()) == WORKERS, "every worker started")
        old = server.workers()
        probes: list[tuple[int | str, float]] = []
        counts: list[int] = []
        stop = threading.Event()

        def probe() -> None:
            while not stop.is_set():
                probes.append(_probe(server.url))
                stop.wait(PROBE_EVERY)

        prober = threading.Thread(target=probe)
        prober.start()
        try:
            time.sleep(0.5)  # some probes before the signal
            server.process.send_signal(signal.SIGHUP)

            def replaced() -> bool:
                current = server.workers()
                counts.append(len(current))
                # Each new worker listens once ready: until then the others must answer.
                return not current & old and server.listeners() == WORKERS

            until(replaced, "every worker replaced, and the new ones listening")
            time.sleep(0.5)  # and some probes after
        finally:
            stop.set()
            prober.join()
    failed = [p for p in probes if p[0] != 200]
    slowest = max(seconds for _, seconds in probes)
    assert failed == []
    assert slowest < PROBE_BOUND, sorted(probes, key=lambda p: -p[1])[:5]
    assert len(probes) >= 20  # a reload takes seconds: many probes ran during it
    # One at a time: a new worker beside the others, never two, never fewer than WORKERS.
    assert (min(counts), max(counts)) == (WORKERS, WORKERS + 1), counts


def _pool_size(server: Served) -> float:
    page = httpx.get(f"{server.url}/metrics", timeout=PATIENCE).text
    for family in text_string_to_metric_families(page):
        for sample in family.samples:
            if sample.name == "ratings_db_pool_size":
                return float(sample.value)
    raise AssertionError("no ratings_db_pool_size in /metrics")


def test_a_dead_worker_is_replaced_and_forgotten_and_sigterm_stops_all(tmp_path: Path) -> None:
    samples = tmp_path / "metrics"
    samples.mkdir()

    def gauges(pid: int) -> Path:
        """A worker's live gauges (the pool's); removed when it is forgotten."""
        return samples / f"gauge_livesum_{pid}.db"

    with serving(
        tmp_path, RATINGS_WORKERS=str(WORKERS), PROMETHEUS_MULTIPROC_DIR=str(samples)
    ) as server:
        until(lambda: len(server.workers()) == WORKERS, "every worker started")
        first = server.workers()
        # Each worker reports its pool when it answers /metrics; new connections are spread
        # over the workers, so scrape until both have.
        until(lambda: _pool_size(server) == WORKERS * SQLITE_POOL_SIZE, "both pools reported")
        victim = min(first)
        assert gauges(victim).exists()
        os.kill(victim, signal.SIGKILL)
        until(
            lambda: len(server.workers()) == WORKERS and victim not in server.workers(),
            "a new worker in place of the killed one",
        )
        # Once the new worker has reported, the sums are those of two workers: not three, as
        # they would be if the dead one still counted (its gauges would still be there).
        until(
            lambda: (
                _pool_size(server) == WORKERS * SQLITE_POOL_SIZE and not gauges(victim).exists()
            ),
            "the dead worker's gauges forgotten",
        )
        workers = server.workers()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=PATIENCE) == 0
        until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), "workers gone")


def test_a_port_taken_stops_the_service(tmp_path: Path) -> None:
    with socket.socket() as taken:  # bound without SO_REUSEPORT: no worker can join it
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        with serving(tmp_path, wait=False, RATINGS_WORKERS="2", RATINGS_PORT=port) as server:
            assert server.process.wait(timeout=PATIENCE) == 1


def test_a_generated_token_reaches_the_workers_through_its_file_only(tmp_path: Path) -> None:
    with serving(tmp_path, RATINGS_ADMIN_TOKEN=None, RATINGS_WORKERS=str(WORKERS)) as server:
        until(lambda: len(server.workers()) == WORKERS, "every worker started")
        token = (tmp_path / "admin_token").read_text().strip()
        assert len(token) >= 16
        # New connections, spread over both workers: each read the token from the file.
        for _ in range(20):
            headers = {"Authorization": f"Bearer {token}"}
            assert httpx.get(f"{server.url}/ladders", headers=headers).status_code == 200
        wrong = {"Authorization": "Bearer " + "x" * len(token)}
        assert httpx.get(f"{server.url}/ladders", headers=wrong).status_code == 401
        for pid in {server.process.pid, *server.workers()}:
            assert token.encode() not in Path(f"/proc/{pid}/environ").read_bytes()


def test_behind_a_trusted_proxy_the_forwarded_client_is_counted(tmp_path: Path) -> None:
    """Public reads are limited per client address: a proxy on 127.0.0.1 (trusted by default,
    FORWARDED_ALLOW_IPS) names the client in X-Forwarded-For."""
    limits = {"RATINGS_PUBLIC_READS": "true", "RATINGS_PUBLIC_READS_PER_MINUTE": "2"}
    with serving(tmp_path, **limits) as server:

        def read(client: str) -> int:
            headers = {"X-Forwarded-For": client}
            return httpx.get(f"{server.url}/ladders", headers=headers).status_code

        assert [read("203.0.113.1") for _ in range(3)] == [200, 200, 429]
        assert read("203.0.113.2") == 200
