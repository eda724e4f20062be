"""ACL Anthology: papers of ACL venues, by Anthology id (no search API exists).

An id comes from an aclanthology.org URL or an ACL DOI (10.18653/v1/<id>);
`/{id}.bib` returns the paper's BibTeX, read with the project's own reader.
"""

from __future__ import annotations

import re

from citetracer.collect.connectors import SearchOnly, candidate
from citetracer.collect.http import Call, SourceFailure
from citetracer.extract import read_bibtex
from citetracer.normalize.text import canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference

ANTHOLOGY_ID = re.compile(r"^(?:[A-Z]\d{2}-\d{4}|\d{4}\.[a-z0-9-]+\.\d+)$", re.IGNORECASE)


def anthology_id(reference: Reference) -> str | None:
    doi = canonical_doi(reference.doi)
    if doi and doi.startswith("10.18653/v1/"):
        ident = doi.removeprefix("10.18653/v1/")
        return ident.upper() if re.match(r"^[a-z]\d{2}-", ident) else ident
    url = reference.url or ""
    m = re.search(r"aclanthology\.org/([^/?#\s]+?)(?:\.pdf|\.bib)?/?(?:[?#]|$)", url)
    return m.group(1) if m and ANTHOLOGY_ID.match(m.group(1)) else None


class AclAnthology(SearchOnly):
    name = "acl"

    def can_lookup(self, reference: Reference) -> bool:
        return anthology_id(reference) is not None

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        """The ACL DOI the Anthology id comes from, else the cited Anthology URL."""
        if anthology_id(reference) is None:
            return None
        doi = canonical_doi(reference.doi)
        if doi and doi.startswith("10.18653/v1/"):
            return ("doi", doi)
        return ("url", (reference.url or "").strip())

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        ident = anthology_id(reference)
        return await self.by_id(ident, call) if ident else []

    async def by_id(self, ident: str, call: Call) -> list[Candidate]:
        if not ANTHOLOGY_ID.match(ident):
            return []
        resp = await call.get(f"{ident}.bib", accept="application/x-bibtex")
        if resp.status == 404:
            return []
        refs = read_bibtex(resp.text()).references
        if not refs:
            raise SourceFailure(self.name, "reply is not BibTeX")
        r = refs[0]
        return [
            candidate(
                self.name,
                ident,
                title=r.title,
                authors=r.authors,
                url=r.url or call.url(ident),
                venue=r.venue,
                year=r.year,
                doi=r.doi,
                type=r.type,
                found_by="acl-id",
                pages=r.pages,
                publisher=r.publisher,
            )
        ]
