"""CSV reports: one row per citation (`CitationCsv`), one row per paper (`PaperCsv`).

Plain RFC 4180 CSV (a header row, then one row per record, quoted where needed), which
`csv.DictReader`, pandas and spreadsheets read as they are. Rows are written as they are
given, so both can be fed citation by citation. Cells that a spreadsheet would run as a
formula (text starting with = + - @, a tab or a carriage return: citation text is hostile
input) are prefixed with an apostrophe, as OWASP recommends against CSV injection;
numbers stay numbers.
"""

from __future__ import annotations

import csv
from typing import IO

from citetracer.extract.segmentation.plausibility import page_list
from citetracer.records import CitationResult, ReadingSummary
from citetracer.report.views import (
    PaperCounts,
    cited_value,
    coverage_note,
    evidence_links,
    lead_reason,
    printable,
    top_codes,
)

CITATION_COLUMNS = (
    "file",
    "id",
    "class",
    "code",
    "codes",
    "fields",
    "title",
    "authors",
    "year",
    "venue",
    "doi",
    "arxiv_id",
    "page",
    "reason",
    "rationale",
    "coverage",
    "evidence_source",
    "evidence_id",
    "evidence_title",
    "evidence_url",
    "raw",
    # a person's call on the citation (report/decisions.py): dismissed or confirmed, why, who, when
    "decision",
    "decision_reason",
    "decision_by",
    "decision_at",
    # a PDF's reading: how sure the reader is of this entry's bounds, and its paper's list pages and doubtful
    # entries (as summary.csv has them), so a CSV alone says where the list was read and how far to trust it
    "confidence",
    "pages_read",
    "low_confidence",
)
#: The contract's columns first (docs/contract.md); the rest may grow at the end.
PAPER_COLUMNS = (
    "file",
    "references",
    "real",
    "potential",
    "hallucinated",
    "warnings",
    "top_codes",
    "status",
    "note",
    "dismissed",
    "confirmed",
    "pages_read",
    "low_confidence",
)
#: summary.csv's `status` of a PDF in which no reference list was found (beside "checked" and "not checked").
NO_LIST = "no reference list"

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str | int:
    """A CSV cell that no spreadsheet will evaluate."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = printable(str(value))
    if text.startswith(_FORMULA_START):
        return "'" + text
    return text


class CitationCsv:
    def __init__(self, out: IO[str]) -> None:
        """Plain RFC 4180: the header row first, nothing before it (a `# legend` line made `csv.DictReader`,
        pandas and spreadsheet imports take it for the header; the legend is in the README, the HTML and
        Markdown reports)."""
        self.writer = csv.writer(out, lineterminator="\n")
        self.writer.writerow(CITATION_COLUMNS)

    def add(self, file: str, c: CitationResult, reading: ReadingSummary | None = None) -> None:
        """One row per citation: file, id, verdict, the cited fields and the record it rests on; `reading`, its
        paper's when a PDF."""
        self.writer.writerow(citation_row(file, c, reading))

    def no_list(self, file: str, reading: ReadingSummary) -> None:
        """The one row of a PDF in which no reference list was found: no id and no class, the reason saying so
        (a CSV without a row of the paper read as a paper citing nothing)."""
        row: dict[str, str | int] = dict.fromkeys(CITATION_COLUMNS, "")
        row.update(file=file, reason=reading.summary, low_confidence=0)
        self.writer.writerow([cell(row[k]) for k in CITATION_COLUMNS])


def citation_row(file: str, c: CitationResult, reading: ReadingSummary | None = None) -> list[str | int]:
    """A citation's cells in `CITATION_COLUMNS` order, safe from spreadsheet formulas; `reading`: its paper's,
    when a PDF (empty reading cells otherwise)."""
    v, ref = c.verdict, c.reference
    first = evidence_links(c)[0] if c.verdict.evidence else None
    row = {
        "file": file,
        "id": c.id,
        "class": v.class_,
        "code": v.code,
        "codes": " ".join(v.codes),
        "fields": " ".join(v.fields),
        "title": ref.title,
        "authors": cited_value(ref, "authors"),
        "year": ref.year,
        "venue": ref.venue,
        "doi": ref.doi,
        "arxiv_id": ref.arxiv_id,
        "page": ref.page,
        "reason": lead_reason(v.rationale),
        "rationale": v.rationale,
        "coverage": coverage_note(c),
        "evidence_source": first.source if first else None,
        "evidence_id": first.id if first else None,
        "evidence_title": first.title if first else None,
        "evidence_url": first.url if first else None,
        "raw": ref.raw,
        "decision": c.decision.action if c.decision else None,
        "decision_reason": c.decision.reason if c.decision else None,
        "decision_by": c.decision.by if c.decision else None,
        "decision_at": c.decision.at if c.decision else None,
        "confidence": f"{ref.confidence:.2f}" if ref.confidence is not None else None,
        "pages_read": page_list(reading.pages) if reading is not None else None,
        "low_confidence": reading.low_confidence if reading is not None else None,
    }
    return [cell(row[k]) for k in CITATION_COLUMNS]


class PaperCsv:
    def __init__(self, out: IO[str]) -> None:
        self.writer = csv.writer(out, lineterminator="\n")
        self.writer.writerow(PAPER_COLUMNS)

    def add(self, counts: PaperCounts, notes: list[str] | None = None, reading: ReadingSummary | None = None) -> None:
        """One row per checked paper: its counts, warnings and top codes, and for a PDF the pages its list was
        read from and how many entries were read with low confidence (a chair sorts by it to see which papers'
        lists to look at; empty for inputs read without layout). A PDF in which no reference list was found has
        the status NO_LIST and its reading's line first in `note` (the pages searched): its zeros are no paper
        citing nothing, and a chair filtering on `status` finds every paper nothing of which was checked."""
        no_list = reading.summary if reading is not None and reading.no_list else ""
        notes = [no_list, *(notes or [])] if no_list else notes
        row = [
            counts.file,
            counts.references,
            counts.real,
            counts.potential,
            counts.hallucinated,
            counts.warnings,
            top_codes(counts.codes, 6),
            NO_LIST if no_list else "checked",
            " | ".join(notes or []),
            counts.dismissed,
            counts.confirmed,
            page_list(reading.pages) if reading is not None else "",
            reading.low_confidence if reading is not None else "",
        ]
        self.writer.writerow([cell(x) for x in row])

    def add_unchecked(self, file: str, error: str) -> None:
        """One row for a paper that could not be checked, with the reason."""
        self.writer.writerow([cell(x) for x in (file, 0, 0, 0, 0, 0, "", "not checked", error, 0, 0, "", "")])
