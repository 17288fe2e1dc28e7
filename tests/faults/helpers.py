"""What the fault tests share: a rule for what they need, a small file system of their own,
filling it, and the ratings a serial replay gives."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from app.engine.ledger import final_states
from app.engine.registry import SYSTEMS
from app.schemas.events import GameIn
from app.services.conversion import game_to_engine
from app.services.runtime import configure


def require(available: bool, reason: str) -> None:
    """Skip without what the test needs; under CI (CI=true) fail instead: CI must run it."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (under CI this test may not be skipped)")
    pytest.skip(reason)


@contextlib.contextmanager
def small_tmpfs(path: Path, mib: int, owner: tuple[int, int] | None = None) -> Iterator[Path]:
    """A tmpfs of ``mib`` MiB mounted at ``path`` (root only), owned by ``owner`` (uid, gid);
    unmounted at the end."""
    require(os.geteuid() == 0 and shutil.which("mount") is not None, "mounting needs root")
    path.mkdir(parents=True, exist_ok=True)
    options = f"size={mib}m,mode=0700"
    if owner is not None:
        options += f",uid={owner[0]},gid={owner[1]}"
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    require(mounted.returncode == 0, f"cannot mount a tmpfs: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        # Lazy: a server that has not exited yet may still hold a file open.
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(directory: Path) -> Path:
    """Fill the file system of ``directory`` up to its last byte with one file; returns it
    (deleting it gives the room back)."""
    filler = directory / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for size in (1 << 20, 1 << 16, 1 << 12, 1 << 9, 1):
            chunk = b"\0" * size
            while True:
                try:
                    os.write(descriptor, chunk)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(descriptor)
    return filler


def replayed(
    system: str, params: dict[str, Any], bodies: Sequence[dict[str, Any]]
) -> dict[str, float]:
    """Each player's rating after ``bodies`` (POST /games bodies), replayed in played order
    by the engine alone, with the ladder's parameters as the service reads them."""
    rater = configure(system, params).rater
    ordered = sorted(bodies, key=lambda body: body["played_at"])
    events = [game_to_engine(GameIn.model_validate(body)) for body in ordered]
    states = final_states(SYSTEMS[system].info, rater, events)
    return {key.player: rater.standing(state).rating for key, state in states.items()}
