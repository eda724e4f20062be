"""DBLP publication search API (computer science).

`/search/publ/api?q=...&format=json`; `author` is an object, not a list, when
a record has one author, and titles end with a period.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from citetracer.collect.connectors import (
    SEARCH_ROWS,
    SearchOnly,
    candidate,
    count_of,
    envelope,
    people,
    query_of,
)
from citetracer.collect.http import Call
from citetracer.normalize.names import name_keys
from citetracer.normalize.text import canonical_arxiv
from citetracer.normalize.venues import venue_id
from citetracer.records import Candidate, Reference

#: How many works of the cited authors in the cited year to ask for: an answer counting no more is whole.
WORKS_ROWS = 100


def works_query(reference: Reference) -> str | None:
    """DBLP's query for every work of the first two cited authors in the cited year
    (`author:vaswani author:shazeer year:2017`: DBLP's field prefixes), or None when the citation names
    no author or year."""
    keys = [max(name_keys(p).family or (name_keys(p).full,), key=len) for p in reference.authors[:2]]
    keys = [k for k in keys if len(k) >= 2]
    if not keys or reference.year is None:
        return None
    return " ".join(f"author:{k}" for k in keys) + f" year:{reference.year}"


def venue_year_query(reference: Reference) -> str | None:
    """DBLP's query for the records of the cited venue in the cited year (`venue:iclr year:2026`), or None
    when the citation names no venue DBLP could list (a workshop, an unknown name) or no year."""
    vid = venue_id(reference.venue)
    if vid is None or vid.endswith("-workshop") or reference.year is None or not vid.isalnum():
        return None
    return f"venue:{vid} year:{reference.year}"


#: DBLP's publication types (its search API's `type`) as the record tags of its XML (`from_record_xml`, the
#: mirror), which the judge's venue kinds read: a search hit and a mirror record of one paper are one kind.
SEARCH_TYPES = {
    "Conference and Workshop Papers": "inproceedings",
    "Journal Articles": "article",
    "Books and Theses": "book",
    "Parts in Books or Collections": "incollection",
    "Editorship": "proceedings",
    "Reference Works": "reference",
    "Informal and Other Publications": "misc",
    "Informal Publications": "misc",
    "Data and Artifacts": "data",
}


def from_hit(hit: dict[str, Any]) -> Candidate | None:
    info = (hit or {}).get("info") or {}
    if not info.get("key"):
        return None
    raw = (info.get("authors") or {}).get("author") or []
    raw = raw if isinstance(raw, list) else [raw]
    names = [a.get("text") if isinstance(a, dict) else a for a in raw]
    title = info.get("title")
    if isinstance(title, str) and title.endswith(".") and not title.endswith(".."):
        title = title[:-1]
    ee = info.get("ee") if isinstance(info.get("ee"), str) else None
    venue = info.get("venue")
    venue = venue[0] if isinstance(venue, list) and venue else venue
    return candidate(
        "dblp",
        info["key"],
        title=title,
        authors=people(n if isinstance(n, str) else None for n in names),
        url=info.get("url") or f"https://dblp.org/rec/{info['key']}",
        venue=venue if isinstance(venue, str) else None,
        year=info.get("year"),
        doi=info.get("doi"),
        arxiv_id=canonical_arxiv(ee) if ee and "arxiv" in ee else None,
        type=SEARCH_TYPES.get(info.get("type") or "", info.get("type")),
        pages=info.get("pages"),
        volume=info.get("volume"),
    )


def _child_text(rec: ET.Element, tag: str) -> str | None:
    el = rec.find(tag)
    text = "".join(el.itertext()).strip() if el is not None else ""
    return text or None


def from_record_xml(root: ET.Element) -> list[Candidate]:
    """`/rec/{key}.xml`: `<dblp><article key=...><author>...</author><title>...</title>...</dblp>`."""
    out = []
    for rec in list(root):
        key = rec.get("key")
        if not key:
            continue

        def text(tag: str, rec: ET.Element = rec) -> str | None:
            el = rec.find(tag)
            return "".join(el.itertext()).strip() if el is not None else None

        ees = ["".join(e.itertext()) for e in rec.findall("ee")]
        doi = next((e for e in ees if "doi.org/" in e), None)
        arxiv = next((canonical_arxiv(e) for e in ees if "arxiv.org/" in e), None)
        title = text("title") or ""
        out.append(
            candidate(
                "dblp",
                key,
                title=title[:-1] if title.endswith(".") else title,
                authors=people("".join(a.itertext()) for a in rec.findall("author")),
                url=f"https://dblp.org/rec/{key}",
                venue=text("booktitle") or text("journal"),
                year=text("year"),
                doi=doi,
                arxiv_id=arxiv,
                type=rec.tag,
                found_by="dblp-key",
                pages=text("pages"),
                volume=text("volume"),
            )
        )
    return out


class Dblp(SearchOnly):
    """DBLP's search: records by title, and as the venue-year lister (connectors.VenueYearLister) the works of
    the cited authors in a year and the count of a venue-year; its list of venues (connectors.VenueList)."""

    name = "dblp"
    works_query = staticmethod(works_query)
    venue_year_query = staticmethod(venue_year_query)

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        return await self._search(query_of(reference), SEARCH_ROWS, call)

    async def works_of_authors(self, reference: Reference, call: Call) -> list[Candidate]:
        """Every work DBLP lists for the first two cited authors in the cited year (up to WORKS_ROWS):
        where the cited work appeared, whatever its title there (a paper is often renamed between its
        preprint and its proceedings version)."""
        found = await self._search(works_query(reference), WORKS_ROWS, call)
        return [c.model_copy(update={"found_by": "authors-year"}) for c in found]

    async def venue_year_count(self, reference: Reference, call: Call) -> list[Candidate]:
        """How many records DBLP holds at the cited venue in the cited year (the outcome's hits; no record
        is kept as evidence): whether DBLP lists that venue-year yet, for a year its lag may not have
        reached."""
        await self._search(venue_year_query(reference), 1, call)
        return []

    async def with_volume(self, key: str, call: Call) -> list[Candidate]:
        """The record `key` with what its proceedings volume states (`/rec/{key}.xml`, then the volume's
        `/rec/{crossref}.xml`): the volume's title as its venue's full name (DBLP writes the conference city
        there) and the volume's publisher, which DBLP writes on the volume's record only. The record alone
        when it has no volume; nothing when DBLP has no such key."""
        root = await call.xml(f"rec/{key}.xml")
        found = from_record_xml(root) if root is not None else []
        if root is None or not found:
            return []
        paper = found[0].model_copy(update={"found_by": "dblp-volume"})
        volume_key = _child_text(root[0], "crossref")
        volume = await call.xml(f"rec/{volume_key}.xml") if volume_key else None
        if volume is None or not len(volume):
            return [paper]
        title = (_child_text(volume[0], "title") or "").rstrip(".") or paper.venue_full
        return [paper.model_copy(update={"venue_full": title, "publisher": _child_text(volume[0], "publisher")})]

    async def venues(self, query: str, call: Call) -> list[str]:
        """The venue names (and acronyms) DBLP's venue search answers for the words of a venue name
        (`/search/venue/api`): DBLP's list of every computer-science venue it indexes."""
        data = await call.json("search/venue/api", {"q": query[:200], "format": "json", "h": 30}, search=True)
        found = envelope(self.name, data, "result", "hits") or {}
        call.total = count_of(found.get("@total")) if isinstance(found, dict) else None
        names: list[str] = []
        for hit in found.get("hit") or [] if isinstance(found, dict) else []:
            info = hit.get("info") if isinstance(hit, dict) else None
            for key in ("venue", "acronym"):
                value = info.get(key) if isinstance(info, dict) else None
                if isinstance(value, str) and value.strip() and value not in names:
                    names.append(value.strip())
        return names

    async def _search(self, query: str | None, rows: int, call: Call) -> list[Candidate]:
        if not query:
            return []
        data = await call.json("search/publ/api", {"q": query, "format": "json", "h": rows}, search=True)
        found = envelope(self.name, data, "result", "hits") or {}
        call.total = count_of(found.get("@total")) if isinstance(found, dict) else None
        hits = found.get("hit") or []
        return [c for c in (from_hit(h) for h in hits if isinstance(h, dict)) if c]
