"""OpenAlex: nearly every scholarly work, with DOIs, venues and authors.

`/works/doi:{doi}` for a DOI, `/works?search=` for a search.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from citetracer.collect.connectors import (
    SAFE,
    SEARCH_ROWS,
    candidate,
    count_of,
    doi_of,
    envelope,
    no_record,
    people,
    query_of,
    record_reply,
)
from citetracer.collect.http import Call
from citetracer.normalize.text import canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference

SELECT = "id,doi,title,display_name,publication_year,type,authorships,primary_location,biblio,ids"


def from_work(work: dict[str, Any], found_by: str = "search") -> Candidate | None:
    if not isinstance(work, dict) or not work.get("id"):
        return None
    names = [((a or {}).get("author") or {}).get("display_name") for a in work.get("authorships") or []]
    location = work.get("primary_location") or {}
    venue = (location.get("source") or {}).get("display_name")
    biblio = work.get("biblio") or {}
    first, last = biblio.get("first_page"), biblio.get("last_page")
    pages = f"{first}-{last}" if first and last else first
    short_id = str(work["id"]).rsplit("/", 1)[-1]
    return candidate(
        "openalex",
        short_id,
        title=work.get("title") or work.get("display_name"),
        authors=people(names),
        url=str(work["id"]),
        venue=venue,
        venue_full=venue,
        year=work.get("publication_year"),
        doi=work.get("doi"),
        arxiv_id=(work.get("ids") or {}).get("arxiv"),
        type=work.get("type"),
        found_by=found_by,
        pages=pages,
        volume=biblio.get("volume"),
        issue=biblio.get("issue"),
    )


class OpenAlex:
    name = "openalex"

    def _params(self, call: Call, **extra: Any) -> dict[str, Any]:
        return {
            "select": SELECT,
            "mailto": call.http.mailto,
            "api_key": call.http.settings.keys.get(self.name),
            **extra,
        }

    def can_lookup(self, reference: Reference) -> bool:
        return bool(canonical_doi(reference.doi))

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        return doi_of(reference)

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        doi = canonical_doi(reference.doi)
        if not doi:
            return []
        data = await call.json(f"works/doi:{quote(doi, safe=SAFE)}", self._params(call))
        if data is None:
            return []
        cand = from_work(record_reply(self.name, data), found_by="doi")
        if cand is None:
            raise no_record(self.name)
        return [cand]

    async def venues(self, query: str, call: Call) -> list[str]:
        """The names (display, alternate and abbreviated titles) of the sources OpenAlex's list of journals,
        conferences and repositories returns for a venue name (`/sources?search=`; connectors.VenueList)."""
        params = {"search": query[:200], "per-page": SEARCH_ROWS, "mailto": call.http.mailto}
        data = await call.json("sources", params, search=True)
        call.total = count_of((data.get("meta") or {}).get("count") if isinstance(data, dict) else None)
        names: list[str] = []
        for source in envelope(self.name, data, "results") or []:
            if not isinstance(source, dict):
                continue
            for value in (
                source.get("display_name"),
                source.get("abbreviated_title"),
                *(source.get("alternate_titles") or []),
            ):
                if isinstance(value, str) and value.strip() and value not in names:
                    names.append(value.strip())
        return names

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        data = await call.json("works", self._params(call, search=query, **{"per-page": SEARCH_ROWS}), search=True)
        call.total = count_of((data.get("meta") or {}).get("count") if isinstance(data, dict) else None)
        return [c for c in (from_work(w) for w in envelope(self.name, data, "results") or []) if c]
