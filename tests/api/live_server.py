"""A real uvicorn server on 127.0.0.1, in a thread, with the service's HTTP protocol: for
tests of what only a socket shows (timeouts, how a connection is closed)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from app.protocol import TimedProtocol

#: How long a test waits for the server to act before calling it a failure.
GRACE_SECONDS = 3.0


@contextmanager
def serving(app: Any, header_timeout: float = 10.0, body_timeout: float = 30.0) -> Iterator[int]:
    """``app`` served by uvicorn, with the service's protocol, in a thread; yields the port.
    The lifespan does not run: build the app with its database (``create_app(..., database=)``)."""
    timeouts = {"header_timeout": header_timeout, "body_timeout": body_timeout}
    protocol = type("TestProtocol", (TimedProtocol,), timeouts)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, http=protocol, log_config=None, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + GRACE_SECONDS * 10
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        assert time.monotonic() < deadline, "the server did not start in time"
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(GRACE_SECONDS * 10)
        sock.close()
