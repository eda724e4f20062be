"""OCR for pages without a usable text layer (scans, image-only PDFs).

Engine: Tesseract (Debian package `tesseract-ocr`, through pytesseract), the
one engine measured here that installs from package registries and runs
offline with its models (0.2% character error on a noisy 200 dpi two-column
scan). rapidocr was as accurate but slower; paddleocr, easyocr, docling, surya
and marker download models at run time and fail offline.

OCR is a proposer: its words come back as `Fragment`s (one per Tesseract
line, with boxes in PDF points) that go through the same layout, region and
segmentation code as a text layer, so nothing downstream knows the
difference. Each page runs in Tesseract's own process under a time limit.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import TYPE_CHECKING

from citetracer.extract.layout.page import Fragment, body_size

if TYPE_CHECKING:
    from PIL.Image import Image


class OcrError(Exception):
    """Tesseract failed or ran out of time on one page."""


def unavailable() -> str | None:
    """Why OCR cannot run here, or None when it can."""
    try:
        import pytesseract  # noqa: F401
    except ImportError:
        return "the 'ocr' extra (pytesseract) is not installed"
    if shutil.which("tesseract") is None:
        return "the tesseract program is not installed (Debian: apt-get install tesseract-ocr)"
    return None


def preload() -> None:
    """Import the OCR engine's Python side now (a reader about to cap its own memory calls this first);
    absent, `unavailable` says so later."""
    try:
        import PIL.Image  # noqa: F401
        import pytesseract  # noqa: F401
    except ImportError:
        pass


#: Words Tesseract is less sure of than this (0-100) are dropped. None are: OCR is a high-recall proposer,
#: and Tesseract is least sure exactly of the light-coloured link text that carries DOIs and URLs (with 20
#: here, 82% of the gold DOIs survived the OCR path of bench/extract.py; with 0, 93%). Rows that are not
#: words (conf -1) still go.
MIN_CONFIDENCE = 0

#: Tesseract options: LSTM engine, automatic page segmentation, no inverted-text pass (saves ~30%).
CONFIG = "--oem 1 --psm 3 -c tessedit_do_invert=0"


def fragments(image: Image, dpi: float, timeout: float = 60.0, lang: str = "eng") -> list[Fragment]:
    """Lines Tesseract reads on a page image, as fragments in PDF points."""
    import pytesseract

    os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # one thread per page is fastest on a small shared machine
    # pytesseract hands the image over as a file in the image's format, PNG by default: compressing a
    # 300 dpi page costs ~0.1 s of CPU and Tesseract must inflate it again. PPM (PGM for a greyscale
    # image) is written and read uncompressed, pixel for pixel the same.
    if image.mode not in ("L", "RGB"):
        image = image.convert("L")
    image.format = "PPM"
    try:
        data = pytesseract.image_to_data(
            image, lang=lang, config=CONFIG, output_type=pytesseract.Output.DICT, timeout=timeout
        )
    except RuntimeError as exc:  # pytesseract raises RuntimeError on timeout
        raise OcrError(f"no answer within {timeout:.0f} s") from exc
    except (pytesseract.TesseractError, subprocess.SubprocessError, OSError) as exc:
        raise OcrError(str(exc).strip()[:200]) from exc
    return from_data(data, dpi)


def from_data(data: dict[str, list], dpi: float) -> list[Fragment]:
    """Fragments from Tesseract's word table (image_to_data's dictionary) of a page read at `dpi`."""
    scale = 72.0 / dpi
    lines: dict[tuple[int, int, int], list[int]] = {}
    for i, word in enumerate(data["text"]):
        if not str(word).strip():
            continue
        try:
            if float(data["conf"][i]) < MIN_CONFIDENCE:
                continue
        except (TypeError, ValueError):
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        lines.setdefault(key, []).append(i)
    out: list[Fragment] = []
    for idx in lines.values():
        out.extend(_split_line(data, idx, scale))
    # Word boxes measure glyphs, not the font: ascenders, descenders and digits make sizes jitter from
    # line to line. One size per page keeps the size-based rules from seeing noise.
    size = page_size(out)
    for f in out:
        f.size = size
    return out


def page_size(frags: list[Fragment]) -> float:
    """The size of a page's text, character-weighted (`layout.body_size`): Tesseract estimates one size
    per page, and a plot above a bibliography heading made the first references on that page look like
    small print next to the next page's."""
    return body_size(frags)


def _split_line(data: dict[str, list], idx: list[int], scale: float) -> list[Fragment]:
    """A Tesseract line as fragments, cut where a gap between words is as wide as a column gutter."""
    idx.sort(key=lambda i: data["left"][i])
    heights = sorted(data["height"][i] for i in idx)
    size = heights[len(heights) // 2] * scale or 1.0
    pieces: list[list[int]] = [[idx[0]]]
    for i in idx[1:]:
        prev = pieces[-1][-1]
        gap = (data["left"][i] - (data["left"][prev] + data["width"][prev])) * scale
        if gap > 1.5 * size:
            pieces.append([i])
        else:
            pieces[-1].append(i)
    out = []
    for piece in pieces:
        x0 = min(data["left"][i] for i in piece) * scale
        y0 = min(data["top"][i] for i in piece) * scale
        x1 = max(data["left"][i] + data["width"][i] for i in piece) * scale
        y1 = max(data["top"][i] + data["height"][i] for i in piece) * scale
        text = join_words([str(data["text"][i]).strip() for i in piece])
        out.append(Fragment(text=text, x0=x0, y0=y0, x1=x1, y1=y1, size=size))
    return out


#: Where Tesseract splits a link in two words (it reads the gap around a slash as a space):
#: "https: //doi.org/...", "doi:10.3991 /ijet...", ".../gmd-9- 1937-2016", ".../84010-4_ 1".
_SCHEME_END = re.compile(r"(?:https?|doi):$", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"(?:^|[:/])10\.\d{4,9}$")
_LINK = re.compile(r"(?:https?:|doi:|doi\.org/|\b10\.\d{4,9}/)", re.IGNORECASE)


def join_words(words: list[str]) -> str:
    """A line's words joined by spaces, except where Tesseract cut a URL or DOI at a slash, hyphen or
    underscore (a link split over two words would lose its identifier)."""
    out = ""
    for word in words:
        if not out:
            out = word
            continue
        last = out.rsplit(" ", 1)[-1]
        glue = (
            (_SCHEME_END.search(last) and word.startswith("/"))
            or (_DOI_PREFIX.search(last) and word.startswith("/"))
            or (_LINK.search(last) and last[-1] in "-_/" and word[:1].isalnum())
        )
        out += word if glue else " " + word
    return out
