"""The dashboard's lists and profiles (issue 24, item 8) in headless Chromium: a ladder's
games and tournaments pages, the player search box, names and countries on the leaderboard
and the national ranking. Screenshots go to tests/artifacts/.

Expected values: Elo (initial 1500, K 32) and DPTR (SYSTEMS.md), worked out in
tests/api/test_lists_and_profiles.py; here the pages are compared with the API's answers and
with the orders those values give.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.browser.test_dashboard import (
    _checked,
    _game,
    _goto,
    _new_page,
    _post,
    _shot,
    browser,
    server,
)
from tests.conftest import ADMIN_TOKEN, AUTH

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "server"]

pytestmark = pytest.mark.browser

#: Profiles set before the pages are read.
PROFILES = {
    "nadia": {"name": "Nadia Kovač", "country": "HR"},
    "bea": {"name": "Béatrice", "country": "FR"},
    "dom": {"country": "FR"},
    "eve": {"country": "FR"},
    "alan": {"country": "GB"},
    "carl": {"country": "GB"},
}


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        _post(http, "/ladders", {"id": "pub", "system": "elo", "title": "Pub Elo"})
        for game_id, days, ranking in (
            ("p1", 3, ("nadia", "oscar")),
            ("p2", 2, ("oscar", "petra")),
            ("p3", 1, ("nadia", "petra")),
        ):
            _post(http, "/games", _game("pub", game_id, days, *ranking))
        _post(http, "/ladders", {"id": "nations", "system": "dptr", "title": "Nations"})
        for tid, held_on, order in (
            ("open-2012", "2012-08-04", ["alan", "bea", "carl", "dom", "eve"]),
            ("open-2013", "2013-08-03", ["eve", "dom", "alan", "bea"]),
        ):
            standings = [{"player": p, "rank": r} for r, p in enumerate(order, start=1)]
            body = {"ladder": "nations", "id": tid, "held_on": held_on, "standings": standings}
            _post(http, "/tournaments", body | {"name": f"Open {held_on[:4]}"})
        for player, profile in PROFILES.items():
            assert http.put(f"/players/{player}", json=profile).status_code == 200
        yield http


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


def _row_ids(page: Page, table: str) -> list[str]:
    ids: list[str] = page.eval_on_selector_all(
        f"table.{table} tbody tr", "rows => rows.map(r => r.dataset.id)"
    )
    return ids


#: Each leaderboard row's player and the value of its cell of one field.
CELLS = (
    "(rows, field) => rows.map(r => "
    "[r.dataset.player, r.querySelector(`[data-field=${field}]`).dataset.value])"
)


def test_games_page_lists_newest_first_with_names(
    page: Page, server: str, api: httpx.Client
) -> None:
    _goto(page, server, "ladders/pub/results", "results")
    listed = api.get("/ladders/pub/games").json()
    assert _row_ids(page, "games") == [item["id"] for item in listed["items"]] == ["p3", "p2", "p1"]
    # nadia shows her profile name, the others their ids.
    names = page.eval_on_selector_all(
        'tr[data-id="p1"] .standing a', "links => links.map(a => a.textContent)"
    )
    assert names == ["Nadia Kovač nadia", "oscar"]
    assert page.get_attribute(".tabs a[aria-current=page]", "href") == "#/ladders/pub/results"
    _shot(page, "lists-games")
    page.fill('input[name="player"]', "oscar")
    page.press('input[name="player"]', "Enter")
    page.wait_for_function("() => document.querySelectorAll('table.games tbody tr').length === 2")
    assert _row_ids(page, "games") == ["p2", "p1"]
    assert "2 games with oscar" in page.inner_text(".status")


def test_tournaments_page(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/nations/results", "results")
    assert _row_ids(page, "tournaments") == ["open-2013", "open-2012"]
    assert page.inner_text('tr[data-id="open-2012"] td[data-field="players"]') == "5"
    # The top three of 2013 by rank: eve, dom, alan.
    top = page.eval_on_selector_all(
        'tr[data-id="open-2013"] .standing', "items => items.map(i => i.dataset.player)"
    )
    assert top == ["eve", "dom", "alan"]
    _shot(page, "lists-tournaments")


def test_player_search_box(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/pub", "leaderboard")
    page.fill('input[name="player-search"]', "AD")
    page.wait_for_selector('.player-search-results li[data-player="nadia"]')
    found = api.get("/ladders/pub/players", params={"search": "AD"}).json()
    shown = page.eval_on_selector_all(
        ".player-search-results li[data-player]", "items => items.map(i => i.dataset.player)"
    )
    assert shown == [item["player"] for item in found["items"]] == ["nadia"]
    assert "Nadia Kovač" in page.inner_text(".player-search-results")
    assert "HR" in page.inner_text(".player-search-results")
    _shot(page, "lists-player-search")
    page.click('.player-search-results a[data-player="nadia"]')
    page.wait_for_selector('main[data-page="player"][aria-busy="false"]')
    assert page.inner_text("h1") == "Nadia Kovač"
    assert "Country: HR" in page.inner_text(".profile")
    page.go_back()
    page.wait_for_selector('main[data-page="leaderboard"][aria-busy="false"]')
    page.fill('input[name="player-search"]', "zzz")
    page.wait_for_selector(".player-search-results .empty")
    assert "No player id contains" in page.inner_text(".player-search-results")


def test_leaderboard_countries_and_national_ranking(
    page: Page, server: str, api: httpx.Client
) -> None:
    _goto(page, server, "ladders/nations", "leaderboard")
    countries = page.eval_on_selector_all("table.leaderboard tbody tr", CELLS, "country")
    # Overall (DPTR after both events): alan, eve, dom, carl, bea.
    assert countries == [
        ["alan", "GB"],
        ["eve", "FR"],
        ["dom", "FR"],
        ["carl", "GB"],
        ["bea", "FR"],
    ]
    page.fill('input[name="country"]', "fr")
    page.dispatch_event('input[name="country"]', "change")
    page.wait_for_function(
        "() => document.querySelectorAll('table.leaderboard tbody tr').length === 3"
    )
    national = page.eval_on_selector_all("table.leaderboard tbody tr", CELLS, "position")
    assert national == [["eve", "1"], ["dom", "2"], ["bea", "3"]]
    assert "national ranking of FR" in page.inner_text(".status")
    assert "Béatrice" in page.inner_text('tr[data-player="bea"]')
    _shot(page, "lists-national-ranking")
