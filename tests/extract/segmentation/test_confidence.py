"""How sure the PDF reader is of each reference (extract/segmentation/confidence.py) and what it says when the
list's DOIs do not add up: a lost entry is never silent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from citetracer.extract import read_references
from citetracer.extract.layout.page import Line
from citetracer.extract.segmentation.confidence import (
    LOW_CONFIDENCE,
    doi_warnings,
    entry_confidence,
    list_dois,
    low_confidence_warning,
)
from citetracer.extract.segmentation.linecrf import default_segmenter
from citetracer.extract.segmentation.segment import Block
from citetracer.records import Reference
from tests.extract.conftest import column


def _line(text: str, y: float = 0.0) -> Line:
    return Line(text=text, page=0, column=0, x0=72, y0=y, x1=400, y1=y + 8, size=9.0)


def _sure(label: str, p: float) -> dict[str, float]:
    rest = (1.0 - p) / 2
    return {name: (p if name == label else rest) for name in ("B", "I", "O")}


def test_the_weakest_line_and_the_line_after_an_entry_set_its_confidence() -> None:
    lines = [_line(f"line {k}", 10.0 * k) for k in range(6)]
    blocks = [Block(lines[0:2]), Block(lines[2:4]), Block(lines[4:5])]
    marginals = [
        _sure("B", 0.99),
        _sure("I", 0.9),
        _sure("B", 0.6),
        _sure("I", 0.99),
        _sure("B", 0.95),
        _sure("O", 0.3),
    ]
    # The first entry: its own lines (0.99, 0.9) and the next entry's start (0.6); the last one: the O after it.
    assert entry_confidence(lines, marginals, blocks) == [0.6, 0.6, 0.3]


def test_low_confidence_is_a_warning_naming_the_least_sure_reference() -> None:
    refs = [Reference(raw="Doe, J. 2020. A sure thing.", page=3), Reference(raw="Roe, R. 2021. Cut in two", page=4)]
    assert low_confidence_warning(refs, [0.99, 0.98]) is None
    warning = low_confidence_warning(refs, [0.99, LOW_CONFIDENCE / 2])
    assert warning is not None
    assert "1 of 2 references" in warning and "page(s) 4" in warning and "Cut in two" in warning


def test_a_doi_broken_over_two_lines_counts_once() -> None:
    lines = [_line("Doe, J. (2020). A study. Journal, 1, 2-3. https://doi.org/10.1000/"), _line("abc.123")]
    assert list_dois(lines) == ["10.1000/abc.123"]


def test_a_printed_doi_in_no_reference_and_a_reference_with_two_dois_are_said() -> None:
    listed = [
        _line("Doe, J. (2020). A study. https://doi.org/10.1000/aaa"),
        _line("Roe, R. (2021). Lost. https://doi.org/10.1000/bbb"),
        _line("Poe, E. (2022). One. https://doi.org/10.1000/ccc Moe, M. (2023). Two. https://doi.org/10.1000/ddd"),
    ]
    refs = [
        Reference(raw="Doe, J. (2020). A study. https://doi.org/10.1000/aaa", doi="10.1000/aaa", page=1),
        Reference(
            raw="Poe, E. (2022). One. https://doi.org/10.1000/ccc Moe, M. (2023). Two. https://doi.org/10.1000/ddd",
            doi="10.1000/ccc",
            page=1,
        ),
    ]
    warnings = doi_warnings(listed, refs)
    assert len(warnings) == 2
    assert "prints 4 DOIs" in warnings[0] and "carry 3" in warnings[0] and "10.1000/bbb" in warnings[0]
    assert "two or more DOIs" in warnings[1]
    # Every DOI in exactly one reference: nothing to say.
    assert doi_warnings(listed[:1], refs[:1]) == []


def test_each_lost_doi_is_named_up_to_three() -> None:
    listed = [_line(f"Doe, J. ({2000 + k}). Study {k}. https://doi.org/10.1000/x{k}") for k in range(6)]
    refs = [Reference(raw=listed[0].text, doi="10.1000/x0", page=1)]
    (warning,) = doi_warnings(listed[:3], refs)
    assert "2 (10.1000/x1, 10.1000/x2) are in no reference" in warning
    (warning,) = doi_warnings(listed, refs)
    assert "5 (10.1000/x1, 10.1000/x2, 10.1000/x3, ...) are in no reference" in warning


def test_a_doi_cut_short_by_its_own_brackets_is_the_same_doi() -> None:
    raw = "Rudolph, J. (1998). Evolution. doi:10.1002/(SICI)1098-2736(199812)35:10<1069::AID-TEA2>3.0.CO;2-A"
    refs = [Reference(raw=raw, doi="10.1002/(sici)1098-2736(199812)35:10<1069::aid-tea2>3.0.co;2-a", page=1)]
    assert doi_warnings([_line(raw)], refs) == []


def test_every_pdf_read_reports_its_pages_and_a_confidence_per_reference(make_pdf: Callable[..., Path]) -> None:
    if default_segmenter() is None:
        pytest.skip("no segmenter model in the package")
    refs = [
        f"Author{k}, A. ({2000 + k}). A study of things number {k}. Journal of Things, {k}(2), 1-9."
        for k in range(1, 15)
    ]
    body = [(72, 100 + 14 * i, f"Body line {i}, citing Abel (2001) and others.", 10) for i in range(10)]
    items = [(72, 80, "References", 12, "B"), *column(refs, 72, 100)]
    result = read_references(make_pdf([body, items]))
    assert len(result.references) == 14
    assert result.pages == [2]
    assert len(result.confidence) == 14 and all(0.0 <= c <= 1.0 for c in result.confidence)
    assert result.summary().startswith("14 references from page 2")


NAMES = "Abel Baker Chen Diaz Evans Fox Gupta Hall Ito Jones Kim Lopez Moore Nagy Ortiz Park Quinn Rossi Sato Tran"
NAMES += " Urban Vega Wong"


def _journal_list(refs: list[tuple[str, str]], y: float) -> list[tuple[float, float, str, float]]:
    """A journal's author-year list as JOSE sets it: entries at x 167, their continuations at x 182, 10 pt."""
    out: list[tuple[float, float, str, float]] = []
    for first, rest in refs:
        out += [(167, y, first, 10), (182, y + 12, rest, 10)]
        y += 30
    return out


def test_a_footnote_the_rules_leave_out_under_the_list_makes_no_reference_doubtful(
    make_pdf: Callable[..., Path],
) -> None:
    """The rules leave a footnote under the list out of the reference above it (their most precise filter); the
    model would have read it in. That is no doubt about the reading taken: no reference is read with low
    confidence and no warning says so (JOSE's footnotes and citation line at a page's foot: two of the 56 JOSE
    papers were warned for nothing)."""
    foot = [(170, 770, "1Contributions to the manual are made in the repository hosted at example.org and not", 8)]
    if default_segmenter() is None:
        pytest.skip("no segmenter model in the package")
    topics = ["teaching", "grading", "tutoring", "testing", "assessing", "mentoring", "reviewing", "pairing"]
    venues = ["Computing Education", "Science Education", "Open Teaching", "Learning Sciences", "Physics Teaching"]
    entries = [
        (
            f"{name}, A., & Writer, B. ({2000 + k}). A study of {topics[k % 8]} with {k + 3} classes. Journal of",
            f"{venues[k % 5]}, {k}({k % 4 + 1}), {10 * k}-{11 * k + 9}. https://doi.org/10.1000/{venues[k % 5][:2]}{k}",
        )
        for k, name in enumerate(NAMES.split(), 1)
    ]
    body = [(167, 100 + 14 * i, f"Body line {i}, citing Abel (2001) and others in the text.", 10) for i in range(12)]
    first = [(167, 370, "References", 12, "B"), *_journal_list(entries[:13], 400), *foot]
    second = [*_journal_list(entries[13:], 80), *foot]
    result = read_references(make_pdf([body, first, second]))
    assert len(result.references) == 23
    assert all(c >= LOW_CONFIDENCE for c in result.confidence), result.confidence
    assert not [w for w in result.warnings if "low confidence" in w]


def test_a_doi_left_out_as_a_page_foot_is_said_unless_every_page_prints_it() -> None:
    """The layout drops running heads and feet before the list is read, so a DOI among them never reaches the DOI
    count: an entry whose last lines were taken for a foot was lost silently. A DOI on one page's foot that no
    reference carries is now said; the journal's foot that cites the paper itself on every page is not."""

    def at(page: int, text: str) -> Line:
        return Line(text=text, page=page, column=0, x0=72, y0=790, x1=500, y1=798, size=8.0)

    listed = [at(3, "Doe, J. (2020). A study. https://doi.org/10.1000/aaa"), at(4, "Roe, R. (2021). B. 10.1000/bbb")]
    refs = [
        Reference(raw=ln.text, doi=doi, page=4) for ln, doi in zip(listed, ["10.1000/aaa", "10.1000/bbb"], strict=True)
    ]
    own = "Doe et al., (2021). Our tool. Journal of Open Education, 4(40), 99. https://doi.org/10.21105/joe.00099"
    furniture = [at(p, own) for p in range(6)]
    assert doi_warnings(listed, refs, furniture) == []
    lost = at(3, "Computing Education, 13(2), 130-139. https://doi.org/10.1000/ccc")
    warnings = doi_warnings(listed, refs, [*furniture, lost])
    assert len(warnings) == 1 and "10.1000/ccc" in warnings[0] and "page(s) 4" in warnings[0]
    # A foot on a page the list does not reach is not the list's.
    assert doi_warnings(listed, refs, [*furniture, at(1, lost.text)]) == []


def test_entries_taken_for_page_feet_are_not_lost_silently(make_pdf: Callable[..., Path]) -> None:
    """Two pages of a list ending on entries that read alike but for their numbers: the layout takes the pair for a
    running foot and drops both entries before the list is read. Their DOIs were counted nowhere; now a warning
    says an entry may have been lost."""
    entries = [
        (
            f"Author{k}, A., & Writer, B. ({2000 + k}). A study of teaching things, part {k}. Journal of",
            f"Computing Education, {k}(2), {10 * k}-{10 * k + 9}. https://doi.org/10.1000/x{k}y",
        )
        for k in range(1, 24)
    ]
    body = [(167, 100 + 14 * i, f"Body line {i}, citing Author1 (2001) and others in the text.", 10) for i in range(12)]
    first = [(167, 370, "References", 12, "B"), *_journal_list(entries[:13], 400)]
    second = _journal_list(entries[13:], 80)
    result = read_references(make_pdf([body, first, second]))
    assert len(result.references) < 23  # the layout's loss, which this test does not mend
    lost = [w for w in result.warnings if "running heads or feet" in w]
    assert len(lost) == 1 and "10.1000/x13y" in lost[0]
