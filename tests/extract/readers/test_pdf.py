"""The PDF reader end to end on small PDFs that each exercise one layout problem."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from citetracer.cli import main
from citetracer.extract import InputError, read_references
from citetracer.extract.readers.pdf import Limits, _limit_memory, read_pdf
from tests.extract.conftest import column, image_only

BODY = [(72, 100 + 14 * i, f"Body text line {i} of the paper, which talks about many things.", 10) for i in range(20)]

HANGING = [
    "Alpigini, James J. 2004. Dynamical System Visualization and Analysis via",
    ">Performance Maps. Information Visualization 3 (4):271-87.",
    ">https://doi.org/10.1057/palgrave.ivs.9500082.",
    "Boeing, Geoff. 2016. Visual Analysis of Nonlinear Dynamical Systems: Chaos, Self-",
    ">Similarity and the Limits of Inter-",
    ">national Prediction. Systems 4 (4):37.",
    "Bradley, Elizabeth, and Holger Kantz. 2015. Nonlinear Time-Series Analysis Revisited.",
    ">Chaos 25 (9):097610. https://doi.org/",
    ">10.1063/1.4917289.",
]


def test_hanging_indent_list_with_heading_and_appendix(make_pdf: Callable[..., Path]) -> None:
    refs_page = [
        (72, 80, "References", 14),
        *column(HANGING, 72, 110, indent=18),
        (72, 260, "Appendix A. Extra material", 14),
        (72, 290, "Smith, John. 2001. This line belongs to the appendix, not the bibliography.", 10),
    ]
    path = make_pdf([BODY, refs_page])
    result = read_references(path)
    refs = result.references
    assert [r.year for r in refs] == [2004, 2016, 2015]
    assert refs[0].doi == "10.1057/palgrave.ivs.9500082"
    assert refs[2].doi == "10.1063/1.4917289"
    assert "Self-Similarity" in (refs[1].raw or "")
    assert "International Prediction" in (refs[1].raw or "")
    assert all(r.page == 2 for r in refs)
    box = refs[0].boxes[0]
    assert box.page == 2 and 70 < box.x0 < 74 and box.y0 < box.y1 < 150


def test_a_pdf_without_a_list_says_so_and_names_the_pages_searched(make_pdf: Callable[..., Path]) -> None:
    """A PDF with text and no reference list reads as "no reference list found", with the pages looked through
    (carried back from the reader's child process), never as "0 references"."""
    from citetracer.extract.result import ReadResult

    reading = read_references(make_pdf([BODY, BODY])).reading()
    assert reading is not None and reading.no_list and reading.searched == [1, 2]
    assert reading.summary == "no reference list found in the PDF (pages 1-2 searched)"
    assert ReadResult(kind="pdf", searched=[7]).summary() == "no reference list found in the PDF (page 7 searched)"
    found = read_references(make_pdf([BODY, [(72, 80, "References", 14), *column(HANGING, 72, 110, indent=18)]]))
    assert found.reading() is not None and found.reading().searched == []  # named only when nothing was found


def test_two_columns_interleaved_line_by_line(make_pdf: Callable[..., Path]) -> None:
    """The content stream alternates left and right lines; reading order must still be per column."""
    left = [
        f"[{n}] A. Author{n} and B. Writer. Paper number {n} on things. In Proc. Conf., 20{10 + n}." for n in (1, 2, 3)
    ]
    right = [f"[{n}] C. Author{n}. Another paper {n}. Journal of Stuff, 4:1-10, 20{10 + n}." for n in (4, 5, 6)]
    items = [(72, 80, "REFERENCES", 9)]
    y = 100.0
    for lt, rt in zip(left, right, strict=True):
        # Each reference is two short lines in a 220 pt wide column.
        items += [(40, y, lt[:45], 8), (320, y, rt[:45], 8), (50, y + 10, lt[45:], 8), (330, y + 10, rt[45:], 8)]
        y += 24
    path = make_pdf([BODY, items])
    refs = read_references(path).references
    assert [r.label for r in refs] == ["1", "2", "3", "4", "5", "6"]
    assert [r.year for r in refs] == [2011, 2012, 2013, 2014, 2015, 2016]
    assert all(len(r.boxes) == 1 for r in refs)
    assert refs[0].boxes[0].x1 < 300 < refs[3].boxes[0].x0


def test_a_short_right_column_on_the_last_page_is_read_with_the_page_befores_columns(
    make_pdf: Callable[..., Path],
) -> None:
    """The list's last page: a full left column and three references at the right column's top, too little
    for the page alone to show its gutter, and only one other page (the one before) shows it, too few for
    the document's; the page before's gutter splits it (its lines were read across both columns)."""

    def ref(n: int) -> str:
        return f"[{n}] A. Author{n}. Paper {n} on things. Proc. Conf., 20{n % 90 + 10}."

    first: list[tuple[float, float, str, float]] = [(40, 80, "REFERENCES", 9)]
    first += [(40, 100 + 12 * k, ref(k + 1), 8) for k in range(20)]
    first += [(320, 100 + 12 * k, ref(k + 21), 8) for k in range(20)]
    last = [(40, 100 + 12 * k, ref(k + 41), 8) for k in range(25)]
    last += [(320, 100 + 12 * k, ref(k + 66), 8) for k in range(3)]
    refs = read_references(make_pdf([BODY, first, last])).references
    assert [r.label for r in refs] == [str(n) for n in range(1, 69)]


def test_reference_continued_over_page_break_and_running_heads_dropped(make_pdf: Callable[..., Path]) -> None:
    def page(items: list[tuple[float, float, str, float]], number: int) -> list[tuple[float, float, str, float]]:
        head = (72, 40, "Journal of Examples, Volume 3", 8)
        foot = (290, 810, str(number), 8)
        return [head, *items, foot]

    p1 = page(BODY, 1)
    p2 = page(
        [
            (72, 420, "References", 14),
            *column(
                [
                    "Feigenbaum, Mitchell J. 1983. Universal Behavior in Nonlinear Systems. Physica D:",
                    ">Nonlinear Phenomena 7 (1-3):16-39.",
                    "Grebogi, Celso, Edward Ott, and James A. Yorke. 1987. Chaos, Strange Attractors,",
                    ">and Fractal Basin Boundaries in Nonlinear Dynamics. Science 238 (4827):632-38.",
                    "May, Robert M. 1976. Simple Mathematical Models with Very Complicated",
                ],
                72,
                450,
                indent=18,
                leading=60,
            ),
        ],
        2,
    )
    p3 = page(
        column(
            [
                ">Dynamics. Nature 261 (5560):459-67.",
                "Packard, N. H., J. P. Crutchfield, J. D. Farmer, and R. S. Shaw. 1980. Geometry from",
                ">a Time Series. Physical Review Letters 45 (9):712-16.",
            ],
            72,
            90,
            indent=18,
        ),
        3,
    )
    refs = read_references(make_pdf([p1, p2, p3])).references
    assert len(refs) == 4
    may = refs[2]
    assert (
        may.raw
        == "May, Robert M. 1976. Simple Mathematical Models with Very Complicated Dynamics. Nature 261 (5560):459-67."
    )
    assert [b.page for b in may.boxes] == [2, 3]
    assert not any("Journal of Examples" in (r.raw or "") for r in refs)
    assert refs[3].raw and refs[3].raw.endswith("45 (9):712-16.")


def test_numbered_list_without_heading(make_pdf: Callable[..., Path]) -> None:
    lines = [
        f"{n}. Doe, J. and Roe, R. ({2000 + n}). A study of case {n}. Journal of Cases, {n}(2), 1-9."
        for n in range(1, 6)
    ]
    items = [(72, 400 + 14 * i, t, 9) for i, t in enumerate(lines)]
    result = read_references(make_pdf([BODY + items]))
    assert [r.year for r in result.references] == [2001, 2002, 2003, 2004, 2005]
    assert any("no bibliography heading" in w for w in result.warnings)


def test_numbered_list_at_the_foot_of_both_columns(make_pdf: Callable[..., Path]) -> None:
    """A short note's references set small under the text of both columns, no heading: [1]-[2] at the foot
    of the left column, [3]-[4] at the foot of the right one, after an acknowledgement."""
    body = [(40, 100 + 12 * i, f"Left column text line {i} about solitary waves.", 9.5) for i in range(30)]
    body += [(310, 100 + 12 * i, f"Right column text line {i} with figures.", 9.5) for i in range(20)]
    body += [(310, 360, "Acknowledgement", 8), (310, 375, "This work was supported by a grant in 1991.", 9.5)]
    refs = [
        (40, 500, "[1] S. Kichenassamy, Nonlinearity 10, 133 (1997).", 8),
        (40, 509, "[2] B. Tian, K. Zhao, and Y. T. Gao, Int. J. Eng. Sci.", 8),
        (52, 518, "35, 1081 (1997).", 8),
        (310, 500, "[3] Y. T. Gao and B. Tian, Acta Mechanica 128, 137 (1998).", 8),
        (310, 509, "[4] E. Parkes and B. Duffy, Comput. Phys. Comm. 98, 288", 8),
        (322, 518, "(1996).", 8),
    ]
    result = read_references(make_pdf([body + refs]))
    assert [r.label for r in result.references] == ["1", "2", "3", "4"]
    assert [r.year for r in result.references] == [1997, 1997, 1998, 1996]
    assert not any("grant" in (r.raw or "") for r in result.references)


@pytest.mark.parametrize(
    "note",
    [
        # Under a wide gap.
        [(72, 694, "*", 6), (76, 706, "corresponding author: mullera@example.edu", 7.7)],
        # Close under a separator typed as underscores.
        [(72, 645, "________________________________", 8), (72, 656, "* corresponding author: a@example.edu", 6.5)],
    ],
)
def test_footnote_under_the_list_is_not_part_of_the_last_reference(
    make_pdf: Callable[..., Path], note: list[tuple[float, float, str, float]]
) -> None:
    page = [
        (72, 600, "References", 12),
        (72, 620, "[1] E. B. Flagg, A. Muller, S. V. Polyakov, and G. S. Solomon, Phys. Rev. Lett. 104,", 8.6),
        (72, 631, "137401 (2010).", 8.6),
        *note,
    ]
    refs = read_references(make_pdf([BODY, page])).references
    assert len(refs) == 1
    assert refs[0].raw and refs[0].raw.endswith("137401 (2010).")


def test_a_page_of_references_set_smaller_than_the_previous_page_is_kept(make_pdf: Callable[..., Path]) -> None:
    """OCR gives each page one text size, and pages differ: a page whose references all come out smaller,
    spaced apart, is references, not notes."""
    first: list[tuple[float, float, str, float]] = [(72, 500, "References", 14)]
    for i in range(5):
        first += [
            (72, 530 + 40 * i, f"Author{i}, A. (200{i}). A paper about case number {i}.", 10),
            (90, 542 + 40 * i, f"Journal of Cases, {i}, 1-9.", 10),
        ]
    # The page opens with the end of the previous page's last reference, then a gap.
    second: list[tuple[float, float, str, float]] = [(90, 80, "Volume 4 of the Series on Cases.", 7.5)]
    for i in range(4):
        second += [
            (72, 110 + 40 * i, f"Writer{i}, B. (201{i}). Another study of case {i}.", 7.5),
            (90, 120 + 40 * i, f"Review of Studies, {i}, 10-19.", 7.5),
        ]
    refs = read_references(make_pdf([BODY, first, second])).references
    assert [r.year for r in refs] == [2000, 2001, 2002, 2003, 2004, 2010, 2011, 2012, 2013]


def test_cli_extract_json_has_provenance(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    path = make_pdf([BODY, [(72, 80, "Bibliography", 14), *column(HANGING, 72, 110, indent=18)]])
    out = tmp_path / "out.json"
    assert main(["extract", str(path), "--format", "json", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["input"] == str(path)
    first = doc["references"][0]
    assert first["page"] == 2 and first["boxes"][0]["page"] == 2
    assert first["doi"] == "10.1057/palgrave.ivs.9500082"
    assert first["authors"][0]["family"] == "Alpigini"


# ---- bad input: a clear error or a partial result with a warning, always bounded ----


def test_zero_byte_and_not_a_pdf(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="empty"):
        read_references(empty)
    fake = tmp_path / "fake.pdf"
    fake.write_text("this is not a pdf at all\n" * 10)
    with pytest.raises(InputError, match="not a PDF"):
        read_pdf(fake)


def test_truncated_pdf_is_an_error_or_partial(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    whole = make_pdf([BODY, [(72, 80, "References", 14), *column(HANGING, 72, 110, indent=18)]])
    data = whole.read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    try:
        result = read_pdf(cut)
    except InputError as exc:
        assert "cut.pdf" in str(exc)
    else:
        assert isinstance(result.references, list)


def test_encrypted_pdf_needs_password(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf([BODY], password="secret")
    with pytest.raises(InputError, match="encrypted"):
        read_pdf(path)


def test_hostile_page_tree_is_contained(tmp_path: Path) -> None:
    """A page tree that claims a billion pages and points at itself."""
    body = (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[2 0 R 3 0 R]/Count 1000000000>>endobj\n"
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 1e9 1e9]/Contents 4 0 R>>endobj\n"
        b"4 0 obj<</Length 999999999/Filter/FlateDecode>>stream\nxx\nendstream endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    path = tmp_path / "hostile.pdf"
    path.write_bytes(body)
    try:
        result = read_pdf(path, Limits(seconds=30))
    except InputError as exc:
        assert "hostile.pdf" in str(exc)
    else:
        assert result.references == []


def test_time_limit_stops_the_reader(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf([BODY] * 60)
    with pytest.raises(InputError, match="longer than"):
        read_pdf(path, Limits(seconds=0.01))


def test_memory_limit_is_a_clear_error(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    """A scanned page must be rendered to be OCRed (at 600 dpi a 35 MB bitmap): with 2 MB to spare the child
    fails on that bitmap and says so. The reader's own code is loaded before the cap: loaded under it, the
    first import to hit the cap failed instead (pytesseract's read as "OCR is not installed", a wrong result
    with no error), which one run in a few did, depending on the heap's state."""
    scan = image_only(make_pdf([BODY]), tmp_path / "scan.pdf", dpi=100)
    # Run in a fresh interpreter: a long-lived test process has freed heap the child could reuse
    # without asking the kernel for memory, which would make the limit untestable here.
    script = (
        "import sys; from pathlib import Path; from citetracer.extract import InputError; "
        "from citetracer.extract.readers.pdf import Limits, read_pdf\n"
        "try:\n    read_pdf(Path(sys.argv[1]), Limits(memory_bytes=2 * 2**20, ocr_dpi=600))\n"
        "except InputError as exc:\n    print('ERROR', exc)\nelse:\n    print('NO ERROR')\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(scan)], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == f"ERROR {scan}: needed more than 2 MB; stopped", out.stdout + out.stderr


def test_the_reader_s_code_is_loaded_once_per_process_not_per_pdf(make_pdf: Callable[..., Path]) -> None:
    """Each PDF is read in a forked child; the code it needs (the PDF parser, the OCR engine's Python side,
    which imports pandas) is imported in the parent before the fork, so a scan's next PDF inherits it."""
    path = make_pdf([BODY])
    script = (
        "import sys; from pathlib import Path\n"
        "from citetracer.extract.readers.pdf import read_pdf\n"
        "before = {m for m in ('citetracer.extract.readers.pdfdoc', 'pytesseract') if m in sys.modules}\n"
        "read_pdf(Path(sys.argv[1]))\n"
        "after = {m for m in ('citetracer.extract.readers.pdfdoc', 'pytesseract') if m in sys.modules}\n"
        "print(sorted(before), sorted(after))\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120)
    wanted = ["citetracer.extract.readers.pdfdoc"] + (["pytesseract"] if _installed("pytesseract") else [])
    assert out.stdout.strip() == f"[] {wanted}", out.stdout + out.stderr


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _allocate_under_limit(extra: int, conn: Any) -> None:
    _limit_memory(extra)
    try:
        block = bytearray(200 * 1024 * 1024)
        conn.send(f"allocated {len(block)}")
    except MemoryError:
        conn.send("MemoryError")


def test_memory_limit_applies_in_the_child() -> None:
    """The mechanism itself: a capped child asking for 200 MB more than allowed gets a MemoryError."""
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_allocate_under_limit, args=(16 * 1024 * 1024, sender))
    proc.start()
    assert receiver.poll(30)
    assert receiver.recv() == "MemoryError"
    proc.join(5)


def test_very_long_pdf_is_read_near_its_bibliography(make_pdf: Callable[..., Path]) -> None:
    short = [(72, 100, "Filler page.", 10)]
    refs_page = [(72, 80, "References", 14), *column(HANGING, 72, 110, indent=18)]
    path = make_pdf([short] * 1999 + [refs_page])
    result = read_pdf(path)
    assert len(result.references) == 3
    assert any("2000 pages" in w for w in result.warnings)


def one_font_pdf(path: Path, content: bytes, font: bytes, more: tuple[bytes, ...] = ()) -> Path:
    """A one-page A4 PDF written by hand: `content` drawn with font /F1 (`font`, its dictionary), and
    `more` objects numbered from 6 (for the font to refer to)."""
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R>>",
        font,
        b"<</Length %d>>stream\n" % len(content) + content + b"\nendstream",
        *more,
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for k, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(out)
    return path


def astral_pdf(path: Path, lines: list[str]) -> Path:
    """A one-page PDF whose font maps '~' to U+1D6FC (mathematical italic alpha, outside the BMP) through
    its ToUnicode CMap, as TeX-made papers do for symbols in titles ("H-alpha")."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Astral def "
        b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <7E> <D835DEFC> endbfchar "
        b"endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    content = b"BT /F1 10 Tf 14 TL 72 760 Td " + b" ".join(b"(" + t.encode() + b") Tj T*" for t in lines) + b" ET"
    font = b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding/ToUnicode 6 0 R>>"
    return one_font_pdf(path, content, font, (b"<</Length %d>>stream\n" % len(cmap) + cmap + b"\nendstream",))


def test_characters_beyond_the_bmp_are_whole_characters(tmp_path: Path) -> None:
    """pdfium reports them as two UTF-16 surrogates; left apart they broke the field parser (a real
    paper with "H𝛼" in a title was one error instead of 30 references)."""
    path = astral_pdf(
        tmp_path / "alpha.pdf",
        [
            "References",
            "[1] Epinat, B. and Amram, P. (2008). GHASP: an H~ kinematic survey of galaxies.",
            "Monthly Notices of the Royal Astronomical Society, 388(2), 500-550.",
            "[2] Smith, J. (2010). Another paper on galaxies. Nature 4, 1-2.",
        ],
    )
    refs = read_references(path).references
    assert len(refs) == 2
    assert "GHASP: an H\U0001d6fc kinematic survey" in (refs[0].raw or "")
    assert refs[0].year == 2008


def test_accents_set_as_glyphs_of_their_own_are_put_back_on_their_letters(make_pdf: Callable[..., Path]) -> None:
    """TeX's OT1 fonts draw an accent as a separate glyph over its letter, and the text layer may hold it
    anywhere (here: after the whole line): 'Horvath ´' must read 'Horváth'."""
    from fpdf import FPDF

    def width(text: str) -> float:
        pdf = FPDF(unit="pt")
        pdf.set_font("Helvetica", size=10)
        return float(pdf.get_string_width(text))

    line = "[1] S. Horvath and P. Richtarik. On biased compression for learning. arXiv preprint, 2020."
    accents = []
    for word, before in (("Horvath", "Horv"), ("Richtarik", "Richt")):
        start = 72 + width(line[: line.index(word)]) + width(before)
        accents.append((start + (width("a") - width("\u00b4")) / 2, 120.0, "\u00b4", 10.0))
    items = [(72, 100, "References", 12, "B"), (72, 120, line, 10), *accents]
    refs = read_references(make_pdf([BODY, items])).references
    assert len(refs) == 1
    assert "Horváth" in refs[0].raw and "Richtárik" in refs[0].raw and "\u00b4" not in refs[0].raw
    assert [a.family for a in refs[0].authors] == ["Horváth", "Richtárik"]


def test_attach_accents_only_over_a_letter() -> None:
    from citetracer.extract.readers.pdfdoc import _attach_accents, _Char

    def c(ch: str, x0: float, w: float = 5.0) -> _Char:
        return _Char(ch, x0, 0.0, x0 + w, 10.0, 10.0)

    # 'L o ı c' with a diaeresis over the dotless i, emitted after a generated space
    chars = [c("L", 0), c("o", 5), c("\u0131", 10, 3), c("c", 13), _Char(" "), c("\u00a8", 9.5, 4), _Char(" ")]
    assert "".join(ch.ch for ch in _attach_accents(chars)) == "Loïc"
    # A combining acute held as a character of its own, a line away in stream order, over 'Žıdek''s ı
    chars = [c("Ž", 0), c("\u0131", 5, 3), c("d", 8), c("e", 13), c("k", 18), _Char(" "), c("H", 30), _Char(" ")]
    chars += [c("\u0301", 5, 3), _Char("\n")]
    assert "".join(ch.ch for ch in _attach_accents(chars)) == "Žídek H\n"
    # An opening quote beside a word (not over a letter) stays a quote; so does a prime after a digit.
    quote = [c("`", 0, 3), c("`", 3, 3), c("P", 6), c("x", 11), c("2", 20), c("\u00b4", 25, 3)]
    assert "".join(ch.ch for ch in _attach_accents(quote)) == "``Px2\u00b4"


def test_kerned_capitals_whose_advance_the_font_misstates_stay_in_their_word(tmp_path: Path) -> None:
    """A font whose widths call 'V' narrower than its glyph: the text layer sees a gap after every V and
    generates a space ('V alentin V assilev-Galindo', 'Ruud V an Deursen'), and the author reader stopped
    there. The glyphs' ink says the letters touch; a word space kerned in (no space character) stays."""
    from fpdf.fonts import CORE_FONTS_CHARWIDTHS

    times = CORE_FONTS_CHARWIDTHS["times"]
    widths = [300 if c == ord("V") else times.get(chr(c), 500) for c in range(32, 256)]
    font = b"<</Type/Font/Subtype/Type1/BaseFont/Times-Roman/Encoding/WinAnsiEncoding/FirstChar 32/LastChar 255"
    font += b"/Widths[" + " ".join(map(str, widths)).encode() + b"]>>"
    # Each V is followed by a kern that puts the next letter where the true width of V ends.
    kern = b") -420 ("
    lines = [
        b"[(References)] TJ",
        b"[([1] )] TJ",
        b"[(V" + kern + b"alentin V" + kern + b"assilev-Galindo, Ruud V" + kern + b"an Deursen, and J.) -260 "
        b"(Lang. 2020.)] TJ",
        b"[(Learning molecular dynamics. Nature Communications 11, 1-9.)] TJ",
    ]
    content = b"BT /F1 10 Tf 14 TL 72 760 Td " + b" T* ".join(lines) + b" ET"
    refs = read_references(one_font_pdf(tmp_path / "kerned.pdf", content, font)).references
    assert len(refs) == 1
    assert "Valentin Vassilev-Galindo, Ruud Van Deursen, and J. Lang" in (refs[0].raw or "")
    assert [a.family for a in refs[0].authors] == ["Vassilev-Galindo", "Van Deursen", "Lang"]


def test_accents_the_layer_gives_as_letters_or_control_codes_are_attached() -> None:
    """The circumflex and caron (U+02C6, U+02C7) are letters to Python: the circumflex was attached to
    itself and lost ("Jérome"); a bitmap font's OT1 codes (0x13 acute, 0x7F diaeresis) came out as control
    characters ("Ga\\x13bor"); an accent whose ink lies just above its letter's ink box is still its own;
    and OT1's "ł" is an "l" under a stroke the layer calls a space."""
    from citetracer.extract.readers.pdfdoc import _attach_accents, _Char, _join_split_glyphs

    def c(ch: str, x0: float, w: float = 5.0, y0: float = 0.0) -> _Char:
        return _Char(ch, x0, y0, x0 + w, y0 + 10.0, 10.0, ink0=x0 + 0.3, ink1=x0 + w - 0.3)

    def text(chars: list[_Char]) -> str:
        return "".join(ch.ch for ch in _join_split_glyphs(_attach_accents(chars)))

    jerome = [c("J", 0), c("\u00b4", 5, 5), c("e", 5), c("r", 10), c("\u02c6", 14, 5), c("o", 14), c("m", 19)]
    assert text([*jerome, c("e", 27)]) == "Jérôme"
    gabor = [c("G", 0, 7), c("\x13", 7), c("a", 7), c("b", 12), c("o", 17), c("r", 22)]
    assert text(gabor) == "Gábor"
    # Ink boxes only: the diaeresis sits above the 'a' box, not inside it.
    above = [c("F", 0), c("\u00a8", 5, 5, y0=-9.0), c("a", 5), c("t", 10)]
    assert text(above) == "Fät"
    stroke = _Char(" ", ink0=10.3, ink1=12.5)
    assert text([c("a", 0), c("w", 5), stroke, c("l", 10, 2.5), c("o", 12.5)]) == "awło"
    # An italic "of" whose f overhangs the next word's capital: the generated space stays (two words).
    of = [c("o", 0), c("f", 5), _Char(" ", generated=True), c("A", 9.6)]
    assert text(of) == "of A"
    # A control code over nothing is dropped; a real space (no ink) between words stays.
    assert text([c("a", 0), _Char(" "), c("\x13", 30), c("b", 10)]) == "a b"


def test_references_after_a_table_inside_the_list_are_kept_by_the_rules(make_pdf: Callable[..., Path]) -> None:
    """A table at the top of the list's second page: its rows (many, at one x right of the list's edge) must not
    set that page's left edge and drop the references under it as lines far left of their column."""
    first = [(72, 80, "References", 12)]
    first += [
        (72, 100 + 14 * k, f"[{k}] Doe, J. A study number {k}. Journal of Things, {k}, 1-9 (20{k:02d}).", 9)
        for k in range(1, 9)
    ]
    table = [(250, 80 + 12 * j, f"Baseline {j} 70.{j}2 0.6{j}", 9) for j in range(10)]
    table.append((200, 210, "Table 1. Results of baselines from prior work.", 9))
    rest = [
        (72, 240 + 14 * k, f"[{k}] Roe, R. Another study {k}. Journal of Things, {k}, 1-9 (20{k:02d}).", 9)
        for k in range(9, 12)
    ]
    refs = read_references(make_pdf([BODY, first, table + rest]), segmenter="rules").references
    assert [r.label for r in refs] == [str(k) for k in range(1, 12)]
    assert not any("Baseline" in (r.raw or "") for r in refs[-3:])
