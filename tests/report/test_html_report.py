"""The HTML report's content: every citation, the offending fields, safe links, hostile text escaped."""

from __future__ import annotations

import base64
import hashlib
import html
import io
import re
from pathlib import Path

from citetracer.records import ReadingSummary, Report
from citetracer.report.html_report import HtmlReport
from citetracer.report.views import PaperCounts, paper_counts


def render(report: Report, pdf: Path | None = None, only_flagged: bool = False) -> str:
    buf = io.StringIO()
    html = HtmlReport(buf, title="t", show="flagged" if only_flagged else "all")
    html.begin()
    html.begin_paper(report.input, pdf=pdf, warnings=report.warnings)
    for c in report.citations:
        html.citation(c)
    html.end_paper(paper_counts(report))
    html.end()
    return buf.getvalue()


def cite_block(page: str, cid: str) -> str:
    """The HTML of one citation (article or details element) by its id."""
    m = re.search(
        r'<(article|details) class="cite [^"]*"[^>]*>(?:(?!</(?:article|details)>).)*?\['
        + re.escape(cid)
        + r"\].*?</\1>",
        page,
        re.S,
    )
    assert m, cid
    return m.group(0)


def test_every_citation_with_its_class_codes_and_summary(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    page = render(report)
    classes = {c.id: c.verdict.class_ for c in report.citations}
    assert set(classes.values()) == {"Real", "Potential", "Hallucinated"}
    for c in report.citations:
        block = cite_block(page, c.id)
        assert f'data-class="{c.verdict.class_}"' in block
        assert f'data-codes="{" ".join(c.verdict.codes)}"' in block
    # Real citations are compact (details), flagged ones open (article), Hallucinated listed first
    assert cite_block(page, "resnet").startswith('<details class="cite R"')
    assert cite_block(page, "fabricated").startswith('<article class="cite H"')
    assert page.index("[fabricated]") < page.index("[thesis]") < page.index("[resnet]")
    s = report.summary()
    assert f'<li class="H"><b>{s["hallucinated"]}</b>Hallucinated</li>' in page
    assert f'<li class=""><b>{s["total"]}</b>references</li>' in page
    assert '<a href="#paper-1" title="' in page  # the summary row links to the paper's section


def test_offending_fields_are_marked_beside_the_record(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    block = cite_block(render(report), "lstm_wrong_authors")
    row = re.search(r'<tr class="mismatch offending"><td>authors</td><td>(.*?)</td><td>(.*?)</td>', block)
    assert row, block
    cited, found = row.groups()
    # names compared as names: the two added authors are marked whole, the real one not at all
    assert "<mark>Yoshua Bengio</mark>" in cited and "<mark>Yann LeCun</mark>" in cited
    assert "<mark>" not in cited.split(";")[0]
    assert "<mark>Jürgen Schmidhuber</mark>" in found and "<mark>" not in found.split(";")[0]
    assert '<tr class="match"><td>title</td>' in block
    assert "record found" in block  # the same work, so the column says so
    assert "differs · wrong" in block
    # an absent work's closest record is not presented as "the record found", nor highlighted as wrong
    formula = cite_block(render(report), "formula")  # H1 with one cited author: a namesake's works prove nothing
    assert "cited (no record of this work found)" in formula and "<mark>" not in formula
    assert '<tr class="mismatch' not in formula and "Synthetic Study Number" not in formula
    # with no evidence at all, no stranger is shown beside the citation
    fabricated = cite_block(render(report), "fabricated")
    assert "cited (no record of this work found)" in fabricated and "Synthetic Study" not in fabricated


def test_hostile_text_is_escaped_and_only_http_links_survive(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    page = render(report)
    assert "<script>window.pwned" not in page and "&lt;script&gt;window.pwned=1&lt;/script&gt;" in page
    assert "<img" not in page and "&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;" in page
    assert "javascript:" not in page.split("<script>")[0].lower().replace("javascript:alert", "")
    evil = cite_block(page, "evil_link")
    assert "test:evilrec" in evil and "href" not in evil.split("Evidence:")[1].split("</p>")[0]
    hrefs = re.findall(r'href="([^"]*)"', page)
    assert hrefs and all(h.startswith(("#", "http://", "https://")) or not re.match(r"^\w+:", h) for h in hrefs)


def test_content_security_policy_allows_only_the_files_own_style_and_script(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    page = render(report)
    found = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert found
    csp = html.unescape(found.group(1))
    assert "default-src 'none'" in csp
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp
    assert "http://" not in page.split("<body>")[0] and "https://" not in page.split("<body>")[0]


def test_pdf_page_links_and_coverage_note(checked_bib: tuple[Path, Report], tmp_path: Path) -> None:
    _, report = checked_bib
    first = report.citations[0]
    paged = report.model_copy(
        update={
            "citations": [
                first.model_copy(update={"reference": first.reference.model_copy(update={"page": 7})}),
                *report.citations[1:],
            ]
        }
    )
    pdf = Path("papers dir/a paper.pdf")
    page = render(paged, pdf=pdf)
    assert 'href="papers%20dir/a%20paper.pdf#page=7">p. 7</a>' in page
    assert 'href="papers%20dir/a%20paper.pdf">open PDF</a>' in page
    thesis = cite_block(page, "thesis")
    assert "cited: &#x27;University of Nowhere&#x27;, 2019" in thesis
    assert "online sources were not asked (offline)" in thesis


def test_only_flagged_leaves_out_real_citations(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    page = render(report, only_flagged=True)
    assert "[resnet]" not in page and "[fabricated]" in page
    assert 'value="Real"' not in page  # no filter for what is not there


def test_warnings_known_only_at_the_paper_end_are_shown_once_and_escaped(checked_bib: tuple[Path, Report]) -> None:
    """A streamed paper learns the run's own warnings (e.g. no source answered) after its citations began."""
    _, report = checked_bib
    buf = io.StringIO()
    page = HtmlReport(buf, title="t")
    page.begin()
    page.begin_paper(report.input, warnings=["read: 2 lines skipped"])
    for c in report.citations:
        page.citation(c)
    late = "no online source answered <script>: use --offline"
    page.end_paper(paper_counts(report), warnings=["read: 2 lines skipped", late])
    page.end()
    text = buf.getvalue()
    known = render(report.model_copy(update={"warnings": ["read: 2 lines skipped", late]}))
    shown = html.escape(late, quote=True)
    assert text.count(shown) == known.count(shown) >= 2  # its warning list and the summary row, as if known at once
    assert text.count("read: 2 lines skipped") == known.count("read: 2 lines skipped")
    assert "<script>:" not in text


NO_LIST = ReadingSummary(searched=[1, 2], summary="no reference list found in the PDF (pages 1-2 searched)")


def test_a_pdf_without_a_reference_list_is_listed_among_the_papers_to_look_at(
    checked_bib: tuple[Path, Report],
) -> None:
    """Among many papers, one in which no list was found is named in the summary with the pages searched, counted,
    and its row says so (not four zeros), after the checked papers; its section is kept by the filters (`nolist`)."""
    _, report = checked_bib
    buf = io.StringIO()
    out = HtmlReport(buf, title="t", show="flagged")
    out.begin()
    out.begin_paper("slides.pdf", warnings=["no bibliography found"])
    out.end_paper(PaperCounts(file="slides.pdf", warnings=1), reading=NO_LIST)
    out.begin_paper(report.input)
    for c in report.citations:
        out.citation(c)
    out.end_paper(paper_counts(report))
    out.end()
    page = html.unescape(buf.getvalue())
    look = page[page.index('<div id="no-list">') :]
    assert look.startswith('<div id="no-list"><p><b class="H">No reference list found in 1 paper</b>')
    assert '<a href="#paper-1" title="slides.pdf">slides.pdf</a>: no reference list found in the PDF (pages 1-2' in look
    assert '<li class="H"><b>1</b>paper with no reference list found</li>' in page
    row = page[page.index('title="slides.pdf">slides.pdf</a></td>') :]
    assert row.split("</tr>")[0].endswith(
        "No reference list found in the PDF (pages 1-2 searched): nothing was checked "
        "(citetracer check PAPER --ref-pages FIRST-LAST reads the list from the pages given)</td>"
    )
    table = page[page.index('<table class="papers">') :]
    assert table.index('title="slides.pdf"') > table.index(f'title="{report.input}"')  # after the checked paper
    assert '<p class="counts nolist"><b class="H">No reference list found' in page
    assert "not listed (--show flagged)" not in page  # nothing flagged, but listed: nothing of it was checked
