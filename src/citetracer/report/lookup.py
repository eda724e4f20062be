"""Links to look a citation up by hand, for the ones no source found (P1).

Offline, most of a real paper's citations are P1: not found where no source searched covers
them, unconfirmed rather than suspect. The chair settles them by searching; these links do the
typing. They are search pages built from the cited title (URL-encoded: a title is untrusted text),
never a claim that the work is there, and nothing is fetched to build them.
"""

from __future__ import annotations

from urllib.parse import quote_plus

from citetracer.records import CitationResult

#: (label, search URL with {q} for the encoded query), in the order a chair tries them.
SEARCHES: tuple[tuple[str, str], ...] = (
    ("Google Scholar", "https://scholar.google.com/scholar?q={q}"),
    ("DBLP", "https://dblp.org/search?q={q}"),
    ("arXiv", "https://arxiv.org/search/?query={q}&searchtype=title"),
    ("Crossref", "https://search.crossref.org/search/works?q={q}&from_ui=yes"),
)
#: Codes whose citations get the links: not found anywhere searched.
LOOKUP_CODES = frozenset({"P1"})
#: Longest query sent (a title read with the rest of the reference glued on is cut, not sent whole).
MAX_QUERY = 300


def lookup_links(c: CitationResult) -> list[tuple[str, str]]:
    """(label, URL) of each search for a P1 citation's title; none for other citations or an untitled one."""
    if c.verdict.code not in LOOKUP_CODES:
        return []
    title = " ".join((c.reference.title or "").split())[:MAX_QUERY].strip()
    if not title:
        return []
    q = quote_plus(title, safe="")
    return [(label, url.format(q=q)) for label, url in SEARCHES]
