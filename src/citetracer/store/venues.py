"""The store's venue knowledge: venues from a sources snapshot (OpenAlex's), their names, ISSNs and yearly counts.

Why in the store: a cited venue is written in many ways ("Phys. Rev. D", "Physical Review
D", its ISSN), and whether a citation's absence is evidence depends on recognising the
venue and knowing how many works it published that year. A sources snapshot lists, for
every journal, conference and repository, its display name, alternate titles,
abbreviated title, ISSNs and works per year; these tables keep them so that a venue
knowledge base (the judge's) and the coverage rule (store/coverage.py) can read them,
for either backend:

- `venues`: one row per venue (`openalex:S137773608`), with its names and ISSNs as JSON;
- `venue_names`: every name, alternate and abbreviated title and ISSN of a venue under a
  lookup key (`name_keys`), to find the venues a cited string may denote;
- `venue_year_works`: the venue's own count of works per year;
- `complete_venue_years`: the venue-years a works subset holds whole (its records of the
  venue in that year are at least the venue's own count), written after an ingest.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from citetracer.normalize.text import tokens
from citetracer.store.common import venue_key

TABLES = """
CREATE TABLE IF NOT EXISTS venues (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT,
    issn_l TEXT,
    publisher TEXT,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS venue_names (
    key TEXT NOT NULL,
    venue TEXT NOT NULL,
    what TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (key, venue, what)
);
-- Replacing a venue deletes its names: without this, each replacement scans every venue's names.
CREATE INDEX IF NOT EXISTS venue_names_venue ON venue_names (venue);
CREATE TABLE IF NOT EXISTS venue_year_works (
    venue TEXT NOT NULL,
    year INTEGER NOT NULL,
    works INTEGER NOT NULL,
    PRIMARY KEY (venue, year)
);
CREATE TABLE IF NOT EXISTS complete_venue_years (
    venue TEXT NOT NULL,
    year INTEGER NOT NULL,
    source TEXT NOT NULL,
    records INTEGER NOT NULL,
    expected INTEGER NOT NULL,
    PRIMARY KEY (venue, year)
);
"""

#: The names a venue row lists, by kind (`venue_names.what`).
NAME_KINDS = ("name", "alternate", "abbreviated", "issn")
_ISSN = re.compile(r"^\d{4}-?\d{3}[\dX]$")


@dataclass(frozen=True)
class VenueEntry:
    """One venue as a sources snapshot describes it."""

    id: str
    source: str
    name: str
    kind: str | None = None
    issn_l: str | None = None
    issns: tuple[str, ...] = ()
    alternate_titles: tuple[str, ...] = ()
    abbreviated_title: str | None = None
    publisher: str | None = None
    #: The venue's own count of works per year (the years the snapshot lists).
    works_by_year: dict[int, int] = field(default_factory=dict)


def canonical_issn(value: str | None) -> str | None:
    """'14764687' / '1476-4687' -> '1476-4687' (None for what is not an ISSN)."""
    if not value:
        return None
    text = value.strip().upper()
    if not _ISSN.match(text):
        return None
    return text if "-" in text else f"{text[:4]}-{text[4:]}"


def name_keys(text: str | None) -> list[str]:
    """The lookup keys of a venue name or ISSN: the coverage key (`venue_key`: a known venue's id,
    else the folded string) and the name's word tokens; for an ISSN, `issn:NNNN-NNNN`."""
    if not text:
        return []
    issn = canonical_issn(text)
    if issn:
        return [f"issn:{issn}"]
    keys = [k for k in (venue_key(text), "w:" + " ".join(tokens(text))) if k and k != "w:"]
    return list(dict.fromkeys(keys))


VenueRows = tuple[tuple[Any, ...], list[tuple[str, str, str, str]], list[tuple[str, int, int]]]


def entry_rows(entry: VenueEntry) -> VenueRows:
    """The rows of one venue: (its `venues` row, its `venue_names` rows, its `venue_year_works` rows)."""
    data = {
        "issns": list(entry.issns),
        "alternate_titles": list(entry.alternate_titles),
        "abbreviated_title": entry.abbreviated_title,
    }
    venue = (entry.id, entry.source, entry.name, entry.kind, entry.issn_l, entry.publisher, json.dumps(data))
    names: dict[tuple[str, str], str] = {}
    for what, values in (
        ("name", [entry.name]),
        ("alternate", entry.alternate_titles),
        ("abbreviated", [entry.abbreviated_title] if entry.abbreviated_title else []),
        ("issn", [*entry.issns, *([entry.issn_l] if entry.issn_l else [])]),
    ):
        for value in values:
            for key in name_keys(value):
                names.setdefault((key, what), value)
    name_rows = [(key, entry.id, what, value) for (key, what), value in names.items()]
    years = [(entry.id, year, works) for year, works in sorted(entry.works_by_year.items())]
    return venue, name_rows, years


def entry_of(row: tuple[Any, ...], years: dict[int, int]) -> VenueEntry:
    """A `venues` row (id, source, name, kind, issn_l, publisher, data) back as an entry."""
    vid, source, name, kind, issn_l, publisher, data = row
    extra = json.loads(data) if data else {}
    return VenueEntry(
        id=vid,
        source=source,
        name=name,
        kind=kind,
        issn_l=issn_l,
        issns=tuple(extra.get("issns") or ()),
        alternate_titles=tuple(extra.get("alternate_titles") or ()),
        abbreviated_title=extra.get("abbreviated_title"),
        publisher=publisher,
        works_by_year=years,
    )
