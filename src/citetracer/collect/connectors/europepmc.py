"""Europe PMC REST search: biomedical literature incl. preprints and PMC full texts.

`/search?query=TITLE:"..."&format=json&resultType=lite`; PMIDs and PMCIDs are
looked up with `EXT_ID:` and `PMCID:` queries.
"""

from __future__ import annotations

from typing import Any

from citetracer.collect.connectors import SEARCH_ROWS, SearchOnly, candidate, envelope, people, query_of
from citetracer.collect.http import Call
from citetracer.records import Candidate, Reference


def from_result(r: dict[str, Any], found_by: str) -> Candidate | None:
    if not isinstance(r, dict) or not r.get("id"):
        return None
    names = [n.strip() for n in str(r.get("authorString") or "").rstrip(".").split(",")]
    source = r.get("source") or "MED"
    return candidate(
        "europepmc",
        f"{source}/{r['id']}",
        title=str(r.get("title") or "").rstrip(".") or None,
        authors=people(_swap(n) for n in names if n),
        url=f"https://europepmc.org/article/{source}/{r['id']}",
        venue=r.get("journalTitle") or r.get("bookOrReportDetails", {}).get("publisher"),
        year=r.get("pubYear"),
        doi=r.get("doi"),
        type="preprint" if source == "PPR" else "article",
        found_by=found_by,
        pages=r.get("pageInfo"),
        volume=r.get("journalVolume"),
        issue=r.get("issue"),
    )


def _swap(name: str) -> str:
    """'Smith JA' -> 'J. A. Smith' so the shared name parser reads it."""
    family, _, initials = name.rpartition(" ")
    if family and initials.isupper() and len(initials) <= 4:
        return " ".join(f"{c}." for c in initials) + " " + family
    return name


class EuropePmc(SearchOnly):
    name = "europepmc"

    async def query(self, query: str, call: Call, found_by: str) -> list[Candidate]:
        params = {"query": query, "format": "json", "resultType": "lite", "pageSize": SEARCH_ROWS}
        data = await call.json("search", params, search=True)
        results = envelope(self.name, data, "resultList").get("result") or []
        return [c for c in (from_result(r, found_by) for r in results) if c]

    async def by_id(self, ident: str, call: Call) -> list[Candidate]:
        field = "PMCID" if ident.upper().startswith("PMC") else "EXT_ID"
        return await self.query(f"{field}:{ident}", call, "pmid")

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        title = query_of(reference)
        if not title:
            return []
        return await self.query(f'TITLE:"{title.replace(chr(34), " ")}"', call, "search")
