"""The dashboard for a ranking keeper (issue 40, items 2 and 6) in headless Chromium: a
tournament ladder's pages show event statistics, not wins and losses; the leaderboard reads
"as of" a day, exports the board as shown as CSV (cells a spreadsheet would read as formulas
escaped), and the history chart's x axis is time. Screenshots go to tests/artifacts/.

Expected values by hand, percentile = (n − rank) / (n − 1) (docs/api.md):
t1 (n = 3): a 1 → 1, b 2 → 0.5, c 3 → 0
t2 (n = 5): b 1 → 1, a = c 2 → 0.75, d 4 → 0.25, e 5 → 0
t3 (n = 2): a 1 → 1, d 2 → 0
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.test_dashboard import (
    _checked,
    _game,
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


LOBBY = {"a1": 1600, "a2": 1600, "a3": 1600, "b1": 1400, "b2": 1400}
LOBBY |= {f"s{i}": 1500 for i in range(1, 6)}


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        _post(http, "/ladders", {"id": "dip", "system": "dptr", "title": "Diplomacy 2025"})
        for tid, held_on, ranks in SEASON:
            standings = [{"player": p, "rank": r} for p, r in ranks]
            body = {"ladder": "dip", "id": tid, "held_on": held_on, "rounds": 2}
            _post(http, "/tournaments", body | {"standings": standings})
        # Ids and names a spreadsheet would read as formulas, and a name with a comma.
        _post(http, "/ladders", {"id": "club", "system": "elo", "title": "Club"})
        _post(http, "/games", _game("club", "g1", 2, "@at", "-minus"))
        _post(http, "/games", _game("club", "g2", 1, "plain", "@at", "comma"))
        for player, name in (("plain", '=HYPERLINK("http://x")'), ("comma", "Doe, Jane")):
            assert http.put(f"/players/{player}", json={"name": name}).status_code == 200
        # A lobby of ten (issue 40, item 7): parties of three at 1600 and two at 1400.
        _post(http, "/ladders", {"id": "lobby", "system": "elo"})
        for player, rating in LOBBY.items():
            body = {"rating": rating, "at": "2025-01-01T00:00:00Z"}
            assert http.put(f"/ladders/lobby/players/{player}", json=body).status_code == 200
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


def test_leaderboard_as_of_a_day(page: Page, server: str, api: httpx.Client) -> None:
    """As of 2025-02-15 (end of day): t3 (March) has not happened; a has t1 (1) and t2
    (0.75), mean 0.875; d only t2 (4th of 5: 0.25)."""
    _goto(page, server, "ladders/dip", "leaderboard")
    page.fill('input[name="as_of"]', "2025-02-15")
    page.dispatch_event('input[name="as_of"]', "change")
    page.wait_for_function(
        "() => document.querySelector('.status').textContent.includes('as of 2025-02-15')"
    )
    page.wait_for_selector('.results[aria-busy="false"]')
    expected = api.get(
        "/ladders/dip/leaderboard", params={"as_of": "2025-02-15T23:59:59.999999Z", "limit": 500}
    ).json()
    rows = _rows(page, "table.leaderboard > tbody > tr")
    assert [(r["player"], r["rating"]) for r in rows] == [
        (e["player"], e["rating"]) for e in expected["entries"]
    ]
    by = {r["player"]: r for r in rows}
    assert by["a"]["mean_percentile"] == pytest.approx(0.875)
    assert (by["d"]["best_place"], by["d"]["mean_percentile"]) == (4, pytest.approx(0.25))
    assert "end of day, UTC" in page.inner_text(".status")
    _shot(page, "keeper-as-of")


def _download(page: Page) -> tuple[str, list[list[str]]]:
    with page.expect_download() as info:
        page.click('button[data-action="csv"]')
    download = info.value
    raw = Path(download.path()).read_bytes().decode("utf-8")
    assert raw.startswith("\ufeff")  # spreadsheets read the file as UTF-8
    return download.suggested_filename, list(csv.reader(io.StringIO(raw[1:])))


def test_csv_export_of_the_board_as_shown(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/club", "leaderboard")
    name, table = _download(page)
    assert name == "club-leaderboard.csv"
    head, *rows = table
    assert head == ["#", "Player", "Name", "Rating", "Games", "Win rate", "Last played"]
    expected = api.get("/ladders/club/leaderboard", params={"limit": 500}).json()["entries"]
    assert len(rows) == len(expected) == 4
    for row, entry in zip(rows, expected, strict=True):
        assert int(row[0]) == entry["position"]
        assert float(row[3]) == entry["rating"]  # exact, not the 2 decimals shown
        assert int(row[4]) == entry["games"]
    players = {row[1]: row for row in rows}
    # Cells a spreadsheet would read as formulas start with a quote; the rest are as they are.
    assert set(players) == {"'@at", "'-minus", "plain", "comma"}
    assert players["plain"][2] == '\'=HYPERLINK("http://x")'
    assert players["comma"][2] == "Doe, Jane"
    # The search box narrows the rows shown, and so the export.
    page.fill('input[name="q"]', "minus")
    name, table = _download(page)
    assert [row[1] for row in table[1:]] == ["'-minus"]


def test_csv_export_of_a_tournament_board_as_of(page: Page, server: str) -> None:
    _goto(page, server, "ladders/dip", "leaderboard")
    page.fill('input[name="as_of"]', "2025-02-15")
    page.dispatch_event('input[name="as_of"]', "change")
    page.wait_for_function(
        "() => document.querySelector('.status').textContent.includes('as of 2025-02-15')"
    )
    name, table = _download(page)
    assert name == "dip-leaderboard-as-of-2025-02-15.csv"
    head, *rows = table
    assert head[-4:] == ["Best", "Top 3", "Mean percentile", "Last played"]
    a = next(row for row in rows if row[1] == "a")
    assert float(a[head.index("Mean percentile")]) == pytest.approx(0.875)


def test_history_chart_x_axis_is_time(page: Page, server: str) -> None:
    """a's changes: 2025-01-10, 2025-02-10, 2025-03-10: 31 and 28 days apart, so the second
    point stands 31/59 of the way from the first to the last."""
    _goto(page, server, "ladders/dip/players/a", "player")
    points = page.eval_on_selector_all(
        "svg.chart circle.point",
        "cs => cs.map(c => ({x: Number(c.getAttribute('cx')), at: c.dataset.time}))",
    )
    assert [p["at"][:10] for p in points] == ["2025-01-10", "2025-02-10", "2025-03-10"]
    first, middle, last = (p["x"] for p in points)
    assert (middle - first) / (last - first) == pytest.approx(31 / 59)
    labels = page.eval_on_selector_all(
        "svg.chart text.x-label", "ts => ts.map(t => [t.textContent, t.dataset.time])"
    )
    assert labels[0][0] == "2025-01-10"
    assert labels[-1][0] == "2025-03-10"
    times = [datetime.fromisoformat(t.replace("Z", "+00:00")) for _, t in labels]
    assert times == sorted(times)
    assert times[0] == datetime(2025, 1, 10, tzinfo=UTC)
    assert "time of the change" in page.inner_text("figure.chart-box figcaption")
    _shot(page, "keeper-chart-time")


def test_balance_tool_spreads_premades(page: Page, server: str, api: httpx.Client) -> None:
    """The balance tool sends the party policy: spread (the default) puts the party of three
    and the party of two on different sides (means 1560 and 1460: tests/engine); "most even
    only" stacks them (1520 against the solos' 1500)."""
    _goto(page, server, "ladders/lobby/balance", "balance")
    page.fill("form.balance input[name=player]", ", ".join(LOBBY))
    page.press("form.balance input[name=player]", "Enter")
    for player in LOBBY:
        if player[0] in "ab":
            page.fill(f'table.chosen tr[data-player="{player}"] input[name=party]', player[0])

    def split() -> dict[frozenset[str], float]:
        page.click("form.balance button[type=submit]")
        page.wait_for_selector('.results[data-ready="true"][aria-busy="false"]')
        rows: list[list[Any]] = page.eval_on_selector_all(
            "table.split.best tbody tr",
            """rs => rs.map(r => [[...r.querySelectorAll('.member')].map(m => m.dataset.player),
                Number(r.querySelector('[data-field=rating]').dataset.value)])""",
        )
        return {frozenset(players): rating for players, rating in rows}

    assert split() == {
        frozenset({"a1", "a2", "a3", "s1", "s2"}): 1560,
        frozenset({"b1", "b2", "s3", "s4", "s5"}): 1460,
    }
    _shot(page, "keeper-balance-spread")
    page.select_option("select[name=party_policy]", "together")
    assert split() == {
        frozenset({"a1", "a2", "a3", "b1", "b2"}): 1520,
        frozenset({"s1", "s2", "s3", "s4", "s5"}): 1500,
    }
