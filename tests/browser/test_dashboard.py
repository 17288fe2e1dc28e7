"""The dashboard in headless Chromium against a real server (uvicorn subprocess, SQLite).

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
    from playwright.sync_api import Browser, Page

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
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("dashboard")
    port = free_port()
    env = {
        **os.environ,
        "RATINGS_DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite'}",
        "RATINGS_PORT": str(port),
        "RATINGS_ADMIN_TOKEN": ADMIN_TOKEN,
        "RATINGS_PUBLIC_READS": "false",
        "RATINGS_LOG_LEVEL": "WARNING",
    }
    log_path = tmp / "server.log"
    command = [sys.executable, "-m", "uvicorn", "tests.browser.server:app"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log"]
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


def _new_page(browser: Browser, token: str | None) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
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


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    page = _new_page(browser, ADMIN_TOKEN)
    yield page
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, f"errors in the page: {errors}"


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
