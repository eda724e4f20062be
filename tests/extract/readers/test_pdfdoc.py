"""The PDF library's answers as pdfdoc.py reads them: the same as the library's own helpers give."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from citetracer.extract.readers.pdfdoc import Document, _images_in
from tests.extract.conftest import column, image_only

REFS = ["May, Robert M. 1976. Simple Mathematical Models with Very Complicated Dynamics. Nature 261:459-67."]


def _library_count(path: Path) -> list[int]:
    """Images per page as pypdfium2's `get_objects` counts them (pages and forms one level deep)."""
    pdf = pdfium.PdfDocument(path)
    try:
        counts = []
        for i in range(len(pdf)):
            page = pdf[i]
            counts.append(sum(1 for _ in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2)))
            assert _images_in(page.raw) == counts[-1]
            page.close()
        return counts
    finally:
        pdf.close()


def test_images_are_counted_as_the_library_counts_them(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    """A scanned page shows one image and a typeset one none, counted without a Python object per page object."""
    text = make_pdf([[(72, 80, "References", 16), *column(REFS, 72, 110, size=12)]] * 2)
    scan = image_only(text, tmp_path / "scan.pdf", dpi=50)
    assert _library_count(text) == [0, 0]
    assert _library_count(scan) == [1, 1]
    with Document(scan) as doc:
        assert [doc.page_text(i).images for i in range(len(doc))] == [1, 1]
    with Document(text) as doc:
        page = doc.page_text(0)
        assert page.images == 0 and page.chars > 0
        assert any("References" in f.text for f in page.fragments)
