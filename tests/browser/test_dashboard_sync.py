"""The dashboard's change feed and webhooks pages (issue 36) in headless Chromium.

The feed page is compared with ``GET /ladders/{ladder}/feed`` through each cell's
``data-value``, and with API.md's worked example ("Change feed": a late Elo game re-rates its
cone; ann 1516 → 1516.7363, bea 1484 → 1499.2637, cat new at 1484). The webhooks page is
compared with ``GET /webhooks`` and ``/deliveries`` after real deliveries to receivers on
127.0.0.1: one answering 200 (active), one 500 (failing once its one quick retry has failed),
one 410 Gone (disabled). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.test_dashboard import (
    WAIT_MS,
    _checked,
    _goto,
    _new_page,
    _post,
    _ready,
    _rows,
    _shot,
    browser,
    server,
)
from tests.conftest import ADMIN_TOKEN, AUTH

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "server"]

pytestmark = pytest.mark.browser

#: This module's server: deliveries looked for 5 times a second, and one retry after 0.2 s
#: before a webhook counts as failing (the default schedule takes 28 hours).
SERVER_ENV = {
    "RATINGS_DELIVERY_POLL_SECONDS": "0.2",
    "RATINGS_WEBHOOK_RETRY_SECONDS": "0.2",
    "RATINGS_WEBHOOK_TIMEOUT": "5",
}
#: How long a test waits for the server's background deliveries.
DELIVERY_SECONDS = 30.0
#: Games on the "busy" ladder: more than a page of the feed (20 cursors).
BUSY_GAMES = 25


class Receiver:
    """A webhook endpoint on 127.0.0.1 answering every POST with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.received = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.received += 1
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        # API.md's example: "late" was played before "first", so it re-rates first's players.
        _post(http, "/ladders", {"id": "mirror", "system": "elo", "title": "Mirror Elo"})
        _post(http, "/games", _game("mirror", "first", "2026-11-20T20:00:00Z", "ann", "bea"))
        _post(http, "/games", _game("mirror", "late", "2026-11-20T19:00:00Z", "bea", "cat"))
        _post(http, "/ladders", {"id": "busy", "system": "elo"})
        for number in range(1, BUSY_GAMES + 1):
            played_at = f"2026-10-01T{number % 24:02d}:{number:02d}:00Z"
            _post(http, "/games", _game("busy", f"b{number}", played_at, f"p{number % 4}", "q"))
        yield http


def _game(ladder: str, game_id: str, played_at: str, winner: str, loser: str) -> dict[str, Any]:
    players = [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}]
    return {"ladder": ladder, "id": game_id, "played_at": played_at, "players": players}


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


def _cursors(page: Page) -> list[int]:
    cursors: list[int] = page.eval_on_selector_all(
        "article.feed-item", "items => items.map(i => Number(i.dataset.cursor))"
    )
    return cursors


def _shown_ratings(page: Page, cursor: int) -> list[dict[str, Any]]:
    return _rows(page, f'article.feed-item[data-cursor="{cursor}"] table.feed-ratings tbody tr')


def _api_ratings(item: dict[str, Any]) -> list[dict[str, Any]]:
    """What the page's rows should hold: each rating's before and after, games after."""

    def rating(entry: dict[str, Any] | None) -> float | None:
        return None if entry is None else entry["rating"]

    return [
        {
            "player": moved["player"],
            "faction": moved["faction"],
            "rating_before": rating(moved["before"]),
            "rating_after": rating(moved["after"]),
            "delta": None
            if moved["before"] is None or moved["after"] is None
            else moved["after"]["rating"] - moved["before"]["rating"],
            "games": None if moved["after"] is None else moved["after"]["games"],
        }
        for moved in item["ratings"]
    ]


# --- the feed page -----------------------------------------------------------------------------


def test_feed_shows_a_late_games_cone(page: Page, server: str, api: httpx.Client) -> None:
    feed = api.get("/ladders/mirror/feed", params={"after": 0}).json()
    assert [item["cursor"] for item in feed["items"]] == [1, 2]
    late = feed["items"][1]
    assert late["event"] == {"kind": "game", "id": "late"}

    # From the ladder's page, its "Feed" tab.
    _goto(page, server, "ladders/mirror", "leaderboard")
    page.click("nav.tabs a:has-text('Feed')")
    _ready(page, "feed")
    assert page.get_attribute(".tabs a[aria-current=page]", "href") == "#/ladders/mirror/feed"
    assert _cursors(page) == [2, 1]  # newest first
    assert "Cursors 1–2 of 2, newest first" in page.inner_text(".status")

    item = page.locator('article.feed-item[data-cursor="2"]')
    assert item.get_attribute("data-type") == "game.rated"
    assert item.get_attribute("data-id") == late["id"]
    assert "Game rated" in item.inner_text()
    assert item.locator("time").get_attribute("datetime") == late["at"]
    # Its cone: ann and bea re-rated from the first game, cat new; numbers exactly the API's.
    shown = _shown_ratings(page, 2)
    assert [row["player"] for row in shown] == ["ann", "bea", "cat"]
    assert [{k: row[k] for k in _api_ratings(late)[0]} for row in shown] == _api_ratings(late)
    by_player = {row["player"]: row for row in shown}
    assert by_player["ann"]["rating_before"] == 1516
    assert by_player["ann"]["rating_after"] == pytest.approx(1516.7363, abs=1e-4)
    assert by_player["bea"]["rating_before"] == 1484
    assert by_player["bea"]["rating_after"] == pytest.approx(1499.2637, abs=1e-4)
    assert by_player["cat"]["rating_before"] is None
    assert by_player["cat"]["rating_after"] == 1484
    assert item.locator('tr[data-player="cat"] [data-field="rating_before"]').inner_text() == "new"
    assert item.locator('tr[data-player="bea"] [data-field="games"]').inner_text() == "1 → 2"
    assert item.locator('tr[data-player="ann"] [data-field="rating_after"]').inner_text() == (
        "1516.74"
    )
    _shot(page, "feed-late-game")

    # Each player links to its page, the event to the game's.
    assert item.locator('a[data-player="bea"]').get_attribute("href") == (
        "#/ladders/mirror/players/bea"
    )
    item.locator("a.event").click()
    _ready(page, "event")
    assert page.inner_text("h1") == "Game: late"


def test_feed_pages_back_with_after(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/busy/feed", "feed")
    # The last window: cursors 25 down to 6.
    assert _cursors(page) == list(range(BUSY_GAMES, BUSY_GAMES - 20, -1))
    with page.expect_response(lambda r: "/ladders/busy/feed?after=0&limit=20" in r.url):
        page.click("button:has-text('Older 20')")
    page.wait_for_function(
        "() => document.querySelector('article.feed-item').dataset.cursor === '5'"
    )
    assert _cursors(page) == [5, 4, 3, 2, 1]
    assert page.is_disabled("button:has-text('Older 20')")
    first = api.get("/ladders/busy/feed", params={"after": 0, "limit": 1}).json()["items"][0]
    assert _shown_ratings(page, 1) == _api_ratings(first)
    page.click("button:has-text('Newest')")
    page.wait_for_function(
        "() => document.querySelector('article.feed-item').dataset.cursor === '25'"
    )

    # A link to one cursor (the webhooks page's) opens the window ending there, the item marked.
    _goto(page, server, "ladders/busy/feed?cursor=7", "feed")
    assert _cursors(page) == [7, 6, 5, 4, 3, 2, 1]
    assert page.get_attribute("article.feed-item.marked", "data-cursor") == "7"


def test_feed_follow_shows_new_items(page: Page, server: str, api: httpx.Client) -> None:
    _post(api, "/ladders", {"id": "followed", "system": "elo"})
    _post(api, "/games", _game("followed", "f1", "2026-11-01T10:00:00Z", "ann", "bea"))
    _goto(page, server, "ladders/followed/feed", "feed")
    assert _cursors(page) == [1]
    page.check('input[name="follow"]')
    page.wait_for_function(
        "() => document.querySelector('.status').textContent.includes('following')"
    )
    _post(api, "/games", _game("followed", "f2", "2026-11-02T10:00:00Z", "bea", "ann"))
    page.wait_for_selector('article.feed-item[data-cursor="2"]', timeout=WAIT_MS * 2)
    assert _cursors(page) == [2, 1]
    page.uncheck('input[name="follow"]')


# --- the webhooks page -------------------------------------------------------------------------


def _until(condition: Any, what: str) -> Any:
    deadline = time.monotonic() + DELIVERY_SECONDS
    while not (found := condition()):
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)
    return found


@pytest.fixture(scope="module")
def hooks(api: httpx.Client) -> Iterator[dict[str, tuple[Receiver, dict[str, Any]]]]:
    """Three webhooks of the ladder "hooked", each with its receiver, after the ladder's first
    game has been delivered (or refused) to each."""
    receivers = {"ok": Receiver(200), "broken": Receiver(500), "gone": Receiver(410)}
    try:
        _post(api, "/ladders", {"id": "hooked", "system": "elo"})
        created = {
            name: _post(
                api, "/webhooks", {"url": r.url, "ladders": ["hooked"], "description": name}
            )
            for name, r in receivers.items()
        }
        _post(api, "/games", _game("hooked", "h1", "2026-11-01T10:00:00Z", "ann", "bea"))

        def status(name: str) -> str:
            answer: str = api.get(f"/webhooks/{created[name]['id']}").json()["status"]
            return answer

        _until(lambda: receivers["ok"].received == 1, "the ok receiver got the item")
        _until(lambda: status("broken") == "failing", "the broken webhook is failing")
        _until(lambda: status("gone") == "disabled", "the gone webhook is disabled")
        yield {name: (receivers[name], created[name]) for name in receivers}
    finally:
        for receiver in receivers.values():
            receiver.close()


def _deliveries(api: httpx.Client, webhook: dict[str, Any]) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = api.get(f"/webhooks/{webhook['id']}/deliveries").json()[
        "deliveries"
    ]
    return answer


def _shown_deliveries(page: Page, webhook: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        f'section.webhook[data-id="{webhook["id"]}"] table.deliveries tbody tr',
        """rows => rows.map(r => ({
            item: r.dataset.item, ladder: r.dataset.ladder, cursor: Number(r.dataset.cursor),
            attempt: Number(r.dataset.attempt),
            status: r.querySelector('[data-field=result]').dataset.value,
            seconds: Number(r.querySelector('[data-field=seconds]').dataset.value),
            text: r.querySelector('[data-field=result]').textContent,
        }))""",
    )
    return rows


def test_webhooks_page_shows_status_and_deliveries(
    page: Page, server: str, api: httpx.Client, hooks: dict[str, tuple[Receiver, dict[str, Any]]]
) -> None:
    _goto(page, server, "", "ladders")
    page.click("#site a:has-text('Webhooks')")
    _ready(page, "webhooks")
    assert page.get_attribute("#site a", "aria-current") == "page"

    item = api.get("/ladders/hooked/feed", params={"after": 0}).json()["items"][0]
    for name, expected in (("ok", "active"), ("broken", "failing"), ("gone", "disabled")):
        webhook = hooks[name][1]
        section = page.locator(f'section.webhook[data-id="{webhook["id"]}"]')
        assert section.get_attribute("data-status") == expected
        assert section.locator(".badge.status").inner_text() == expected
        assert webhook["url"] in section.locator("h2").inner_text()
        assert "hooked" in section.locator("dl.facts").inner_text()
        assert "every type" in section.locator("dl.facts").inner_text()
        listed = _deliveries(api, webhook)
        shown = _shown_deliveries(page, webhook)
        assert [
            (d["item"], d["ladder"], d["cursor"], d["attempt"], d["seconds"]) for d in shown
        ] == [(d["item"], d["ladder"], d["cursor"], d["attempt"], d["seconds"]) for d in listed]
        assert [d["status"] for d in shown] == [str(d["status"] or "") for d in listed]
        assert {d["item"] for d in shown} == {item["id"]}

    # The ok webhook's one delivery: the item, cursor 1, attempt 1, 200.
    (ok,) = _shown_deliveries(page, hooks["ok"][1])
    assert (ok["cursor"], ok["attempt"], ok["status"]) == (1, 1, "200")
    # The broken one's: two attempts (the first and its retry), newest first, both 500.
    assert [(d["attempt"], d["status"]) for d in _shown_deliveries(page, hooks["broken"][1])] == [
        (2, "500"),
        (1, "500"),
    ]
    broken = page.locator(f'section.webhook[data-id="{hooks["broken"][1]["id"]}"]')
    assert "Failing since" in broken.locator("dl.facts").inner_text()
    assert "410" in _shown_deliveries(page, hooks["gone"][1])[0]["text"]
    _shot(page, "webhooks")

    # A delivery's cursor links to that item on the ladder's feed page.
    page.click(
        f'section.webhook[data-id="{hooks["ok"][1]["id"]}"] table.deliveries a:has-text("#1")'
    )
    _ready(page, "feed")
    assert page.get_attribute("article.feed-item.marked", "data-id") == item["id"]


def test_replay_makes_a_failing_webhook_active(
    page: Page, server: str, api: httpx.Client, hooks: dict[str, tuple[Receiver, dict[str, Any]]]
) -> None:
    receiver, webhook = hooks["broken"]
    receiver.status = 200  # the receiver is fixed
    _goto(page, server, "webhooks", "webhooks")
    section = page.locator(f'section.webhook[data-id="{webhook["id"]}"]')
    section.locator("summary:has-text('Replay')").click()
    section.locator('input[name="after"]').fill("0")
    section.locator("button:has-text('Replay')").click()
    page.wait_for_selector(".message .notice:has-text('Replaying the items after cursor 0')")
    _until(lambda: receiver.received >= 3, "the replayed item arrived")
    _until(
        lambda: api.get(f"/webhooks/{webhook['id']}").json()["status"] == "active",
        "the webhook is active again",
    )
    _until(lambda: _deliveries(api, webhook)[0]["status"] == 200, "the delivery was recorded")
    # The replay's answer already reloaded the list (active, before the delivery): read again.
    page.click("button[name=refresh]")
    section.locator(
        'table.deliveries tbody tr:first-child [data-field=result][data-value="200"]'
    ).wait_for()
    assert section.get_attribute("data-status") == "active"
    shown = _shown_deliveries(page, webhook)
    assert [(d["attempt"], d["status"]) for d in shown] == [
        (d["attempt"], str(d["status"])) for d in _deliveries(api, webhook)
    ]
    assert not section.locator(".notice.warn").count()  # the failing note is gone


def test_create_shows_the_secret_once_then_delete(
    page: Page, server: str, api: httpx.Client, hooks: dict[str, tuple[Receiver, dict[str, Any]]]
) -> None:
    url = hooks["ok"][0].url + "/created"
    _goto(page, server, "webhooks", "webhooks")
    page.click("summary:has-text('New webhook')")
    page.fill('input[name="url"]', url)
    page.fill('input[name="ladders"]', "hooked, mirror")
    page.check('input[name="types"][value="game.rated"]')
    page.click("button:has-text('Create webhook')")
    secret = page.locator(".notice.secret .secret-value")
    secret.wait_for()
    assert secret.inner_text().startswith("whsec_")
    new_id = page.get_attribute(".notice.secret", "data-id")
    listed = {w["id"]: w for w in api.get("/webhooks").json()["webhooks"]}
    assert listed[new_id]["url"] == url
    assert listed[new_id]["ladders"] == ["hooked", "mirror"]
    assert listed[new_id]["types"] == ["game.rated"]
    assert "secret" not in listed[new_id]
    section = page.locator(f'section.webhook[data-id="{new_id}"]')
    section.wait_for()
    assert section.get_attribute("data-status") == "active"
    assert "No delivery attempts yet" in section.inner_text()
    _shot(page, "webhooks-created")

    section.locator("button:has-text('Delete…')").click()
    section.locator("button[name=confirm-delete]").click()
    page.wait_for_selector(f".message .notice:has-text('Webhook {new_id} deleted')")
    page.wait_for_selector(f'section.webhook[data-id="{new_id}"]', state="detached")
    assert api.get(f"/webhooks/{new_id}").status_code == 404
    # The secret was in that one answer only: the reloaded page does not show it.
    _goto(page, server, "webhooks", "webhooks")
    assert page.locator(".notice.secret").count() == 0


def test_webhooks_page_asks_for_an_admin_token(
    browser: Browser, server: str, api: httpx.Client
) -> None:
    """A read-only key may read the ladders but not the webhooks: the token prompt says so."""
    key = _post(api, "/keys", {"name": "reader", "scopes": ["read"]})
    page = _new_page(browser, key["key"])
    try:
        _goto(page, server, "webhooks", "token")
        assert "may not read this data (403)" in page.inner_text("main")
    finally:
        page.context.close()
