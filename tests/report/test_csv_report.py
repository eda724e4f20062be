"""CSV: one row per citation, one per paper; formulas neutralized."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from citetracer.records import ReadingSummary, Report
from citetracer.report.csv_report import CITATION_COLUMNS, PAPER_COLUMNS, CitationCsv, PaperCsv, cell
from citetracer.report.views import PaperCounts, paper_counts


def test_one_row_per_citation_with_verdict_and_evidence(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    buf = io.StringIO()
    rows = CitationCsv(buf)
    for c in report.citations:
        rows.add(report.input, c)
    table = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert list(table[0]) == list(CITATION_COLUMNS)
    assert [r["id"] for r in table] == [c.id for c in report.citations]
    by_id = {r["id"]: r for r in table}
    assert by_id["lstm_wrong_authors"]["class"] == "Hallucinated" and by_id["lstm_wrong_authors"]["code"] == "H3"
    assert by_id["lstm_wrong_authors"]["fields"] == "authors"
    assert by_id["lstm_wrong_authors"]["evidence_id"] == "lstm"
    assert by_id["lstm_wrong_authors"]["reason"].startswith("H3: ")
    assert by_id["resnet"]["evidence_title"] == "Deep Residual Learning for Image Recognition"
    assert by_id["thesis"]["coverage"].startswith("cited: 'University of Nowhere', 2019")
    assert by_id["evil_link"]["evidence_url"] == ""  # a javascript: URL is not passed on
    assert all(r["file"] == report.input for r in table)


def test_spreadsheet_formulas_are_neutralized(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    buf = io.StringIO()
    rows = CitationCsv(buf)
    for c in report.citations:
        rows.add(report.input, c)
    formula = next(r for r in csv.DictReader(io.StringIO(buf.getvalue())) if r["id"] == "formula")
    assert formula["title"].startswith("'=HYPERLINK(")
    assert all(not v.startswith(("=", "+", "-", "@")) for v in formula.values())
    assert cell("-1+2") == "'-1+2" and cell(3) == 3 and cell("@SUM(A1)") == "'@SUM(A1)" and cell(None) == ""


def test_paper_rows_follow_the_contract(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    buf = io.StringIO()
    papers = PaperCsv(buf)
    papers.add(paper_counts(report), ["only 2 references found"])
    papers.add_unchecked("broken.pdf", "not a PDF")
    table = list(csv.reader(io.StringIO(buf.getvalue())))
    assert tuple(table[0][:6]) == ("file", "references", "real", "potential", "hallucinated", "warnings")
    assert tuple(table[0]) == PAPER_COLUMNS
    s = report.summary()
    assert table[1][:6] == [
        report.input,
        str(s["total"]),
        str(s["real"]),
        str(s["potential"]),
        str(s["hallucinated"]),
        "0",
    ]
    assert table[1][8] == "only 2 references found"
    assert table[2][0] == "broken.pdf" and table[2][7] == "not checked"
    assert table[1][-2:] == ["", ""] and table[2][-2:] == ["", ""]  # no PDF reading: empty, not zero
    papers.add(paper_counts(report), reading=ReadingSummary(pages=[9, 10, 11, 14], references=40, low_confidence=2))
    assert list(csv.reader(io.StringIO(buf.getvalue())))[3][-2:] == ["9-11, 14", "2"]


def test_a_pdfs_rows_say_where_its_list_was_read_and_a_pdf_without_a_list_is_one_row(
    checked_bib: tuple[Path, Report],
) -> None:
    """A CSV alone says where a PDF's list was read and how far to trust it: each row its entry's confidence and its
    paper's `pages_read` and `low_confidence` (as summary.csv has them; empty for other inputs), and a PDF in which no
    list was found one row with no id or class whose reason says so."""
    _, report = checked_bib
    c = report.citations[0].model_copy(deep=True)
    c.reference.confidence = 0.4
    reading = ReadingSummary(pages=[9, 10, 11], references=40, low_confidence=2)
    buf = io.StringIO()
    rows = CitationCsv(buf)
    rows.add("paper.pdf", c, reading)
    rows.add(report.input, report.citations[1])
    none = ReadingSummary(searched=[1, 2], summary="no reference list found in the PDF (pages 1-2 searched)")
    rows.no_list("slides.pdf", none)
    pdf, bib, empty = csv.DictReader(io.StringIO(buf.getvalue()))
    assert list(CITATION_COLUMNS[-3:]) == ["confidence", "pages_read", "low_confidence"]
    assert (pdf["confidence"], pdf["pages_read"], pdf["low_confidence"]) == ("0.40", "9-11", "2")
    assert (bib["confidence"], bib["pages_read"], bib["low_confidence"]) == ("", "", "")
    assert empty["file"] == "slides.pdf" and empty["id"] == empty["class"] == ""
    assert (
        empty["reason"] == "no reference list found in the PDF (pages 1-2 searched)" and empty["low_confidence"] == "0"
    )


def test_a_pdf_without_a_reference_list_has_its_own_status_in_the_paper_csv() -> None:
    """summary.csv's `status` tells a PDF nothing of which was checked from a paper citing nothing: `no reference
    list`, the pages searched first in `note`; the other rows keep `checked` (the columns unchanged)."""
    buf = io.StringIO()
    papers = PaperCsv(buf)
    said = "no reference list found in the PDF (pages 1-2 searched)"
    papers.add(PaperCounts(file="slides.pdf", warnings=1), ["no bibliography found"], ReadingSummary(summary=said))
    papers.add(PaperCounts(file="paper.pdf", references=3, real=3), [], ReadingSummary(pages=[2], references=3))
    none, listed = csv.DictReader(io.StringIO(buf.getvalue()))
    assert (none["status"], none["note"], none["pages_read"]) == (
        "no reference list",
        f"{said} | no bibliography found",
        "",
    )
    assert (listed["status"], listed["note"], listed["pages_read"]) == ("checked", "", "2")
