"""/docs and /redoc in headless Chromium: both show every operation of the OpenAPI document,
and no request leaves the machine (issue 24: they were blank, their CDN scripts blocked)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.api.live_server import serving
from tests.browser.test_dashboard import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, WAIT_MS, _unavailable

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Route

pytestmark = pytest.mark.browser

#: What each page shows once per operation of the document.
OPERATION_SELECTORS = {
    "/docs": ".opblock",
    # ReDoc's section of an operation: "operation/<id>" (and a "tag/<tag>/operation/<id>" anchor).
    "/redoc": "[data-section-id^='operation/']",
}
#: ReDoc's sidebar shows a logo from redoc.ly, which the page's policy refuses (so it is never
#: requested); Chromium reports the refusal on the console.
REFUSED_LOGO = "https://cdn.redoc.ly/"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("docs")) as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
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


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_documentation_loads_with_no_request_leaving_the_machine(
    browser: Browser, base: str, path: str
) -> None:
    document = httpx.get(f"{base}/openapi.json").json()
    operations = sum(len(methods) for methods in document["paths"].values())
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(WAIT_MS)
    outside: list[str] = []
    errors: list[str] = []

    def local_only(route: Route) -> None:
        url = route.request.url
        if url.startswith(base) or url.startswith("blob:"):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    page.route("**/*", local_only)
    page.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: ConsoleMessage) -> None:
        if message.type == "error" and REFUSED_LOGO not in message.text:
            errors.append(message.text)

    page.on("console", console)
    try:
        page.goto(f"{base}{path}")
        selector = OPERATION_SELECTORS[path]
        page.wait_for_function(
            "([selector, count]) => document.querySelectorAll(selector).length >= count",
            arg=[selector, operations],
        )
        assert page.locator(selector).count() == operations
        assert document["info"]["title"] in page.content()
        page.screenshot(path=str(ARTIFACTS / f"api{path.replace('/', '-')}.png"))
    finally:
        page.close()
    assert outside == []
    assert errors == []
