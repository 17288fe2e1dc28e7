"""Each worker's own listening socket (app/workers.py): the kernel spreads connections."""

from __future__ import annotations

import socket
import sys

import pytest
import uvicorn

from app.workers import listening_socket, reuse_port_supported
from tests.helpers import free_port

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="SO_REUSEPORT balancing is Linux's"
)

#: As many connections as the POST /games benchmark opens at once.
CONNECTIONS = 64
#: Fewest a socket may get: with a fair hash, fewer than 8 of 64 has odds of about 1e-10.
AT_LEAST = 8


def test_connections_opened_at_once_spread_over_the_workers_sockets() -> None:
    port = free_port()
    first = listening_socket("127.0.0.1", port, CONNECTIONS)
    second = listening_socket("127.0.0.1", port, CONNECTIONS)
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS)]
    try:
        accepted = []
        for server in (first, second):
            server.setblocking(False)
            count = 0
            while True:
                try:
                    connection, _ = server.accept()
                except BlockingIOError:
                    break
                connection.close()
                count += 1
            accepted.append(count)
        assert sum(accepted) == CONNECTIONS
        assert min(accepted) >= AT_LEAST, accepted
    finally:
        for client in clients:
            client.close()
        first.close()
        second.close()


def test_a_port_held_without_the_option_is_not_shared() -> None:
    with socket.socket() as plain:
        plain.bind(("127.0.0.1", 0))
        plain.listen()
        with pytest.raises(OSError, match="in use"):
            listening_socket("127.0.0.1", plain.getsockname()[1], 1)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"workers": 2, "port": 8000}, True),
        ({"workers": 1, "port": 8000}, False),  # one worker: nothing to spread
        ({"workers": 2, "port": 0}, False),  # each socket would get a port of its own
        ({"workers": 2, "port": 8000, "uds": "/tmp/ratings.sock"}, False),
    ],
)
def test_own_sockets_only_where_they_help(options: dict[str, object], expected: bool) -> None:
    config = uvicorn.Config("app.main:create_app", factory=True, **options)  # type: ignore[arg-type]
    assert reuse_port_supported(config) is expected
