"""The web app in a real browser: Debian's Chromium driven by Playwright against a real `citetracer serve`.

The server runs as `python -m citetracer serve --offline` on 127.0.0.1 (a free port) with a
store seeded from examples/records.jsonl and one worker. A large job submitted first keeps
that worker busy, so the browser's own job is queued when its page opens and the page's live
progress is seen from the start. Then: the report, filtered to Hallucinated; one citation's
evidence opened (its link followed, answered by the test so nothing leaves the machine); the
corrected BibTeX downloaded and compared with `citetracer check --fix`. Screenshots of the
progress and result pages are saved in the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.test_html_browser import ARGS, CHROMIUM, _have_browser
from tests.web.conftest import EXAMPLE_BIB, seed_store
from tests.web.live import LiveServer

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A real `citetracer serve` on 127.0.0.1; its base URL. Stopped (by its pid) after the test."""
    store = seed_store(tmp_path / "store" / "store.sqlite")
    with LiveServer(tmp_path, store, "--workers", "1") as live:
        yield live.base


def _busy_job(base: str, entries: int = 800) -> str:
    """Submit a long bibliography through the API (the one worker will be busy with it for a while)."""
    bib = "".join(
        f"@inproceedings{{gen{i}, title={{A Synthetic Study of Imaginary Topic {i} in Graph Learning}}, "
        f"author={{Person{i}, Alpha and Other, Beta}}, booktitle={{Neural Information Processing Systems}}, "
        "year={2019}}\n"
        for i in range(entries)
    )
    boundary = "citetracerboundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n{bib}\r\n--{boundary}--\r\n').encode()
    request = urllib.request.Request(
        f"{base}/api/jobs", data=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return str(json.load(r)["id"])


#: Installed by the test in every page before its own scripts (outside its CSP): records what the
#: progress page shows each time it changes, kept in sessionStorage across the reload into the report.
WATCH = """
document.addEventListener('DOMContentLoaded', function () {
  var job = document.getElementById('job');
  if (!job) { return; }
  var seen = JSON.parse(sessionStorage.getItem('watched') || '[]');
  function note() {
    seen.push({count: document.getElementById('count').textContent, status: job.dataset.status,
               rows: document.querySelectorAll('#events li').length});
    sessionStorage.setItem('watched', JSON.stringify(seen));
  }
  note();
  new MutationObserver(note).observe(job, {subtree: true, childList: true, characterData: true, attributes: true});
});
"""


@pytest.fixture
def browser_page(tmp_path: Path) -> Iterator[object]:
    if not _have_browser():
        pytest.skip("chromium not installed (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": 1280, "height": 1600},
            accept_downloads=True,
        )
        try:
            yield context.new_page()
        finally:
            context.close()


def test_upload_progress_filter_evidence_and_corrected_bibtex(
    server: str, browser_page: object, tmp_path: Path
) -> None:
    from playwright.sync_api import Page, Route

    page = browser_page
    assert isinstance(page, Page)
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(WATCH)

    def evidence(route: Route) -> None:  # links out are answered here: nothing leaves the machine
        outside.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<html><title>evidence</title>record</html>")

    page.route(lambda url: not url.startswith(server), evidence)

    busy = _busy_job(server)
    page.goto(server + "/")
    page.set_input_files("#file", str(EXAMPLE_BIB))
    page.click("button[type=submit]")

    # the job's page: queued behind the busy job, then live, then the report
    page.wait_for_selector("#job[data-status]")
    assert page.locator("#job").get_attribute("data-status") in ("queued", "running")
    page.wait_for_selector("html[data-live='1']")  # job.js runs under the page's CSP
    page.screenshot(path=str(tmp_path / "progress.png"), full_page=True)
    page.wait_for_selector("html[data-ready='1']", timeout=180_000)  # the report's own script ran
    assert page.url.startswith(server + "/jobs/")

    # what the progress page showed as the events came: counts rising to the end, every citation listed
    seen = json.loads(page.evaluate("sessionStorage.getItem('watched') || '[]'"))
    assert seen, "the progress page never changed"
    assert seen[-1]["count"] == "16 of 16 citations" and seen[-1]["rows"] == 16, seen[-3:]
    assert seen[-1]["status"] == "done"
    assert any(s["status"] in ("queued", "running") for s in seen), seen[:3]
    done = [int(s["count"].split()[0]) for s in seen if s["count"][:1].isdigit()]
    assert done == sorted(done) and done[-1] == 16

    total = page.locator(".cite").count()
    assert total == 16
    assert page.locator("#summary .totals li.H b").first.text_content() == "6"

    # filter to Hallucinated
    for cls in ("Real", "Potential"):
        page.locator(f"#filters input[data-kind='class'][value='{cls}']").uncheck()
    visible = page.locator(".cite:visible")
    assert visible.count() == 6
    assert {visible.nth(i).get_attribute("data-class") for i in range(6)} == {"Hallucinated"}
    assert page.locator("#shown").text_content() == "showing 6 of 16 citations in 1 of 1 paper"
    page.screenshot(path=str(tmp_path / "result.png"), full_page=True)

    # one citation's evidence: the offending field is marked, the record's link opens
    card = page.locator("article.cite.H:visible", has=page.locator(".ev a")).first
    assert card.locator("tr.offending").count() >= 1
    card.locator("details > summary").click()
    assert card.locator("details").get_attribute("open") is not None
    assert card.locator("pre.raw").is_visible()
    link = card.locator(".ev a").first
    href = link.get_attribute("href") or ""
    assert href.startswith("https://")
    link.click()
    page.wait_for_url(href)
    assert outside == [href]
    page.go_back()
    page.wait_for_selector("html[data-ready='1']")

    # the corrected BibTeX, as `check --fix` writes it from the same records
    with page.expect_download() as download_info:
        page.get_by_role("link", name="download BIB").click()
    downloaded = tmp_path / "downloaded.bib"
    download_info.value.save_as(downloaded)
    cli_store = seed_store(tmp_path / "cli" / "store.sqlite")
    fixed = tmp_path / "cli-fixed.bib"
    args = ["check", str(EXAMPLE_BIB), "--offline", "--store", str(cli_store), "--fix", str(fixed), "-o", os.devnull]
    cli = subprocess.run([sys.executable, "-m", "citetracer", *args], capture_output=True, text=True, timeout=120)
    assert cli.returncode == 1, cli.stderr  # (Playwright's loop runs in this thread: the CLI runs in its own process)
    assert downloaded.read_text(encoding="utf-8") == fixed.read_text(encoding="utf-8")

    assert errors == [], errors
    assert busy != page.url.rsplit("/", 1)[-1]
    assert (tmp_path / "result.png").stat().st_size > 20_000
