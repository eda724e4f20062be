"""OpenReview API v2: ICLR, TMLR and workshop papers (many never get a DOI).

`/notes?id=` for a forum id from an openreview.net URL, `/notes/search?term=`
for a search. Content fields are wrapped: `content.title.value`.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from citetracer.collect.connectors import SEARCH_ROWS, candidate, envelope, people, query_of
from citetracer.collect.http import Call
from citetracer.records import Candidate, IdentifierKind, Reference
from citetracer.sources import BY_NAME

#: An OpenReview forum URL; its group 1 is the note id (the registry's URL pattern of OpenReview).
FORUM = BY_NAME["openreview"].url_patterns[0]


def _value(content: dict[str, Any], key: str) -> Any:
    v = content.get(key)
    return v.get("value") if isinstance(v, dict) else v


def from_note(note: dict[str, Any], found_by: str) -> Candidate | None:
    if not isinstance(note, dict) or not note.get("id"):
        return None
    content = note.get("content") or {}
    venue = _value(content, "venue")
    year: str | int | None = None
    if isinstance(venue, str):
        m = re.search(r"(19|20)\d\d", venue)
        year = m.group(0) if m else None
    if year is None and isinstance(note.get("pdate") or note.get("cdate"), int):
        year = datetime.datetime.fromtimestamp((note.get("pdate") or note["cdate"]) / 1000, datetime.UTC).year
    authors = _value(content, "authors") or []
    forum = note.get("forum") or note["id"]
    return candidate(
        "openreview",
        forum,
        title=_value(content, "title"),
        authors=people(a for a in authors if isinstance(a, str)),
        url=f"https://openreview.net/forum?id={forum}",
        venue=venue if isinstance(venue, str) else None,
        year=year,
        type="inproceedings",
        found_by=found_by,
    )


def forum_id(reference: Reference) -> str | None:
    m = FORUM.search(reference.url or "")
    return m.group(1) if m else None


class OpenReview:
    name = "openreview"

    def can_lookup(self, reference: Reference) -> bool:
        return forum_id(reference) is not None

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        return ("url", (reference.url or "").strip()) if forum_id(reference) else None

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        ident = forum_id(reference)
        return await self.by_id(ident, call) if ident else []

    async def by_id(self, ident: str, call: Call) -> list[Candidate]:
        data = await call.json("notes", {"id": ident})
        return [c for c in (from_note(n, "openreview-id") for n in (data or {}).get("notes") or []) if c]

    async def search(self, reference: Reference, call: Call) -> list[Candidate]:
        query = query_of(reference)
        if not query:
            return []
        params = {"term": query, "type": "terms", "content": "all", "source": "forum", "limit": SEARCH_ROWS}
        data = await call.json("notes/search", params, search=True)
        return [c for c in (from_note(n, "search") for n in envelope(self.name, data, "notes") or []) if c]
