"""Every report's legend stays true (issue 46): H4 covers wrong venue, date or publication details (pages,
volume, issue, publisher, conference location), and each view says so: the terminal table, Markdown, the
README (the CSV is plain since issue 44), the HTML summary and its hover titles, the SARIF rules, the scan's
review comment."""

from __future__ import annotations

import io
import json
from collections import Counter

from rich.console import Console

from citetracer.report.csv_report import CitationCsv
from citetracer.report.html_report import HtmlReport
from citetracer.report.render import print_table, write_markdown
from citetracer.report.review import ReviewSummary
from citetracer.report.sarif import SarifWriter
from citetracer.report.views import LEGEND, PaperCounts, paper_counts
from citetracer.taxonomy import CODES
from tests.report.test_reading_order import report, result

H4 = "H4 venue, date or publication details"
DETAILS = ("pages", "volume", "issue", "publisher", "location")


def test_the_taxonomy_and_the_legend_widen_h4_to_publication_details() -> None:
    assert CODES["H4"].name == "wrong venue, date or publication details"
    assert all(d in CODES["H4"].meaning for d in DETAILS) and "same version" in CODES["H4"].meaning
    assert H4 in LEGEND and "venue or year," not in LEGEND
    assert len(CODES) == 12


def test_every_view_prints_the_widened_legend() -> None:
    r = report()
    console = Console(file=io.StringIO(), width=400, markup=False, color_system=None)
    print_table(r, console)
    assert H4 in " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]

    md = io.StringIO()
    write_markdown(r, md)
    assert f"<sub>{LEGEND}.</sub>" in md.getvalue()

    out = io.StringIO()
    CitationCsv(out)  # plain CSV (issue 44): the header row first, the legend in the README instead
    assert out.getvalue().splitlines()[0].startswith("file,id,class,code")

    page = io.StringIO()
    html = HtmlReport(page)
    html.begin()
    html.begin_paper(r.input)
    for c in r.citations:
        html.citation(c)
    html.end_paper(paper_counts(r))
    html.end()
    assert H4 in page.getvalue()

    review = ReviewSummary()
    review.paper(PaperCounts("p.pdf", references=1, hallucinated=1, codes=Counter({"H4": 1})), [result(0, "H4")])
    comment = io.StringIO()
    review.write(comment)
    assert H4 in comment.getvalue()
    assert "H4 wrong venue, date or publication details ×1" in comment.getvalue()  # top codes name it so


def test_the_sarif_rule_for_h4_describes_publication_details() -> None:
    out = io.StringIO()
    sarif = SarifWriter(out)
    sarif.begin()
    sarif.end()
    rules = {r["id"]: r for r in json.loads(out.getvalue())["runs"][0]["tool"]["driver"]["rules"]}
    h4 = rules["H4"]
    assert h4["shortDescription"]["text"] == "Hallucinated: wrong venue, date or publication details"
    assert all(d in h4["fullDescription"]["text"] and d in h4["help"]["text"] for d in DETAILS)
