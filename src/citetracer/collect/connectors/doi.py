"""doi.org content negotiation: any registered DOI (Crossref, DataCite, mEDRA, ...) as CSL-JSON.

One request to the resolver with `Accept: application/vnd.citationstyles.csl+json`;
the resolver redirects to the registration agency, which answers. A 404 means
the DOI is not registered anywhere.
"""

from __future__ import annotations

from urllib.parse import quote

from citetracer.collect.connectors import SAFE, SearchOnly
from citetracer.collect.connectors.crossref import from_work
from citetracer.collect.http import Call
from citetracer.match.normalize import arxiv_from_doi, canonical_doi
from citetracer.records import Candidate, Reference

CSL_JSON = "application/vnd.citationstyles.csl+json"


class DoiResolver(SearchOnly):
    name = "doi"

    def can_lookup(self, reference: Reference) -> bool:
        return bool(canonical_doi(reference.doi))

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        doi = canonical_doi(reference.doi)
        return await self.by_id(doi, call) if doi else []

    async def by_id(self, doi: str, call: Call) -> list[Candidate]:
        data = await call.json(quote(doi, safe=SAFE), accept=CSL_JSON)
        if not isinstance(data, dict):
            return []
        cand = from_work(data, source="doi", found_by="doi")
        if cand is None:
            return []
        if cand.arxiv_id is None and arxiv_from_doi(cand.doi):
            cand = cand.model_copy(update={"arxiv_id": arxiv_from_doi(cand.doi)})
        return [cand]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        return []
