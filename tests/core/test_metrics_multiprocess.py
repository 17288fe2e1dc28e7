"""prometheus-client's multiprocess mode, as ``ratings serve`` runs it with several workers:
the pool gauges add up the live workers only (``app.core.metrics.forget_process``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
#: A pool size each pretend worker reports.
POOL = 10


def _python(code: str, samples: Path) -> str:
    """Run ``code`` in a process of its own writing its metrics to ``samples``."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(samples), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


def _pool_size(samples: Path) -> float:
    page = _python("from app.core import metrics; print(metrics.render()[0].decode())", samples)
    for family in text_string_to_metric_families(page):
        for sample in family.samples:
            if sample.name == "ratings_db_pool_size":
                return float(sample.value)
    raise AssertionError("no ratings_db_pool_size in /metrics")


def test_a_forgotten_worker_leaves_the_pool_gauges(tmp_path: Path) -> None:
    report = f"import os; from app.core import metrics; metrics.POOL_SIZE.set({POOL}); "
    workers = [int(_python(report + "print(os.getpid())", tmp_path)) for _ in range(2)]
    # Both ended, neither forgotten: their last values still add up.
    assert _pool_size(tmp_path) == 2 * POOL
    _python(f"from app.core import metrics; metrics.forget_process({workers[0]})", tmp_path)
    assert _pool_size(tmp_path) == POOL
