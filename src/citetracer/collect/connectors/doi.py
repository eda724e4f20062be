"""doi.org content negotiation: any registered DOI (Crossref, DataCite, mEDRA, ...) as CSL-JSON.

One request to the resolver with `Accept: application/vnd.citationstyles.csl+json`;
the resolver redirects to the registration agency, which answers. The resolver's
own 404 ("DOI Not Found") means the DOI is not registered anywhere; any other
reply without a record is a failure.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from citetracer.collect.connectors import SAFE, SearchOnly, doi_of, no_record, record_reply
from citetracer.collect.connectors.crossref import from_work
from citetracer.collect.http import Call
from citetracer.normalize.text import arxiv_from_doi, canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference

CSL_JSON = "application/vnd.citationstyles.csl+json"
#: What the resolver's own 404 page says (recorded reply: "<title>Error: DOI Not Found</title>"). A 404
#: without it is not the resolver (a wrong base URL, or an agency that cannot answer for a DOI it holds).
NOT_FOUND = re.compile(rb"DOI Not Found", re.I)


class DoiResolver(SearchOnly):
    name = "doi"

    def can_lookup(self, reference: Reference) -> bool:
        return bool(canonical_doi(reference.doi))

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        return doi_of(reference)

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        doi = canonical_doi(reference.doi)
        return await self.by_id(doi, call) if doi else []

    async def by_id(self, doi: str, call: Call) -> list[Candidate]:
        data = await call.json(quote(doi, safe=SAFE), accept=CSL_JSON, not_found=NOT_FOUND)
        if data is None:
            return []
        cand = from_work(record_reply(self.name, data), source="doi", found_by="doi")
        if cand is None:
            raise no_record(self.name)
        if cand.arxiv_id is None and arxiv_from_doi(cand.doi):
            cand = cand.model_copy(update={"arxiv_id": arxiv_from_doi(cand.doi)})
        return [cand]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        return []
