"""The dashboard's team pages (issue 20) in headless Chromium: a team game's page, the lobby's
sides, the balance tool, and the Bayesian ladders' μ, σ and μ − 3σ.

Every number shown is compared with the API's JSON (each cell's ``data-value``) and, where the
value can be worked out by hand, with that: Elo (SYSTEMS.md: initial 1500, K 32, scale 400, a
side rated as one player of its members' mean rating, each member getting the side's change
times its weight; a table of N as duels weighted K / (N - 1)); the quality of a pair of sides,
1 - |2p - 1| (API.md "Teams"); TrueSkill's published cases (sublee/trueskill's trueskilltest.py,
taken from Moserware's Skills: 1 vs 1 new players 29.396 / 7.171 and 20.604 / 7.171; 2 vs 2
28.108 / 7.774 and 21.892 / 7.774). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.test_dashboard import (
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

# Elo's defaults (SYSTEMS.md "elo").
ELO_K = 32
ELO_SCALE = 400
#: The published cases agree with the service to their three printed decimals.
PUBLISHED = 1e-3
#: Balance ladder ratings, set by adjustments: every split's side means are round numbers.
MIX = {"ann": 1700, "ben": 1600, "cal": 1500, "dan": 1400}


def _elo_expected(rating: float, opponent: float) -> float:
    """E = 1 / (1 + 10^((R_b - R_a) / scale)), an independent copy of SYSTEMS.md's formula."""
    return 1 / (1 + 10 ** ((opponent - rating) / ELO_SCALE))


def _quality(p: float) -> float:
    """API.md "Teams": 1 - |2p - 1| for a pair of sides (1 = a coin flip)."""
    return 1 - abs(2 * p - 1)


def _side(team: str, rank: int | None, *members: str | tuple[str, float]) -> dict[str, Any]:
    """A side; a member is an id or (id, weight)."""
    players = [
        {"player": m} if isinstance(m, str) else {"player": m[0], "weight": m[1]} for m in members
    ]
    side: dict[str, Any] = {"team": team, "players": players}
    if rank is not None:
        side["rank"] = rank
    return side


def _team_game(ladder: str, game_id: str, days: float, *sides: dict[str, Any]) -> dict[str, Any]:
    return {"ladder": ladder, "id": game_id, "played_at": _at(days), "teams": list(sides)}


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        # A three-sided game of single players (what main's elo takes): posted out of rank
        # order, with two sides tied for second.
        _post(http, "/ladders", {"id": "duel", "system": "elo", "title": "Duel Elo"})
        body = _team_game(
            "duel",
            "t1",
            2,
            _side("blue", 2, "bob"),
            _side("red", 1, "alice"),
            _side("green", 2, "carol"),
        )
        _post(http, "/games", body)
        # Fundox rates individuals only (GET /systems: sides false).
        _post(http, "/ladders", {"id": "solo", "system": "fundox"})
        _post(http, "/ladders", {"id": "mix", "system": "elo", "title": "Mixed Elo"})
        for player, rating in MIX.items():
            adjusted = http.put(f"/ladders/mix/players/{player}", json={"rating": rating})
            assert adjusted.status_code == 200, adjusted.text
        yield http


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


def _sides(page: Page) -> list[tuple[str, int]]:
    sides: list[list[Any]] = page.eval_on_selector_all(
        "section.side", "ss => ss.map(s => [s.dataset.team, Number(s.dataset.rank)])"
    )
    return [(team, rank) for team, rank in sides]


def _members(page: Page, team: str) -> list[dict[str, Any]]:
    return _rows(page, f'section.side[data-team="{team}"] table.side-members > tbody > tr')


def _shown_change(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["player"], row["rating_before"], row["rating_after"], row["delta"])


def _api_change(change: dict[str, Any]) -> tuple[Any, ...]:
    return (change["player"], change["rating_before"], change["rating_after"], change["delta"])


# --- the game page ---------------------------------------------------------------------------


def test_team_game_page_shows_sides_by_rank(page: Page, api: httpx.Client, server: str) -> None:
    game = api.get("/ladders/duel/games/t1").json()
    assert [t["team"] for t in game["teams"]] == ["blue", "red", "green"]
    _goto(page, server, "ladders/duel/games/t1", "event")
    # Best first; the two sides tied for second keep the order they were posted in.
    assert _sides(page) == [("red", 1), ("blue", 2), ("green", 2)]
    assert "rank 2 (tied)" in page.inner_text('section.side[data-team="blue"] h3')
    assert "(tied)" not in page.inner_text('section.side[data-team="red"] h3')
    changes = {c["player"]: c for c in game["changes"]}
    for team, player in (("red", "alice"), ("blue", "bob"), ("green", "carol")):
        shown = _members(page, team)
        assert [_shown_change(r) for r in shown] == [_api_change(changes[player])]
        assert changes[player]["team"] == team
    # By hand: three 1500s, duels weighted K / 2 = 16; alice beats both (+8 each), bob and
    # carol lose to alice (-8) and draw each other (0).
    assert [_shown_change(_members(page, t)[0]) for t in ("red", "blue", "green")] == [
        ("alice", 1500, 1516, 16),
        ("bob", 1500, 1492, -8),
        ("carol", 1500, 1492, -8),
    ]
    # Everyone played the whole game: no weight column.
    assert page.locator('section.side [data-field="weight"]').count() == 0
    assert "Sides" in page.inner_text("dl.facts")
    _shot(page, "teams-game")


def test_results_list_shows_a_team_game_by_side(page: Page, api: httpx.Client, server: str) -> None:
    _goto(page, server, "ladders/duel/results", "results")
    row = page.locator('table.games tr[data-id="t1"]')
    teams = row.locator(".standing.side")
    assert teams.evaluate_all("ss => ss.map(s => s.dataset.team)") == ["red", "blue", "green"]
    assert (
        row.locator("td.players").inner_text()
        == "1. red (alice) · 2. blue (bob) · 2. green (carol)"
    )


def test_player_history_names_the_side(page: Page, api: httpx.Client, server: str) -> None:
    history = api.get("/ladders/duel/players/bob/history").json()["entries"]
    teams = [e["team"] for e in history]
    assert "blue" in teams
    _goto(page, server, "ladders/duel/players/bob", "player")
    shown = page.locator('table.history [data-field="team"]').all_inner_texts()
    # Newest first on the page, oldest first in the API; a free-for-all shows a dash.
    assert shown == [t if t is not None else "—" for t in reversed(teams)]


def test_team_game_page_shows_weights(page: Page, api: httpx.Client, server: str) -> None:
    """Two players a side, one of them half the game (needs the team rules of branch teamrules)."""
    _post(api, "/ladders", {"id": "squads", "system": "elo"})
    body = _team_game(
        "squads",
        "s1",
        1,
        _side("red", 1, "alice", ("dave", 0.5)),
        _side("blue", 2, "bob", "erin"),
    )
    _post(api, "/games", body)
    game = api.get("/ladders/squads/games/s1").json()
    _goto(page, server, "ladders/squads/games/s1", "event")
    assert _sides(page) == [("red", 1), ("blue", 2)]
    changes = {c["player"]: c for c in game["changes"]}
    red, blue = _members(page, "red"), _members(page, "blue")
    assert [_shown_change(r) for r in red + blue] == [
        _api_change(changes[p]) for p in ("alice", "dave", "bob", "erin")
    ]
    assert [(r["player"], r["weight"]) for r in red + blue] == [
        ("alice", 1),
        ("dave", 0.5),
        ("bob", 1),
        ("erin", 1),
    ]
    # By hand: both sides' means are 1500, E = 0.5, the side's change is K (S - E) = ±16, and
    # each member gets it times its weight.
    assert [(r["player"], r["delta"]) for r in red + blue] == [
        ("alice", 16),
        ("dave", 8),
        ("bob", -16),
        ("erin", -16),
    ]
    _shot(page, "teams-game-weights")


# --- the lobby -------------------------------------------------------------------------------


def _fill_side(page: Page, number: int, label: str, players: str) -> None:
    side = page.locator(f'fieldset.side[data-side="{number}"]')
    side.locator("input[name=team]").fill(label)
    side.locator("input[name=player]").fill(players)
    side.locator("input[name=player]").press("Enter")


def _preview(page: Page) -> None:
    page.click("form.lobby button[type=submit]")
    page.wait_for_selector('.results[data-ready="true"][aria-busy="false"]')


def test_team_lobby_previews_sides(page: Page, api: httpx.Client, server: str) -> None:
    """red (alice) against blue (bob and carol) on the duel ladder after t1."""
    _goto(page, server, "ladders/duel/lobby", "lobby")
    page.check("input[name=mode][value=teams]")
    # Two sides to start with; a third is added and removed again.
    assert page.locator("fieldset.side").count() == 2
    page.click("button[data-action=add-side]")
    assert page.locator("fieldset.side").count() == 3
    page.locator('fieldset.side[data-side="3"] button[data-action=remove-side]').click()
    assert page.locator("fieldset.side").count() == 2
    _fill_side(page, 1, "red", "alice")
    _fill_side(page, 2, "blue", "bob, carol")
    _preview(page)

    body = {
        "ladder": "duel",
        "teams": [_side("red", None, "alice"), _side("blue", None, "bob", "carol")],
    }
    expected = api.post("/predictions", json=body).json()
    quality = page.get_attribute("[data-field=quality]", "data-value")
    assert quality is not None
    assert float(quality) == expected["quality"]
    sides = _rows(page, "table.sides tbody tr")
    teams = page.eval_on_selector_all("table.sides tbody tr", "rs => rs.map(r => r.dataset.team)")
    assert teams == [t["team"] for t in expected["teams"]] == ["red", "blue"]
    assert [s["win_probability"] for s in sides] == [
        t["win_probability"] for t in expected["teams"]
    ]
    for team in expected["teams"]:
        shown = _rows(page, f'section.side[data-team="{team["team"]}"] tbody tr')
        # Against one other side a loss has one value: min = max, shown in one column.
        assert all(p["if_loss"]["min"] == p["if_loss"]["max"] for p in team["players"])
        assert [
            (r["player"], r["rating"], r["if_win"], r["if_draw"], r["if_loss"]) for r in shown
        ] == [
            (p["player"], p["rating"], p["if_win"], p["if_draw"], p["if_loss"]["min"])
            for p in team["players"]
        ]
    pairs = page.eval_on_selector_all(
        "table.team-pairs tbody tr",
        "rs => rs.map(r => [r.dataset.team, r.dataset.opponent,"
        " Number(r.querySelector('[data-field=win_probability]').dataset.value)])",
    )
    assert pairs == [[p["team"], p["opponent"], p["win_probability"]] for p in expected["pairs"]]

    # By hand: alice 1516 against blue's mean (1492 + 1492) / 2 = 1492.
    p_red = _elo_expected(1516, 1492)
    assert sides[0]["win_probability"] == pytest.approx(p_red, abs=1e-12)
    assert float(quality) == pytest.approx(_quality(p_red), abs=1e-12)
    alice = _rows(page, 'section.side[data-team="red"] tbody tr')[0]
    assert alice["if_win"] == pytest.approx(ELO_K * (1 - p_red), abs=1e-9)
    assert alice["if_draw"] == pytest.approx(ELO_K * (0.5 - p_red), abs=1e-9)
    assert alice["if_loss"] == pytest.approx(-ELO_K * p_red, abs=1e-9)
    bob = _rows(page, 'section.side[data-team="blue"] tbody tr')[0]
    assert bob["if_win"] == pytest.approx(ELO_K * p_red, abs=1e-9)
    _shot(page, "teams-lobby")

    # Back to a free-for-all: the table's own form, no sides.
    page.check("input[name=mode][value=ffa]")
    assert page.locator("fieldset.side").count() == 0
    assert page.locator("input[name=player]").count() == 1


def test_team_lobby_needs_a_player_on_every_side(
    page: Page, api: httpx.Client, server: str
) -> None:
    _goto(page, server, "ladders/duel/lobby", "lobby")
    page.check("input[name=mode][value=teams]")
    _fill_side(page, 1, "red", "alice")
    page.click("form.lobby button[type=submit]")
    assert "Every side needs at least one player" in page.inner_text(".results .notice")
    # A player may be on one side only: typing alice again on side 2 adds nothing there.
    _fill_side(page, 2, "blue", "alice")
    assert page.locator('fieldset.side[data-side="2"] .chips li[data-player]').count() == 0


def test_individual_systems_offer_no_sides(page: Page, api: httpx.Client, server: str) -> None:
    assert api.get("/systems/fundox").json()["sides"] is False
    _goto(page, server, "ladders/solo/lobby", "lobby")
    assert page.locator("input[name=mode]").count() == 0
    assert page.locator("input[name=player]").count() == 1
    tabs = page.eval_on_selector_all(".tabs a", "links => links.map(a => a.textContent)")
    assert "Balance" not in tabs
    _goto(page, server, "ladders/duel/lobby", "lobby")
    tabs = page.eval_on_selector_all(".tabs a", "links => links.map(a => a.textContent)")
    assert "Balance" in tabs


# --- the balance tool ------------------------------------------------------------------------


def _split(page: Page) -> None:
    page.click("form.balance button[type=submit]")
    page.wait_for_selector('.results[data-ready="true"][aria-busy="false"]')


def _shown_split(page: Page, table: str) -> list[tuple[str, frozenset[str], float, float]]:
    rows: list[list[Any]] = page.eval_on_selector_all(
        f"{table} tbody tr",
        """rs => rs.map(r => [r.dataset.team,
            [...r.querySelectorAll('.member')].map(m => m.dataset.player),
            Number(r.querySelector('[data-field=rating]').dataset.value),
            Number(r.querySelector('[data-field=win_probability]').dataset.value)])""",
    )
    return [(team, frozenset(players), rating, p) for team, players, rating, p in rows]


def _api_split(split: dict[str, Any]) -> list[tuple[str, frozenset[str], float, float]]:
    def ids(players: list[Any]) -> frozenset[str]:
        return frozenset(p if isinstance(p, str) else p["player"] for p in players)

    return [
        (t["team"], ids(t["players"]), t["rating"], t["win_probability"]) for t in split["teams"]
    ]


def test_balance_tool_splits_and_keeps_parties(page: Page, api: httpx.Client, server: str) -> None:
    _goto(page, server, "ladders/mix/balance", "balance")
    assert page.get_attribute(".tabs a[aria-current=page]", "href") == "#/ladders/mix/balance"
    # Two picked from the leaderboard, two typed.
    page.check('table.pick tr[data-player="ann"] input[name=pick]')
    page.check('table.pick tr[data-player="ben"] input[name=pick]')
    page.fill("form.balance input[name=player]", "cal, dan")
    page.press("form.balance input[name=player]", "Enter")
    chosen = page.eval_on_selector_all(
        "table.chosen tbody tr", "rs => rs.map(r => r.dataset.player)"
    )
    assert chosen == ["ann", "ben", "cal", "dan"]
    _split(page)

    body: dict[str, Any] = {"players": [{"player": p} for p in chosen], "teams": 2}
    expected = api.post("/ladders/mix/balance", json=body).json()
    assert _shown_split(page, "table.split.best") == _api_split(expected)
    shown_quality = page.get_attribute(".results > p [data-field=quality]", "data-value")
    assert shown_quality is not None
    assert float(shown_quality) == expected["quality"]
    # Four players: the exhaustive search's split, with no heuristic's note.
    assert expected["exact"] is True
    assert page.locator(".results .notice").count() == 0
    assert "null" not in page.inner_text(".results")
    alternatives = page.locator("section.alternative")
    assert alternatives.count() == len(expected["alternatives"])
    for i, alternative in enumerate(expected["alternatives"]):
        table = f'section.alternative[data-index="{i}"] table.split'
        assert _shown_split(page, table) == _api_split(alternative)
        value = page.get_attribute(
            f'section.alternative[data-index="{i}"] [data-field=quality]', "data-value"
        )
        assert value is not None
        assert float(value) == alternative["quality"]

    # By hand: the three splits of four into two pairs. Side ratings are the members' means.
    best = {side[1] for side in _shown_split(page, "table.split.best")}
    assert best == {frozenset({"ann", "dan"}), frozenset({"ben", "cal"})}
    assert float(shown_quality) == pytest.approx(_quality(_elo_expected(1550, 1550)), abs=1e-12)
    qualities = [
        float(
            page.get_attribute(
                f'section.alternative[data-index="{i}"] [data-field=quality]', "data-value"
            )
            or "nan"
        )
        for i in range(alternatives.count())
    ]
    assert qualities == pytest.approx(
        [_quality(_elo_expected(1600, 1500)), _quality(_elo_expected(1650, 1450))], abs=1e-12
    )
    _shot(page, "teams-balance")

    # ann and ben as a party: the one split that keeps them together, no alternative.
    for player in ("ann", "ben"):
        page.fill(f'table.chosen tr[data-player="{player}"] input[name=party]', "x")
    _split(page)
    party = api.post("/ladders/mix/balance", json=body | {"parties": [["ann", "ben"]]}).json()
    assert _shown_split(page, "table.split.best") == _api_split(party)
    assert {side[1] for side in _shown_split(page, "table.split.best")} == {
        frozenset({"ann", "ben"}),
        frozenset({"cal", "dan"}),
    }
    ratings = {side[1]: side[2] for side in _shown_split(page, "table.split.best")}
    assert ratings == {frozenset({"ann", "ben"}): 1650, frozenset({"cal", "dan"}): 1450}
    assert page.locator("section.alternative").count() == 0
    assert "No other split" in page.inner_text(".results")
    _shot(page, "teams-balance-party")


# --- Bayesian ladders ------------------------------------------------------------------------


def test_trueskill_leaderboard_and_chart(page: Page, api: httpx.Client, server: str) -> None:
    """μ, σ and μ − 3σ columns; the chart's band is μ ± σ (needs trueskill from branch bayes)."""
    _post(api, "/ladders", {"id": "ts", "system": "trueskill", "title": "TrueSkill"})
    _post(api, "/games", _game("ts", "b1", 2, "neo", "smith"))
    neo = api.get("/ladders/ts/players/neo").json()["ratings"][0]
    smith = api.get("/ladders/ts/players/smith").json()["ratings"][0]
    # The published 1 vs 1 of two new players.
    assert (neo["rating"], neo["deviation"]) == pytest.approx((29.396, 7.171), abs=PUBLISHED)
    assert (smith["rating"], smith["deviation"]) == pytest.approx((20.604, 7.171), abs=PUBLISHED)
    _post(api, "/games", _game("ts", "b2", 1, "neo", "smith"))

    expected = api.get("/ladders/ts/leaderboard", params={"limit": 500}).json()
    _goto(page, server, "ladders/ts", "leaderboard")
    head = page.locator("table.leaderboard thead").inner_text()
    for label in ("μ", "σ", "μ − 3σ"):
        assert label in head
    shown = _rows(page, "table.leaderboard > tbody > tr")
    assert [(r["player"], r["rating"], r["deviation"], r["ranking_value"]) for r in shown] == [
        (e["player"], e["rating"], e["deviation"], e["ranking_value"]) for e in expected["entries"]
    ]
    for row in shown:
        assert row["ranking_value"] == pytest.approx(row["rating"] - 3 * row["deviation"], abs=1e-9)
    _shot(page, "teams-trueskill-leaderboard")

    history = api.get("/ladders/ts/players/neo/history").json()["entries"]
    _goto(page, server, "ladders/ts/players/neo", "player")
    chart = page.locator("svg.chart")
    assert chart.get_attribute("data-band") == "true"
    assert "μ ± σ" in page.inner_text("figcaption")
    # The band's edges on the points' own scale: y = a + b·value from two points of the line.
    circles = page.eval_on_selector_all(
        "circle.point", "cs => cs.map(c => [Number(c.getAttribute('cy')), Number(c.dataset.value)])"
    )
    (y0, v0), (y1, v1) = circles[0], circles[-1]
    slope = (y1 - y0) / (v1 - v0)

    def y(value: float) -> float:
        return y0 + slope * (value - v0)

    raw = page.get_attribute("polygon.band", "points") or ""
    band = [float(point.split(",")[1]) for point in raw.split()]
    upper = [y(e["rating_after"] + e["deviation_after"]) for e in history]
    lower = [y(e["rating_after"] - e["deviation_after"]) for e in reversed(history)]
    assert band == pytest.approx(upper + lower, abs=1e-6)
    head = page.locator(".rating-card").inner_text()
    assert "μ − 3σ" in head
    _shot(page, "teams-trueskill-player")


def test_trueskill_team_game_page(page: Page, api: httpx.Client, server: str) -> None:
    """A 2 vs 2 of new players (needs trueskill from branch bayes)."""
    _post(api, "/ladders", {"id": "ts-teams", "system": "trueskill"})
    body = _team_game(
        "ts-teams", "m1", 1, _side("gold", 1, "ana", "bo"), _side("grey", 2, "cy", "di")
    )
    _post(api, "/games", body)
    game = api.get("/ladders/ts-teams/games/m1").json()
    _goto(page, server, "ladders/ts-teams/games/m1", "event")
    assert _sides(page) == [("gold", 1), ("grey", 2)]
    changes = {c["player"]: c for c in game["changes"]}
    rows = _members(page, "gold") + _members(page, "grey")
    assert [_shown_change(r) for r in rows] == [
        _api_change(changes[p]) for p in ("ana", "bo", "cy", "di")
    ]
    # The published 2 vs 2 of new players: μ 28.108 / 21.892, σ 7.774.
    assert [r["rating_after"] for r in rows] == pytest.approx(
        [28.108, 28.108, 21.892, 21.892], abs=PUBLISHED
    )
    assert [changes[p]["deviation_after"] for p in ("ana", "bo", "cy", "di")] == pytest.approx(
        [7.774] * 4, abs=PUBLISHED
    )
    assert "σ" in page.locator("section.side thead").first.inner_text()
    _shot(page, "teams-trueskill-game")
