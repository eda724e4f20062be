"""arXiv export API (Atom XML): ids (new-style, old-style, versioned) and title search.

`/api/query?id_list=` for ids (many at once, comma-separated), `/api/query?search_query=ti:"..."`
for a search. A malformed id comes back as an entry titled "Error"; it is not a record.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from citetracer.collect.connectors import SEARCH_ROWS, candidate, people, query_of
from citetracer.collect.http import Call, SourceFailure
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference

NS = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
#: Ids per `id_list` request: one reply of at most this many entries.
BATCH = 100


def _text(el: ET.Element, path: str) -> str | None:
    found = el.find(path, NS)
    return " ".join(found.text.split()) if found is not None and found.text else None


def from_feed(root: ET.Element, found_by: str) -> list[Candidate]:
    out = []
    for entry in root.findall("a:entry", NS):
        url = _text(entry, "a:id") or ""
        arxiv = canonical_arxiv(url)
        if not arxiv or "api/errors" in url:
            continue
        names = [_text(a, "a:name") for a in entry.findall("a:author", NS)]
        journal = _text(entry, "arxiv:journal_ref")
        out.append(
            candidate(
                "arxiv",
                arxiv,
                title=_text(entry, "a:title"),
                authors=people(names),
                url=f"https://arxiv.org/abs/{arxiv}",
                venue="arXiv",
                venue_full=journal,
                year=(_text(entry, "a:published") or "")[:4],
                doi=_text(entry, "arxiv:doi"),
                arxiv_id=arxiv,
                type="preprint",
                found_by=found_by,
            )
        )
    return out


def _feed(source: str, root: ET.Element | None) -> ET.Element:
    """The reply as an Atom feed; anything else (an HTML error page, another document) is a failure."""
    if root is None or root.tag != "{http://www.w3.org/2005/Atom}feed":
        raise SourceFailure(source, "id_list reply is not an Atom feed", retry=False)
    for entry in root.findall("a:entry", NS):
        if "api/errors" in (_text(entry, "a:id") or ""):
            # arXiv refuses an id it cannot parse (with a 400, caught before): no answer about the id.
            raise SourceFailure(source, f"arXiv refused the id list: {_text(entry, 'a:summary')}", retry=False)
    return root


def arxiv_id_of(reference: Reference) -> str | None:
    return canonical_arxiv(reference.arxiv_id) or arxiv_from_doi(canonical_doi(reference.doi))


class Arxiv:
    name = "arxiv"

    def can_lookup(self, reference: Reference) -> bool:
        return arxiv_id_of(reference) is not None

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        ident = arxiv_id_of(reference)
        return ("arxiv", ident) if ident else None

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        ident = arxiv_id_of(reference)
        return await self.by_id(ident, call) if ident else []

    async def by_id(self, ident: str, call: Call) -> list[Candidate]:
        """The record of one id; [] only for arXiv's own answer that it issued no such id (an Atom feed
        without entries), since that answer is complete for arXiv ids (collect/lookups.py). arXiv
        never answers an id with a 404 or another document: those are failures, never "none"."""
        root = await call.xml("api/query", {"id_list": ident, "max_results": 1}, search=True)
        return from_feed(_feed(self.name, root), "arxiv")

    async def by_ids(self, idents: list[str], call: Call) -> dict[str, list[Candidate]]:
        """Many (canonical, valid) ids in one request: each id's candidates, [] where arXiv has none.

        One malformed id makes arXiv refuse the whole list, so callers pass only ids
        `canonical_arxiv` accepted and fall back to `by_id` when the batch fails.
        """
        root = await call.xml("api/query", {"id_list": ",".join(idents), "max_results": len(idents)}, search=True)
        found: dict[str, list[Candidate]] = {}
        for cand in from_feed(_feed(self.name, root), "arxiv"):
            found.setdefault(cand.arxiv_id or "", []).append(cand)
        return {ident: found.get(ident, [])[:1] for ident in idents}

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        words = re.sub(r"[^\w\s-]", " ", query).split()
        params = {"search_query": f'ti:"{" ".join(words)}"', "max_results": SEARCH_ROWS}
        root = await call.xml("api/query", params, search=True)
        if root is not None and root.tag != "{http://www.w3.org/2005/Atom}feed":
            raise SourceFailure(self.name, f"reply is not an Atom feed ({root.tag[:40]})", retry=False)
        return from_feed(root, "search") if root is not None else []
