"""Fixtures of the fault tests: the load tests' servers, always stopped."""

from __future__ import annotations

from tests.load.conftest import _quiet_httpx, launcher

__all__ = ["_quiet_httpx", "launcher"]
