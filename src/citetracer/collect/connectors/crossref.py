"""Crossref REST API: DOIs registered with Crossref, and bibliographic search.

`/works/{doi}` for a DOI, `/works?query.bibliographic=` for a search; the
`mailto` parameter puts us in Crossref's polite pool.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from citetracer.collect.connectors import (
    SAFE,
    SEARCH_ROWS,
    candidate,
    count_of,
    doi_of,
    envelope,
    first_author,
    no_record,
    person,
    query_of,
    record_reply,
)
from citetracer.collect.http import Call
from citetracer.normalize.text import canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference

#: The body of Crossref's 404 for a DOI it does not hold (recorded reply: text/plain "Resource not found.").
NOT_FOUND = re.compile(rb"Resource not found", re.I)
FIELDS = "DOI,title,author,container-title,short-container-title,issued,type,page,volume,issue,publisher,event,URL"


def _first(value: Any) -> str | None:
    if isinstance(value, list):
        return next((v for v in value if isinstance(v, str) and v.strip()), None)
    return value if isinstance(value, str) else None


def _year(item: dict[str, Any]) -> int | None:
    for key in ("issued", "published-print", "published-online", "published", "created"):
        parts = (item.get(key) or {}).get("date-parts") or []
        if parts and parts[0] and isinstance(parts[0][0], int):
            return int(parts[0][0])
    return None


def from_work(item: dict[str, Any], source: str = "crossref", found_by: str = "search") -> Candidate | None:
    """A Crossref work (or the CSL-JSON that doi.org returns for it) as a Candidate."""
    if not isinstance(item, dict):
        return None
    doi = item.get("DOI") or item.get("doi")
    authors = []
    for a in item.get("author") or []:
        if isinstance(a, dict):
            p = person(a.get("given"), a.get("family") or a.get("literal") or a.get("name"))
            if p is not None:
                authors.append(p)
    short = _first(item.get("short-container-title")) or _first(item.get("container-title-short"))
    full = _first(item.get("container-title"))
    ident = str(doi or item.get("id") or "")
    if not ident:
        return None
    return candidate(
        source,
        ident.lower(),
        title=_first(item.get("title")),
        authors=authors,
        url=item.get("URL") if isinstance(item.get("URL"), str) else None,
        venue=short or full,
        venue_full=full,
        year=_year(item),
        doi=doi,
        type=item.get("type"),
        found_by=found_by,
        pages=_first(item.get("page")),
        volume=_first(item.get("volume")),
        issue=_first(item.get("issue")),
        publisher=_first(item.get("publisher")),
        location=_event_place(item),
    )


def _event_place(item: dict[str, Any]) -> str | None:
    """The city of a proceedings paper's conference: Crossref's `event.location`, or CSL's `event-place`."""
    event = item.get("event")
    place = event.get("location") if isinstance(event, dict) else None
    place = place if isinstance(place, str) else item.get("event-place")
    return place.strip() if isinstance(place, str) and place.strip() else None


class Crossref:
    name = "crossref"

    def can_lookup(self, reference: Reference) -> bool:
        return self.identifier(reference) is not None

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        doi = doi_of(reference)
        return None if doi is None or doi[1].startswith("10.48550/") else doi  # arXiv DOIs are DataCite's

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        doi = canonical_doi(reference.doi)
        if not doi:
            return []
        data = await call.json(f"works/{quote(doi, safe=SAFE)}", {"mailto": call.http.mailto}, not_found=NOT_FOUND)
        if data is None:
            return []
        cand = from_work(record_reply(self.name, data, "message"), found_by="doi")
        if cand is None:
            raise no_record(self.name)
        return [cand]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        author = first_author(reference)
        params = {
            "query.bibliographic": f"{query} {author}" if author else query,
            "rows": SEARCH_ROWS,
            "select": FIELDS,
            "mailto": call.http.mailto,
        }
        data = await call.json("works", params, search=True)
        items = envelope(self.name, data, "message", "items") or []
        call.total = count_of(data["message"].get("total-results"))
        return [c for c in (from_work(i) for i in items) if c]
