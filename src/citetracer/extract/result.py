"""What a reader returns: the references it read and its warnings, and the errors and bounds all readers share.

Every reader (readers/) returns a `ReadResult`; an input from which nothing can be read at all raises
`InputError`. These live apart from the readers so that each reader, and the dispatcher in
extract/__init__.py that picks one, can import them without importing one another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citetracer.records import ReadingSummary, Reference

#: Largest text input accepted (a bibliography is never this big; a mistake or an attack is).
MAX_TEXT_BYTES = 50 * 1024 * 1024
MAX_REFERENCES = 100_000


class InputError(Exception):
    """The input cannot be read at all (missing, empty, binary, too large)."""


#: A PDF's bibliography pages set by hand: first and last page, 1-based, inclusive.
PageRange = tuple[int, int]


def parse_page_range(text: str) -> PageRange:
    """ "12-14", "12–14" or "12" as (first, last); ValueError with the reason otherwise."""
    m = re.fullmatch(r"\s*(\d{1,5})\s*(?:[-–:]\s*(\d{1,5})\s*)?", text)
    if not m:
        raise ValueError(f"{text!r} is not a page range (write 12-14, or 12 for one page)")
    first, last = int(m.group(1)), int(m.group(2) or m.group(1))
    if first < 1 or last < first:
        raise ValueError(f"{text!r}: pages count from 1 and the range must not run backwards")
    return first, last


@dataclass
class ReadResult:
    references: list[Reference] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kind: str = "text"
    #: A PDF's: the 1-based pages its references were read from, and a confidence in [0, 1] per reference
    #: (how sure the line segmenter is of where each starts and ends; empty without its model). A reference
    #: read with low confidence is named in a warning too (extract/segmentation/confidence.py), which every
    #: front end shows.
    pages: list[int] = field(default_factory=list)
    confidence: list[float] = field(default_factory=list)
    #: A PDF's: the 1-based pages its list was looked for in (those read, or `--ref-pages`), what a reading that
    #: found no list names.
    searched: list[int] = field(default_factory=list)

    def reading(self) -> ReadingSummary | None:
        """A PDF's pages, entry count and doubtful entries, as reports show them (None for other inputs)."""
        if self.kind != "pdf":
            return None
        low = self.low_confidence()
        searched = [] if self.references else self.searched
        return ReadingSummary(
            pages=self.pages,
            references=len(self.references),
            low_confidence=low,
            summary=self.summary(),
            searched=searched,
        )

    def low_confidence(self) -> int:
        """How many references were read with a confidence below LOW_CONFIDENCE."""
        from citetracer.extract.segmentation.confidence import LOW_CONFIDENCE

        return sum(1 for c in self.confidence if c < LOW_CONFIDENCE)

    def summary(self) -> str:
        """One line on what was read: "42 references from pages 9-11 (2 read with low confidence)", or, for a PDF
        that shows none, "no reference list found in the PDF (pages 1-8 searched)": "0 references" beside a
        warning read as a paper citing nothing."""
        from citetracer.extract.segmentation.plausibility import page_list

        n = len(self.references)
        if n == 0 and self.kind == "pdf":
            where = self.searched
            searched = f" (page{'s' if len(where) > 1 else ''} {page_list(where)} searched)" if where else ""
            return f"no reference list found in the PDF{searched}"
        out = f"{n} reference{'s' if n != 1 else ''}"
        if self.pages:
            out += f" from page{'s' if len(self.pages) > 1 else ''} {page_list(self.pages)}"
        low = self.low_confidence()
        if low:
            out += f" ({low} read with low confidence)"
        return out
