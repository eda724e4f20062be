"""The review comment (summary.md) of many papers: what it says of a PDF in which no reference list was found."""

from __future__ import annotations

import io

from citetracer.report.review import ReviewSummary
from citetracer.report.views import PaperCounts

SAID = "no reference list found in the PDF (pages 1-2 searched)"


def test_papers_without_a_reference_list_are_listed_apart_with_the_pages_searched() -> None:
    """Not a row of zeros among the papers (read as papers citing nothing), not hidden by --show: a line each, under
    a count, for the chair to look at."""
    review = ReviewSummary(show="flagged")
    review.paper(PaperCounts(file="paper.pdf", references=3, real=3), [])
    review.paper(PaperCounts(file="slides.pdf", warnings=1, no_list=SAID), [])
    out = io.StringIO()
    review.write(out)
    text = out.getvalue()
    assert f"**1 paper with no reference list found** (nothing checked):\n\n- slides.pdf: {SAID}\n" in text
    assert "| slides.pdf |" not in text
    assert "1 papers with nothing flagged (H, P2, P3) are not listed." in text  # paper.pdf alone
