"""Web Agent: a candidate record from a web page's text when the page has no metadata.

URL Fetch and Web Search read citation_* tags, Dublin Core and JSON-LD first
(`collect.landing.page_candidate`); only a page without any of them reaches
the agent (`UrlFetchStage.page_reader`). The agent sees the page's visible
text (bounded, quoted as data) and never the citation, so it cannot copy the
cited record back as "evidence"; and every value it returns must be in the
page text (`llm.untrusted.grounded`), the title word for word.
"""

from __future__ import annotations

from html.parser import HTMLParser

from citetracer.collect.stage import AGENT_CALLS
from citetracer.llm.client import LLMClient
from citetracer.llm.prompts import load_prompt
from citetracer.llm.schemas import WebReply
from citetracer.llm.untrusted import grounded, quote
from citetracer.normalize.text import canonical_arxiv, canonical_doi
from citetracer.records import Candidate, Person

#: Characters of visible page text sent to the model (a landing page's record is near the top).
MAX_PAGE_CHARS = 12_000
#: Pages with less visible text than this describe nothing.
MIN_PAGE_CHARS = 40
MAX_HTML = 2_000_000


class _Visible(HTMLParser):
    SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.depth = 0
        self.size = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and self.size < MAX_PAGE_CHARS:
            text = " ".join(data.split())
            if text:
                self.parts.append(text)
                self.size += len(text) + 1


def visible_text(html: str) -> str:
    """The text a reader of the page sees (no scripts, styles or markup), bounded for a prompt."""
    parser = _Visible()
    parser.feed(html[:MAX_HTML])
    parser.close()
    return " ".join(parser.parts)[:MAX_PAGE_CHARS]


class WebAgent:
    def __init__(self, client: LLMClient) -> None:
        self.client = client

    async def read_page(self, url: str, html: str) -> Candidate | None:
        """The work the page describes, or None (not a record, no valid reply, or values not on the page)."""
        text = visible_text(html)
        if len(text) < MIN_PAGE_CHARS:
            return None
        user = "Extract the record this page describes.\n" + quote("page", {"url": url, "text": text})
        result = await self.client.ask("web", load_prompt("web"), WebReply, user)
        ledger = AGENT_CALLS.get()
        if ledger is not None:
            ledger.append(result.call)
        reply = result.value
        if reply is None or not reply.is_record or not reply.title:
            return None
        if not grounded(reply.title, text, 1.0):
            result.call.status, result.call.detail = "rejected", "the title is not on the page"
            return None
        doi = canonical_doi(reply.doi) if reply.doi and reply.doi.lower() in text.lower() else None
        arxiv = canonical_arxiv(reply.arxiv_id) if reply.arxiv_id and reply.arxiv_id in text else None
        return Candidate(
            source="web",
            id=url,
            url=url,
            title=reply.title,
            authors=[Person(given=p.given, family=p.family) for p in reply.authors if grounded(p.family, text, 1.0)],
            year=reply.year if reply.year is not None and str(reply.year) in text else None,
            venue=reply.venue if reply.venue and grounded(reply.venue, text) else None,
            doi=doi,
            arxiv_id=arxiv,
            type=reply.type,
            found_by="web-agent",
        )
