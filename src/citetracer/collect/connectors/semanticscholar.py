"""Semantic Scholar Graph API v1 (optional API key in the x-api-key header).

`/paper/DOI:{doi}` or `/paper/ARXIV:{id}` for identifiers, `/paper/search` for a search.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from citetracer.collect.connectors import (
    SAFE,
    SEARCH_ROWS,
    candidate,
    count_of,
    envelope,
    no_record,
    people,
    query_of,
    record_reply,
)
from citetracer.collect.http import Call
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference

FIELDS = "title,authors,year,venue,externalIds,url,publicationTypes,journal"


def from_paper(paper: dict[str, Any], found_by: str = "search") -> Candidate | None:
    if not isinstance(paper, dict) or not paper.get("paperId"):
        return None
    ext = paper.get("externalIds") or {}
    journal = paper.get("journal") or {}
    types = paper.get("publicationTypes") or []
    return candidate(
        "semanticscholar",
        paper["paperId"],
        title=paper.get("title"),
        authors=people(a.get("name") for a in paper.get("authors") or [] if isinstance(a, dict)),
        url=paper.get("url"),
        venue=paper.get("venue") or journal.get("name"),
        venue_full=journal.get("name") or paper.get("venue"),
        year=paper.get("year"),
        doi=ext.get("DOI"),
        arxiv_id=ext.get("ArXiv"),
        type=types[0] if types else None,
        found_by=found_by,
        pages=journal.get("pages"),
        volume=journal.get("volume"),
    )


class SemanticScholar:
    name = "semanticscholar"

    def _prepare(self, call: Call) -> None:
        key = call.http.settings.keys.get(self.name)
        if key:
            call.headers["x-api-key"] = key

    def _ident(self, reference: Reference) -> str | None:
        doi = canonical_doi(reference.doi)
        arxiv = canonical_arxiv(reference.arxiv_id) or arxiv_from_doi(doi)
        if arxiv:
            return f"ARXIV:{arxiv}"
        return f"DOI:{doi}" if doi else None

    def can_lookup(self, reference: Reference) -> bool:
        return self._ident(reference) is not None

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        ident = self._ident(reference)
        if ident is None:
            return None
        kind, _, value = ident.partition(":")
        return ("arxiv", value) if kind == "ARXIV" else ("doi", value)

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        ident = self._ident(reference)
        if not ident:
            return []
        self._prepare(call)
        data = await call.json(f"paper/{quote(ident, safe=SAFE)}", {"fields": FIELDS})
        if data is None:
            return []
        cand = from_paper(record_reply(self.name, data), found_by=ident.split(":", 1)[0].lower())
        if cand is None:
            raise no_record(self.name)
        return [cand]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        self._prepare(call)
        data = await call.json("paper/search", {"query": query, "limit": SEARCH_ROWS, "fields": FIELDS}, search=True)
        call.total = count_of(envelope(self.name, data, "total"))  # an empty result has no "data" at all
        return [c for c in (from_paper(p) for p in data.get("data") or []) if c]
