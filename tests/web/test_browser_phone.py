"""The web app in Chromium at a phone's width (390 x 844): nothing wider than the screen on the form, a job's
live page, its result page and an error page; counts in words while the job runs; the favicon; the error page
in the site's layout with its way back to the form.

A real `citetracer serve --offline` with one worker: a job submitted first through the API keeps it busy, so
the browser's job is seen queued, then running, then done.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.test_html_browser import ARGS, CHROMIUM, _have_browser
from tests.web.conftest import EXAMPLE_BIB, seed_store
from tests.web.live import LiveServer
from tests.web.test_browser import WATCH, _busy_job
from tests.web.test_counts import ONE_AND_A_BROKEN, WRONG

pytestmark = pytest.mark.slow
WIDTH = 390
#: A file name with no place to break a line.
LONG_NAME = "references-of-a-submission-with-a-very-long-file-name-and-no-spaces-at-all-v2.bib"


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[tuple[str, object]]:
    """A live server's base URL and a Chromium page at 390 x 844."""
    if not _have_browser():
        pytest.skip("chromium not installed (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright

    store = seed_store(tmp_path / "store" / "store.sqlite")
    with LiveServer(tmp_path, store, "--workers", "1") as live, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield live.base, browser.new_page(viewport={"width": WIDTH, "height": 844})
        finally:
            browser.close()


#: The text that reaches past the viewport's right edge, outside a box that scrolls (to say which, when too wide).
WIDE = f"""() => {{ const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode() && out.length < 8) {{ const n = walk.currentNode, r = document.createRange();
    r.selectNodeContents(n); if (r.getBoundingClientRect().right > {WIDTH} + 1 && !n.parentElement.closest('.wide'))
      out.push(n.parentElement.tagName + '.' + n.parentElement.className + ': ' + n.textContent.slice(0, 60)); }}
  return out; }}"""


def _fits(page: object, what: str) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")  # type: ignore[attr-defined]
    wide = page.evaluate(WIDE) if width > WIDTH else []  # type: ignore[attr-defined]
    assert width <= WIDTH, f"{what}: {width} px wide at a {WIDTH} px viewport: {wide}"


def test_phone_width_counts_errors_and_favicon(phone: tuple[str, object], tmp_path: Path) -> None:
    from playwright.sync_api import Page

    base, page = phone
    assert isinstance(page, Page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(WATCH)

    page.goto(base + "/")
    _fits(page, "the form")
    assert page.evaluate("fetch('/favicon.ico').then(r => r.status + ' ' + r.headers.get('content-type'))") == (
        "200 image/svg+xml"
    )
    assert page.locator("#offline").is_checked() and page.locator("#online").is_disabled()  # an offline server

    _busy_job(base, entries=300)
    upload = tmp_path / LONG_NAME
    upload.write_bytes(EXAMPLE_BIB.read_bytes())
    page.set_input_files("#file", str(upload))
    page.click("button[type=submit]")
    page.wait_for_selector("#job[data-status]")
    assert page.locator("#job").get_attribute("data-status") in ("queued", "running")
    assert page.locator("#mode").text_content() == "Checked offline (local store only)"
    _fits(page, "a job's live page")
    page.wait_for_selector("html[data-ready='1']", timeout=180_000)
    _fits(page, "a job's result page")
    assert page.locator("table.papers").is_visible()

    seen = json.loads(page.evaluate("sessionStorage.getItem('watched') || '[]'"))
    counts = [s["count"] for s in seen]
    assert counts and counts[0] == "waiting for a free worker", counts[:3]
    assert counts[-1] == "16 of 16 citations" and not any("?" in c for c in counts), counts

    # one citation, warnings: every count in the number it takes
    page.goto(base + "/")
    page.fill("#text", ONE_AND_A_BROKEN)
    page.click("button[type=submit]")
    page.wait_for_selector("html[data-ready='1']", timeout=180_000)
    text = page.locator("body").inner_text()
    assert "showing 1 of 1 citation in 1 of 1 paper" in text and "1 reference:" in text
    assert not WRONG.search(text), WRONG.search(text)
    _fits(page, "a one-citation result page")

    # an error page: the site's layout, plain words, the way back
    response = page.goto(base + "/jobs/" + "A" * 24)
    assert response is not None and response.status == 404
    assert page.locator("#error h2").text_content() == "Nothing here"
    assert page.evaluate("getComputedStyle(document.querySelector('.card')).backgroundColor") == "rgb(255, 255, 255)"
    _fits(page, "an error page")
    page.get_by_role("link", name="Back to the form").click()
    page.wait_for_selector("#submit")
    assert page.url == base + "/"
    assert not [e for e in errors if not re.search(r"404", e)], errors
