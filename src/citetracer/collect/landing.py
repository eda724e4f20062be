"""Bibliographic metadata from a landing page: citation_* meta tags, Dublin Core, JSON-LD.

Publishers' pages carry Highwire-style `citation_title` / `citation_author`
tags (what Google Scholar reads), many carry Dublin Core `DC.title` /
`DC.creator`, and others a JSON-LD `ScholarlyArticle`. The page is untrusted
text: only these fields are read, and only from the first `MAX_HTML` chars.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

from citetracer.collect.connectors import candidate, people
from citetracer.data import lexicon
from citetracer.records import Candidate

MAX_HTML = 2_000_000
#: schema.org types of a JSON-LD block that describes a scholarly work.
SCHOLARLY_TYPES = lexicon.words("scholarly-type")


class _MetaParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: list[tuple[str, str]] = []
        self.jsonld: list[str] = []
        self._in_jsonld = False
        self._buf: list[str] = []
        self.page_title: str | None = None
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "meta":
            name = a.get("name") or a.get("property") or ""
            if name and "content" in a:
                self.meta.append((name.strip().lower(), a["content"].strip()))
        elif tag == "script" and a.get("type", "").lower() == "application/ld+json":
            self._in_jsonld, self._buf = True, []
        elif tag == "title" and self.page_title is None:
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_jsonld:
            self._in_jsonld = False
            self.jsonld.append("".join(self._buf))
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_jsonld:
            self._buf.append(data)
        elif self._in_title:
            self.page_title = (self.page_title or "") + data


def _all(meta: list[tuple[str, str]], *names: str) -> list[str]:
    return [v for k, v in meta if k in names and v]


def _one(meta: list[tuple[str, str]], *names: str) -> str | None:
    values = _all(meta, *names)
    return values[0] if values else None


def _from_jsonld(blocks: list[str]) -> dict[str, Any] | None:
    for block in blocks:
        try:
            data = json.loads(block)
        except json.JSONDecodeError:
            continue
        items = data if isinstance(data, list) else (data.get("@graph") or [data]) if isinstance(data, dict) else []
        for item in items:
            if isinstance(item, dict):
                kind = item.get("@type")
                kinds = kind if isinstance(kind, list) else [kind]
                if any(isinstance(k, str) and k.lower() in SCHOLARLY_TYPES for k in kinds):
                    return item
    return None


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            name = item.get("name") or " ".join(
                p for p in (item.get("givenName"), item.get("familyName")) if isinstance(p, str)
            )
            if name:
                out.append(str(name))
    return out


def _parsed(html: str) -> _MetaParser:
    parser = _MetaParser()
    parser.feed(html[:MAX_HTML])
    parser.close()
    return parser


def meta_tags(html: str) -> list[tuple[str, str]]:
    """A page's <meta> tags as (lower-case name, content), e.g. its citation_pdf_url (collect/paperfetch.py)."""
    return _parsed(html).meta


def page_candidate(html: str, url: str, source: str = "web", found_by: str = "url") -> Candidate | None:
    """The work a landing page describes, or None when the page carries no bibliographic metadata."""
    parser = _parsed(html)
    meta = parser.meta
    title = _one(meta, "citation_title", "dc.title", "dcterms.title")
    if title:
        authors = _all(meta, "citation_author") or _all(meta, "dc.creator", "dcterms.creator")
        return candidate(
            source,
            url,
            title=title,
            authors=people(authors),
            url=url,
            venue=_one(meta, "citation_journal_title", "citation_conference_title", "citation_publisher"),
            year=_one(meta, "citation_publication_date", "citation_date", "citation_year", "dc.date", "dcterms.issued"),
            doi=_one(meta, "citation_doi", "dc.identifier"),
            arxiv_id=_one(meta, "citation_arxiv_id"),
            found_by=found_by,
            volume=_one(meta, "citation_volume"),
            issue=_one(meta, "citation_issue"),
        )
    item = _from_jsonld(parser.jsonld)
    if item is None:
        return None
    name = item.get("headline") or item.get("name")
    part = item.get("isPartOf") or item.get("publisher") or {}
    return candidate(
        source,
        url,
        title=name if isinstance(name, str) else None,
        authors=people(_names(item.get("author") or item.get("creator"))),
        url=url,
        venue=part.get("name") if isinstance(part, dict) else None,
        year=str(item.get("datePublished") or item.get("dateCreated") or ""),
        doi=str(item.get("identifier") or item.get("sameAs") or "") or None,
        found_by=found_by,
    )
