"""The dashboard in headless Chromium against a real server (granian subprocess, SQLite).

The page's numbers are compared with the API's JSON through each cell's ``data-value`` (the
exact value; the text shows 2 decimals). Screenshots go to tests/artifacts/ for a human look.
Without Chromium or Playwright the module is skipped, except under CI (CI=true): it fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN, AUTH
from tests.helpers import free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("RATINGS_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_SECONDS = 30
#: Playwright's per-action wait (ms): generous for a loaded CI machine, small enough to fail fast.
WAIT_MS = 10_000
NOW = datetime.now(UTC).replace(microsecond=0)


def _unavailable(reason: str) -> None:
    # CI must run these tests: a missing browser there is a broken setup, not a skip.
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    pytest.skip(reason)


def _at(days: float) -> str:
    """An RFC 3339 time ``days`` before now."""
    return (NOW - timedelta(days=days)).isoformat().replace("+00:00", "Z")


# --- the server and its data -------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The server of one test module; a module's ``SERVER_ENV`` (a dict) adds settings."""
    tmp = tmp_path_factory.mktemp("dashboard")
    port = free_port()
    env = {
        **os.environ,
        "RATINGS_DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite'}",
        "RATINGS_PORT": str(port),
        "RATINGS_ADMIN_TOKEN": ADMIN_TOKEN,
        "RATINGS_PUBLIC_READS": "false",
        "RATINGS_LOG_LEVEL": "WARNING",
        # Webhooks to a receiver the test runs on this machine (loopback is refused otherwise).
        "RATINGS_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",
        **getattr(request.module, "SERVER_ENV", {}),
    }
    log_path = tmp / "server.log"
    command = [sys.executable, "-m", "granian", "--interface", "asgi", "tests.browser.server:app"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-ws"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited ({process.returncode}):\n{log_path.read_text()}")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not start:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _post(http: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = http.post(path, json=body)
    assert response.status_code in (200, 201), response.text
    result: dict[str, Any] = response.json()
    return result


def _game(ladder: str, game_id: str, days: float, *ranking: str, **extra: Any) -> dict[str, Any]:
    """A game where ``ranking`` lists players best first; "a=b" shares a rank."""
    players: list[dict[str, Any]] = []
    for rank, names in enumerate(ranking, start=1):
        for name in names.split("="):
            player, _, faction = name.partition(":")
            entry: dict[str, Any] = {"player": player, "rank": rank}
            if faction:
                entry["faction"] = faction
            players.append(entry)
    return {"ladder": ladder, "id": game_id, "played_at": _at(days), "players": players, **extra}


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=10) as http:
        _seed(http)
        yield http


def _seed(http: httpx.Client) -> None:
    _post(http, "/ladders", {"id": "club", "system": "fundox", "title": "Club Fundox"})
    club = [
        # An old game: "ghost" is outside Fundox's 30-day default activity window.
        ("g00", 90, ("ghost", "frank")),
        ("g01", 12, ("alice", "bob")),
        ("g02", 11, ("carol", "dave", "erin")),
        ("g03", 10, ("alice", "carol")),
        ("g04", 9, ("bob", "frank", "erin")),
        ("g05", 8, ("dave", "alice")),
        ("g06", 7, ("alice", "erin", "frank", "bob")),
        ("g07", 6, ("bob", "carol")),
        ("g08", 5, ("frank", "dave")),
        ("g09", 4, ("alice", "bob", "carol")),
        ("g10", 3, ("erin", "dave")),
    ]
    for game_id, days, ranking in club:
        _post(http, "/games", _game("club", game_id, days, *ranking))

    _post(http, "/ladders", {"id": "club-glicko", "system": "glicko2", "params": {"period": "day"}})
    glicko = [
        ("h1", 6, ("ann", "ben")),
        ("h2", 5, ("ann", "cid")),
        ("h3", 4, ("ben", "cid")),
        ("h4", 3, ("dot", "ann")),
        ("h5", 2, ("ann", "ben")),
        ("h6", 1, ("cid", "dot")),
    ]
    for game_id, days, ranking in glicko:
        _post(http, "/games", _game("club-glicko", game_id, days, *ranking))

    _post(http, "/ladders", {"id": "naf", "system": "naf", "title": "NAF"})
    _post(http, "/games", _game("naf", "n1", 3, "alice:Orc", "bob:Elf", event={"coaches": 20}))
    _post(http, "/games", _game("naf", "n2", 2, "bob:Dwarf", "alice:Orc", event={"coaches": 24}))

    _post(http, "/ladders", {"id": "wdd", "system": "dptr", "title": "World Diplomacy Database"})
    field = ["pedone", "anderson", "brown", "chen", "dubois", "evans"]
    for number, (held_on, order) in enumerate(
        [("2026-05-02", field), ("2026-08-04", [*field[3:], *field[:3]])], start=1
    ):
        standings = [{"player": p, "rank": r} for r, p in enumerate(order, start=1)]
        body = {
            "ladder": "wdd",
            "id": f"wbc-{number}",
            "name": f"World Boardgaming Championships #{number}",
            "held_on": held_on,
            "rounds": 3,
            "standings": standings,
        }
        _post(http, "/tournaments", body)

    _seed_issue_24(http)


#: Kinzett games of one tournament (seed 002's rules): (player, power, centres, eliminated_in).
#: Each game is a draw of its survivors (1 primary point each), so five players tie on primary
#: points and only their secondary points order them.
KINZETT_GAMES = {
    "r1": [
        ("fra", "F", 17, None),
        ("ger", "G", 16, None),
        ("ita", "I", 1, None),
        ("aus", "A", 0, 1905),
        ("eng", "E", 0, 1906),
        ("rus", "R", 0, 1907),
        ("tur", "T", 0, 1908),
    ],
    "r2": [
        ("fra2", "F", 17, None),
        ("ger2", "G", 17, None),
        ("ita2", "I", 0, 1908),
        ("aus2", "A", 0, 1905),
        ("eng2", "E", 0, 1906),
        ("rus2", "R", 0, 1907),
        ("tur2", "T", 0, 1908),
    ],
}
KINZETT_TEAMS = {"north": ["fra", "ger2"], "south": ["ita", "fra2"]}
#: Two adjustments 0.11 apart: a change far below the ratings' size.
STEADY = (1500.0, 1500.11)
#: The quiet ladder's only game is this old: outside Fundox's 30-day default (SYSTEMS.md).
QUIET_DAYS = 90


def _seed_issue_24(http: httpx.Client) -> None:
    """Ladders for the dashboard fixes of issue 24: Kinzett, voids, small changes, old games."""
    _post(http, "/ladders", {"id": "manorcon", "system": "kinzett", "title": "ManorCon 1986"})
    for number, (game_id, rows) in enumerate(KINZETT_GAMES.items()):
        players = [
            {"player": p, "faction": f, "centres": c, "rank": 1 if c else 2}
            | ({"eliminated_in": e} if e else {})
            for p, f, c, e in rows
        ]
        body = {"ladder": "manorcon", "id": game_id, "played_at": _at(5 - number)}
        _post(http, "/games", body | {"end_year": 1909, "players": players, "tournament": "mc86"})
    teams = http.put("/ladders/manorcon/tournaments/mc86/teams", json={"teams": KINZETT_TEAMS})
    assert teams.status_code == 200, teams.text

    # fischer plays three tournaments; the second is voided.
    _post(http, "/ladders", {"id": "wdd-void", "system": "dptr", "title": "WDD with a void"})
    field = ["fischer", "garcia", "haas", "ito"]
    for number in range(1, 4):
        order = field[number - 1 :] + field[: number - 1]
        standings = [{"player": p, "rank": r} for r, p in enumerate(order, start=1)]
        body = {"ladder": "wdd-void", "id": f"t{number}", "held_on": f"2026-0{number + 3}-01"}
        _post(http, "/tournaments", body | {"name": f"Open #{number}", "standings": standings})
    assert http.delete("/ladders/wdd-void/tournaments/t2").status_code == 200

    _post(http, "/ladders", {"id": "steady", "system": "elo"})
    for days, rating in zip((3, 2), STEADY, strict=True):
        adjusted = http.put("/ladders/steady/players/sam", json={"rating": rating, "at": _at(days)})
        assert adjusted.status_code == 200, adjusted.text

    _post(http, "/ladders", {"id": "quiet", "system": "fundox", "title": "Quiet club"})
    _post(http, "/games", _game("quiet", "q1", QUIET_DAYS, "uma", "vic"))


# --- the browser -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists() and shutil.which(CHROMIUM) is None:
        _unavailable(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install playwright)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


DESKTOP: ViewportSize = {"width": 1280, "height": 900}
#: A phone's viewport (an iPhone 12-15's CSS pixels).
PHONE: ViewportSize = {"width": 390, "height": 844}


def _new_page(browser: Browser, token: str | None, viewport: ViewportSize = DESKTOP) -> Page:
    context = browser.new_context(viewport=viewport)
    if token:
        context.add_init_script(f"localStorage.setItem('ratings.dashboard.token', {token!r});")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Failed requests (the 401 before the token, a 404 what-if) are expected console noise.
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _checked(page: Page) -> Iterator[Page]:
    yield page
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


@pytest.fixture
def phone(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN, PHONE))


def _goto(page: Page, base: str, route: str, name: str) -> None:
    page.goto(f"{base}/dashboard#/{route}")
    _ready(page, name)


def _ready(page: Page, name: str) -> None:
    page.wait_for_selector(f'main[data-page="{name}"][aria-busy="false"]')


def _shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _value(page: Page, selector: str) -> float | None:
    raw = page.get_attribute(selector, "data-value")
    return None if raw in (None, "") else float(raw)


def _rows(page: Page, selector: str) -> list[dict[str, Any]]:
    """Each table row's data-player and its cells' data-value by data-field."""
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        """rows => rows.map(row => {
            const cells = {};
            for (const cell of row.querySelectorAll('[data-field]')) {
                const raw = cell.dataset.value;
                cells[cell.dataset.field] = raw === '' || raw === undefined ? null : Number(raw);
            }
            return {player: row.dataset.player, faction: row.dataset.faction || null, ...cells};
        })""",
    )
    return rows


# --- the tests -------------------------------------------------------------------------------


def test_token_prompt_then_leaderboard(browser: Browser, api: httpx.Client, server: str) -> None:
    page = _new_page(browser, None)
    page.goto(f"{server}/dashboard")
    # Reads need a token on this server: the first call is a 401 and the prompt appears.
    _ready(page, "token")
    _shot(page, "token")
    page.fill("#token", ADMIN_TOKEN)
    page.click("form.token-form button[type=submit]")
    _ready(page, "ladders")
    assert page.eval_on_selector_all("tr[data-ladder]", "rows => rows.map(r => r.dataset.ladder)")
    _shot(page, "ladders")

    page.click('tr[data-ladder="club"] a')
    _ready(page, "leaderboard")
    expected = api.get("/ladders/club/leaderboard", params={"limit": 500}).json()
    shown = _rows(page, "table.leaderboard > tbody > tr")
    assert [r["player"] for r in shown] == [e["player"] for e in expected["entries"]]
    assert [(r["position"], r["rating"], r["games"]) for r in shown] == [
        (e["position"], e["rating"], e["games"]) for e in expected["entries"]
    ]
    assert "ghost" not in {r["player"] for r in shown}  # outside the 30-day default
    _shot(page, "leaderboard")

    # "All" (0 days) brings the inactive player back, in the API's order.
    everyone = api.get("/ladders/club/leaderboard", params={"active_within_days": 0}).json()
    page.fill("input[name=active_within_days]", "0")
    page.press("input[name=active_within_days]", "Enter")
    page.wait_for_selector('table.leaderboard tr[data-player="ghost"]')
    shown = _rows(page, "table.leaderboard > tbody > tr")
    assert [(r["player"], r["rating"]) for r in shown] == [
        (e["player"], e["rating"]) for e in everyone["entries"]
    ]

    # Sort by name, then search: client-side filter of the fetched rows.
    page.select_option("select[name=sort]", "name")
    page.wait_for_function(
        "() => document.querySelector('table.leaderboard tbody tr').dataset.player === 'alice'"
    )
    page.fill("input[name=q]", "ER")
    assert [r["player"] for r in _rows(page, "table.leaderboard > tbody > tr")] == ["erin"]
    page.context.close()


def test_player_chart_is_drawn_from_history(page: Page, api: httpx.Client, server: str) -> None:
    history = api.get("/ladders/club/players/alice/history", params={"limit": 500}).json()
    _goto(page, server, "ladders/club/players/alice", "player")
    chart = page.locator("svg.chart")
    assert chart.count() == 1
    assert chart.get_attribute("data-points") == str(history["total"])
    assert chart.locator("circle.point").count() == history["total"]
    assert chart.get_attribute("data-band") == "false"
    points = page.eval_on_selector_all("circle.point", "cs => cs.map(c => Number(c.dataset.value))")
    assert points == [e["rating_after"] for e in history["entries"]]
    assert page.locator("table.history > tbody > tr").count() == history["total"]
    assert page.locator("table.history dl.details").count() == history["total"]
    _shot(page, "player")

    glicko = api.get("/ladders/club-glicko/players/ann/history").json()
    _goto(page, server, "ladders/club-glicko/players/ann", "player")
    chart = page.locator("svg.chart")
    assert chart.get_attribute("data-points") == str(glicko["total"])
    assert chart.locator("circle.point").count() == glicko["total"]
    assert chart.get_attribute("data-band") == "true"
    assert chart.locator("polygon.band").count() == 1
    _shot(page, "player-glicko")


def _lobby(page: Page, players: list[tuple[str, str | None]]) -> None:
    for player, faction in players:
        page.fill("input[name=player]", player)
        if faction:
            page.fill("input[name=faction]", faction)
        page.press("input[name=player]", "Enter")
    page.click("form.lobby button[type=submit]")
    page.wait_for_selector('.results[data-ready="true"][aria-busy="false"]')


def _loss(value: dict[str, float] | None, key: str) -> float | None:
    return None if value is None else value[key]


def test_lobby_preview_equals_predictions(page: Page, api: httpx.Client, server: str) -> None:
    _goto(page, server, "ladders/club/lobby", "lobby")
    _lobby(page, [("alice, bob", None), ("carol", None), ("newcomer", None)])
    names = ("alice", "bob", "carol", "newcomer")
    body = {"ladder": "club", "players": [{"player": p} for p in names]}
    expected = api.post("/predictions", json=body).json()
    shown = _rows(page, "table.predictions tbody tr")
    assert shown == [
        {
            "player": p["player"],
            "faction": p["faction"],
            "rating": p["rating"],
            "win_probability": p["win_probability"],
            "if_win": p["if_win"],
            "if_draw": p["if_draw"],
            "if_loss_min": _loss(p["if_loss"], "min"),
            "if_loss_max": _loss(p["if_loss"], "max"),
        }
        for p in expected["players"]
    ]
    pairs = page.eval_on_selector_all(
        "table.pairs tbody tr",
        """rows => rows.map(r => [r.dataset.player, r.dataset.opponent,
            ...['win_probability', 'if_win', 'if_loss'].map(
                f => Number(r.querySelector(`[data-field=${f}]`).dataset.value))])""",
    )
    assert pairs == [
        [p["player"], p["opponent"], p["win_probability"], p["if_win"], p["if_loss"]]
        for p in expected["pairs"]
    ]
    # The display rounds to 2 decimals; the raw value stays in data-value.
    first = page.locator('table.predictions tr[data-player="alice"] [data-field=if_win]')
    assert first.inner_text() == f"{expected['players'][0]['if_win']:+.2f}"
    _shot(page, "lobby")

    # NAF: per-race players and the event context (coaches, major).
    _goto(page, server, "ladders/naf/lobby", "lobby")
    page.fill("input[name=coaches]", "40")
    page.check("input[name=major]")
    _lobby(page, [("alice", "Orc"), ("bob", "Elf")])
    naf = api.post(
        "/predictions",
        json={
            "ladder": "naf",
            "players": [{"player": "alice", "faction": "Orc"}, {"player": "bob", "faction": "Elf"}],
            "event": {"coaches": 40, "major": True},
        },
    ).json()
    shown = _rows(page, "table.predictions tbody tr")
    assert [(r["player"], r["faction"], r["if_win"]) for r in shown] == [
        (p["player"], p["faction"], p["if_win"]) for p in naf["players"]
    ]
    _shot(page, "lobby-naf")


def test_tournament_page_from_player_history(page: Page, api: httpx.Client, server: str) -> None:
    _goto(page, server, "ladders/wdd/players/chen", "player")
    links = page.locator('table.history tr[data-kind="tournament"] a')
    assert links.count() == 2
    page.click('table.history tr[data-id="wbc-1"] a')
    _ready(page, "event")
    expected = api.get("/ladders/wdd/tournaments/wbc-1").json()
    changes = sorted(expected["changes"], key=lambda c: (c["rank"], c["player"]))
    shown = _rows(page, "table.standings > tbody > tr")
    assert [
        (r["player"], r["rank"], r["rating_before"], r["rating_after"], r["delta"]) for r in shown
    ] == [
        (c["player"], c["rank"], c["rating_before"], c["rating_after"], c["delta"]) for c in changes
    ]
    details = page.locator('table.standings tr[data-player="pedone"] dl.details')
    assert "tournament_value" in details.inner_text()
    assert expected["name"] in page.locator("h1").inner_text()
    _shot(page, "tournament")


def test_whatif_page(page: Page, api: httpx.Client, server: str) -> None:
    _goto(page, server, "ladders/club/whatif", "whatif")
    # Choosing another system fills the textarea with that system's defaults.
    page.select_option("select[name=system]", "elo")
    page.fill("textarea[name=params]", '{"k": 40}')
    page.click("form.whatif-form button[type=submit]")
    page.wait_for_selector('.results[data-ready="true"][aria-busy="false"]')
    response = api.post("/ladders/club/whatif", json={"system": "elo", "params": {"k": 40}})
    if response.status_code in (404, 405):  # a server without the endpoint
        assert "what-if not available on this server" in page.inner_text(".results").lower()
    else:
        assert response.status_code == 200, response.text
        shown = _rows(page, "table.whatif > tbody > tr")
        assert [
            (r["player"], r["current_position"], r["proposed_position"], r["proposed_rating"])
            for r in shown
        ] == [
            (
                e["player"],
                e["current"] and e["current"]["position"],
                e["proposed"] and e["proposed"]["position"],
                e["proposed"] and e["proposed"]["rating"],
            )
            for e in response.json()["entries"]
        ]
    _shot(page, "whatif")


# --- issue 24: what a new user tripped over ----------------------------------------------------


def _text_rows(page: Page, selector: str) -> list[dict[str, Any]]:
    """Like _rows, keyed by data-team for the teams table."""
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        """rows => rows.map(row => {
            const cells = {};
            for (const cell of row.querySelectorAll('[data-field]')) {
                cells[cell.dataset.field] = Number(cell.dataset.value);
            }
            return {team: row.dataset.team, ...cells};
        })""",
    )
    return rows


def test_kinzett_tournament_of_games_has_a_page(page: Page, api: httpx.Client, server: str) -> None:
    # A game ladder holds no tournament of its own (GET .../tournaments/mc86 is a 404): the page
    # shows the standings of the games that name the tournament.
    assert api.get("/ladders/manorcon/tournaments/mc86").status_code == 404
    expected = api.get("/ladders/manorcon/tournaments/mc86/standings").json()
    _goto(page, server, "ladders/manorcon/tournaments/mc86", "event")
    assert "mc86" in page.locator("h1").inner_text()
    shown = _rows(page, "table.standings > tbody > tr")
    assert [
        (r["player"], r["position"], r["games"], r["primary"], r["secondary"]) for r in shown
    ] == [
        (p["player"], p["position"], p["games"], p["primary"], p["secondary"])
        for p in expected["players"]
    ]
    # Seed 002: primary points first, ties split by secondary points.
    keys = [(-r["primary"], -r["secondary"]) for r in shown]
    assert keys == sorted(keys)
    teams = _text_rows(page, "table.teams > tbody > tr")
    assert [(t["team"], t["position"], t["primary"], t["secondary"]) for t in teams] == [
        (t["team"], t["position"], t["primary"], t["secondary"]) for t in expected["teams"]
    ]
    head = page.locator("table.standings thead").inner_text().lower()
    assert "primary points" in head
    assert "secondary points" in head
    _shot(page, "tournament-kinzett")


def test_a_kinzett_game_links_to_its_tournament(page: Page, api: httpx.Client, server: str) -> None:
    game_id = next(iter(KINZETT_GAMES))
    assert api.get(f"/ladders/manorcon/games/{game_id}").json()["tournament"] == "mc86"
    _goto(page, server, f"ladders/manorcon/games/{game_id}", "event")
    link = page.locator('a[href="#/ladders/manorcon/tournaments/mc86"]')
    assert link.inner_text() == "mc86"
    link.click()
    _ready(page, "event")
    assert "mc86" in page.locator("h1").inner_text()
    assert page.locator("table.standings > tbody > tr").count() > 0


def test_kinzett_leaderboard_shows_secondary_points(
    page: Page, api: httpx.Client, server: str
) -> None:
    expected = api.get("/ladders/manorcon/leaderboard", params={"limit": 500}).json()
    _goto(page, server, "ladders/manorcon", "leaderboard")
    shown = _rows(page, "table.leaderboard > tbody > tr")
    assert [(r["player"], r["position"], r["rating"], r["tiebreak"]) for r in shown] == [
        (e["player"], e["position"], e["rating"], e["tiebreak"]) for e in expected["entries"]
    ]
    # Five players share 1 primary point; their secondary points are what orders them.
    tied = [r for r in shown if r["rating"] == 1]
    assert len(tied) == 5
    assert len({r["position"] for r in tied}) > 1
    assert [r["tiebreak"] for r in tied] == sorted((r["tiebreak"] for r in tied), reverse=True)
    head = page.locator("table.leaderboard thead").inner_text().lower()
    assert "secondary points" in head
    _shot(page, "leaderboard-kinzett")


def _polyline(page: Page) -> list[tuple[float, float]]:
    raw = page.get_attribute("svg.chart polyline.line", "points") or ""
    return [(float(x), float(y)) for x, y in (point.split(",") for point in raw.split())]


def _circles(page: Page) -> list[dict[str, Any]]:
    circles: list[dict[str, Any]] = page.eval_on_selector_all(
        "svg.chart circle.point",
        """cs => cs.map(c => ({x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')),
            voided: c.classList.contains('voided')}))""",
    )
    return circles


def test_chart_line_skips_voided_entries(page: Page, api: httpx.Client, server: str) -> None:
    history = api.get("/ladders/wdd-void/players/fischer/history").json()["entries"]
    assert [e["voided"] for e in history] == [False, True, False]
    _goto(page, server, "ladders/wdd-void/players/fischer", "player")
    circles = _circles(page)
    assert [c["voided"] for c in circles] == [False, True, False]
    # The line joins #1 to #3 directly; the voided #2 stays a point of its own, off the line.
    assert _polyline(page) == [
        (circles[0]["x"], circles[0]["y"]),
        (circles[2]["x"], circles[2]["y"]),
    ]
    assert page.locator('table.history tr.voided[data-id="t2"]').count() == 1
    _shot(page, "player-voided")


def test_chart_y_axis_keeps_a_small_change_small(page: Page, server: str) -> None:
    _goto(page, server, "ladders/steady/players/sam", "player")
    chart = page.locator("svg.chart")
    low = float(chart.get_attribute("data-y-low") or "nan")
    high = float(chart.get_attribute("data-y-high") or "nan")
    # The axis spans at least 1% of the ratings' size (docs/dashboard.md): 15.0011 here.
    assert high - low >= 0.01 * STEADY[1]
    ticks = page.eval_on_selector_all(
        "svg.chart .tick",
        """ts => ts.map(t => ({value: Number(t.dataset.value), label: t.textContent,
            y: Number(t.querySelector('line').getAttribute('y1'))}))""",
    )
    labels = [t["label"] for t in ticks]
    assert len(ticks) >= 4
    assert len(set(labels)) == len(labels)
    assert len({len(label.partition(".")[2]) for label in labels}) == 1  # one number of decimals
    assert all(float(t["label"]) == pytest.approx(t["value"]) for t in ticks)
    # Pixels per rating point, from two grid lines; the 0.11 change moves the line that much.
    scale = (ticks[0]["y"] - ticks[1]["y"]) / (ticks[1]["value"] - ticks[0]["value"])
    first, second = _circles(page)
    assert first["y"] - second["y"] == pytest.approx((STEADY[1] - STEADY[0]) * scale, rel=1e-6)
    plot_height = (high - low) * scale
    assert first["y"] - second["y"] < 0.01 * plot_height
    _shot(page, "player-small-change")


def test_voided_tournament_page_says_so(page: Page, api: httpx.Client, server: str) -> None:
    stored = api.get("/ladders/wdd-void/tournaments/t2").json()
    assert (stored["voided"], stored["changes"]) == (True, [])
    _goto(page, server, "ladders/wdd-void/tournaments/t2", "event")
    assert "voided" in page.locator("main .notice").inner_text().lower()
    assert page.locator("main table").count() == 0
    _shot(page, "tournament-voided")


def _crumbs(page: Page) -> list[tuple[str, str | None]]:
    crumbs: list[tuple[str, str | None]] = page.eval_on_selector_all(
        "#crumbs > a, #crumbs > span:not(.sep)",
        "items => items.map(i => [i.textContent, i.getAttribute('href')])",
    )
    return [tuple(c) for c in crumbs]  # type: ignore[misc]


def test_error_pages_reset_the_breadcrumbs(page: Page, server: str) -> None:
    _goto(page, server, "ladders/club", "leaderboard")
    assert ("Club Fundox", "#/ladders/club") in _crumbs(page)
    # A game that does not exist in an existing ladder: the API answers 404.
    page.evaluate("location.hash = '#/ladders/club/games/nope'")
    _ready(page, "error")
    assert _crumbs(page) == [("Ladders", "#/"), ("Error", None)]
    assert "nope" in page.locator("main .notice").inner_text()
    _shot(page, "error")
    _goto(page, server, "ladders/club", "leaderboard")
    page.evaluate("location.hash = '#/no/such/page/here/at/all'")
    _ready(page, "missing")
    assert _crumbs(page) == [("Ladders", "#/"), ("Not found", None)]


def test_leaderboard_fits_a_phone(phone: Page, server: str) -> None:
    for ladder in ("club", "club-glicko", "manorcon"):
        _goto(phone, server, f"ladders/{ladder}", "leaderboard")
        cells = phone.eval_on_selector_all(
            "table.leaderboard > tbody > tr > *",
            """cells => cells.map(c => {
                const box = c.getBoundingClientRect();
                return {left: box.left, right: box.right, width: box.width,
                        label: c.dataset.label, before: getComputedStyle(c, '::before').content};
            })""",
        )
        assert cells
        # Every column of every row is on screen: nothing cut off, nothing to scroll sideways.
        assert all(
            c["left"] >= 0 and c["right"] <= PHONE["width"] and c["width"] > 0 for c in cells
        )
        widths = phone.eval_on_selector(
            "table.leaderboard",
            "t => [t.closest('.table-wrap').scrollWidth, t.closest('.table-wrap').clientWidth,"
            " document.documentElement.scrollWidth]",
        )
        assert widths[0] <= widths[1]
        assert widths[2] <= PHONE["width"]
        # Values below the first line name their column.
        games = [c for c in cells if c["label"] == "Games"]
        assert games
        assert all("Games" in c["before"] for c in games)
        _shot(phone, f"leaderboard-phone-{ladder}")


def test_default_activity_filter_is_shown_and_lifted(
    page: Page, api: httpx.Client, server: str
) -> None:
    ladder = api.get("/ladders/quiet").json()
    board = api.get("/ladders/quiet/leaderboard").json()
    # The API's echo: Fundox's 30-day default hides both players of a ladder that has two.
    assert (ladder["players"], board["total"], board["active_within_days"]) == (2, 0, 30)
    _goto(page, server, "ladders/quiet", "leaderboard")
    note = page.locator('.filter-note .notice[data-filter="default"]')
    text = note.inner_text()
    assert "30 days" in text
    assert "Fundox default" in text
    assert "2 rated players" in text
    assert page.locator("table.leaderboard").count() == 0
    _shot(page, "leaderboard-default-filter")

    page.click('.filter-note button[data-action="everyone"]')
    page.wait_for_selector('table.leaderboard tr[data-player="uma"]')
    everyone = api.get("/ladders/quiet/leaderboard", params={"active_within_days": 0}).json()
    shown = _rows(page, "table.leaderboard > tbody > tr")
    assert [(r["player"], r["rating"]) for r in shown] == [
        (e["player"], e["rating"]) for e in everyone["entries"]
    ]
    assert page.locator(".filter-note .notice").count() == 0
    assert page.input_value("input[name=active_within_days]") == "0"
    _shot(page, "leaderboard-everyone")

    # A ladder with recent players says the default applies too, without the warning.
    _goto(page, server, "ladders/club", "leaderboard")
    note = page.locator('.filter-note .notice[data-filter="default"]')
    assert "Showing players active in the last 30 days" in note.inner_text()
