"""DataCite REST API: DOIs of datasets, software and arXiv preprints (10.48550).

`/dois/{doi}` for a DOI, `/dois?query=` for a search.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from citetracer.collect.connectors import (
    SAFE,
    SEARCH_ROWS,
    candidate,
    doi_of,
    envelope,
    no_record,
    person,
    query_of,
    record_reply,
)
from citetracer.collect.http import Call
from citetracer.normalize.text import arxiv_from_doi, canonical_doi
from citetracer.records import Candidate, IdentifierKind, Person, Reference

#: DataCite's 404 for a DOI it does not hold: `{"errors": [{"status": "404", "title": "The resource ..."}]}`.
NOT_FOUND = re.compile(rb'"status"\s*:\s*"?404')


def from_record(data: dict[str, Any], found_by: str = "search") -> Candidate | None:
    attrs = (data or {}).get("attributes") or {}
    doi = attrs.get("doi") or (data or {}).get("id")
    if not doi:
        return None
    authors: list[Person] = []
    for c in attrs.get("creators") or []:
        if isinstance(c, dict):
            p = person(c.get("givenName"), c.get("familyName")) or person(None, c.get("name"))
            if p is not None:
                if not c.get("familyName") and "," in (c.get("name") or ""):
                    family, _, given = str(c["name"]).partition(",")
                    p = person(given, family) or p
                authors.append(p)
    titles = [t.get("title") for t in attrs.get("titles") or [] if isinstance(t, dict)]
    container = attrs.get("container") or {}
    publisher = attrs.get("publisher")
    publisher = publisher.get("name") if isinstance(publisher, dict) else publisher
    kind = (attrs.get("types") or {}).get("resourceTypeGeneral")
    doi_c = canonical_doi(doi)
    return candidate(
        "datacite",
        str(doi).lower(),
        title=next((t for t in titles if t), None),
        authors=authors,
        url=attrs.get("url"),
        venue=container.get("title") or (publisher if isinstance(publisher, str) else None),
        year=attrs.get("publicationYear"),
        doi=doi,
        arxiv_id=arxiv_from_doi(doi_c),
        type=str(kind).lower() if kind else None,
        found_by=found_by,
    )


class DataCite:
    name = "datacite"

    def can_lookup(self, reference: Reference) -> bool:
        return bool(canonical_doi(reference.doi))

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        return doi_of(reference)

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        doi = canonical_doi(reference.doi)
        if not doi:
            return []
        data = await call.json(f"dois/{quote(doi, safe=SAFE)}", not_found=NOT_FOUND)
        if data is None:
            return []
        cand = from_record(record_reply(self.name, data, "data"), found_by="doi")
        if cand is None:
            raise no_record(self.name)
        return [cand]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        data = await call.json("dois", {"query": f"titles.title:({query})", "page[size]": SEARCH_ROWS}, search=True)
        return [c for c in (from_record(d) for d in envelope(self.name, data, "data") or []) if c]
