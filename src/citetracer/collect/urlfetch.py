"""URL Fetch stage: resolve the identifiers a citation carries into candidates.

DOIs go to their registration agency's API first (DataCite for the prefixes
registered there, data/doi_registrants.tsv; Crossref for the rest), and to doi.org
content negotiation (CSL-JSON; any agency) when the agency has no record or
failed. arXiv ids go to the arXiv API. Every lookup leaves its typed answer
(work / none / failed, and whether the registry is complete for the identifier)
on its outcome (collect/lookups.py). URLs of known
services (doi.org, arxiv.org, openreview.net, aclanthology.org, dblp.org,
PubMed, PMC, Europe PMC) are turned into those services' lookups at their
configured (trusted) base URLs; any other URL is an untrusted landing page,
fetched through the SSRF guard and read for citation_* / Dublin Core / JSON-LD
metadata.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from citetracer.collect.connectors.acl import ANTHOLOGY_ID, AclAnthology
from citetracer.collect.connectors.arxiv import BATCH as ARXIV_BATCH
from citetracer.collect.connectors.arxiv import Arxiv, arxiv_id_of
from citetracer.collect.connectors.crossref import Crossref
from citetracer.collect.connectors.datacite import DataCite
from citetracer.collect.connectors.dblp import from_record_xml
from citetracer.collect.connectors.doi import DoiResolver
from citetracer.collect.connectors.europepmc import EuropePmc
from citetracer.collect.connectors.openreview import OpenReview
from citetracer.collect.connectors.pubmed import PubMed
from citetracer.collect.consult import Ask, consult
from citetracer.collect.http import Call, HttpClient, SourceFailure
from citetracer.collect.landing import page_candidate
from citetracer.collect.lookups import doi_agency
from citetracer.collect.memo import EvidenceMemo
from citetracer.collect.replies import answers_arxiv, answers_doi
from citetracer.collect.stage import EvidenceBundle, HttpStage, budget_end
from citetracer.config import Settings
from citetracer.normalize.text import canonical_arxiv, canonical_doi
from citetracer.records import Candidate, IdentifierKind, Reference
from citetracer.sources import url_routes

PageReader = Callable[[str, str], Awaitable[Candidate | None]]

#: Known services' URLs -> (source, id pattern), from the source registry (sources.py); the id is
#: looked up at the source's configured base.
URL_ROUTES: tuple[tuple[str, re.Pattern[str]], ...] = url_routes()


@dataclass
class Lookup:
    """One identifier to resolve: which source, how, and what the report calls it."""

    source: str
    ask: Ask
    label: str
    #: The identifier (arXiv lookups: what `prefetch` batches).
    ident: str | None = None
    #: The question for the evidence memo: the identifier itself, shared by every citation carrying it.
    subject: str = ""
    #: The cited identifier as its typed answer is recorded (collect/lookups.py): kind and canonical value.
    identifier: tuple[IdentifierKind, str] | None = None


class UrlFetchStage(HttpStage):
    """Resolves the identifiers a citation carries; `prefetch` batches a paper's arXiv ids."""

    name = "url"

    def __init__(self, settings: Settings, http: HttpClient) -> None:
        self.settings = settings
        self.http = http
        #: Reads a page without bibliographic metadata (the Web Agent, when an LLM is configured).
        self.page_reader: PageReader | None = None
        self.doi = DoiResolver()
        self.crossref = Crossref()
        self.datacite = DataCite()
        self.arxiv = Arxiv()
        self.by_url: dict[str, ResolvesIds] = {
            "openreview": OpenReview(),
            "acl": AclAnthology(),
            "pubmed": PubMed(),
            "europepmc": EuropePmc(),
        }
        #: arXiv id -> its candidates, from the paper's batched id_list requests (see prefetch).
        self._arxiv_batch: dict[str, list[Candidate]] = {}
        #: The checker's evidence memo: prefetch leaves out ids it holds fresh answers for, and
        #: does nothing offline (set by online_stages; None: no memo).
        self.memo: EvidenceMemo | None = None

    async def prefetch(self, refs: Sequence[Reference]) -> None:
        """Look up the arXiv ids of all of a paper's citations in `id_list` batches, up front.

        arXiv asks for one request every three seconds: asked citation by citation, most
        lookups would fall outside the rate budget. One request for the whole paper waits its
        turn like any primary evidence; a failed batch leaves each citation to ask on its own.
        """
        self._arxiv_batch = {}
        base = self._base("arxiv")
        memo = self.memo
        if memo is not None and not memo.network:
            return
        ids = sorted(
            {
                lk.ident
                for r in refs
                for lk in self.lookups(r)
                if lk.source == "arxiv" and lk.ident and not (memo and memo.fresh("arxiv", lk.subject))
            }
        )
        if len(ids) < 2 or not base:
            return
        for i in range(0, len(ids), ARXIV_BATCH):
            call = self.http.call("arxiv", base)
            try:
                self._arxiv_batch.update(await self.arxiv.by_ids(ids[i : i + ARXIV_BATCH], call))
            except SourceFailure:
                continue

    async def _arxiv_by_id(self, ident: str, call: Call) -> list[Candidate]:
        if ident in self._arxiv_batch:
            return self._arxiv_batch[ident]
        return await self.arxiv.by_id(ident, call)

    def lookups(self, ref: Reference) -> list[Lookup]:
        out: list[Lookup] = []
        doi = canonical_doi(ref.doi)
        if doi:
            out.append(
                Lookup(
                    "doi", partial(_by_id, self.doi, doi), f"DOI {doi}", subject=f"doi:{doi}", identifier=("doi", doi)
                )
            )
        arxiv = canonical_arxiv(ref.arxiv_id)
        if arxiv and arxiv != arxiv_id_of(ref.model_copy(update={"arxiv_id": None})):
            batched = " (the paper's batched request)" if arxiv in self._arxiv_batch else ""
            out.append(
                Lookup(
                    "arxiv",
                    partial(self._arxiv_by_id, arxiv),
                    f"arXiv {arxiv}{batched}",
                    arxiv,
                    f"arxiv:{arxiv}",
                    ("arxiv", arxiv),
                )
            )
        url = (ref.url or "").strip()
        if url:
            routed = self._route_url(url, doi, arxiv)
            if routed is not None:
                out.append(routed)
            elif self.settings.online.fetch_pages and not url.lower().endswith((".pdf", ".zip", ".tar.gz")):
                out.append(
                    Lookup(
                        "web",
                        partial(self._landing, url),
                        f"page {url[:80]}",
                        subject=f"url:{url}",
                        identifier=("url", url),
                    )
                )
        return out

    def _route_url(self, url: str, doi: str | None, arxiv: str | None) -> Lookup | None:
        for source, pattern in URL_ROUTES:
            m = pattern.search(url)
            if not m:
                continue
            ident = m.group(1)
            if source == "doi":
                d = canonical_doi(ident)
                if not d or d == doi:
                    return Lookup("doi", _nothing, "") if d == doi else None
                return Lookup(
                    "doi", partial(_by_id, self.doi, d), f"DOI {d} (URL)", subject=f"doi:{d}", identifier=("doi", d)
                )
            if source == "arxiv":
                a = canonical_arxiv(ident)
                if not a or a == arxiv or (doi and doi.endswith(a)):
                    return Lookup("arxiv", _nothing, "") if a else None
                return Lookup("arxiv", partial(self._arxiv_by_id, a), f"arXiv {a} (URL)", a, f"arxiv:{a}", ("arxiv", a))
            if source == "acl" and not ANTHOLOGY_ID.match(ident):
                return None
            cited: tuple[IdentifierKind, str] = ("pmid", ident) if source == "pubmed" else ("url", url)
            if source == "dblp":
                return Lookup(
                    "dblp",
                    partial(self._dblp_record, ident),
                    f"DBLP {ident}",
                    subject=f"dblp:{ident}",
                    identifier=cited,
                )
            connector = self.by_url[source]
            return Lookup(
                source, partial(_by_id, connector, ident), f"{source} {ident}", subject=f"id:{ident}", identifier=cited
            )
        return None

    async def _landing(self, url: str, call: Call) -> list[Candidate]:
        resp = await call.get(url, accept="text/html,application/xhtml+xml", trusted=False)
        if resp.status == 404:
            return []
        cand = page_candidate(resp.text(), url)
        if cand is None and self.page_reader is not None:
            cand = await self.page_reader(url, resp.text())
        return [cand] if cand else []

    async def _dblp_record(self, key: str, call: Call) -> list[Candidate]:
        root = await call.xml(f"rec/{key}.xml")
        return from_record_xml(root) if root is not None else []

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        todo = [lk for lk in self.lookups(reference) if lk.label]
        if not todo:
            return
        deadline = time.monotonic() + self.settings.online.deadline
        start = budget_end(bundle, self.settings.online.rate_budget)
        await asyncio.gather(*(self._run(lk, reference, bundle, deadline, start) for lk in todo))

    async def _run(
        self, lookup: Lookup, reference: Reference, bundle: EvidenceBundle, deadline: float, start_by: float | None
    ) -> None:
        if lookup.source != "doi":
            await consult(
                self.http,
                lookup.source,
                self._base(lookup.source),
                lookup.ask,
                bundle,
                deadline,
                lookup.label,
                start_by,
                subject=lookup.subject,
                check=answers_arxiv(lookup.ident) if lookup.source == "arxiv" and lookup.ident else None,
                identifier=lookup.identifier,
            )
            return
        # A DOI: ask its registration agency's API first (one request: DataCite for the prefixes
        # data/doi_registrants.tsv says register there, arXiv's and Zenodo's, else Crossref), and
        # the doi.org resolver (which knows every agency, at the cost of a redirect) only when the
        # agency does not know the DOI or failed.
        doi = lookup.identifier[1] if lookup.identifier else lookup.label.split()[1]
        agency = self.datacite if doi_agency(doi) == "datacite" else self.crossref
        cited = agency.identifier(Reference(doi=doi))
        # The cited DOI is primary evidence (R via the DOI, H5 when it does not resolve), and its
        # services are fast ones: these requests wait for their turn, outside the rate budget.
        found = await consult(
            self.http,
            agency.name,
            self._base(agency.name),
            partial(agency.lookup, Reference(doi=doi)),
            bundle,
            deadline,
            lookup.label,
            subject=lookup.subject,
            check=answers_doi(doi),
            identifier=cited,
        )
        if found:
            return
        why = f"{lookup.label} ({agency.name} {'has no record' if found is not None else 'failed'})"
        await consult(
            self.http,
            "doi",
            self._base("doi"),
            lookup.ask,
            bundle,
            deadline,
            why,
            subject=lookup.subject,
            check=answers_doi(doi),
            identifier=lookup.identifier,
        )

    def _base(self, source: str) -> str:
        if source == "web":
            return "untrusted:"
        return self.settings.sources.get(source, "")


async def _nothing(call: Call) -> list[Candidate]:
    return []


class ResolvesIds(Protocol):
    async def by_id(self, ident: str, call: Call) -> list[Candidate]: ...


async def _by_id(source: ResolvesIds, ident: str, call: Call) -> list[Candidate]:
    return await source.by_id(ident, call)


__all__ = ["SourceFailure", "UrlFetchStage"]
