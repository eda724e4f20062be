"""The OCR path on a real image-only page: Tesseract reads it, the same segmentation splits it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from citetracer.extract.layout.page import Fragment
from citetracer.extract.readers import ocr
from citetracer.extract.readers.pdf import Limits, read_pdf
from tests.extract.conftest import column, image_only

REFS = [
    "Feigenbaum, Mitchell J. 1983. Universal Behavior in Nonlinear Systems.",
    ">Physica D: Nonlinear Phenomena 7 (1-3):16-39.",
    "May, Robert M. 1976. Simple Mathematical Models with Very Complicated",
    ">Dynamics. Nature 261 (5560):459-67.",
    "Strogatz, Steven H. 2014. Nonlinear Dynamics and Chaos. 2nd ed. Boulder,",
    ">CO: Westview Press.",
]


@pytest.mark.skipif(ocr.unavailable() is not None, reason=f"OCR unavailable: {ocr.unavailable()}")
def test_scanned_page_is_read_by_ocr(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    page = [(72, 80, "References", 16), *column(REFS, 72, 110, size=12, indent=20, leading=16)]
    scan = image_only(make_pdf([page]), tmp_path / "scan.pdf")
    result = read_pdf(scan, Limits(ocr_dpi=200))
    assert any("read by OCR" in w for w in result.warnings)
    assert [r.year for r in result.references] == [1983, 1976, 2014]
    assert result.references[1].authors[0].family == "May"
    assert "Complicated Dynamics" in (result.references[1].raw or "")
    box = result.references[0].boxes[0]
    assert box.page == 1 and 60 < box.x0 < 85


def test_ocr_off_leaves_a_warning(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    page = [(72, 80, "References", 16), *column(REFS, 72, 110, size=12, indent=20, leading=16)]
    scan = image_only(make_pdf([page]), tmp_path / "scan.pdf", dpi=50)
    result = read_pdf(scan, Limits(ocr=False))
    assert result.references == []
    assert any("no text layer" in w for w in result.warnings)


@pytest.mark.skipif(ocr.unavailable() is not None, reason=f"OCR unavailable: {ocr.unavailable()}")
def test_ocr_time_budget_spent_is_a_warning_not_an_error(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    """A long scan must not run the reader into its hard time limit (which loses everything): once the
    OCR budget is spent, what was read comes back with a warning that says the result is partial."""
    page = [(72, 80, "References", 16), *column(REFS, 72, 110, size=12, indent=20, leading=16)]
    scan = image_only(make_pdf([page, page]), tmp_path / "scan.pdf", dpi=50)
    result = read_pdf(scan, Limits(ocr_seconds=0.5))
    assert result.references == []
    assert any("time budget" in w and "2 page(s)" in w for w in result.warnings)


def test_page_size_follows_the_text_not_a_figures_labels() -> None:
    def frag(text: str, size: float) -> Fragment:
        return Fragment(text=text, x0=0, y0=0, x1=10, y1=size, size=size)

    labels = [frag(str(tick), 6.0) for tick in range(30)]  # axis ticks of a plot: many, short, small
    text = [frag("Recent uses of the package in a statics course at a university.", 7.4) for _ in range(6)]
    assert ocr.page_size(labels + text) == 7.4
    assert ocr.page_size([]) == 0.0


def test_links_tesseract_cut_at_a_slash_or_hyphen_are_rejoined() -> None:
    assert (
        ocr.join_words(["Retrieved", "from", "https:", "//doi.org/10.1/x"]) == "Retrieved from https://doi.org/10.1/x"
    )
    assert ocr.join_words(["doi:10.3991", "/ijet.v8i1.2539"]) == "doi:10.3991/ijet.v8i1.2539"
    assert ocr.join_words(["https://doi.org/10.5194/gmd-9-", "1937-2016", "Kotamarthi,"]) == (
        "https://doi.org/10.5194/gmd-9-1937-2016 Kotamarthi,"
    )
    # Outside links, words stay apart.
    words = ["Smith,", "J.", "pages", "1-", "2", "ratio", "1:", "/2"]
    assert ocr.join_words(words) == "Smith, J. pages 1- 2 ratio 1: /2"
