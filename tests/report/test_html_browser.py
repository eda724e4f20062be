"""The HTML report in a real browser: Debian's Chromium, driven by Playwright (nothing downloaded).

Opened from a file with no network: its script runs under its own Content-Security-Policy,
the filters hide and show citations, hostile text stays text, and the page asks for nothing
but itself. A screenshot is saved beside the report for a person to look at.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer.records import Report
from citetracer.report.html_report import HtmlReport
from citetracer.report.views import paper_counts

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _have_browser() -> bool:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        if os.environ.get("CI"):  # CI installs it (scripts/test.sh): its absence is a failure there
            pytest.fail("chromium is not installed: scripts/test.sh installs Debian's chromium package")
        return False
    return True


@pytest.fixture
def page(tmp_path: Path) -> Iterator[object]:
    if not _have_browser():
        pytest.skip("chromium not installed (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh profile
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": 1280, "height": 1800},
        )
        try:
            yield context.new_page()
        finally:
            context.close()


def write_report(report: Report, path: Path) -> Path:
    buf = io.StringIO()
    html = HtmlReport(buf, title="citetracer: refs.bib", report_dir=path.parent)
    html.begin()
    html.begin_paper(report.input, warnings=["only 2 references found: check that the whole bibliography was read"])
    for c in report.citations:
        html.citation(c)
    html.end_paper(paper_counts(report))
    html.end()
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def test_filters_work_and_nothing_is_fetched(checked_bib: tuple[Path, Report], tmp_path: Path, page: object) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    _, report = checked_bib
    html_file = write_report(report, tmp_path / "report.html")
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html_file.as_uri())
    page.wait_for_selector("html[data-ready='1']")  # the script ran: its CSP hash is right

    total = len(report.citations)
    by_class = {
        k: sum(1 for c in report.citations if c.verdict.class_ == k) for k in ("Real", "Potential", "Hallucinated")
    }
    shown = page.locator("#shown")
    assert shown.text_content() == f"showing {total} of {total} citations in 1 of 1 paper"
    assert page.locator(".cite:visible").count() == total

    page.locator("#filters input[data-kind='class'][value='Real']").uncheck()
    assert page.locator(".cite:visible").count() == total - by_class["Real"]
    assert page.locator(".cite[data-class='Real']:visible").count() == 0
    assert shown.text_content() == f"showing {total - by_class['Real']} of {total} citations in 1 of 1 paper"

    page.locator("#filters input[data-kind='code'][value='H1']").uncheck()
    h1 = sum(1 for c in report.citations if c.verdict.class_ != "Real" and set(c.verdict.codes) == {"H1"})
    assert h1 and page.locator(".cite:visible").count() == total - by_class["Real"] - h1

    for box in page.locator("#filters input[data-kind='class']").all():
        box.uncheck()
    assert page.locator(".paper:visible").count() == 0  # a paper with nothing to show is hidden
    assert shown.text_content() == f"showing 0 of {total} citations in 0 of 1 paper"
    for box in page.locator("#filters input").all():
        box.check()
    assert page.locator(".cite:visible").count() == total

    # hostile text is shown as text and ran nothing
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.locator("img").count() == 0 and page.locator("script").count() == 1
    assert "<script>window.pwned=1</script>" in (page.locator("article:has-text('[fabricated]')").text_content() or "")
    assert page.locator("a[href^='javascript']").count() == 0
    # the offending field is highlighted
    row = page.locator("article:has-text('lstm_wrong_authors') tr.offending")
    assert row.count() == 1 and row.locator("td").first.text_content() == "authors"
    assert row.evaluate("r => getComputedStyle(r.querySelector('td')).backgroundColor") != "rgba(0, 0, 0, 0)"

    assert requests == [html_file.as_uri()], requests
    assert errors == [], errors
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert (tmp_path / "report.png").stat().st_size > 10_000


def _author_mismatch(cited: list[tuple[str, str]], found: str) -> Report:
    """An H3 whose record differs from the citation in one author among initialled ones."""
    from citetracer.records import CitationResult, FieldComparison, Person, Reference, Verdict

    ref = Reference(title="BERT", authors=[Person(given=g, family=f) for g, f in cited], year=2019, venue="NAACL")
    verdict = Verdict.model_validate(
        {
            "class": "Hallucinated",
            "code": "H3",
            "codes": ["H3"],
            "fields": ["authors"],
            "rationale": "H3: authors",
            "evidence": [{"source": "test", "id": "bert", "title": "BERT"}],
        }
    )
    comparison = FieldComparison(
        field="authors", status="mismatch", cited="; ".join(p.display() for p in ref.authors), found=found
    )
    result = CitationResult(id="bert", reference=ref, verdict=verdict, comparisons=[comparison])
    return Report(version="t", input="refs.bib", citations=[result])


def test_the_author_diff_compares_names_as_names(tmp_path: Path, page: object) -> None:
    """Initials against full given names are the same people; only the real difference is marked
    (it was the other way round: every full given name marked, the substituted author among them)."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    report = _author_mismatch(
        [("J.", "Devlin"), ("M.-W.", "Chang"), ("K.", "Lee"), ("A.", "Smith"), ("Jian", "Sun")],
        "Jacob Devlin; Ming-Wei Chang; Kenton Lee; Kristina Toutanova; Jiang Sun",
    )
    report.citations[0].reference.et_al = True
    report.citations[0].comparisons[0].cited += "; et al."  # type: ignore[operator]
    path = write_report(report, tmp_path / "authors.html")
    page.goto(path.as_uri())
    row = page.locator("table.fields tr", has_text="authors")
    cited, found = row.locator("td").nth(1), row.locator("td").nth(2)
    assert cited.locator("mark").all_inner_texts() == ["A. Smith", "Jian"]
    assert found.locator("mark").all_inner_texts() == ["Kristina Toutanova", "Jiang"]
    assert "Jacob Devlin" in found.inner_text() and "J. Devlin" in cited.inner_text()
    page.screenshot(path=str(tmp_path / "authors.png"))


def test_the_legend_and_show_in_the_browser(checked_bib: tuple[Path, Report], tmp_path: Path, page: object) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    _, report = checked_bib
    buf = io.StringIO()
    html = HtmlReport(buf, title="t", show="hallucinated")
    html.begin()
    html.begin_paper(report.input)
    for c in report.citations:
        html.citation(c)
    html.end_paper(paper_counts(report))
    html.end()
    path = tmp_path / "shown.html"
    path.write_text(buf.getvalue(), encoding="utf-8")
    page.goto(path.as_uri())
    legend = page.locator("#legend")
    assert legend.is_visible() and "P1 not found where no source searched covers it" in legend.inner_text()
    classes = {page.locator(".cite").nth(i).get_attribute("data-class") for i in range(page.locator(".cite").count())}
    assert classes == {"Hallucinated"}
    labels = page.locator("#filters input[data-kind=class]")
    assert [labels.nth(i).get_attribute("value") for i in range(labels.count())] == ["Hallucinated"]


def test_a_pdf_without_a_reference_list_stays_shown_when_the_script_runs(tmp_path: Path, page: object) -> None:
    """The filters hide a paper with no citation card left; one in which no list was found has none at all, and its
    statement must stay on screen."""
    from playwright.sync_api import Page

    from citetracer.records import ReadingSummary
    from citetracer.report.views import PaperCounts

    assert isinstance(page, Page)
    buf = io.StringIO()
    html = HtmlReport(buf, title="t")
    html.begin()
    html.begin_paper("slides.pdf")
    reading = ReadingSummary(searched=[1, 2], summary="no reference list found in the PDF (pages 1-2 searched)")
    html.end_paper(PaperCounts(file="slides.pdf"), reading=reading)
    html.end()
    path = tmp_path / "no-list.html"
    path.write_text(buf.getvalue(), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("html[data-ready='1']", state="attached")
    assert page.locator("#paper-1").is_visible()
    assert "No reference list found in the PDF (pages 1-2 searched)" in page.locator("#paper-1").inner_text()
    assert "in 1 of 1 paper" in page.locator("#shown").inner_text()
