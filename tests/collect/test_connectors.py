"""Each connector against the fake service: replies become Candidates with source, id and URL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from citetracer.collect.connectors.acl import AclAnthology
from citetracer.collect.connectors.arxiv import Arxiv
from citetracer.collect.connectors.crossref import Crossref
from citetracer.collect.connectors.datacite import DataCite
from citetracer.collect.connectors.dblp import Dblp
from citetracer.collect.connectors.doi import DoiResolver
from citetracer.collect.connectors.europepmc import EuropePmc
from citetracer.collect.connectors.openalex import OpenAlex
from citetracer.collect.connectors.openreview import OpenReview
from citetracer.collect.connectors.pubmed import PubMed
from citetracer.collect.connectors.semanticscholar import SemanticScholar
from citetracer.collect.http import Call, HttpClient
from citetracer.config import OnlineSettings
from citetracer.records import Candidate, Person, Reference
from tests.fakeweb.server import FakeWeb

RESNET = Reference(
    title="Deep residual learning for image recognition",
    authors=[Person(given="Kaiming", family="He")],
    year=2016,
    venue="CVPR",
    doi="https://doi.org/10.1109/CVPR.2016.90",
)


def ask(web: FakeWeb, source: str, fn: Callable[[Call], Awaitable[list[Candidate]]]) -> tuple[list[Candidate], int]:
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}), mailto="tests@example.org")

    async def go() -> tuple[list[Candidate], int]:
        call = http.call(source, web.sources()[source], time.monotonic() + 10)
        try:
            return await fn(call), call.network_calls
        finally:
            await http.aclose()

    return asyncio.run(go())


def titles(cands: list[Candidate]) -> list[str | None]:
    return [c.title for c in cands]


def test_crossref_lookup_and_search(web: FakeWeb) -> None:
    found, n = ask(web, "crossref", lambda call: Crossref().lookup(RESNET, call))
    assert n == 1 and len(found) == 1
    c = found[0]
    assert (c.source, c.id, c.doi, c.year) == ("crossref", "10.1109/cvpr.2016.90", "10.1109/cvpr.2016.90", 2016)
    assert [p.family for p in c.authors] == ["He", "Zhang", "Ren", "Sun"]
    assert c.url and c.url.endswith("10.1109/cvpr.2016.90")
    found, _ = ask(web, "crossref", lambda call: Crossref().search(RESNET, call))
    assert found[0].title == "Deep Residual Learning for Image Recognition"
    assert web.last_headers["crossref"]["user-agent"].endswith("mailto:tests@example.org)")


def test_crossref_does_not_claim_arxiv_dois() -> None:
    assert not Crossref().can_lookup(Reference(doi="10.48550/arXiv.1706.03762"))
    assert DataCite().can_lookup(Reference(doi="10.48550/arXiv.1706.03762"))


def test_doi_content_negotiation_follows_the_resolver_redirect(web: FakeWeb) -> None:
    found, n = ask(web, "doi", lambda call: DoiResolver().by_id("10.1093/mind/lix.236.433", call))
    assert n == 2  # the resolver's redirect, then the agency's CSL-JSON
    assert found[0].title == "Computing Machinery and Intelligence" and found[0].source == "doi"
    assert "citationstyles" in web.last_headers["doi"]["accept"]
    missing, _ = ask(web, "doi", lambda call: DoiResolver().by_id("10.1093/not-registered", call))
    assert missing == []


def test_openalex_lookup_and_search(web: FakeWeb) -> None:
    found, _ = ask(web, "openalex", lambda call: OpenAlex().lookup(RESNET, call))
    assert (
        found[0].source == "openalex"
        and found[0].id.startswith("W")
        and found[0].url.startswith("https://openalex.org/W")
    )
    found, _ = ask(
        web, "openalex", lambda call: OpenAlex().search(Reference(title="sequence to sequence learning"), call)
    )
    assert found[0].title == "Sequence to Sequence Learning with Neural Networks"
    assert found[0].venue == "Advances in Neural Information Processing Systems"


def test_semantic_scholar_by_arxiv_id_sends_the_key(web: FakeWeb) -> None:
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}, keys={"semanticscholar": "k123"}))

    async def go() -> list[Candidate]:
        call = http.call("semanticscholar", web.sources()["semanticscholar"])
        try:
            return await SemanticScholar().lookup(Reference(arxiv_id="arXiv:1706.03762v5"), call)
        finally:
            await http.aclose()

    found = asyncio.run(go())
    assert found[0].arxiv_id == "1706.03762" and found[0].source == "semanticscholar"
    assert web.last_headers["semanticscholar"]["x-api-key"] == "k123"


def test_dblp_single_author_object_and_trailing_period(web: FakeWeb) -> None:
    found, _ = ask(
        web, "dblp", lambda call: Dblp().search(Reference(title="Computing machinery and intelligence"), call)
    )
    assert len(found) == 1
    c = found[0]
    assert c.title == "Computing Machinery and Intelligence"
    assert c.authors == [Person(given="Alan M.", family="Turing")]
    assert (c.id, c.url) == ("journals/x/Turing50", "https://dblp.org/rec/journals/x/Turing50")


def test_dblp_requires_every_word(web: FakeWeb) -> None:
    found, _ = ask(web, "dblp", lambda call: Dblp().search(Reference(title="Computing machinery and telepathy"), call))
    assert found == []


def test_arxiv_ids_new_old_and_versioned(web: FakeWeb) -> None:
    for ident, title in (
        ("1706.03762v2", "Attention Is All You Need"),
        ("hep-th/9711200", "The Large N Limit of Superconformal Field Theories and Supergravity"),
    ):
        found, _ = ask(web, "arxiv", lambda call, i=ident: Arxiv().lookup(Reference(arxiv_id=i), call))
        assert titles(found) == [title]
        assert found[0].url == f"https://arxiv.org/abs/{found[0].arxiv_id}"
    found, _ = ask(web, "arxiv", lambda call: Arxiv().by_id("0000.00000", call))
    assert found == []


def test_pubmed_search_is_esearch_then_esummary(web: FakeWeb) -> None:
    ref = Reference(
        title="Methylphenidate exposure induces dopamine neuron loss and activation of microglia "
        "in the basal ganglia of mice"
    )
    found, n = ask(web, "pubmed", lambda call: PubMed().search(ref, call))
    assert n == 2
    c = found[0]
    assert (c.source, c.id, c.doi) == ("pubmed", "22470454", "10.1371/journal.pone.0033693")
    assert c.authors[0] == Person(given="S.", family="Sadasivan")
    assert not c.title.endswith(".")  # type: ignore[union-attr]


def test_europepmc_finds_preprints_and_pmids(web: FakeWeb) -> None:
    found, _ = ask(
        web,
        "europepmc",
        lambda call: EuropePmc().search(
            Reference(title="Single-cell transcriptomics of the ageing mouse retina"), call
        ),
    )
    assert found[0].type == "preprint" and found[0].id.startswith("PPR/")
    found, _ = ask(web, "europepmc", lambda call: EuropePmc().by_id("22470454", call))
    assert found[0].authors[1].family == "Pond"


def test_acl_anthology_by_doi(web: FakeWeb) -> None:
    ref = Reference(doi="10.18653/v1/N19-1423")
    assert AclAnthology().can_lookup(ref)
    found, _ = ask(web, "acl", lambda call: AclAnthology().lookup(ref, call))
    assert found[0].id == "N19-1423" and found[0].title.startswith("BERT")  # type: ignore[union-attr]
    assert [p.family for p in found[0].authors] == ["Devlin", "Chang", "Lee", "Toutanova"]


def test_openreview_by_forum_url_and_search(web: FakeWeb) -> None:
    ref = Reference(url="https://openreview.net/forum?id=HJxyZkBKDr")
    found, _ = ask(web, "openreview", lambda call: OpenReview().lookup(ref, call))
    assert (found[0].id, found[0].year, found[0].venue) == ("HJxyZkBKDr", 2020, "ICLR 2020")
    found, _ = ask(
        web,
        "openreview",
        lambda call: OpenReview().search(
            Reference(title="NAS-Bench-201: Extending the Scope of Reproducible Neural Architecture Search"), call
        ),
    )
    assert found and found[0].id == "HJxyZkBKDr"


def test_datacite_software_record(web: FakeWeb) -> None:
    found, _ = ask(web, "datacite", lambda call: DataCite().lookup(Reference(doi="10.5281/zenodo.1234567"), call))
    c = found[0]
    assert (c.source, c.type, c.authors) == ("datacite", "software", [Person(given="Ada", family="Lovelace")])


def test_wrong_shape_is_a_failure_not_an_empty_answer(web: FakeWeb) -> None:
    from citetracer.collect.consult import consult
    from citetracer.evidence import EvidenceBundle

    async def bad(call: Call) -> Any:
        data = await call.json("works/10.1109/cvpr.2016.90")
        return data["message"]["no-such-field"]

    bundle = EvidenceBundle()
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}))

    async def go() -> Any:
        try:
            return await consult(http, "crossref", web.sources()["crossref"], bad, bundle, time.monotonic() + 5)
        finally:
            await http.aclose()

    assert asyncio.run(go()) is None
    assert bundle.outcomes[0].status == "failed" and bundle.connector_calls == 1


def test_fake_services_paginate_like_the_real_ones(web: FakeWeb) -> None:
    """Offsets and totals as Crossref, OpenAlex, Semantic Scholar and DBLP give them (connectors read page 1)."""
    import json
    import urllib.request

    def get(url: str) -> Any:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return json.loads(resp.read())

    src = web.sources()
    first = get(f"{src['semanticscholar']}/paper/search?query=learning&limit=1")
    second = get(f"{src['semanticscholar']}/paper/search?query=learning&limit=1&offset={first['next']}")
    assert first["total"] >= 2 and second["offset"] == 1 and second["data"] != first["data"]
    cr = get(f"{src['crossref']}/works?query.bibliographic=deep&rows=1&offset=1")["message"]
    assert cr["query"]["start-index"] == 1 and len(cr["items"]) == 1 and cr["total-results"] >= 2
    oa = get(f"{src['openalex']}/works?search=learning&per-page=1&page=2")
    assert oa["meta"]["page"] == 2 and len(oa["results"]) == 1
    dblp = get(f"{src['dblp']}/search/publ/api?q=learning&format=json&h=1&f=1")["result"]["hits"]
    assert dblp["@first"] == "1" and dblp["@sent"] == "1" and int(dblp["@total"]) >= 2


def test_a_service_author_list_ending_in_others_is_truncated_not_complete() -> None:
    """Ten names "and others" cannot show that an eleventh cited author is invented."""
    from citetracer.collect.connectors.dblp import from_hit
    from citetracer.match.rules import assess

    names = [f"Author{i} Person{i}" for i in range(12)]
    hit = {
        "info": {
            "key": "conf/x/P22",
            "title": "A long author list.",
            "year": "2022",
            "authors": {"author": [{"text": n} for n in names[:10]] + [{"text": "others"}]},
        }
    }
    cand = from_hit(hit)
    assert cand is not None
    assert cand.authors_truncated and len(cand.authors) == 10
    cited = Reference(
        title="A long author list",
        authors=[Person(given=f"Author{i}", family=f"Person{i}") for i in range(12)],
        year=2022,
    )
    assert assess(cited, cand).status("authors") != "mismatch"
    complete = from_hit({**hit, "info": {**hit["info"], "authors": {"author": [{"text": n} for n in names[:10]]}}})
    assert complete is not None and not complete.authors_truncated
    assert assess(cited, complete).status("authors") == "mismatch"  # the same list without "others" is padded
