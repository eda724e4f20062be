"""NCBI E-utilities (PubMed): biomedical literature.

A search is `esearch.fcgi?db=pubmed&term=...[Title]` (PMIDs) followed by
`esummary.fcgi` for those PMIDs (records); a PMID from a URL needs only the
second call. JSON replies (`retmode=json`); an NCBI key raises the polite rate.
"""

from __future__ import annotations

from typing import Any

from citetracer.collect.connectors import SearchOnly, candidate, envelope, person, query_of
from citetracer.collect.http import Call, SourceFailure
from citetracer.records import Candidate, Person, Reference

ROWS = 5


def _person(name: str) -> Person | None:
    """PubMed summary names are 'Family Initials' ('Olivero JM')."""
    family, _, initials = name.rpartition(" ")
    if family and initials.isupper() and len(initials) <= 4:
        return person(" ".join(f"{c}." for c in initials), family)
    return person(None, name)


def from_summary(uid: str, doc: dict[str, Any], found_by: str) -> Candidate | None:
    if not isinstance(doc, dict) or not doc.get("title"):
        return None
    authors = [p for p in (_person(a.get("name", "")) for a in doc.get("authors") or [] if isinstance(a, dict)) if p]
    ids = {i.get("idtype"): i.get("value") for i in doc.get("articleids") or [] if isinstance(i, dict)}
    return candidate(
        "pubmed",
        uid,
        title=str(doc["title"]).rstrip("."),
        authors=authors,
        url=f"https://pubmed.ncbi.nlm.nih.gov/{uid}/",
        venue=doc.get("source"),
        venue_full=doc.get("fulljournalname"),
        year=doc.get("pubdate"),
        doi=ids.get("doi"),
        type="article",
        found_by=found_by,
        pages=doc.get("pages"),
        volume=doc.get("volume"),
        issue=doc.get("issue"),
    )


class PubMed(SearchOnly):
    name = "pubmed"

    def _params(self, call: Call, **extra: Any) -> dict[str, Any]:
        return {"db": "pubmed", "retmode": "json", "api_key": call.http.settings.keys.get(self.name), **extra}

    async def by_id(self, pmids: str, call: Call, found_by: str = "pmid") -> list[Candidate]:
        data = await call.json("esummary.fcgi", self._params(call, id=pmids))
        result = (data or {}).get("result") or {}
        if not isinstance(result, dict):
            raise SourceFailure(self.name, "esummary reply without a result")
        return [c for c in (from_summary(u, result.get(u) or {}, found_by) for u in result.get("uids") or []) if c]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        data = await call.json("esearch.fcgi", self._params(call, term=f"{query}[Title]", retmax=ROWS), search=True)
        ids = envelope(self.name, data, "esearchresult").get("idlist") or []
        if not ids:
            return []
        return await self.by_id(",".join(str(i) for i in ids[:ROWS]), call, found_by="search")
