"""The online sources, one line each: the registry every part that talks to a source reads.

A source's line declares its name (the key of its settings, limits and reports), its default
base URL (DESIGN.md 'Contracts'; overridable in the config file and by CITETRACER_<NAME>_URL),
its polite rate and concurrency, the cited URLs it resolves, and the connector that implements
it. The settings take the base URLs (config.DEFAULT_SOURCE_URLS), the HTTP layer the rates and
concurrency (collect/http/), URL Fetch the URL patterns (collect/urlfetch.py), the Scholar
Connectors stage its connectors (collect/scholar.py), and the routing table
(data/connector_routes.tsv) may name only the connectors listed here. Adding a source is its
connector file plus one line here; nothing else lists sources.

Why the rates (published polite rates, checked against each service's documentation, 2026-11):
Crossref: limits depend on the pool and are advertised in x-rate-limit-limit/-interval headers
(heeded when lower than ours); 10/s and 3 at a time is the polite pool's (with mailto); OpenAlex:
at most 100 requests/s for anyone, plus a daily credit allowance (searches cost credits, lookups
by id are free): 10/s stays far below; Semantic Scholar: 1/s for keyed clients, the
unauthenticated pool is shared by all users and answers 429 when busy (we use the keyed rate as a
ceiling and honour Retry-After); arXiv: one request every 3 s, one connection; NCBI E-utilities:
3/s without a key (10 with); DBLP: "you should always be fine when waiting for at least one or
two second between two consecutive requests" (dblp.org FAQ). Europe PMC, ACL Anthology,
OpenReview, DataCite and doi.org publish no per-second number: we stay well below what they
tolerate. Speed comes from design (rate budget, batching, choosing services), never from raising
these.

It sits in the data model (it imports nothing of citetracer) so that the settings can read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

_CONNECTORS = "citetracer.collect.connectors"


@dataclass(frozen=True)
class Source:
    """What citetracer knows about one online source."""

    name: str
    #: Default base URL; "" for a source the user must configure (SearXNG), None for one without
    #: a base URL of its own (landing pages of cited URLs).
    base_url: str | None
    #: Polite requests per second, and requests in flight at once.
    rate: float
    concurrency: int = 8
    #: The rate with an API key, where the service documents a higher one.
    keyed_rate: float | None = None
    #: Cited URLs this source resolves: group 1 of a match is the identifier it looks up.
    url_patterns: tuple[re.Pattern[str], ...] = ()
    #: The connector class ("module:Class"); asked by the Scholar Connectors stage when `scholar`.
    connector: str | None = None
    scholar: bool = False


SOURCES: tuple[Source, ...] = (
    Source(
        "crossref",
        "https://api.crossref.org",
        10.0,
        3,
        connector=f"{_CONNECTORS}.crossref:Crossref",
        scholar=True,
    ),
    Source(
        "openalex",
        "https://api.openalex.org",
        10.0,
        connector=f"{_CONNECTORS}.openalex:OpenAlex",
        scholar=True,
    ),
    Source(
        "semanticscholar",
        "https://api.semanticscholar.org/graph/v1",
        1.0,
        1,
        connector=f"{_CONNECTORS}.semanticscholar:SemanticScholar",
        scholar=True,
    ),
    Source(
        "doi",
        "https://doi.org",
        10.0,
        url_patterns=(re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)", re.I),),
        connector=f"{_CONNECTORS}.doi:DoiResolver",
    ),
    Source(
        "arxiv",
        "http://export.arxiv.org",
        1 / 3,
        1,
        url_patterns=(re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(\S+?)(?:\.pdf)?/?$", re.I),),
        connector=f"{_CONNECTORS}.arxiv:Arxiv",
        scholar=True,
    ),
    Source(
        "openreview",
        "https://api2.openreview.net",
        5.0,
        url_patterns=(re.compile(r"openreview\.net/(?:forum|pdf)\?id=([\w-]+)"),),
        connector=f"{_CONNECTORS}.openreview:OpenReview",
        scholar=True,
    ),
    Source(
        "acl",
        "https://aclanthology.org",
        5.0,
        url_patterns=(re.compile(r"^https?://(?:www\.)?aclanthology\.org/([^/?#\s]+?)(?:\.pdf|\.bib)?/?$", re.I),),
        connector=f"{_CONNECTORS}.acl:AclAnthology",
    ),
    Source(
        "dblp",
        "https://dblp.org",
        1.0,
        1,
        url_patterns=(
            re.compile(r"^https?://dblp\.(?:org|uni-trier\.de)/rec/(?:bibtex/|xml/)?(\S+?)(?:\.html|\.xml|\.bib)?$"),
        ),
        connector=f"{_CONNECTORS}.dblp:Dblp",
        scholar=True,
    ),
    Source(
        "pubmed",
        "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
        3.0,
        3,
        keyed_rate=10.0,
        url_patterns=(
            re.compile(r"^https?://(?:pubmed\.ncbi\.nlm\.nih\.gov|www\.ncbi\.nlm\.nih\.gov/pubmed)/(\d+)", re.I),
        ),
        connector=f"{_CONNECTORS}.pubmed:PubMed",
        scholar=True,
    ),
    Source(
        "europepmc",
        "https://www.ebi.ac.uk/europepmc/webservices/rest",
        10.0,
        url_patterns=(
            re.compile(
                r"^https?://(?:www\.ncbi\.nlm\.nih\.gov/pmc/articles|europepmc\.org/articles?(?:/pmc)?)/(PMC\d+)", re.I
            ),
        ),
        connector=f"{_CONNECTORS}.europepmc:EuropePmc",
        scholar=True,
    ),
    Source("datacite", "https://api.datacite.org", 10.0, connector=f"{_CONNECTORS}.datacite:DataCite", scholar=True),
    Source("searxng", "", 5.0),
    Source("web", None, 5.0),
)

BY_NAME: dict[str, Source] = {s.name: s for s in SOURCES}


@dataclass(frozen=True)
class SourceFacts:
    """What a source of evidence is complete for (data/source_facts.tsv): its author lists ("whole",
    "short" or "partial"), and the kinds of work whose absence from it is evidence."""

    authors: str
    kinds: frozenset[str]
    why: str
    #: What a record's year is: "venue" (its proceedings' or volume's), "first" (the work's first
    #: appearance) or "record" (the earliest date the source holds, maybe a re-deposit's).
    years: str = "record"
    #: A broad index (nearly all scholarship): its answer to a title search is evidence of absence
    #: for the kinds of work it is complete for.
    broad: bool = False
    #: Its rank (1 first, None never) in each choice of a broad index the Scholar Connectors stage
    #: makes: "fallback", "second", "witness", "details" (the columns of data/source_facts.tsv).
    ranks: tuple[tuple[str, int], ...] = ()
    #: The broad indexes that take in this source's records.
    ingested_by: frozenset[str] = frozenset()
    #: Whether a complete mirror of it holds whole the computer-science conference venue-years of its snapshot.
    conference_years: bool = False
    #: Whether it is the venue-year lister: asked online for every work of the cited authors in a year and
    #: whether it lists a venue-year yet, its lists hold whole the venue-years it has ingested.
    venue_years: bool = False
    #: Its role in the venue check (collect/venuecheck.py), one of `VENUE_LISTS`, or None.
    venue_list: str | None = None


#: The choices of a broad index, each a column of data/source_facts.tsv ranking the broad indexes.
CHOICES = ("fallback", "second", "witness", "details")
#: The online lists of venues the venue check asks, in the order it asks them (data/source_facts.tsv "venue
#: list"): "sources", a list of journals and conference series asked about any cited journal or conference
#: name no local list knows; "computing", a list of every computer-science venue, asked about such a
#: conference name.
VENUE_LISTS = ("sources", "computing")


def source_facts(name: str) -> SourceFacts:
    """What `name` is complete for; a source the table does not list (a user's own records) holds
    author lists whole only when short, and no kind of work completely."""
    return _source_facts().get(name, SourceFacts("short", frozenset(), f"{name}: records as the user gave them"))


@cache
def _source_facts() -> dict[str, SourceFacts]:
    from citetracer.data import lines

    out = {}
    for line in lines("source_facts.tsv"):
        name, authors, kinds, years, broad, *ranks, ingested, conference_years, lister, role, why = line.split("\t")
        out[name] = SourceFacts(
            authors,
            _names(kinds),
            why,
            years,
            broad=broad == "yes",
            ranks=tuple((c, int(r)) for c, r in zip(CHOICES, ranks, strict=True) if r != "-"),
            ingested_by=_names(ingested),
            conference_years=conference_years == "whole",
            venue_years=lister == "yes",
            venue_list=None if role == "-" else role,
        )
    return out


def _names(cell: str) -> frozenset[str]:
    """A cell's |-separated names ("-": none)."""
    return frozenset(k for k in cell.split("|") if k != "-")


def ranked(choice: str) -> tuple[str, ...]:
    """The sources a choice of `CHOICES` may pick, first first."""
    rows = [(dict(f.ranks)[choice], n) for n, f in _source_facts().items() if choice in dict(f.ranks)]
    return tuple(n for _, n in sorted(rows))


def conference_year_listers() -> frozenset[str]:
    """Sources whose complete mirror holds whole the computer-science conference venue-years it covers."""
    return frozenset(n for n, f in _source_facts().items() if f.conference_years)


def venue_year_lister() -> str:
    """The source that lists whole the venue-years it has ingested, asked online for the works of the cited
    authors in a year and whether it lists a venue-year yet ("lists venue-years")."""
    [name] = [n for n, f in _source_facts().items() if f.venue_years]
    return name


def venue_list(role: str) -> str:
    """The source whose online list of venues plays `role` (one of `VENUE_LISTS`) in the venue check."""
    [name] = [n for n, f in _source_facts().items() if f.venue_list == role]
    return name


#: The broad indexes, by name.
BROAD: frozenset[str] = frozenset(n for n, f in _source_facts().items() if f.broad)


def url_routes() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(source, pattern) for every cited-URL pattern, in registry order (the first match wins; the
    patterns name disjoint hosts, so the order only matters for a URL that names two)."""
    return tuple((s.name, p) for s in SOURCES for p in s.url_patterns)
