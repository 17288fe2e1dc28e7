"""The dashboard for a ranking keeper (issue 40, items 2 and 6) in headless Chromium: a
tournament ladder's pages show event statistics, not wins and losses. Screenshots go to
tests/artifacts/.

Expected values by hand, percentile = (n − rank) / (n − 1) (docs/api.md):
t1 (n = 3): a 1 → 1, b 2 → 0.5, c 3 → 0
t2 (n = 5): b 1 → 1, a = c 2 → 0.75, d 4 → 0.25, e 5 → 0
t3 (n = 2): a 1 → 1, d 2 → 0
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.test_dashboard import (
    _checked,
    _goto,
    _new_page,
    _post,
    _rows,
    _shot,
    _value,
    browser,
    server,
)
from tests.conftest import ADMIN_TOKEN, AUTH

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "server"]

pytestmark = pytest.mark.browser

SEASON = [
    ("t1", "2025-01-10", [("a", 1), ("b", 2), ("c", 3)]),
    ("t2", "2025-02-10", [("b", 1), ("a", 2), ("c", 2), ("d", 4), ("e", 5)]),
    ("t3", "2025-03-10", [("a", 1), ("d", 2)]),
]
#: best place, top-3s, mean percentile
EXPECTED = {
    "a": (1, 3, (1 + 0.75 + 1) / 3),
    "b": (1, 2, (0.5 + 1) / 2),
    "c": (2, 2, (0 + 0.75) / 2),
    "d": (2, 1, (0.25 + 0) / 2),
    "e": (5, 0, 0.0),
}


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        _post(http, "/ladders", {"id": "dip", "system": "dptr", "title": "Diplomacy 2025"})
        for tid, held_on, ranks in SEASON:
            standings = [{"player": p, "rank": r} for p, r in ranks]
            body = {"ladder": "dip", "id": tid, "held_on": held_on, "rounds": 2}
            _post(http, "/tournaments", body | {"standings": standings})
        yield http


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


def _statistics(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["best_place"], row["top3"], row["mean_percentile"])


def test_tournament_leaderboard_shows_event_statistics(page: Page, server: str) -> None:
    _goto(page, server, "ladders/dip", "leaderboard")
    rows = {r["player"]: r for r in _rows(page, "table.leaderboard > tbody > tr")}
    assert set(rows) == set(EXPECTED)
    for player, expected in EXPECTED.items():
        assert _statistics(rows[player]) == pytest.approx(expected)
    head = page.locator("table.leaderboard thead").inner_text().lower()
    assert "win rate" not in head
    assert "events" in head
    assert "mean percentile" in head
    # a: (1 + 0.75 + 1) / 3 = 91.7 % shown to one decimal.
    assert page.inner_text('tr[data-player="a"] td[data-field="mean_percentile"]') == "91.7%"
    _shot(page, "keeper-tournament-leaderboard")


def test_tournament_player_page_shows_event_statistics(page: Page, server: str) -> None:
    _goto(page, server, "ladders/dip/players/c", "player")
    cards = page.inner_text(".rating-card").lower()
    assert "win rate" not in cards
    assert "w/d/l" not in cards
    assert "best place" in cards
    assert "top-3 finishes" in cards
    assert _value(page, '.rating-card dt:text("Mean percentile") + dd') == pytest.approx(0.375)
    assert _value(page, '.rating-card dt:text("Events") + dd') == 2
    _shot(page, "keeper-tournament-player")
