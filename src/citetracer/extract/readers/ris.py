"""RIS, as Zotero, Mendeley and EndNote export it: one record from `TY  - ` to `ER  - `.

A line is a two-character tag, two spaces (some writers use one), a hyphen and the value;
a line that is not a tag continues the previous value. The tags read are those the
managers write for citations (Zotero's RIS translator names them):

| tag | field |
|---|---|
| TY | kind of work (JOUR, CONF/CPAPER, BOOK, CHAP, THES, RPRT, ELEC, COMP, DATA, ...) |
| AU, A1 | authors, one a line ('Family, Given' or 'Given Family'); A2, ED editors (used when no author) |
| TI, T1 (CT, BT for a book) | title |
| T2, JO, JF, JA, J2, C3, BT, T3 | the venue: a journal (T2 or JO/JF, abbreviated JA/J2), a conference |
| | paper's proceedings (C3) or conference (T2), a chapter's book (T2, BT) |
| PY, DA, Y1 | year (PY '2016' or '2016/06/01/', DA '2016/06//') |
| VL, IS, SP, EP | volume, issue, first and last page |
| DO, UR | DOI, URL |
| PB, CY, C1 | publisher, place of publication, a conference's place (Zotero writes C1) |
| ID | the record's label (EndNote's record number), else its position |
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citetracer.extract.readers.managed import MAX_NAMES, ManagedRecord, bounded, labelled, to_reference
from citetracer.normalize.names import parse_person
from citetracer.normalize.text import parse_year
from citetracer.records import Person, Reference

#: A tag line: 'TY  - JOUR', 'ER  -' (empty value), one space before the hyphen also seen.
TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]) {1,2}-(?: (.*))?$")
#: RIS kinds -> BibTeX entry types (what the judge reads a work's kind from: normalize/kinds.py).
TYPES = {
    **dict.fromkeys(("JOUR", "EJOUR", "JFULL", "MGZN", "NEWS", "ABST", "INPR"), "article"),
    **dict.fromkeys(("CONF", "CPAPER"), "inproceedings"),
    **dict.fromkeys(("BOOK", "EBOOK", "EDBOOK"), "book"),
    **dict.fromkeys(("CHAP", "ECHAP"), "incollection"),
    "THES": "phdthesis",
    "RPRT": "techreport",
    **dict.fromkeys(("ELEC", "WEB", "BLOG"), "online"),
    "COMP": "software",
    **dict.fromkeys(("DATA", "DBASE", "AGGR"), "dataset"),
    "STAND": "standard",
    **dict.fromkeys(("UNPB", "MANSCPT"), "unpublished"),
}
#: Where each kind keeps its venue, most specific first.
VENUE_TAGS = {
    "article": ("T2", "JF", "JO", "JA", "J2", "BT"),
    "inproceedings": ("C3", "T2", "BT", "JO", "JF", "T3"),
    "incollection": ("T2", "BT", "T3"),
    "book": ("T3",),
}
OTHER_VENUE_TAGS = ("T2", "JO", "JF", "JA", "BT", "T3")
#: Tags whose continuation lines are joined with a line break rather than a space (free text).
_NOTES = ("AB", "N1", "N2")


@dataclass
class RisRecord:
    """One record: its tags in file order, each with the line numbers (1-based) where it stands."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    #: The record's first and last line (its TY and its ER, or the last line before the next TY).
    start: int = 0
    end: int = 0

    def first(self, *names: str) -> str | None:
        """The first non-empty value of the first of `names` present."""
        for name in names:
            for tag, value in self.tags:
                if tag == name and value.strip():
                    return value
        return None

    def every(self, *names: str) -> list[str]:
        return [v for t, v in self.tags if t in names and v.strip()]


def looks_like_ris(text: str) -> bool:
    """Whether the text opens (after blank lines) with a RIS record's `TY  - ` line."""
    for line in text.lstrip("\ufeff").splitlines()[:20]:
        if line.strip():
            return TAG_LINE.match(line.strip()) is not None and line.strip().startswith("TY")
    return False


def parse_ris(text: str, limit: int) -> tuple[list[RisRecord], list[str]]:
    """The records of a RIS text (at most `limit`) and one warning per problem (a tag outside a record,
    a record with no title, more records than the limit)."""
    records: list[RisRecord] = []
    warnings: list[str] = []
    current: RisRecord | None = None
    stray = 0
    more = 0
    n = 0
    for n, line in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        m = TAG_LINE.match(line.rstrip())
        if m is None:
            if current is not None and current.tags and line.strip():
                tag, value = current.tags[-1]
                joiner = "\n" if tag in _NOTES else " "
                current.tags[-1] = (tag, (value + joiner + line.strip())[:20_000])
            continue
        tag, value = m.group(1), (m.group(2) or "").strip()
        if tag == "TY":
            if current is not None:
                current.end = n - 1
                records.append(current)
            if len(records) >= limit:
                more += 1
                current = None
                continue
            current = RisRecord(tags=[(tag, value)], start=n, end=n)
        elif current is None:
            stray += tag != "ER"
        elif tag == "ER":
            current.end = n
            records.append(current)
            current = None
        elif len(current.tags) < MAX_NAMES + 200:
            current.tags.append((tag, value))
    if current is not None:
        current.end = n
        records.append(current)
    if stray:
        warnings.append(f"{stray} RIS lines outside a record (before a 'TY  - ' line); ignored")
    if more:
        warnings.append(f"{len(records) + more:,} RIS records; only the first {limit:,} were read")
    return records, warnings


def record_label(record: RisRecord, position: int) -> str:
    """The record's label in the report: its ID tag when it has one, else its position (1-based)."""
    own = record.first("ID")
    return " ".join(own.split())[:100] if own else str(position)


def _people(values: list[str]) -> tuple[list[Person], bool]:
    people: list[Person] = []
    et_al = len(values) > MAX_NAMES  # a list cut here is not the author's whole list
    for value in values[:MAX_NAMES]:
        name = " ".join(value.split())
        if name.lower().rstrip(".") in ("et al", "others"):
            et_al = True
        elif (p := parse_person(name)) is not None:
            people.append(p)
    return people, et_al


def ris_reference(record: RisRecord, label: str) -> Reference:
    """The Reference of one RIS record."""
    kind = TYPES.get((record.first("TY") or "").strip().upper(), "misc")
    authors, et_al = _people(record.every("AU", "A1"))
    if not authors:
        authors, et_al = _people(record.every("A2", "ED"))
    title = record.first("TI", "T1") or (record.first("CT", "BT") if kind == "book" else record.first("CT"))
    venue = record.first(*VENUE_TAGS.get(kind, OTHER_VENUE_TAGS))
    if venue is not None and title is not None and kind == "book" and venue == title:
        venue = None
    first, last = record.first("SP"), record.first("EP")
    pages = f"{first}-{last}" if first and last and "-" not in first else first or last
    year = parse_year(record.first("PY", "Y1")) or parse_year(record.first("DA"))
    return to_reference(
        ManagedRecord(
            type=kind,
            label=label,
            title=bounded(title),
            authors=authors,
            et_al=et_al,
            venue=bounded(venue),
            year=year,
            doi=bounded(record.first("DO")),
            url=bounded(record.first("UR")),
            pages=bounded(pages),
            volume=bounded(record.first("VL")),
            issue=bounded(record.first("IS")),
            publisher=bounded(record.first("PB")),
            location=bounded(record.first("C1", "CY") if kind == "inproceedings" else record.first("CY")),
        )
    )


def read_ris_references(text: str, limit: int) -> tuple[list[Reference], list[str]]:
    """References of a RIS text, and the warnings (a record without a title is still read: the judge says
    what it lacks)."""
    records, warnings = parse_ris(text, limit)
    refs, more = labelled(records, record_label, ris_reference, "RIS records (TI/T1)")
    warnings += more
    if not records:
        warnings.append("no RIS record (a 'TY  - ' line) found")
    return refs, warnings
