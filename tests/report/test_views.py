"""What the people-facing reports choose to show: top codes, risk order, the review comment."""

from __future__ import annotations

import io
from collections import Counter

from citetracer.records import CitationResult, Reference, Verdict
from citetracer.report.review import ReviewSummary
from citetracer.report.views import PaperCounts, top_codes


def result(i: int, code: str) -> CitationResult:
    cls = {"R": "Real", "P": "Potential", "H": "Hallucinated"}[code[0]]
    return CitationResult(
        id=f"c{i}",
        reference=Reference(title=f"Work {i}", year=2020),
        verdict=Verdict.model_validate({"class": cls, "code": code, "codes": [code], "rationale": f"{code}: why {i}"}),
    )


def test_top_codes_put_the_hallucinated_ones_first() -> None:
    """A paper with 12 P1, 4 P3, 2 P2 and one H4 showed 'P1 ×12, P3 ×4, P2 ×2': its only H was hidden."""
    codes = Counter({"P1": 12, "P3": 4, "P2": 2, "H4": 1})
    assert top_codes(codes) == "H4 ×1, P1 ×12, P3 ×4"
    assert top_codes(Counter({"P1": 3, "H1": 1, "H5": 2, "H3": 1}), 2) == "H5 ×2, H1 ×1"


def test_papers_with_codes_to_act_on_come_before_papers_with_only_p1() -> None:
    many_p1 = PaperCounts("a.pdf", references=60, real=10, potential=50, codes=Counter({"P1": 50}))
    one_p3 = PaperCounts("b.pdf", references=20, real=18, potential=2, codes=Counter({"P3": 1, "P1": 1}))
    accused = PaperCounts("c.pdf", references=30, real=20, potential=9, hallucinated=1, codes=Counter({"H1": 1}))
    order = sorted([many_p1, one_p3, accused], key=PaperCounts.risk_key)
    assert [p.file for p in order] == ["c.pdf", "b.pdf", "a.pdf"]
    assert many_p1.flagged == 0 and one_p3.flagged == 1 and accused.flagged == 1


def test_the_review_comment_lists_h_and_p3_and_counts_the_rest() -> None:
    citations = [result(i, code) for i, code in enumerate(["R1", "R2", "P1", "P1", "P1", "P2", "P3", "H2"])]
    review = ReviewSummary()
    counts = PaperCounts(
        "p.pdf",
        references=8,
        real=2,
        potential=5,
        hallucinated=1,
        codes=Counter(c.verdict.code for c in citations if c.verdict.class_ != "Real"),
    )
    review.paper(counts, citations)
    out = io.StringIO()
    review.write(out)
    text = out.getvalue()
    rows = [line for line in text.splitlines() if line.startswith("| p.pdf | c")]
    assert [r.split(" | ")[1] for r in rows] == ["c7", "c6"]  # H2 first, then the P3
    assert "Not listed: 2 Real, 3 P1 (not found where no source covers it), 1 P2 (software, data or web pages)." in text
    assert "P1 not found where no source searched covers it" in text  # the legend
    assert "**Top codes:** H2 corrupted title ×1, P1 unverified ×3" in text  # the H first, however rare
