"""What registries answer about cited identifiers, as typed facts (collect/lookups.py), against the fake web.

Each registry's three answers (work / none / failed) land in `SourceOutcome.lookups`; a failure
(500, 429, a timeout, a reply without a record, a wrong base URL) is never "none"; and
`proven_absent` accepts only a "none" from a registry complete for the identifier.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import Any

import pytest

from citetracer.collect.connectors import Connector
from citetracer.collect.connectors.arxiv import Arxiv
from citetracer.collect.connectors.crossref import Crossref
from citetracer.collect.connectors.datacite import DataCite
from citetracer.collect.connectors.doi import DoiResolver
from citetracer.collect.connectors.openalex import OpenAlex
from citetracer.collect.connectors.semanticscholar import SemanticScholar
from citetracer.collect.consult import consult
from citetracer.collect.http import HttpClient
from citetracer.collect.lookups import cited_identifiers, coverage, identifier_answers, proven_absent
from citetracer.collect.urlfetch import UrlFetchStage
from citetracer.config import OnlineSettings
from citetracer.evidence import EvidenceBundle
from citetracer.records import Candidate, IdentifierLookup, Reference, SourceOutcome
from tests.fakeweb.server import FakeWeb, Fault

QUICK = {"http_cache": "", "rate_limits": {"*": 0}, "retries": 0, "timeout": 1.0, "deadline": 4.0}
MADE_UP_DOI = "10.1109/made.up.2020"


def ask(web: FakeWeb, source: str, connector: Connector, ref: Reference) -> SourceOutcome:
    """One lookup of `connector` through consult(), as URL Fetch asks: the outcome it leaves."""
    http = HttpClient(OnlineSettings(**QUICK), mailto="tests@example.org")
    bundle = EvidenceBundle()

    async def go() -> None:
        try:
            await consult(
                http,
                source,
                web.sources()[source],
                partial(connector.lookup, ref),
                bundle,
                time.monotonic() + 4,
                identifier=connector.identifier(ref),
            )
        finally:
            await http.aclose()

    asyncio.run(go())
    [outcome] = bundle.outcomes
    return outcome


#: (source, connector, a reference whose identifier the fake registry holds, one it does not,
#: whether the registry is complete for the second).
REGISTRIES = [
    ("crossref", Crossref(), Reference(doi="10.1109/CVPR.2016.90"), Reference(doi=MADE_UP_DOI), True),
    ("doi", DoiResolver(), Reference(doi="https://doi.org/10.1109/cvpr.2016.90"), Reference(doi=MADE_UP_DOI), True),
    (
        "datacite",
        DataCite(),
        Reference(doi="10.5281/zenodo.1234567"),
        Reference(doi="10.5281/zenodo.7654321"),
        True,
    ),
    ("arxiv", Arxiv(), Reference(arxiv_id="arXiv:1706.03762v5"), Reference(arxiv_id="2101.99999"), True),
    ("semanticscholar", SemanticScholar(), Reference(doi="10.1109/cvpr.2016.90"), Reference(doi=MADE_UP_DOI), False),
    ("openalex", OpenAlex(), Reference(doi="10.1109/cvpr.2016.90"), Reference(doi=MADE_UP_DOI), False),
]


@pytest.mark.parametrize(
    ("source", "connector", "held", "absent", "complete"), REGISTRIES, ids=[r[0] for r in REGISTRIES]
)
def test_each_registry_answers_work_none_or_failed(
    web: FakeWeb, source: str, connector: Connector, held: Reference, absent: Reference, complete: bool
) -> None:
    found = ask(web, source, connector, held)
    [work] = found.lookups
    assert (found.status, work.answer, work.registry) == ("answered", "work", source)
    assert work.record is not None and work.record.startswith(f"{source}:")
    assert (work.kind, work.value) == connector.identifier(held)

    missing = ask(web, source, connector, absent)
    [none] = missing.lookups
    assert (missing.status, none.answer, none.record) == ("answered", "none", None)
    assert none.complete is complete and none.why

    web.faults[source] = Fault(mode="status", status=500)
    broken = ask(web, source, connector, absent)
    [failed] = broken.lookups
    assert (broken.status, failed.answer) == ("failed", "failed")
    assert (failed.kind, failed.value) == (none.kind, none.value)


@pytest.mark.parametrize(
    ("source", "connector", "fault"),
    [
        ("doi", DoiResolver(), Fault(mode="hang", hang=3.0)),
        ("crossref", Crossref(), Fault(mode="status", status=429, retry_after="1")),
        ("openalex", OpenAlex(), Fault(mode="empty")),  # a 200 `{}`: no record, and no "no such DOI" either
        ("crossref", Crossref(), Fault(mode="status", status=404)),  # a 404 that is not Crossref's own
        ("arxiv", Arxiv(), Fault(mode="body", status=404, body="not found", content_type="text/plain")),
        ("arxiv", Arxiv(), Fault(mode="html")),  # a 200 page that is no Atom feed
    ],
    ids=["timeout", "429", "empty-200", "foreign-404", "arxiv-404", "arxiv-html"],
)
def test_a_failure_is_never_none(web: FakeWeb, source: str, connector: Connector, fault: Fault) -> None:
    web.faults[source] = fault
    ref = Reference(arxiv_id="2101.99999") if source == "arxiv" else Reference(doi=MADE_UP_DOI)
    outcome = ask(web, source, connector, ref)
    assert outcome.status == "failed"
    assert [lk.answer for lk in outcome.lookups] == ["failed"]


# ------------------------------------------------------------------ URL Fetch, through the stage


def url_fetch(web: FakeWeb, ref: Reference, **online: Any) -> EvidenceBundle:
    from citetracer.config import Settings

    settings = Settings(
        sources={**Settings().sources, **web.sources(), "searxng": ""},
        mailto="tests@example.org",
        online=OnlineSettings(**{**QUICK, "fetch_pages": False, **online}),
    )
    http = HttpClient(settings.online, settings.mailto)
    stage = UrlFetchStage(settings, http)
    bundle = EvidenceBundle()

    async def go() -> None:
        try:
            await stage.collect(ref, bundle)
        finally:
            await http.aclose()

    asyncio.run(go())
    return bundle


def answers(bundle: EvidenceBundle, kind: str, value: str) -> list[tuple[str, str, bool]]:
    return [(a.registry, a.answer, a.complete) for a in identifier_answers(bundle, kind, value)]


def test_an_unregistered_doi_is_proven_absent_by_the_agency_and_the_resolver(web: FakeWeb) -> None:
    bundle = url_fetch(web, Reference(title="Made up", doi=MADE_UP_DOI.upper()))
    assert answers(bundle, "doi", MADE_UP_DOI) == [("crossref", "none", True), ("doi", "none", True)]
    crossref = identifier_answers(bundle, "doi", MADE_UP_DOI)[0]
    assert "10.1109 (IEEE) registers its DOIs there" in crossref.why
    proof = proven_absent(bundle, "doi", f"https://doi.org/{MADE_UP_DOI}")
    assert proof is not None and proof.registry == "doi"


def test_the_resolvers_none_beside_a_failed_agency_is_a_doubt(web: FakeWeb) -> None:
    web.faults["crossref"] = Fault(mode="status", status=503)
    bundle = url_fetch(web, Reference(title="Made up", doi=MADE_UP_DOI))
    assert answers(bundle, "doi", MADE_UP_DOI) == [("crossref", "failed", True), ("doi", "none", True)]
    assert proven_absent(bundle, "doi", MADE_UP_DOI) is None


def test_a_resolver_that_timed_out_proves_nothing(web: FakeWeb) -> None:
    web.faults["doi"] = Fault(mode="hang", hang=3.0)
    bundle = url_fetch(web, Reference(title="Made up", doi=MADE_UP_DOI))
    assert answers(bundle, "doi", MADE_UP_DOI) == [("crossref", "none", True), ("doi", "failed", True)]
    assert proven_absent(bundle, "doi", MADE_UP_DOI) is None


def test_a_registered_doi_is_a_work_and_never_absent(web: FakeWeb) -> None:
    bundle = url_fetch(web, Reference(title="Deep residual learning", doi="10.1109/cvpr.2016.90"))
    [lookup] = identifier_answers(bundle, "doi", "10.1109/CVPR.2016.90")
    assert (lookup.registry, lookup.answer, lookup.record) == ("crossref", "work", "crossref:10.1109/cvpr.2016.90")
    assert proven_absent(bundle, "doi", "10.1109/cvpr.2016.90") is None


def test_a_datacite_doi_is_asked_at_datacite(web: FakeWeb) -> None:
    """Zenodo registers with DataCite (data/doi_registrants.tsv): DataCite is its agency, complete for it."""
    held = url_fetch(web, Reference(title="citetracer test fixtures", doi="10.5281/zenodo.1234567"))
    assert answers(held, "doi", "10.5281/zenodo.1234567") == [("datacite", "work", True)]
    made_up = url_fetch(web, Reference(title="Some dataset", doi="10.5281/zenodo.7654321"))
    assert answers(made_up, "doi", "10.5281/zenodo.7654321") == [("datacite", "none", True), ("doi", "none", True)]
    assert proven_absent(made_up, "doi", "10.5281/zenodo.7654321") is not None


def test_identifiers_printed_as_dois_but_never_registered_prove_nothing(web: FakeWeb) -> None:
    """ACM prints 10.5555 identifiers for works without a DOI: doi.org lacks real ones too."""
    bundle = url_fetch(web, Reference(title="A real ACM paper", doi="10.5555/3454287.3454288"))
    assert answers(bundle, "doi", "10.5555/3454287.3454288") == [("crossref", "none", False), ("doi", "none", False)]
    assert proven_absent(bundle, "doi", "10.5555/3454287.3454288") is None
    assert "never registered" in identifier_answers(bundle, "doi", "10.5555/3454287.3454288")[1].why


def test_an_arxiv_id_arxiv_never_issued_is_absent_and_a_failure_is_not(web: FakeWeb) -> None:
    bundle = url_fetch(web, Reference(title="Made up", arxiv_id="arXiv:2101.99999v2"))
    assert answers(bundle, "arxiv", "2101.99999") == [("arxiv", "none", True)]
    proof = proven_absent(bundle, "arxiv", "2101.99999")
    assert proof is not None and "every arXiv identifier" in proof.why
    # The same id as its arXiv DOI is the same identifier.
    assert proven_absent(bundle, "doi", "10.48550/arXiv.2101.99999") == proof

    web.faults["arxiv"] = Fault(mode="status", status=500)
    failed = url_fetch(web, Reference(title="Made up", arxiv_id="2101.99999"))
    assert answers(failed, "arxiv", "2101.99999") == [("arxiv", "failed", True)]
    assert proven_absent(failed, "arxiv", "2101.99999") is None


def test_url_lookups_are_typed_by_what_the_url_names(web: FakeWeb) -> None:
    ref = Reference(title="BERT", url="https://aclanthology.org/N19-1423.pdf")
    bundle = url_fetch(web, ref)
    assert cited_identifiers(ref) == [("url", "https://aclanthology.org/N19-1423.pdf")]
    [lookup] = identifier_answers(bundle, "url", "https://aclanthology.org/N19-1423.pdf")
    assert (lookup.registry, lookup.answer, lookup.complete) == ("acl", "work", False)
    pubmed = Reference(title="x", url=" https://pubmed.ncbi.nlm.nih.gov/99999999/ ")
    assert cited_identifiers(pubmed) == [("pmid", "99999999")]
    arxiv_url = Reference(doi="10.1234/x", url="https://arxiv.org/abs/1706.03762v5")
    assert cited_identifiers(arxiv_url) == [("doi", "10.1234/x"), ("arxiv", "1706.03762")]


# ------------------------------------------------------------------ the proof rule, on typed answers


def lk(registry: str, answer: str, kind: str = "doi", value: str = MADE_UP_DOI, complete: bool = True) -> Any:
    return IdentifierLookup.model_validate(
        {"kind": kind, "value": value, "registry": registry, "answer": answer, "complete": complete}
    )


def bundle_of(*lookups: IdentifierLookup, candidates: list[Candidate] | None = None) -> EvidenceBundle:
    outcomes = [SourceOutcome(source=x.registry, status="answered", lookups=[x]) for x in lookups]
    bundle = EvidenceBundle(outcomes=outcomes)
    for c in candidates or []:
        bundle.add(c)
    return bundle


def test_the_proof_rule() -> None:
    assert proven_absent(bundle_of(lk("doi", "none")), "doi", MADE_UP_DOI) is None  # the resolver alone
    assert proven_absent(bundle_of(lk("crossref", "none")), "doi", MADE_UP_DOI) is None  # an agency alone
    assert proven_absent(bundle_of(lk("crossref", "failed"), lk("doi", "none")), "doi", MADE_UP_DOI) is None
    both = bundle_of(lk("crossref", "none"), lk("doi", "none"))
    assert proven_absent(both, "doi", MADE_UP_DOI) == lk("doi", "none")
    # Any registry holding it, complete or not, or any record found carrying it, overrules every "none".
    held = bundle_of(lk("crossref", "none"), lk("doi", "none"), lk("openalex", "work", complete=False))
    assert proven_absent(held, "doi", MADE_UP_DOI) is None
    carried = Candidate(source="openalex", id="W1", title="A work", doi=MADE_UP_DOI)
    found = bundle_of(lk("crossref", "none"), lk("doi", "none"), candidates=[carried])
    assert proven_absent(found, "doi", MADE_UP_DOI) is None
    # A registry not complete for the identifier proves nothing by lacking it.
    partial_index = bundle_of(lk("semanticscholar", "none", "arxiv", "2101.99999", False))
    assert proven_absent(partial_index, "arxiv", "2101.99999") is None
    # A complete mirror's "none" is proof for a DOI too (the memory stage checked its claim), unless a work is found.
    mirror = lk("memory:acl", "none", value="10.18653/v1/2020.acl-main.9999")
    assert proven_absent(bundle_of(mirror), "doi", "10.18653/v1/2020.acl-main.9999") == mirror
    online = lk("doi", "work", value="10.18653/v1/2020.acl-main.9999")
    assert proven_absent(bundle_of(mirror, online), "doi", "10.18653/v1/2020.acl-main.9999") is None
    assert proven_absent(bundle_of(), "doi", MADE_UP_DOI) is None and proven_absent(both, "isbn", "x") is None


def test_coverage_reads_the_registrant_table() -> None:
    assert coverage("crossref", "doi", "10.1145/1234") == (True, coverage("crossref", "doi", "10.1145/1234")[1])
    complete, why = coverage("crossref", "doi", "10.48550/arxiv.1706.03762")
    assert not complete and "DataCite" in why
    complete, why = coverage("crossref", "doi", "10.99999/unknown")
    assert not complete and "not known" in why
    assert coverage("doi", "doi", "10.99999/unknown")[0]  # the resolver knows every agency's DOIs
    assert not coverage("web", "url", "https://example.org/paper")[0]
