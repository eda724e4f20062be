"""Scholar Connectors: one small module per bibliographic service, one protocol.

A connector turns a service's replies into Candidates (source = service name,
id = the service's own id, url = where a person can see the record). It
answers two questions: `lookup` (the record behind an identifier the citation
carries, e.g. a DOI or arXiv id; [] when the service has no such record) and
`search` (records resembling the citation). Both raise `SourceFailure` when the
service did not give a usable answer. Adding a source is one file here plus
its line in the source registry (sources.py: base URL, polite rate and
concurrency, the cited URLs it resolves, whether the Scholar Connectors ask it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol

from citetracer.collect.http import Call, SourceFailure
from citetracer.normalize.names import parse_person
from citetracer.normalize.text import canonical_arxiv, canonical_doi, latex_to_text, parse_year
from citetracer.records import Candidate, IdentifierKind, Person, Reference

#: Characters left unescaped when an identifier goes into a URL path (DOIs keep their slashes).
SAFE = "/:;()._-"
#: How many search hits to ask for: enough for near-miss titles, small replies.
SEARCH_ROWS = 10


class Connector(Protocol):
    name: str

    def can_lookup(self, reference: Reference) -> bool:
        """Whether the citation carries an identifier this service resolves."""
        ...

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        """The cited identifier `lookup` asks the service about (kind, canonical value), or None: what its
        answer is recorded under (collect/lookups.py), so a "no such record" is typed, never parsed."""
        ...

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]: ...

    async def search(self, reference: Reference, call: Call) -> list[Candidate]: ...


class VenueYearLister(Protocol):
    """A connector of the source that lists whole the venue-years it has ingested (data/source_facts.tsv "lists
    venue-years"): asked for every work of the cited authors in the cited year, and how many records it holds
    at the cited venue in the cited year. Each query is None when the citation lacks what it needs. It lists
    venue-years as volumes: a record with what its volume states (title, place, publisher) is read by key."""

    name: str

    def works_query(self, reference: Reference) -> str | None: ...

    def venue_year_query(self, reference: Reference) -> str | None: ...

    async def works_of_authors(self, reference: Reference, call: Call) -> list[Candidate]: ...

    async def venue_year_count(self, reference: Reference, call: Call) -> list[Candidate]: ...

    async def with_volume(self, key: str, call: Call) -> list[Candidate]: ...


class VenueList(Protocol):
    """A connector of a source whose list of venues the venue check asks (data/source_facts.tsv "venue list"):
    the venue names it answers for the words of a venue name."""

    name: str

    async def venues(self, query: str, call: Call) -> list[str]: ...


class SearchOnly:
    """Base for connectors without identifier lookup."""

    def can_lookup(self, reference: Reference) -> bool:
        return False

    def identifier(self, reference: Reference) -> tuple[IdentifierKind, str] | None:
        return None

    async def lookup(self, reference: Reference, call: Call) -> list[Candidate]:
        return []


class AuthorList(list[Person]):
    """A service's author list, remembering whether it ended in "others" / "et al.".

    A record that lists ten authors "and others" does not say the eleventh cited
    author is invented; dropping the marker silently turned such records into
    evidence of a padded author list (H3) for a real citation.
    """

    truncated: bool = False


_TRUNCATION_MARKS = ("others", "et al.", "et al", "and others")


def people(names: Iterable[str | None]) -> AuthorList:
    out = AuthorList()
    for name in names:
        if not name or not name.strip():
            continue
        if name.strip().lower() in _TRUNCATION_MARKS:
            out.truncated = True
            continue
        person = parse_person(name.strip())
        if person is not None:
            out.append(person)
    return out


def person(given: str | None, family: str | None) -> Person | None:
    if family and family.strip():
        return Person(given=(given or "").strip() or None, family=family.strip())
    if given and given.strip():
        return parse_person(given.strip())
    return None


def candidate(
    source: str,
    id: str,
    *,
    title: str | None,
    authors: list[Person],
    url: str | None = None,
    venue: str | None = None,
    venue_full: str | None = None,
    year: object = None,
    doi: str | None = None,
    arxiv_id: str | None = None,
    type: str | None = None,
    found_by: str = "search",
    **extra: str | None,
) -> Candidate:
    """A Candidate with identifiers canonicalized and the year parsed, whatever the service's types."""
    doi_c = canonical_doi(doi) if isinstance(doi, str) else None
    arxiv_c = canonical_arxiv(arxiv_id) if isinstance(arxiv_id, str) else None
    year_i = parse_year(year if isinstance(year, int | str) else None)
    return Candidate(
        source=source,
        id=str(id),
        url=url or (f"https://doi.org/{doi_c}" if doi_c else None),
        title=" ".join(title.split()) if isinstance(title, str) and title.strip() else None,
        authors=list(authors),
        authors_truncated=isinstance(authors, AuthorList) and authors.truncated,
        venue=venue or None,
        venue_full=venue_full or None,
        year=year_i,
        doi=doi_c,
        arxiv_id=arxiv_c,
        type=type,
        work=f"{source}:{id}",
        found_by=found_by,
        **{k: v for k, v in extra.items() if v},
    )


_MARKUP = re.compile(r"[{}$\\^_~]")


def query_of(reference: Reference) -> str | None:
    """The search text for a citation: its title (what every service indexes best), LaTeX rendered and
    markup characters dropped, so that "{BERT}: Pre-training of ..." and "$k$-means" find their works."""
    title = _MARKUP.sub(" ", latex_to_text(reference.title or "")).strip()
    return " ".join(title.split())[:300] or None


def count_of(value: Any) -> int | None:
    """A service's hit count as an int (DBLP sends it as a string), or None when it sends none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def doi_of(reference: Reference) -> tuple[IdentifierKind, str] | None:
    """The cited DOI as a lookup's identifier."""
    doi = canonical_doi(reference.doi)
    return ("doi", doi) if doi else None


def first_author(reference: Reference) -> str | None:
    return reference.authors[0].family if reference.authors else None


def record_reply(source: str, data: Any, *path: str) -> dict[str, Any]:
    """The record object of a lookup's 200 reply (under `path`); anything else is a failure.

    A lookup that the service answered with 200 names a record: `{}`, `null`, a list,
    a string or `{"message": null}` is not the service saying "no such DOI" (that is
    its 404), so it must never read as "not found" (which can make a real DOI H5).
    """
    obj = envelope(source, data, *path) if path else data
    if not isinstance(obj, dict) or not obj:
        raise SourceFailure(source, f"lookup reply without a record ({type(obj).__name__})", retry=False)
    return obj


def no_record(source: str) -> SourceFailure:
    """A lookup reply whose object holds no usable record (no identifier): a failure, not "not found"."""
    return SourceFailure(source, "lookup reply without a usable record", retry=False)


def envelope(source: str, data: Any, *path: str) -> Any:
    """The part of a reply under `path`; a reply without it is malformed (a failure, never 'nothing found')."""
    for key in path:
        if not isinstance(data, dict) or key not in data:
            raise SourceFailure(source, f"reply without '{key}'", retry=False)
        data = data[key]
    return data
