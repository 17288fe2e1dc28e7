"""The evaluation page in headless Chromium: the candidates' metrics and the baseline, the
calibration plot and the tuning plot are the API's answers (POST /ladders/{ladder}/evaluate and
/tune) to the same requests. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser.test_dashboard import (
    _checked,
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

LADDER = "league"
PLAYERS = [f"p{i}" for i in range(8)]
#: Each player's strength: the stronger usually wins, so predictions have something to learn.
STRENGTH = {p: i for i, p in enumerate(PLAYERS)}


@pytest.fixture(scope="module")
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, headers=AUTH, timeout=30) as http:
        _post(http, "/ladders", {"id": LADDER, "system": "elo", "title": "League"})
        rng = random.Random(3)
        games = []
        for index in range(120):
            a, b = rng.sample(PLAYERS, 2)
            stronger_wins = rng.random() < 0.75
            first = a if (STRENGTH[a] > STRENGTH[b]) == stronger_wins else b
            ranks = {first: 1, (b if first == a else a): 2}
            games.append(
                {
                    "ladder": LADDER,
                    "id": f"m{index}",
                    "played_at": f"2026-03-01T{index // 60:02d}:{index % 60:02d}:00Z",
                    "players": [{"player": p, "rank": r} for p, r in ranks.items()],
                }
            )
        _post(http, "/games/batch", {"games": games})
        _post(http, "/ladders", {"id": "cup", "system": "dptr", "title": "Cup"})
        yield http


@pytest.fixture
def page(browser: Browser, api: httpx.Client) -> Iterator[Page]:
    yield from _checked(_new_page(browser, ADMIN_TOKEN))


def _points(page: Page, selector: str, fields: list[str]) -> list[dict[str, Any]]:
    points: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        "(nodes, fields) => nodes.map(n => Object.fromEntries(fields.map(f => [f, n.dataset[f]])))",
        fields,
    )
    return points


def test_candidates_and_their_calibration_are_the_apis(
    page: Page, api: httpx.Client, server: str
) -> None:
    _goto(page, server, f"ladders/{LADDER}/evaluation", "evaluation")
    page.click("form.evaluation-form button:has-text('Add candidate')")
    second = page.locator("li.candidate").nth(1)
    second.locator("select[name=system]").select_option("glicko2")
    second.locator("input[name=label]").fill("Glicko-2")
    page.fill("input[name=min_games]", "2")
    page.click("form.evaluation-form button[type=submit]")
    page.wait_for_selector('.evaluation-results[data-ready="true"][aria-busy="false"]')
    answer = api.post(
        f"/ladders/{LADDER}/evaluate",
        json={
            "candidates": [
                {"system": "elo", "params": {}},
                {"system": "glicko2", "params": {}, "label": "Glicko-2"},
            ],
            "min_games": 2,
        },
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()

    rows = page.eval_on_selector_all(
        "table.evaluation > tbody > tr",
        """rows => rows.map(row => ({
            candidate: row.dataset.candidate,
            label: row.querySelector('th').textContent,
            ...Object.fromEntries([...row.querySelectorAll('[data-field]')].map(
                c => [c.dataset.field, c.dataset.value === '' ? null : Number(c.dataset.value)])),
        }))""",
    )
    fields = ("games", "pairs", "log_loss", "brier", "accuracy")
    expected = [
        {"candidate": str(i), "label": r["label"], **{f: r[f] for f in fields}}
        for i, r in enumerate(body["results"])
    ]
    expected.append(
        {
            "candidate": "baseline",
            "label": "Baseline p = ½",
            **{f: body["baseline"][f] for f in fields},
        }
    )
    assert rows == expected

    # The plot's points are the API's non-empty bins, exactly.
    shown = _points(
        page, "svg.calibration circle.calibration-point",
        ["candidate", "low", "count", "predicted", "observed"],
    )  # fmt: skip
    assert [
        (
            int(p["candidate"]),
            float(p["low"]),
            int(p["count"]),
            float(p["predicted"]),
            float(p["observed"]),
        )
        for p in shown
    ] == [
        (i, b["low"], b["count"], b["predicted"], b["observed"])
        for i, r in enumerate(body["results"])
        for b in r["calibration"]
        if b["count"]
    ]
    assert len(shown) >= 4
    # A point's position is its numbers on the axes: x grows with the mean p, y falls with s.
    first = "svg.calibration circle.calibration-point[data-candidate='0']"
    cx = [
        float(c)
        for c in page.eval_on_selector_all(first, "ns => ns.map(n => n.getAttribute('cx'))")
    ]
    assert cx == sorted(cx)
    _shot(page, "evaluation")


def test_tuning_plots_the_metric_against_the_parameter(
    page: Page, api: httpx.Client, server: str
) -> None:
    _goto(page, server, f"ladders/{LADDER}/evaluation", "evaluation")
    page.select_option("select[name=parameter]", "k")
    page.fill("input[name=values]", "8, 16, 32, 64")
    page.select_option("select[name=metric]", "brier")
    page.click("form.tune-form button[type=submit]")
    page.wait_for_selector('.tuning-results[data-ready="true"][aria-busy="false"]')
    answer = api.post(
        f"/ladders/{LADDER}/tune",
        json={"system": "elo", "grid": {"k": [8, 16, 32, 64]}, "metric": "brier", "min_games": 0},
    )
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    ranked = page.eval_on_selector_all(
        "table.tuning > tbody > tr", "rows => rows.map(r => r.dataset.param)"
    )
    assert [float(k) for k in ranked] == [r["params"]["k"] for r in results]
    points = _points(page, "svg.tuning circle.point", ["param", "value"])
    # In the parameter's order along x, each at its Brier score.
    assert [(float(p["param"]), float(p["value"])) for p in points] == sorted(
        (r["params"]["k"], r["brier"]) for r in results
    )
    _shot(page, "evaluation-tuning")


def test_a_tournament_ladder_says_it_cannot_be_evaluated(page: Page, server: str) -> None:
    _goto(page, server, "ladders/cup/evaluation", "evaluation")
    assert "cannot be evaluated" in page.inner_text("main")
    # The tab is offered on game ladders only.
    assert page.locator("nav.tabs a:has-text('Evaluation')").count() == 0
    _goto(page, server, f"ladders/{LADDER}", "leaderboard")
    page.click("nav.tabs a:has-text('Evaluation')")
    page.wait_for_selector('main[data-page="evaluation"][aria-busy="false"]')
