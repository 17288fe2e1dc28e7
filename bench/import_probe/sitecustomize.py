"""Records where each process of a benchmarked server imports ``app`` from.

The benchmarks (``bench/common.py``) put this folder on each server's ``PYTHONPATH`` (after
the build it runs) and name a folder in ``RATINGS_BENCH_IMPORT_LOG``. Python imports
``sitecustomize`` at start-up in every process, the spawned workers included. So each process
that imports ``app`` writes one file there, named by its pid, holding the file the import
resolved to. The harness then checks that the supervisor and every worker ran the checkout's
code. This check exists because the workers once ran another tree's code: alembic's
``prepend_sys_path = .`` puts ``'.'`` on the supervisor's ``sys.path``, spawn gives the
children that path and the parent's cwd, and the shared venv's editable install maps ``app``
to /work/main.
Nothing is recorded when the variable is unset.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from typing import Any

LOG_ENV = "RATINGS_BENCH_IMPORT_LOG"


class _RecordAppImport:
    """A meta-path finder that sees the first lookup of ``app``, resolves it with the finders
    that would have resolved it anyway (it removes itself first), and records the result."""

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name != "app":
            return None
        sys.meta_path.remove(cls)
        spec = importlib.util.find_spec("app")
        origin = spec.origin if spec is not None else None
        with open(os.path.join(os.environ[LOG_ENV], str(os.getpid())), "w") as out:
            out.write(f"{origin}\n")
        return spec


if os.environ.get(LOG_ENV):
    sys.meta_path.insert(0, _RecordAppImport)
