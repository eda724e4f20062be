"""Plausibility of an extracted bibliography: warnings that name the pages to look at.

Every garbage "reference" is a chance to accuse someone, and every lost one
a fabrication that goes unchecked, so a list that does not fit the paper is
said out loud, never silently passed on:

- its length against the distinct citation markers of the body (`markers`):
  numbered citations give the length almost exactly, author-year ones only
  roughly (references cited in figures only, "Smith (2020)" as a date), so
  the tolerance differs;
- items that look like equations, table rows or section headings;
- a list spread over implausibly many pages for its length.

Each warning starts with `PREFIX` and suggests `--ref-pages` to set the
region by hand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citetracer.extract.layout.markers import Markers
from citetracer.records import Reference

PREFIX = "bibliography check"
HINT = "check those pages, or set the bibliography's pages with --ref-pages"
#: Numbered citations: the list may differ from the highest number cited by this share (or 2).
NUMBERED_SLACK = 0.15
#: Author-year citations: fewer than half, or more than twice (plus 5), the distinct works cited.
AUTHOR_YEAR_LOW, AUTHOR_YEAR_HIGH = 0.5, 2.0
#: Fewer references per page than this, over at least `SPREAD_PAGES` pages, is not one bibliography.
MIN_PER_PAGE, SPREAD_PAGES = 3.0, 4

#: A year closing a reference's date or its last part: "(2019).", ", 2019.", "2019)". A reference has one
#: or two (published and accessed); more are several references read as one.
_CLOSING_YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?(?:\)\.?|\.(?:\s|$))")
MERGED_YEARS = 4
_YEAR = re.compile(r"\b(?:1[6-9]|20)\d\d[a-z]?\b")
_IDENTIFIER = re.compile(r"10\.\d{4,9}/|arxiv|https?://|www\.|doi", re.IGNORECASE)
_MATH = re.compile(r"[=+<>≤≥≈∑∏∫∂∇∈∉⊂⊆∪∩→←↦×·∞±√∀∃ΣΠΔΩαβγδεζηθικλμνξπρστφχψω|^_{}]")
_NUMBER = re.compile(r"^[\d.,%±+\-−–()]+$")
_SECTION = re.compile(r"^(?:[A-Z]|\d{1,2})(?:\.\d{1,2})*\.?\s+[A-Z]")


def kind_of_item(text: str) -> str | None:
    """'equation', 'table row', 'section heading' or 'several references run together' when a
    reference's text is one, else None."""
    text = text.strip()
    if len(_CLOSING_YEAR.findall(text)) >= MERGED_YEARS:
        return "several references run together"
    if not text or _YEAR.search(text) or _IDENTIFIER.search(text):
        return None
    tokens = text.split()
    words = [t for t in tokens if re.fullmatch(r"[A-Za-z][a-z]{2,}[,.;:]?", t)]
    if len(_MATH.findall(text)) >= max(2, 0.06 * len(text)) and len(words) < 0.5 * len(tokens):
        return "equation"
    if len(tokens) >= 3 and sum(1 for t in tokens if _NUMBER.match(t)) >= 0.5 * len(tokens):
        return "table row"
    if len(text) < 60 and _SECTION.match(text) and not text.endswith((".", ",")) and "," not in text:
        return "section heading"
    return None


def _plural(kind: str) -> str:
    return kind if kind.startswith("several") else kind + "s"


def page_list(numbers: Sequence[int]) -> str:
    """1-based pages as "12", "12-14" or "3, 7, 12-14"."""
    out: list[str] = []
    for p in sorted(set(numbers)):
        if out and out[-1].split("-")[-1] == str(p - 1):
            out[-1] = out[-1].split("-")[0] + f"-{p}"
        else:
            out.append(str(p))
    return ", ".join(out)


def check(
    refs: Sequence[Reference], markers: Markers, region_pages: Sequence[int], seen: Sequence[str] = ()
) -> list[str]:
    """Warnings about the extracted references (`region_pages`: 1-based pages the region covers; `seen`:
    what the reader saw around the list, named in a count warning so that the remedy is plain)."""
    warnings: list[str] = []
    n = len(refs)
    pages_text = page_list(region_pages)
    where = "the document" if not region_pages else ("page " if pages_text.isdigit() else "pages ") + pages_text
    expected = markers.expected()
    if expected:
        if markers.style == "numbered":
            off = abs(n - expected) > max(2, NUMBERED_SLACK * expected)
        else:
            off = n < AUTHOR_YEAR_LOW * expected - 1 or n > AUTHOR_YEAR_HIGH * expected + 5
        if off:
            warnings.append(
                f"{PREFIX}: {n} references extracted from {where}, but {markers.describe()}; the bibliography "
                f"may be cut short, merged, or mixed with other text ({''.join(s + '; ' for s in seen)}{HINT})"
            )
    odd: dict[str, list[Reference]] = {}
    for ref in refs:
        kind = kind_of_item(ref.raw or "")
        if kind:
            odd.setdefault(kind, []).append(ref)
    for kind, items in odd.items():
        pages = page_list([r.page for r in items if r.page])
        sample = (items[0].raw or "")[:60]
        warnings.append(
            f"{PREFIX}: {len(items)} extracted item(s) on page(s) {pages} look like {_plural(kind)}, not references "
            f"(first: {sample!r}); {HINT}"
        )
    if region_pages:
        span = max(region_pages) - min(region_pages) + 1
        if span >= SPREAD_PAGES and n < MIN_PER_PAGE * span:
            warnings.append(
                f"{PREFIX}: the bibliography spans {span} pages ({min(region_pages)}-{max(region_pages)}) "
                f"for {n} references; an appendix or other text may have been read as references ({HINT})"
            )
    return warnings
