"""The source registry (sources.py) is the one list of sources: settings, HTTP limits, URL Fetch,
the Scholar Connectors and the routing table all read it."""

from __future__ import annotations

import asyncio

from citetracer.collect.choice import routes
from citetracer.collect.http import HttpClient
from citetracer.collect.scholar import REGISTRY
from citetracer.collect.urlfetch import URL_ROUTES, UrlFetchStage
from citetracer.config import DEFAULT_SOURCE_URLS, OnlineSettings, Settings
from citetracer.sources import (
    BROAD,
    BY_NAME,
    CHOICES,
    SOURCES,
    VENUE_LISTS,
    conference_year_listers,
    ranked,
    source_facts,
    venue_list,
    venue_year_lister,
)

#: DESIGN.md, 'Contracts': each online source's default base URL.
CONTRACT_URLS = {
    "crossref": "https://api.crossref.org",
    "openalex": "https://api.openalex.org",
    "semanticscholar": "https://api.semanticscholar.org/graph/v1",
    "dblp": "https://dblp.org",
    "arxiv": "http://export.arxiv.org",
    "pubmed": "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
    "europepmc": "https://www.ebi.ac.uk/europepmc/webservices/rest",
    "acl": "https://aclanthology.org",
    "openreview": "https://api2.openreview.net",
    "datacite": "https://api.datacite.org",
    "doi": "https://doi.org",
    "searxng": "",
}

#: A cited URL of each source that resolves identifiers, and the identifier in it.
CITED_URLS = {
    "doi": ("https://doi.org/10.1109/CVPR.2016.90", "10.1109/CVPR.2016.90"),
    "arxiv": ("https://arxiv.org/abs/1706.03762v5", "1706.03762v5"),
    "openreview": ("https://openreview.net/forum?id=rJ4km2R5t7", "rJ4km2R5t7"),
    "acl": ("https://aclanthology.org/N19-1423.pdf", "N19-1423"),
    "dblp": ("https://dblp.org/rec/conf/cvpr/HeZRS16.html", "conf/cvpr/HeZRS16"),
    "pubmed": ("https://pubmed.ncbi.nlm.nih.gov/31452104/", "31452104"),
    "europepmc": ("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC6819056/", "PMC6819056"),
}


def test_names_are_unique_and_the_settings_defaults_are_the_contracts() -> None:
    assert len(BY_NAME) == len(SOURCES)
    assert DEFAULT_SOURCE_URLS == CONTRACT_URLS
    assert Settings().sources == CONTRACT_URLS


def test_the_scholar_connectors_are_the_registry_lines_that_say_so() -> None:
    assert set(REGISTRY) == {s.name for s in SOURCES if s.scholar}
    for name, connector in REGISTRY.items():
        assert connector.name == name
    assert {n for n in REGISTRY if n in BROAD} == {"openalex", "semanticscholar", "crossref"}


def test_the_source_facts_table_names_registered_sources_and_ranks_only_broad_indexes() -> None:
    """data/source_facts.tsv is read by name: a misspelt source, a specialist ranked among the broad
    indexes, or a source said to be ingested by a specialist would silently change which index is asked."""
    facts = {n: source_facts(n) for n in REGISTRY}
    for choice in CHOICES:
        order = ranked(choice)
        assert order, choice
        assert set(order) <= BROAD, (choice, order)
        ranks = [dict(facts[n].ranks)[choice] for n in order]
        assert len(set(ranks)) == len(ranks), (choice, ranks)  # no tie left to the table's row order
    assert set(ranked("fallback")) == BROAD  # every broad index can stand in for another
    for name, f in facts.items():
        assert f.ingested_by <= BROAD - {name}, name
    assert conference_year_listers() <= set(BY_NAME)


def test_each_part_a_source_plays_is_held_by_one_source_whose_connector_plays_it() -> None:
    """The venue-year lister and the venue check's lists are asked for by their part (data/source_facts.tsv
    "lists venue-years", "venue list"), never by name: each part is held by one source (the look-ups fail
    on none or two), a Scholar Connector answering that part's questions."""
    lister = REGISTRY[venue_year_lister()]
    for method in ("works_query", "venue_year_query", "works_of_authors", "venue_year_count"):
        assert callable(getattr(lister, method, None)), method
    assert {source_facts(n).venue_list for n in BY_NAME} - {None} == set(VENUE_LISTS)
    for role in VENUE_LISTS:
        assert callable(getattr(REGISTRY[venue_list(role)], "venues", None)), role
    assert (venue_year_lister(), venue_list("sources"), venue_list("computing")) == ("dblp", "openalex", "dblp")


def test_routing_names_only_registered_scholar_connectors() -> None:
    for route in routes():
        assert set(route.connectors) <= set(REGISTRY), route


def test_each_cited_url_resolves_at_its_source_only() -> None:
    assert {name for name, _ in URL_ROUTES} == set(CITED_URLS)
    for source, (url, ident) in CITED_URLS.items():
        matches = [(name, m.group(1)) for name, pattern in URL_ROUTES if (m := pattern.search(url))]
        assert matches == [(source, ident)], url
    stage = UrlFetchStage(Settings(), HttpClient(OnlineSettings()))
    assert set(stage.by_url) <= {name for name, _ in URL_ROUTES}


def test_the_http_layer_takes_rates_and_concurrency_from_the_registry() -> None:
    http = HttpClient(OnlineSettings())
    for source in SOURCES:
        assert http.limiter(source.name).rate == source.rate
    assert http.limiter("unknown-source").rate == 5.0
    keyed = HttpClient(OnlineSettings(keys={"pubmed": "k"}))
    assert keyed.limiter("pubmed").rate == BY_NAME["pubmed"].keyed_rate == 10.0

    async def slots() -> dict[str, int]:
        return {s.name: http.slots(s.name)._value for s in SOURCES}

    assert asyncio.run(slots()) == {s.name: s.concurrency for s in SOURCES}
    assert (BY_NAME["crossref"].concurrency, BY_NAME["arxiv"].concurrency, BY_NAME["arxiv"].rate) == (3, 1, 1 / 3)
