"""Bulk work without the cyclic garbage collector's pauses.

An import holds millions of small objects (bodies, engine events) for its whole run, and a
replay allocates millions more that die young: CPython's collector then keeps re-scanning the
survivors, which cost a quarter of an import's CPU. Bulk paths (``ratings import``, ``ratings
recompute``) pause it for their duration; reference counting still frees everything that is
not in a cycle, and the collector resumes (and catches up) when the last bulk section ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause automatic garbage collection inside the block (nested and threads: the
    outermost section decides, and the collector's earlier setting is restored)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
