"""Web Search stage: a web search for the citation, result pages read for their metadata.

The provider is pluggable (`SearchProvider`); SearXNG's JSON API
(`/search?q=...&format=json`) is the one built in. Disabled unless a provider
is configured (`sources.searxng`). Result URLs are untrusted: pages of known
services become those services' lookups, any other page is fetched through
the SSRF guard and read for citation_* / Dublin Core / JSON-LD metadata.
"""

from __future__ import annotations

import time
from typing import Protocol

from citetracer.collect.connectors import envelope
from citetracer.collect.consult import consult
from citetracer.collect.http import Call, HttpClient
from citetracer.collect.stage import HttpStage
from citetracer.collect.urlfetch import UrlFetchStage
from citetracer.config import Settings
from citetracer.evidence import EvidenceBundle
from citetracer.records import Candidate, Reference

#: Result pages read per citation.
MAX_PAGES = 3


class SearchProvider(Protocol):
    name: str

    async def search(self, query: str, call: Call) -> list[str]:
        """Result URLs, best first."""
        ...


class SearxNG:
    name = "searxng"

    async def search(self, query: str, call: Call) -> list[str]:
        """The result URLs of a SearXNG query (its JSON API)."""
        data = await call.json("search", {"q": query, "format": "json"}, search=True)
        results = envelope(self.name, data, "results") or []
        return [r["url"] for r in results if isinstance(r, dict) and isinstance(r.get("url"), str)]


def web_query(reference: Reference) -> str | None:
    """The web query of a citation: its quoted title and first author's surname; None without a title."""
    title = " ".join((reference.title or "").split())
    if not title:
        return None
    author = reference.authors[0].family if reference.authors else ""
    return f'"{title[:200]}" {author}'.strip()


class WebSearchStage(HttpStage):
    name = "web"

    def __init__(self, settings: Settings, http: HttpClient, url_stage: UrlFetchStage) -> None:
        self.settings = settings
        self.http = http
        self.url_stage = url_stage
        self.provider: SearchProvider = SearxNG()

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """Candidates from the pages a web search finds for the citation, read as the URL Fetch stage reads a cited
        URL.
        """
        base = self.settings.sources.get(self.provider.name, "")
        query = web_query(reference)
        if not base or not query:
            return
        deadline = time.monotonic() + self.settings.online.deadline
        urls: list[str] = []

        async def ask(call: Call) -> list[Candidate]:
            urls.extend((await self.provider.search(query, call))[:MAX_PAGES])
            return []

        # The answer is result URLs, not candidates: it cannot be replayed from the memo.
        why = f"query {query[:60]}"
        if await consult(self.http, self.provider.name, base, ask, bundle, deadline, why, memo=False) is None:
            return
        for url in urls:
            for lookup in self.url_stage.lookups(Reference(url=url)):
                if lookup.label:
                    await consult(
                        self.http,
                        lookup.source,
                        self.url_stage._base(lookup.source),
                        lookup.ask,
                        bundle,
                        deadline,
                        f"search result {url[:80]}",
                        subject=lookup.subject,
                    )
