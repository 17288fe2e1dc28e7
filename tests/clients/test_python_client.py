"""The Python client (clients/python): its signature helper against the Standard Webhooks
libraries' published vector and the ``standardwebhooks`` package, and a tour against a live
server: create a ladder, post a 2 v 2, read the leaderboard, follow the feed to the game's item
and verify the webhook that delivered it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from ratings_client import AuthenticatedClient
from ratings_client.api.games import create_game
from ratings_client.api.ladders import create_ladder
from ratings_client.api.players import get_leaderboard
from ratings_client.api.webhooks import create_webhook
from ratings_client.models import (
    GameIn,
    GameOut,
    LadderIn,
    LadderOut,
    LeaderboardOut,
    TeamIn,
    TeamPlayerIn,
    WebhookCreated,
    WebhookIn,
)
from ratings_helpers import (
    FeedError,
    WebhookVerificationError,
    check_signature,
    follow_feed,
    sign_webhook,
    verify_webhook,
)
from standardwebhooks.webhooks import Webhook

from tests.api.live_server import Served
from tests.conftest import ADMIN_TOKEN

# The libraries' published vector (standard-webhooks/standard-webhooks, every library's
# "sign function works" test, e.g. libraries/python/tests/test_webhooks.py).
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def _headers(signature: str, timestamp: int = TIMESTAMP) -> dict[str, str]:
    return {
        "webhook-id": MSG_ID,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature,
    }


def test_the_helper_signs_and_verifies_the_published_vector() -> None:
    assert sign_webhook(SECRET, MSG_ID, TIMESTAMP, BODY) == SIGNATURE
    check_signature(SECRET, BODY, _headers(SIGNATURE), now=TIMESTAMP)
    # Among other signatures, with headers as a server may capitalise them.
    several = {k.title(): v for k, v in _headers(f"v1,Zm9v {SIGNATURE} v1a,abc").items()}
    check_signature(SECRET, BODY.encode(), several, now=TIMESTAMP + 300)


@pytest.mark.parametrize(
    ("secret", "body", "headers", "now", "message"),
    [
        (SECRET, '{"test": 2432232315}', _headers(SIGNATURE), TIMESTAMP, "no signature"),
        ("whsec_" + "A" * 32, BODY, _headers(SIGNATURE), TIMESTAMP, "no signature"),
        (SECRET, BODY, _headers(SIGNATURE), TIMESTAMP + 301, "too far"),
        (SECRET, BODY, _headers(SIGNATURE), TIMESTAMP - 301, "too far"),
        (SECRET, BODY, _headers("v1a," + SIGNATURE[3:]), TIMESTAMP, "no signature"),
        (SECRET, BODY, {"webhook-id": MSG_ID}, TIMESTAMP, "missing header webhook-timestamp"),
        (SECRET, BODY, _headers(SIGNATURE, timestamp=-1), TIMESTAMP, "not a Unix time"),
    ],
)
def test_the_helper_refuses_what_is_not_signed_now(
    secret: str, body: str, headers: dict[str, str], now: int, message: str
) -> None:
    with pytest.raises(WebhookVerificationError, match=message):
        check_signature(secret, body, headers, now=now)


def test_the_helper_agrees_with_the_standardwebhooks_package() -> None:
    secret = "whsec_" + "c2VjcmV0LWJ5dGVzLW9mLWEtd2ViaG9vaw=="  # base64 of 24 bytes
    now = datetime.now(UTC).replace(microsecond=0)
    stamp = int(now.timestamp())
    body = '{"cursor": 7, "id": "fi_x"}'
    package = Webhook(secret)
    # What the package signs, the helper accepts; what the helper signs, the package accepts.
    check_signature(secret, body, _headers(package.sign(MSG_ID, now, body), stamp))
    assert package.verify(body, _headers(sign_webhook(secret, MSG_ID, stamp, body), stamp)) == {
        "cursor": 7,
        "id": "fi_x",
    }


class _Receiver:
    """A webhook endpoint on 127.0.0.1: keeps each delivery's raw body and headers."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, dict[str, str]]] = []
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                deliveries.append((body, dict(self.headers.items())))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[_Receiver]:
    found = _Receiver()
    yield found
    found.server.shutdown()
    found.server.server_close()


def test_a_tour_of_the_python_client(server: Served, receiver: _Receiver) -> None:
    ladder = "py-tour"
    with AuthenticatedClient(base_url=server.url, token=ADMIN_TOKEN) as client:
        # 1. An Elo ladder (initial 1500, K 32) and a webhook that hears of it.
        assert isinstance(
            create_ladder.sync(client=client, body=LadderIn(id=ladder, system="elo")), LadderOut
        )
        webhook = create_webhook.sync(
            client=client, body=WebhookIn(url=receiver.url, ladders=[ladder])
        )
        assert isinstance(webhook, WebhookCreated)

        # 2. A 2 v 2 of new players: both sides at 1500, expected score 0.5, so the winners
        #    gain 32 × (1 − 0.5) = 16 each and the losers lose 16 (docs/api.md, Teams).
        game = create_game.sync(
            client=client,
            body=GameIn(
                ladder=ladder,
                id="tour-1",
                played_at=datetime(2026, 11, 29, 10, tzinfo=UTC),
                teams=[
                    TeamIn(
                        rank=1, team="red", players=[TeamPlayerIn("alice"), TeamPlayerIn("bob")]
                    ),
                    TeamIn(
                        rank=2, team="blue", players=[TeamPlayerIn("carol"), TeamPlayerIn("dave")]
                    ),
                ],
            ),
        )
        assert isinstance(game, GameOut)
        moved = {c.player: c.rating_after for c in game.changes}
        assert moved == {"alice": 1516, "bob": 1516, "carol": 1484, "dave": 1484}

        # 3. The leaderboard.
        board = get_leaderboard.sync(ladder, client=client)
        assert isinstance(board, LeaderboardOut)
        assert [(e.player, e.rating) for e in board.entries] == [
            ("alice", 1516),
            ("bob", 1516),
            ("carol", 1484),
            ("dave", 1484),
        ]

        # 4. Follow the feed from the start to the game's item.
        for item in follow_feed(client, ladder, after=0, stop_after=20):
            if item.event is not None and item.event.id == "tour-1":
                break
        else:
            pytest.fail("the game's item did not reach the followed feed within 20 s")
        assert item.type_ == "game.rated"
        assert {
            r.player: (r.before, r.after.rating if r.after else None) for r in item.ratings
        } == {
            "alice": (None, 1516),
            "bob": (None, 1516),
            "carol": (None, 1484),
            "dave": (None, 1484),
        }

    # 5. The webhook's delivery of the same item, its signature verified.
    deadline = time.monotonic() + 20
    while not receiver.deliveries and time.monotonic() < deadline:
        time.sleep(0.05)
    assert receiver.deliveries, "the webhook delivered the game's item"
    body, headers = receiver.deliveries[0]
    delivered = verify_webhook(webhook.secret, body, headers)
    assert (delivered.id, delivered.cursor) == (item.id, item.cursor)
    assert Webhook(webhook.secret).verify(body, headers)["id"] == item.id
    with pytest.raises(WebhookVerificationError):
        verify_webhook(webhook.secret, body.replace(b"1516", b"1616"), headers)


def test_following_resumes_from_the_last_cursor_and_refuses_what_will_not_change(
    server: Served,
) -> None:
    """A stream that breaks is reopened after the last item yielded: each item comes once,
    in cursor order. Here every connection breaks after its first item (a transport that
    cuts each response short), and three items still arrive, once each."""
    ladder = "py-follow"
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}) as h:
        assert h.post("/ladders", json={"id": ladder, "system": "elo"}).status_code == 201
        for n in range(3):
            body = {
                "ladder": ladder,
                "id": f"g{n}",
                "played_at": f"2026-11-2{n + 1}T10:00:00Z",
                "players": [{"player": "ann", "rank": 1}, {"player": f"p{n}", "rank": 2}],
            }
            assert h.post("/games", json=body).status_code == 201

    opened: list[str] = []

    class FirstLineOnly(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            opened.append(request.url.params["after"])
            response = super().handle_request(request)
            read = b""
            for chunk in response.iter_raw():
                read += chunk
                if b"\n" in read:
                    break
            response.close()
            first = read.split(b"\n", 1)[0] + b"\n"
            return httpx.Response(response.status_code, headers=response.headers, content=first)

    client = AuthenticatedClient(
        base_url=server.url, token=ADMIN_TOKEN, httpx_args={"transport": FirstLineOnly()}
    )
    items = []
    for item in follow_feed(client, ladder, retry_delay=0.01):
        items.append(item)
        if len(items) == 3:
            break
    assert [item.cursor for item in items] == [1, 2, 3]
    assert [item.event.id for item in items if item.event] == ["g0", "g1", "g2"]
    assert opened == ["0", "1", "2"]

    # Time up: the generator ends (here with nothing new after cursor 3, within 0.5 s).
    started = time.monotonic()
    assert list(follow_feed(client, ladder, after=3, stop_after=0.5)) == []
    assert time.monotonic() - started < 5

    with pytest.raises(FeedError) as refused:
        next(follow_feed(AuthenticatedClient(base_url=server.url, token=ADMIN_TOKEN), "nope"))
    assert refused.value.status == 404
    assert refused.value.problem["status"] == 404  # the problem+json body


def test_following_stops_on_time_while_only_heartbeats_come() -> None:
    """A quiet ladder's stream sends only heartbeats (empty lines): ``stop_after`` still ends
    the loop on time, without waiting for an item."""

    def heartbeats() -> Iterator[bytes]:
        while True:
            time.sleep(0.05)
            yield b"\n"

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=heartbeats())

    client = AuthenticatedClient(
        base_url="http://ratings.test",
        token="t",
        httpx_args={"transport": httpx.MockTransport(answer)},
    )
    started = time.monotonic()
    assert list(follow_feed(client, "quiet", stop_after=0.3)) == []
    assert time.monotonic() - started < 2
