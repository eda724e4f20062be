"""Where the bibliography is: its heading, its end, or a guess without a heading.

The heading is a short line that is one of the usual names of a reference
section in the languages papers are written in, in any case, letter-spaced
or numbered ("7 References", "REFERENCES", "R EFERENCES", "Literature Cited",
"Literaturverzeichnis"). The last such heading wins (a table of contents or
a "references" in running text comes earlier). The region ends at the next
section heading (appendix, supplementary material, acknowledgements, or any
short line set noticeably larger than the references), otherwise at the end.

Without a heading, the region starts at the last line labelled `[1]` or `1.`
that is followed by `[2]` / `2.`; failing that, at the start of the longest
run of reference-looking lines at the end of the document.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

from citetracer.extract.layout import Line

_NAMES = (
    "references",
    "reference",
    "referencesandnotes",
    "notesandreferences",
    "bibliography",
    "selectedbibliography",
    "literaturecited",
    "literature",
    "citedliterature",
    "workscited",
    "referencelist",
    "referencescited",
    "literaturverzeichnis",
    "literatur",
    "références",
    "referencesbibliographiques",
    "référencesbibliographiques",
    "bibliographie",
    "referencias",
    "referenciasbibliográficas",
    "bibliografía",
    "bibliografia",
    "riferimenti",
    "riferimentibibliografici",
    "referências",
    "referênciasbibliográficas",
    "literatuur",
    "литература",
    "参考文献",
)
_NUMBERING = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?|[ivxlc]{1,5}\.|[a-z]\.|§)\s*", re.IGNORECASE)
_END = re.compile(
    r"^(?:[A-Z](?:\.\d+)*\.?\s+|\d{1,2}\.?\s+)?(?:appendix|appendices|supplementary|supplemental|"
    r"acknowledg(?:e)?ments?|author contributions|about the authors?|biograph(?:y|ies)|checklist|"
    r"paper checklist|ethics statement|broader impact)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?\b")
_NUM_LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.\s)")


def is_heading(text: str) -> bool:
    """True when the line is a bibliography heading."""
    t = text.strip().rstrip(":").strip()
    if len(t) > 60:
        return False
    t = _NUMBERING.sub("", t)
    key = re.sub(r"[\s\-_.]+", "", t.casefold())
    return key in _NAMES


@dataclass
class Region:
    start: int  # index of the first reference line
    end: int  # one past the last
    heading: str | None
    #: How the region was found, for warnings: "heading", "numbering", "density".
    how: str


def find_region(lines: list[Line]) -> Region | None:
    heading_at = None
    for i in range(len(lines) - 1, -1, -1):
        if is_heading(lines[i].text) and i + 1 < len(lines):
            heading_at = i
            break
    if heading_at is not None:
        start = heading_at + 1
        return Region(start, _region_end(lines, start), lines[heading_at].text.strip(), "heading")
    numbered = _numbered_start(lines)
    if numbered is not None:
        end = _region_end(lines, numbered)
        # A numbered list of anything else (steps, bullet points) is not a bibliography.
        if _share_reference_like(lines[numbered:end]) >= 0.5:
            return Region(numbered, end, None, "numbering")
    dense = _dense_start(lines)
    if dense is not None:
        return Region(dense, _region_end(lines, dense), None, "density")
    return None


def _share_reference_like(lines: list[Line]) -> float:
    return sum(reference_like(ln.text) for ln in lines) / max(len(lines), 1)


def _region_end(lines: list[Line], start: int) -> int:
    body = [ln.size for ln in lines[start : start + 40]]
    size = statistics.median(body) if body else 0.0
    for i in range(start + 1, len(lines)):
        ln = lines[i]
        text = ln.text.strip()
        if len(text) < 70 and _END.match(text):
            return i
        if is_heading(text):
            return i
        if size and ln.size > size * 1.25 and len(text) < 70 and not _YEAR.search(text):
            return i
    return len(lines)


def _numbered_start(lines: list[Line]) -> int | None:
    for i in range(len(lines) - 1, -1, -1):
        m = _NUM_LABEL.match(lines[i].text)
        if m and (m.group(1) or m.group(2)) == "1":
            want = "[2]" if m.group(1) else "2."
            if any(ln.text.lstrip().startswith(want) for ln in lines[i + 1 : i + 40]):
                return i
    return None


def reference_like(text: str) -> bool:
    """A line that would not surprise anyone inside a reference list."""
    return bool(
        _YEAR.search(text)
        or re.search(r"\bet al\.|\bdoi\b|10\.\d{4,9}/|\bpp\.|\bvol\.|\bProc\.|\bIn\b|\bJournal\b", text)
        or re.match(r"^\s*(?:\[\d+\]|\d+\.\s)", text)
        or re.match(r"^[A-Z][\w'’\-]+,\s(?:[A-Z]\.\s?)+", text)
    )


def _dense_start(lines: list[Line]) -> int | None:
    """Start of the longest run at the end where most lines look like references."""
    if len(lines) < 3:
        return None
    best = None
    window = 6
    for i in range(len(lines) - window, -1, -1):
        hits = sum(reference_like(ln.text) for ln in lines[i : i + window])
        if hits >= window * 0.6:
            best = i
        elif best is not None and i < best - window:
            break
    if best is None:
        return None
    while best < len(lines) - 1 and not reference_like(lines[best].text):
        best += 1
    return best
