"""The one module that talks to the PDF library (pypdfium2).

Why pypdfium2: measured on a 70-page paper it reads text with character boxes
in 140 ms and 9 MB, renders crops for OCR and for the Parser Agent, and is
Apache/BSD licensed (PyMuPDF is AGPL; pdfplumber is about 70x slower). Nothing
else in citetracer imports it, so swapping libraries means rewriting this file.

What leaves this module is library-neutral: `Fragment`s (runs of characters
on one baseline, in points with the origin at the top left) and PIL images.
Fragments are cut wherever the next character is not the visual continuation
of the previous one, so text that a PDF interleaves across two columns comes
out as separate fragments that `layout` puts back in reading order.
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from citetracer.extract.layout.page import Fragment
from citetracer.normalize.text import SPACING_ACCENTS

if TYPE_CHECKING:
    from PIL.Image import Image

#: pdfium marks a hyphen it believes breaks a word at a line end with U+FFFE (or U+0002).
SOFT_HYPHENS = {"\ufffe", "\x02", "\u00ad"}
#: Characters a text layer uses for unknown glyphs; many of them mean "no usable text".
GARBAGE = {"\ufffd", "\x00"}


#: Font weight from which a face counts as bold (400 regular, 700 bold; TeX's "Medium" faces are 700).
BOLD_WEIGHT = 600

#: Largest bitmap rendered (pixels): 40 Mpx is an A4 page at about 650 dpi.
MAX_RENDER_PIXELS = 40_000_000


class PdfError(Exception):
    """The PDF cannot be opened (not a PDF, damaged beyond repair, encrypted)."""


@dataclass
class PageText:
    width: float
    height: float
    fragments: list[Fragment]
    #: Visible characters on the page and how many of them decoded to nothing usable.
    chars: int
    garbage: int
    #: Images on the page (an image-only page with no text is a scan).
    images: int


class Document:
    """An open PDF; close it (or use `with`) to release pdfium's memory."""

    def __init__(self, path: Path, password: str | None = None) -> None:
        try:
            self._doc = pdfium.PdfDocument(str(path), password=password)
        except pdfium.PdfiumError as exc:
            message = str(exc)
            if "password" in message.lower():
                raise PdfError("the PDF is encrypted (password required)") from exc
            raise PdfError(f"not a readable PDF ({message})") from exc

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the PDF."""
        self._doc.close()

    def __len__(self) -> int:
        return len(self._doc)

    def _page(self, index: int) -> Any:
        """Page `index` (0-based); PdfError when the library cannot load it (a page tree that loops,
        a page object that is no dictionary), never the library's own exception."""
        try:
            return self._doc[index]
        except pdfium.PdfiumError as exc:
            raise PdfError(f"page {index + 1} cannot be loaded ({exc}); the PDF is damaged") from exc

    def page_size(self, index: int) -> tuple[float, float]:
        """A page's width and height in PDF points."""
        page = self._page(index)
        try:
            w, h = page.get_size()
            return float(w), float(h)
        finally:
            page.close()

    def plain_text(self, index: int) -> str:
        """The page text in the library's order: cheap, for scanning long documents."""
        page = self._page(index)
        try:
            textpage = page.get_textpage()
            try:
                return str(textpage.get_text_range())
            finally:
                textpage.close()
        finally:
            page.close()

    def page_text(self, index: int) -> PageText:
        """Fragments with boxes of one page (0-based index)."""
        page = self._page(index)
        try:
            width, height = (float(v) for v in page.get_size())
            images = _images_in(page.raw)
            textpage = page.get_textpage()
            try:
                return _fragments(textpage, width, height, images)
            finally:
                textpage.close()
        finally:
            page.close()

    def render(self, index: int, dpi: float, crop: tuple[float, float, float, float] | None = None) -> Image:
        """The page (or the crop x0, y0, x1, y1 in top-left points) as a greyscale PIL image."""
        page = self._page(index)
        try:
            width, height = page.get_size()
            if crop is not None:
                width, height = crop[2] - crop[0], crop[3] - crop[1]
            # A hostile or absurd page size must not become a multi-gigabyte bitmap.
            scale = min(dpi / 72.0, math.sqrt(MAX_RENDER_PIXELS / max(width * height, 1.0)))
            kwargs: dict[str, Any] = {"scale": scale, "grayscale": True}
            if crop is not None:
                width, height = page.get_size()
                x0, y0, x1, y1 = crop
                kwargs["crop"] = (max(0.0, x0), max(0.0, height - y1), max(0.0, width - x1), max(0.0, y0))
            bitmap = page.render(**kwargs)
            return bitmap.to_pil()
        finally:
            page.close()


def _images_in(parent: Any, level: int = 0) -> int:
    """Image objects on a page and in the forms it draws, one level deep: what `page.get_objects(filter=(IMAGE,),
    max_depth=2)` counts, failing where it fails (`PdfiumError`), without the Python object it makes for every
    object of the page, text included (a tenth of reading a page's text). `parent` is the raw page, or a raw form
    object at `level` 1."""
    if level == 0:
        count_objects, get_object = pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject
    else:
        count_objects, get_object = pdfium_c.FPDFFormObj_CountObjects, pdfium_c.FPDFFormObj_GetObject
    n_objects = count_objects(parent)
    if n_objects < 0:
        raise pdfium.PdfiumError("Failed to get number of pageobjects.")
    images = 0
    for i in range(n_objects):
        raw = get_object(parent, i)
        if not raw:
            raise pdfium.PdfiumError("Failed to get pageobject.")
        kind = pdfium_c.FPDFPageObj_GetType(raw)
        if kind == pdfium_c.FPDF_PAGEOBJ_UNKNOWN:
            raise pdfium.PdfiumError("Failed to determine pageobject type.")
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            images += 1
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and level < 1:
            images += _images_in(raw, level + 1)
    return images


_BOLD_NAME = re.compile(rb"bold|black|heavy|semibold|demi|-medi|cmbx|cmb\d|bd\b", re.IGNORECASE)


def _is_bold(tp: Any, index: int, name_buffer: Any) -> bool:
    """The character's face is bold: by its font weight, else (fonts without a descriptor, such as the
    standard 14, report none) by the font's name ("Helvetica-Bold", "NimbusRomNo9L-Medi", "CMBX10")."""
    weight = pdfium_c.FPDFText_GetFontWeight(tp, index)
    if weight > 0:
        return bool(weight >= BOLD_WEIGHT)
    flags = ctypes.c_int()
    n = pdfium_c.FPDFText_GetFontInfo(tp, index, name_buffer, len(name_buffer), ctypes.byref(flags))
    return 0 < n <= len(name_buffer) and _BOLD_NAME.search(name_buffer.value) is not None


#: Spacing accents (normalize/text.py's SPACING_ACCENTS: TeX's OT1 fonts set them as glyphs of their own) are
#: often far from their letter in the text layer's stream order ("Richt ´ arik" and the accent of "Horváth" a word
#: later), so here they are put back on the letter they are drawn over, by position; `clean_text` places those left
#: beside their letter in text that has no positions.
#: The same accents where the text layer gives a bitmap (Type 3) OT1 font's codes as they are
#: (dvips output): control characters no text holds, read as accents only when drawn over a letter.
OT1_ACCENTS = {
    "\x12": "\u0300",  # grave
    "\x13": "\u0301",  # acute
    "\x14": "\u030c",  # caron
    "\x15": "\u0306",  # breve
    "\x16": "\u0304",  # macron
    "\x17": "\u030a",  # ring above
    "\x18": "\u0327",  # cedilla
    "\x7f": "\u0308",  # diaeresis
}
#: A space the PDF library inserted between two letters whose glyphs are closer than this share of
#: the type size is no word space: a kerned capital ("V alentin", "Ruud V an") whose advance the
#: font misstates. TeX's narrowest word space is about 0.17 em, side bearings included more.
GENERATED_SPACE_EM = 0.1
#: Letters TeX puts accents on in their dotless form (\'{\i}).
DOTLESS = {"\u0131": "i", "\u0237": "j"}


@dataclass
class _Char:
    """One visible character of the text layer, or a line break / space marker (`ch` "\n" / " ")."""

    ch: str
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    size: float = 0.0
    bold: bool = False
    #: The glyph's ink (tight box) left and right x; a space carries the library's "generated" flag.
    ink0: float = 0.0
    ink1: float = 0.0
    generated: bool = False


def _mark(ch: str) -> str:
    """The combining mark a standalone accent character stands for ("" for any other character):
    a spacing accent, or a combining mark the layer holds as a character of its own (some producers
    write U+0301 with its own box, away from its letter in stream order)."""
    if ch in SPACING_ACCENTS:
        return SPACING_ACCENTS[ch]
    if ch in OT1_ACCENTS:
        return OT1_ACCENTS[ch]
    return ch if len(ch) == 1 and unicodedata.category(ch) == "Mn" else ""


def _attach_accents(chars: list[_Char]) -> list[_Char]:
    """Accents drawn over (or under) a letter become part of that letter ("a" + "´" -> "á"),
    wherever the text layer put them; the spaces the layer generated around a moved accent go too.
    An accent over no letter (a prime, a quote) stays as it is, except an OT1 code, which is dropped.

    The letter is the one whose width holds the accent's centre and whose box holds its middle
    height; failing that, the nearest such letter just below (or above: a cedilla) it, because some
    producers give glyphs their ink box only, and the accent's ink sits outside the letter's."""
    accents = [k for k, c in enumerate(chars) if _mark(c.ch)]
    if not accents:
        return chars
    # Not the accents themselves: the circumflex and caron (U+02C6, U+02C7) are "letters" to Python.
    letters = [k for k, c in enumerate(chars) if c.ch.isalpha() and not _mark(c.ch)]
    drop: set[int] = set()
    for k in accents:
        a = chars[k]
        centre, mid = (a.x0 + a.x1) / 2, (a.y0 + a.y1) / 2
        best, best_key = None, (0.0, 0.0)
        for j in letters:
            b = chars[j]
            if not b.x0 <= centre <= b.x1:
                continue
            reach = 0.5 * max(b.size, b.y1 - b.y0)
            if not b.y0 - reach <= mid <= b.y1 + reach:
                continue
            outside = max(b.y0 - mid, mid - b.y1, 0.0)
            overlap = min(a.x1, b.x1) - max(a.x0, b.x0)
            key = (-outside, overlap)
            if best is None or key > best_key:
                best, best_key = j, key
        if best is None:
            if a.ch in OT1_ACCENTS:
                drop.add(k)
            continue
        base = chars[best]
        letter = DOTLESS.get(base.ch, base.ch)
        base.ch = unicodedata.normalize("NFC", letter + _mark(a.ch))
        drop.add(k)
        # The layer's own spaces around an accent it moved are not word spaces (the gap rule of the
        # fragments still spaces words that are apart on the page).
        for side in (k - 1, k + 1):
            if 0 <= side < len(chars) and chars[side].ch == " ":
                drop.add(side)
    return [c for k, c in enumerate(chars) if k not in drop]


def _join_split_glyphs(chars: list[_Char]) -> list[_Char]:
    """Spaces that split a word, told from the glyphs' positions:
    - a space the library generated between two letters whose ink nearly touches ("V alentin",
      "G ábor": the font misstates the capital's advance, so the library saw a gap that is not there);
    - the stroke of TeX's OT1 "ł", a glyph the text layer calls a space but which has ink and lies
      over the "l" after it ("Paw lowski" -> "Pawłowski")."""
    drop: set[int] = set()
    for k in range(1, len(chars) - 1):
        c = chars[k]
        if c.ch != " ":
            continue
        before, after = chars[k - 1], chars[k + 1]
        if not (before.ch.isalpha() and after.ch.isalpha()):
            continue
        em = max(before.size, after.size, 1.0)
        # Only a lone capital opening its word: an italic "of" whose f overhangs the next word's capital
        # ("Journal of Artificial") also nearly touches it, and is two words.
        lone_capital = before.ch.isupper() and (k < 2 or not chars[k - 2].ch.isalpha())
        if c.generated and lone_capital and after.ink0 - before.ink1 < GENERATED_SPACE_EM * em:
            drop.add(k)
        elif (
            not c.generated
            and c.ink1 - c.ink0 > 0.1
            and after.ch in "lL"
            and c.ink0 < after.ink1
            and after.ink0 < c.ink1
        ):
            after.ch = "ł" if after.ch == "l" else "Ł"
            drop.add(k)
    return [c for k, c in enumerate(chars) if k not in drop] if drop else chars


def _chars(textpage: Any, height: float) -> tuple[list[_Char], int, int]:
    """The page's characters in the layer's order with their boxes (top-left points), and how many
    are visible and how many of those are garbage.

    A page holds thousands of characters, each asked of the library six times or more: the library's
    functions are looked up once, and the boxes they fill (and the pointers to them) made once per page
    (made per character, they were a sixth of reading a PDF)."""
    tp = textpage.raw
    get_unicode, is_generated = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_IsGenerated
    char_angle, font_size = pdfium_c.FPDFText_GetCharAngle, pdfium_c.FPDFText_GetFontSize
    loose_box = pdfium_c.FPDFText_GetLooseCharBox
    count = pdfium_c.FPDFText_CountChars(tp)
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    ink = _Ink()
    out: list[_Char] = []
    visible = garbage = 0
    name_buffer = ctypes.create_string_buffer(128)
    skip = False
    for i in range(count):
        if skip:
            skip = False
            continue
        code = get_unicode(tp, i)
        if 0xD800 <= code < 0xDC00 and i + 1 < count:
            # pdfium answers in UTF-16 units: a character beyond the BMP (a math italic alpha) comes as a
            # surrogate pair over two indices. Lone surrogates cannot even be encoded as UTF-8.
            low = get_unicode(tp, i + 1)
            if 0xDC00 <= low < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                skip = True
        ch = chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"
        if ch in "\r\n":
            out.append(_Char("\n"))
            continue
        if ch.isspace():
            space = _Char(" ", generated=bool(is_generated(tp, i) == 1))
            if not space.generated and ch == " ":
                ink.set(tp, i, space)
            out.append(space)
            continue
        if abs(math.sin(char_angle(tp, i))) > 0.1:
            continue  # rotated text: margin stamps, axis labels
        if not loose_box(tp, i, rect_ref):
            continue
        y0, y1 = height - rect.top, height - rect.bottom
        fs = font_size(tp, i)
        if fs < 0.5 * (y1 - y0):
            # Some producers set size 1 and scale the text matrix: the glyph box says the real size.
            fs = (y1 - y0) / 1.15
        visible += 1
        if ch in GARBAGE or 0xE000 <= code <= 0xF8FF:
            garbage += 1
        # Headings are told from text by their face as much as by their size (pdfium: -1 when unknown).
        glyph = _Char(ch, rect.left, y0, rect.right, y1, fs, _is_bold(tp, i, name_buffer), rect.left, rect.right)
        ink.set(tp, i, glyph)
        out.append(glyph)
    return out, visible, garbage


class _Ink:
    """The four doubles `FPDFText_GetCharBox` fills, and the pointers to them, made once per page."""

    __slots__ = ("left", "refs", "right")

    def __init__(self) -> None:
        self.left, self.right, bottom, top = (ctypes.c_double() for _ in range(4))
        self.refs = tuple(ctypes.byref(v) for v in (self.left, self.right, bottom, top))

    def set(self, tp: Any, index: int, char: _Char) -> None:
        """Set the character's ink extent (its tight box) when the library knows it."""
        if pdfium_c.FPDFText_GetCharBox(tp, index, *self.refs):
            char.ink0, char.ink1 = self.left.value, self.right.value


def _fragments(textpage: Any, width: float, height: float, images: int) -> PageText:
    chars, visible, garbage = _chars(textpage, height)
    frags: list[Fragment] = []
    cur: list[str] = []
    box = [0.0, 0.0, 0.0, 0.0]
    size = 0.0
    space_pending = False
    #: Characters of the current run, and how many of them are set in a bold face.
    run_chars = run_bold = 0

    def flush() -> None:
        nonlocal cur, run_chars, run_bold
        text = "".join(cur).strip()
        if text:
            bold = run_bold > 0.5 * max(run_chars, 1)
            frags.append(Fragment(text=text, x0=box[0], y0=box[1], x1=box[2], y1=box[3], size=size, bold=bold))
        cur = []
        run_chars = run_bold = 0

    for c in _join_split_glyphs(_attach_accents(chars)):
        if c.ch == "\n":
            flush()
            space_pending = False
            continue
        if c.ch == " ":
            space_pending = True
            continue
        x0, y0, x1, y1, fs = c.x0, c.y0, c.x1, c.y1, c.size
        if cur:
            line_h = max(box[3] - box[1], 1.0)
            mid = (y0 + y1) / 2
            same_line = box[1] - 0.3 * line_h < mid < box[3] + 0.3 * line_h
            gap = x0 - box[2]
            # A jump in type size after a visible gap starts a new run too: a review copy's small line
            # number sits closer to its line's text than a word space of the text's own size.
            resized = max(size, fs) > 1.4 * max(min(size, fs), 0.1) and gap > 0.25 * max(size, fs)
            if not same_line or gap > 1.2 * max(size, fs) or x1 < box[0] + 0.5 or resized:
                flush()
            elif space_pending or gap > 0.2 * fs:
                cur.append(" ")
        if not cur:
            box = [x0, y0, x1, y1]
            size = fs
        else:
            box = [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
            size = max(size, fs)
        cur.append("\u00ad" if c.ch in SOFT_HYPHENS else c.ch)
        run_chars += 1
        run_bold += c.bold
        space_pending = False
    flush()
    return PageText(width=width, height=height, fragments=frags, chars=visible, garbage=garbage, images=images)
