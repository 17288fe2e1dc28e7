"""The load tests' client: which connection errors are its own (docs/testing-load.md)."""

from __future__ import annotations

import anyio
import httpx

from tests.load.helpers import _closed_here


def _raised(error: BaseException, cause: BaseException) -> BaseException:
    try:
        raise error from cause
    except BaseException as exc:  # the chain is what is tested
        return exc


def test_a_socket_closed_by_this_process_is_the_clients_own_error() -> None:
    # As httpcore maps it: ReadError('') <- ClosedResourceError() <- IndexError (CI, 2026-12-03).
    closed = _raised(anyio.ClosedResourceError(), IndexError("pop from an empty deque"))
    assert _closed_here(_raised(httpx.ReadError(""), closed))


def test_a_server_that_reset_or_closed_the_connection_is_not() -> None:
    assert not _closed_here(_raised(httpx.ReadError(""), ConnectionResetError()))
    assert not _closed_here(httpx.RemoteProtocolError("Server disconnected"))
