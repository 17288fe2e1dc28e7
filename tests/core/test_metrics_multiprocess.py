"""prometheus-client's multiprocess mode, as ``ratings serve`` runs it with several workers:
the pool gauges add up the live workers only, while the counters of ended ones still count
(``app.core.metrics.forget_ended_processes``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
#: A pool size each pretend worker reports.
POOL = 10
#: What each pretend worker does: report its pool, count a retry, say its pid.
REPORT = (
    "import os; from app.core import metrics; "
    f"metrics.POOL_SIZE.set({POOL}); metrics.DB_RETRIES.inc(); print(os.getpid(), flush=True)"
)


def _env(samples: Path) -> dict[str, str]:
    return {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(samples), "PYTHONPATH": str(ROOT)}


def _scrape(samples: Path) -> dict[str, float]:
    """/metrics' samples, rendered by a process of its own."""
    page = subprocess.run(
        [sys.executable, "-c", "from app.core import metrics; print(metrics.render()[0].decode())"],
        env=_env(samples),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(page)
        for sample in family.samples
    }


def test_an_ended_worker_leaves_the_pool_gauges_and_keeps_its_counts(tmp_path: Path) -> None:
    # A worker that stays alive until its input closes, and one that has ended.
    live = subprocess.Popen(
        [sys.executable, "-c", REPORT + "; import sys; sys.stdin.read()"],
        env=_env(tmp_path),
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert live.stdout is not None
        live_pid = int(live.stdout.readline())
        ended = subprocess.run(
            [sys.executable, "-c", REPORT],
            env=_env(tmp_path),
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        ended_pid = int(ended.stdout)
        assert (tmp_path / f"gauge_livesum_{ended_pid}.db").exists()
        scraped = _scrape(tmp_path)
        assert scraped["ratings_db_pool_size"] == POOL
        assert scraped["ratings_db_retries_total"] == 2
        assert not (tmp_path / f"gauge_livesum_{ended_pid}.db").exists()
        assert (tmp_path / f"gauge_livesum_{live_pid}.db").exists()
    finally:
        live.communicate("")
    scraped = _scrape(tmp_path)
    assert scraped["ratings_db_pool_size"] == 0
    assert scraped["ratings_db_retries_total"] == 2
