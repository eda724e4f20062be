"""Small PDFs built on the fly with fpdf2: each test lays out exactly the case it checks."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from fpdf import FPDF

#: One text item: (x, baseline y, text, font size), in points from the page's top left; a fifth
#: element, when present, is the fpdf2 font style ("B" for bold).
Item = tuple[float, float, str, float] | tuple[float, float, str, float, str]

A4 = (595.0, 842.0)


def build_pdf(path: Path, pages: list[list[Item]], password: str | None = None) -> Path:
    """A PDF whose content streams draw the items in the given order (order matters for interleaving)."""
    pdf = FPDF(unit="pt", format=A4)
    pdf.set_auto_page_break(False)
    if password:
        pdf.set_encryption(owner_password="owner-" + password, user_password=password)
    for items in pages:
        pdf.add_page()
        for x, y, text, size, *style in items:
            pdf.set_font("Helvetica", style=style[0] if style else "", size=size)
            pdf.text(x, y, text)
    pdf.output(str(path))
    return path


def column(
    lines: list[str], x: float, y: float, size: float = 10, indent: float = 0.0, leading: float = 12.0
) -> list[Item]:
    """Lines of a hanging-indent list: a line starting with '>' is a continuation (indented)."""
    out = []
    for text in lines:
        cont = text.startswith(">")
        out.append((x + (indent if cont else 0.0), y, text.lstrip(">"), size))
        y += leading
    return out


def image_only(text_pdf: Path, dst: Path, dpi: int = 200) -> Path:
    """`text_pdf` rendered to pictures and saved as a PDF without any text layer (a scan)."""
    from citetracer.extract.readers.pdfdoc import Document

    with Document(text_pdf) as doc:
        images = [doc.render(i, dpi) for i in range(len(doc))]
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    dst.write_bytes(buf.getvalue())
    return dst


@pytest.fixture
def make_pdf(tmp_path: Path) -> Callable[..., Path]:
    counter = {"n": 0}

    def make(pages: list[list[Item]], name: str | None = None, password: str | None = None) -> Path:
        counter["n"] += 1
        return build_pdf(tmp_path / (name or f"doc{counter['n']}.pdf"), pages, password)

    return make
