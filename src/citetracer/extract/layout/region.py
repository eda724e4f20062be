"""Where the bibliography is: its heading, its end, or a guess without a heading.

The heading is a short line that is one of the usual names of a reference
section in the languages papers are written in, in any case, letter-spaced
or numbered ("7 References", "REFERENCES", "R EFERENCES", "Literature Cited",
"Literaturverzeichnis"). The last such heading that reference-like lines
follow wins: a table of contents or a "References" in running text or in a
table comes earlier, or has no references under it.

The region ends at the first line after it that is a heading, told by what
it says and how it is set:
- the names of back matter (appendix, supplementary material, checklists,
  acknowledgements, broader impact, LLM usage, a table of contents, ...),
  numbered, lettered or not;
- a lettered or numbered section heading ("A Proofs", "A. Details",
  "B.1 Setup", "C PROOF OF THEOREM 1") set larger or bolder than the
  references (a reference line opening with an initial, "M. QSGD: ...", is
  set like the others);
- any short line set clearly larger than the references, or a short bold
  line opening a page or after a gap;
otherwise at the end of the document.

Without a heading, the region starts at the last line labelled `[1]` or `1.`
that is followed by `[2]` / `2.`; failing that, at the start of the longest
run of reference-looking lines at the end of the document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citetracer.extract.layout.page import Line, body_size

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
    r"^(?:[A-Z](?:\.\d+)*\.?\s+|\d{1,2}(?:\.\d{1,2})*\.?\s+)?(?:appendix|appendices|supplementary|supplemental|"
    r"acknowledg(?:e)?ments?|author contributions|about the authors?|biograph(?:y|ies)|checklist|"
    r"(?:neurips\s+)?(?:paper\s+|reproducibility\s+)?checklist|ethics statement|ethical considerations|"
    r"broader impacts?|funding|competing interests|declarations?\b|data availability|code availability|"
    r"societal impacts?|impact statement|reproducibility statement|limitations\b|"
    r"(?:the )?(?:use|usage) of (?:large language models|llms?)|(?:llms?|large language models?) usage|"
    r"contents\b|table of contents|outline of the appendix)",
    re.IGNORECASE,
)
#: An appendix heading with its letter or number and title ("Appendix A. Hyperparameters and Training
#: Setup", "Appendix B: Proofs"): a heading in any type (elsarticle sets it in the list's size and face).
_APPENDIX_LETTER = re.compile(r"^(?i:appendix)\s+[A-Z0-9]{1,2}(?:\.\d{1,2})*[.:]?\s+[A-Z][a-z]")
#: A lettered or numbered section heading: "A Proofs", "A. Details", "B.1 Setup", "7 Conclusion".
_SECTION = re.compile(r"^(?:[A-Z]|\d{1,2})(?:\.\d{1,2})*\.?\s+[A-Z0-9(]")
#: Type this much larger than the references' is a heading whatever it says (if short, without a year).
HEADING_SIZE = 1.15
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
    #: How the region was found, for warnings: "heading", "numbering", "density", "pages" (set by hand).
    how: str


def find_region(lines: list[Line]) -> Region | None:
    """The bibliography region of a document's lines: under the last heading with references below it, else from a
    numbered list or a dense run of reference-like lines; None when none reads as one.
    """
    headings = [i for i in range(len(lines) - 1) if is_heading(lines[i].text)]
    if headings:
        # The last heading with references under it; a heading in a table or in running text has none.
        chosen = next((i for i in reversed(headings) if _share_reference_like(lines[i + 1 : i + 13]) >= 0.4), None)
        heading_at = headings[-1] if chosen is None else chosen
        start = heading_at + 1
        return Region(start, region_end(lines, start), lines[heading_at].text.strip(), "heading")
    numbered = _numbered_start(lines)
    if numbered is not None:
        end = region_end(lines, numbered)
        # A numbered list of anything else (steps, bullet points) is not a bibliography.
        if _share_reference_like(lines[numbered:end]) >= 0.5:
            return Region(numbered, end, None, "numbering")
    dense = _dense_start(lines)
    if dense is not None:
        return Region(dense, region_end(lines, dense), None, "density")
    return None


def region_in_pages(lines: list[Line], first: int, last: int) -> Region | None:
    """The region within 1-based pages `first`-`last`, set by hand (`--ref-pages`): the pages the
    bibliography spans, read in order. It starts after a bibliography heading there, if any, and ends
    only at a back-matter heading named as such ("Appendix", "A Proofs" set as a heading) on those
    pages: a figure or table inside the list, set larger or in bold, does not end it (the segmenters
    leave such lines out)."""
    inside = [i for i, ln in enumerate(lines) if first - 1 <= ln.page <= last - 1]
    if not inside:
        return None
    lo, hi = inside[0], inside[-1] + 1
    headings = [i for i in range(lo, hi - 1) if is_heading(lines[i].text)]
    chosen = next((i for i in reversed(headings) if _share_reference_like(lines[i + 1 : i + 13]) >= 0.4), None)
    start = lo if chosen is None else chosen + 1
    if chosen is None:
        # A heading of a name not in `_NAMES` ("Works we read") or the end of a section title: short lines
        # opening the pages, set larger or bolder than what follows, without a year.
        size = body_size(lines[start:hi])
        while start < min(lo + 3, hi - 1) and _is_title_line(lines[start], size):
            start += 1
    end = region_end(lines[:hi], start, named_only=True)
    return Region(start, end, None if chosen is None else lines[chosen].text, "pages")


def opens_back_matter(text: str) -> bool:
    """Whether the text opens with the name of back matter ("Acknowledgements.", "Appendix A. Proofs",
    "Funding"): a heading or a sentence of the paper, not a reference."""
    text = text.strip()
    return bool(_END.match(text) or _APPENDIX_LETTER.match(text))


def _is_title_line(ln: Line, size: float) -> bool:
    text = ln.text.strip()
    return len(text) < 60 and not _YEAR.search(text) and (ln.bold or ln.size > size * 1.05)


def _share_reference_like(lines: list[Line]) -> float:
    return sum(reference_like(ln.text) for ln in lines) / max(len(lines), 1)


def region_end(lines: list[Line], start: int, named_only: bool = False) -> int:
    """Index of the first line after `start` that ends the bibliography (see the module docstring);
    `named_only`: only a heading that names back matter, or a lettered section heading, ends it."""
    size = body_size(lines[start : start + 40])
    # Larger than the references and than its own page's text: OCR gives each page one size, which
    # differs from page to page, so a whole page can look larger than the list's first page.
    on_page: dict[int, float] = {}
    for i in range(start + 1, len(lines)):
        page = lines[i].page
        if page not in on_page:
            on_page[page] = body_size([ln for ln in lines[i : i + 400] if ln.page == page])
        if ends_bibliography(lines, i, max(size, on_page[page]), named_only):
            return i
    return len(lines)


#: A lettered appendix heading: "A Proofs", "B.1 Setup" (a figure's axis ticks "0.5 Accuracy" are numbers).
_LETTERED = re.compile(r"^[A-Z](?:\.\d{1,2})*\.?\s+[A-Z][A-Za-z]")


def ends_bibliography(lines: list[Line], i: int, size: float, named_only: bool = False) -> bool:
    """True when line `i` is a heading that closes a bibliography set in `size` (`named_only`: see
    `region_end`)."""
    ln = lines[i]
    text = ln.text.strip()
    if len(text) >= 80 or not text:
        return False
    if is_heading(text):
        return True
    larger = bool(size) and ln.size > size * 1.05
    emphasised = larger or ln.bold
    if len(text) < 70 and _END.match(text) and (emphasised or _alone(text) or text.isupper()):
        return True
    if len(text) < 70 and _APPENDIX_LETTER.match(text) and not _YEAR.search(text):
        return True
    if _YEAR.search(text) or (reference_like(text) and not emphasised):
        return False
    if named_only:
        return emphasised and _LETTERED.match(text) is not None and not text.endswith((",", "."))
    if emphasised and _SECTION.match(text):
        return True
    if size and ln.size > size * HEADING_SIZE and len(text) < 70:
        return True
    prev = lines[i - 1] if i else None
    opens = prev is None or prev.page != ln.page or prev.column != ln.column or ln.y0 - prev.y1 > 1.2 * ln.size
    return ln.bold and opens and len(text) < 60 and text[:1].isupper() and not text.endswith((",", "."))


def _alone(text: str) -> bool:
    """The line holds the back-matter name and nothing else (besides numbering)."""
    m = _END.match(text)
    return m is not None and not text[m.end() :].strip(" .:")


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
