"""The dashboard's ranked play (issue 35) in headless Chromium: the leaderboard's season picker
(a season's board, GET .../leaderboard?season=), each row's division badge and provisional mark
with the filters by division and provisional status, and a circuit's standings page. Names the
ladder's admin chose (seasons, divisions) are shown as text, never as markup. Screenshots go to
tests/artifacts/.

Expected values by hand (Elo, initial 1500, K 32; placement 2 games a season; divisions Bronze
and, from 1510, a division named with markup):
- Season "Autumn" from 30 days ago: a beats b 20 and 15 days ago: a 1516 then 1516 + 32·(1 −
  1/(1 + 10^(−32/400))) = 1530.5257, b 1469.4743. Two games each in it: neither provisional.
- The season named with markup from 10 days ago (no reset): a beats c 5 and d 4 days ago. a has
  two games in it: placed; b none, c and d one: provisional, left out of the board unless asked.
  c loses 32·(1 − 1/(1 + 10^(−30.5257/400))) = 14.59 to a, d (a then higher) 13.93: Bronze by
  rating is d, c, b.
- Zero-K decay (after 7 days, 50 points a week, at most 250): a beats b 21 days ago, a 1516.
  Read now, a has been idle 21 days, 14 past the 7: 50·14/7 = 100 off, 1416; its page shows
  the decayed rating, the idle days and the 1516 before decay.
- C-Diplo circuit, best 3 of 5 (tests/api/test_seasons.py works it out): q 100, r 100, p 74,
  s 10.3333.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.test_dashboard import (
    NOW,
    _at,
    _checked,
    _game,
    _goto,
    _new_page,
    _post,
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

#: A name a careless page would run as markup: the page must show it as text.
HOSTILE = '<img src=x onerror="window.__xss=1">'
A_AFTER_TWO = 1516 + 32 * (1 - 1 / (1 + 10 ** (-32 / 400)))


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        divisions = [{"name": "Bronze"}, {"name": HOSTILE, "min": 1510}]
        params = {"placement_games": 2, "divisions": divisions}
        _post(http, "/ladders", {"id": "ranked", "system": "elo", "params": params})
        _post(http, "/ladders/ranked/seasons", {"id": "s1", "name": "Autumn", "starts_at": _at(30)})
        _post(http, "/ladders/ranked/seasons", {"id": "s2", "name": HOSTILE, "starts_at": _at(10)})
        _post(http, "/ladders/ranked/seasons", {"id": "s3", "name": "Later", "starts_at": _at(-30)})
        for game_id, days, ranking in (
            ("g1", 20, ("a", "b")),
            ("g2", 15, ("a", "b")),
            ("g3", 5, ("a", "c")),
            ("g4", 4, ("a", "d")),
        ):
            _post(http, "/games", _game("ranked", game_id, days, *ranking))
        zero_k = {"after_days": 7, "points_per_week": 50, "max_points": 250}
        _post(http, "/ladders", {"id": "zk", "system": "elo", "params": {"decay": zero_k}})
        _post(http, "/games", _game("zk", "z1", 21, "a", "b"))
        _post(http, "/ladders", {"id": "circ", "system": "cdiplo", "title": "Circuit"})
        _post(
            http,
            "/ladders/circ/seasons",
            {"id": "y1", "name": "Year one", "starts_at": _at(60), "best_of": 3},
        )
        for number, order in enumerate(("pqrs", "qprs", "qrps", "rqsp", "rpqs"), start=1):
            held = (NOW - timedelta(days=50 - number)).date().isoformat()
            standings = [{"player": p, "rank": i} for i, p in enumerate(order, start=1)]
            body = {"ladder": "circ", "id": f"t{number}", "held_on": held, "standings": standings}
            _post(http, "/tournaments", body)
        yield http


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


def _board(api: httpx.Client, ladder: str, **query: Any) -> list[dict[str, Any]]:
    response = api.get(f"/ladders/{ladder}/leaderboard", params=query)
    assert response.status_code == 200, response.text
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


def _marks(page: Page) -> list[tuple[str, str, bool]]:
    """Each row's player, division (as text) and provisional mark."""
    found: list[tuple[str, str, bool]] = page.eval_on_selector_all(
        "table.leaderboard tbody tr",
        """rows => rows.map(r => [r.dataset.player,
            r.querySelector('[data-field=division]')?.textContent ?? null,
            Boolean(r.querySelector('.badge.provisional'))])""",
    )
    return [tuple(row) for row in found]  # type: ignore[misc]


def _no_markup_ran(page: Page) -> None:
    assert page.evaluate("() => window.__xss") is None
    assert page.query_selector("main img") is None


def test_divisions_and_provisional_marks(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/ranked", "leaderboard")
    # Provisional players are left out by default: a alone, in the division from 1510.
    assert _marks(page) == [("a", HOSTILE, False)]
    rating = _rows(page, "table.leaderboard tbody tr")[0]["rating"]
    assert rating == pytest.approx(_board(api, "ranked")[0]["rating"], abs=1e-9)
    page.check('input[name="include_provisional"]')
    page.wait_for_function(
        "() => document.querySelectorAll('table.leaderboard tbody tr').length === 4"
    )
    shown = _marks(page)
    api_rows = _board(api, "ranked", include_provisional="true")
    assert shown == [(e["player"], e["division"], e["provisional"]) for e in api_rows]
    assert {player: provisional for player, _, provisional in shown} == {
        "a": False, "b": True, "c": True, "d": True
    }  # fmt: skip
    assert "provisional players included" in page.inner_text(".status")
    # The division filter: Bronze only (the provisional ones still asked for).
    page.select_option('select[name="division"]', "Bronze")
    page.wait_for_function(
        "() => document.querySelectorAll('table.leaderboard tbody tr').length === 3"
    )
    bronze = _board(api, "ranked", include_provisional="true", division="Bronze")
    assert [row[0] for row in _marks(page)] == [e["player"] for e in bronze] == ["d", "c", "b"]
    _no_markup_ran(page)
    _shot(page, "ranked-divisions")


def test_player_page_shows_decay(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/zk/players/a", "player")
    stats: dict[str, str | None] = dict(
        page.eval_on_selector_all(
            ".rating-card .stat",
            "stats => stats.map(s => [s.querySelector('dt').textContent,"
            " s.querySelector('dd').dataset.value ?? null])",
        )
    )
    idle = api.get("/ladders/zk/players/a").json()["ratings"][0]["decay"]["idle_days"]
    # Zero-K's rule by hand: 50 points a week past 7 idle days, on 1516 after one win. The
    # game was 21 days before the server's fixture ran, and the clock has gone on since.
    shown_idle = float(stats["Idle"] or "nan")
    assert 21.0 <= shown_idle < 21.1
    assert float(stats["Rating before decay"] or "nan") == 1516.0
    expected = 1516.0 - 50.0 * (shown_idle - 7.0) / 7.0  # 1416 at exactly 21 days
    assert float(stats["Rating"] or "nan") == pytest.approx(expected, abs=0.01)
    assert float(stats["Idle"] or "nan") == pytest.approx(idle, abs=0.01)
    assert "Last played" in stats
    _shot(page, "player-decay")


def test_season_picker_shows_a_seasons_board(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/ranked", "leaderboard")
    options = page.eval_on_selector_all(
        'select[name="season"] option', "os => os.map(o => [o.value, o.textContent])"
    )
    # Begun seasons only, newest first; the upcoming one is not offered.
    assert options == [
        ["", "Now (whole ladder)"],
        ["s2", f"{HOSTILE} (current)"],
        ["s1", "Autumn (closed)"],
    ]
    page.select_option('select[name="season"]', "s1")
    page.wait_for_function(
        "() => document.querySelector('.status').textContent.includes('season Autumn')"
    )
    rows = _rows(page, "table.leaderboard tbody tr")
    expected = _board(api, "ranked", season="s1")
    assert [(r["player"], r["rating"], r["games"]) for r in rows] == [
        (e["player"], e["rating"], e["games"]) for e in expected
    ]
    assert [(r["player"], r["games"]) for r in rows] == [("a", 2), ("b", 2)]
    assert rows[0]["rating"] == pytest.approx(A_AFTER_TWO, abs=1e-9)
    assert page.is_disabled('input[name="as_of"]')
    # The current season, named with markup: shown as text, nothing run.
    page.select_option('select[name="season"]', "s2")
    page.wait_for_function(
        "() => document.querySelector('.status').textContent.includes('season <img')"
    )
    assert [row[0] for row in _marks(page)] == ["a"]
    _no_markup_ran(page)
    _shot(page, "ranked-season-board")


def test_a_season_is_picked_from_the_address(page: Page, server: str) -> None:
    _goto(page, server, "ladders/ranked?season=s1", "leaderboard")
    assert page.eval_on_selector('select[name="season"]', "s => s.value") == "s1"
    assert "season Autumn" in page.inner_text(".status")


def test_circuit_page_ranks_by_the_best_events(page: Page, server: str, api: httpx.Client) -> None:
    _goto(page, server, "ladders/circ/circuit", "circuit")
    rows = page.eval_on_selector_all(
        "table.circuit tbody tr",
        """rows => rows.map(r => [r.dataset.player,
            Number(r.querySelector('[data-field=position]').dataset.value),
            Number(r.querySelector('[data-field=points]').dataset.value),
            Number(r.querySelector('[data-field=games]').dataset.value)])""",
    )
    assert [(p, pos, round(pts, 4), n) for p, pos, pts, n in rows] == [
        ("q", 1, 100.0, 5), ("r", 1, 100.0, 5), ("p", 3, 74.0, 5), ("s", 4, 10.3333, 5)
    ]  # fmt: skip
    expected = _board(api, "circ", season="y1", active_within_days=0)
    assert [pts for _, _, pts, _ in rows] == [e["points"] for e in expected]
    assert "best 3 events count" in page.inner_text(".status")
    # The tab is there on this ladder's pages, and not on a ladder whose system awards no points.
    assert page.query_selector('nav.tabs a[aria-current="page"]').inner_text() == "Circuit"
    _shot(page, "ranked-circuit")
    _goto(page, server, "ladders/ranked", "leaderboard")
    assert page.query_selector('nav.tabs a[href$="/circuit"]') is None


def test_a_ladder_without_a_circuit_says_so(page: Page, server: str, api: httpx.Client) -> None:
    _post(api, "/ladders", {"id": "nocirc", "system": "wpe"})
    _goto(page, server, "ladders/nocirc/circuit", "circuit")
    assert "No circuit has begun" in page.inner_text("main")
