"""The online stages through the real pipeline, against the fake web."""

from __future__ import annotations

import asyncio
from typing import Any

from citetracer.collect.online import online_stages
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Person, Reference
from tests.fakeweb.server import FakeWeb, Fault

SEQ2SEQ = Reference(
    title="Sequence to sequence learning with neural networks",
    authors=[
        Person(given="Ilya", family="Sutskever"),
        Person(given="Oriol", family="Vinyals"),
        Person(given="Quoc V.", family="Le"),
    ],
    year=2014,
    venue="NeurIPS",
)
FABRICATED = Reference(
    title="Recursive attention lattices for zero-shot protein folding",
    authors=[Person(given="Ilya", family="Sutskever")],
    year=2019,
    venue="NeurIPS",
)


def check(settings: Any, refs: list[Reference]) -> tuple[list[CitationResult], Checker]:
    checker = Checker(settings)
    try:
        return asyncio.run(checker.check_references(refs)), checker
    finally:
        checker.close()


def statuses(result: CitationResult) -> dict[str, str]:
    return {o.source: o.status for o in result.cost.sources}


def test_real_citation_found_by_connectors_with_evidence(make_settings: Any) -> None:
    [r], _ = check(make_settings(), [SEQ2SEQ])
    assert r.verdict.class_ == "Real" and r.verdict.stage == "connectors"
    assert r.verdict.evidence[0]["source"] == "openalex" and r.verdict.evidence[0]["url"]
    s = statuses(r)
    assert s["openalex"] == "answered" and s["semanticscholar"] == "skipped"
    assert "dblp" not in s  # the specialists' tier was not needed
    assert r.cost.connector_calls == 1


def test_specialists_are_asked_when_the_broad_tier_does_not_settle(make_settings: Any) -> None:
    """A work found by its title but not settled (the cited venue differs): DBLP may hold another version."""
    wrong_venue = SEQ2SEQ.model_copy(update={"venue": "ICML"})
    [r], _ = check(make_settings(), [wrong_venue])
    s = statuses(r)
    assert s["openalex"] == "answered" and s["dblp"] == "answered" and s["pubmed"] == "skipped"
    dblp = next(o for o in r.cost.sources if o.source == "dblp")
    assert "DBLP" in (dblp.detail or "")


def test_a_specialist_a_broad_index_ingests_is_not_asked_for_an_absence(make_settings: Any) -> None:
    """No record of the title in two broad indexes: DBLP, which Semantic Scholar ingests, would only repeat it."""
    [r], _ = check(make_settings(), [FABRICATED])
    dblp = next(o for o in r.cost.sources if o.source == "dblp")
    assert dblp.status == "skipped" and "semanticscholar, which ingest dblp" in (dblp.detail or "")
    assert r.verdict.code == "H1" and r.cost.connector_calls == 2


def test_doi_citation_stops_at_url_fetch(make_settings: Any) -> None:
    ref = Reference(
        title="Deep Residual Learning for Image Recognition",
        doi="10.1109/cvpr.2016.90",
        year=2016,
        authors=[
            Person(given="Kaiming", family="He"),
            Person(given="Xiangyu", family="Zhang"),
            Person(given="Shaoqing", family="Ren"),
            Person(given="Jian", family="Sun"),
        ],
    )
    [r], _ = check(make_settings(), [ref])
    assert (r.verdict.class_, r.verdict.stage, r.cost.connector_calls) == ("Real", "url", 1)
    assert "openalex" not in statuses(r)


def test_fabricated_title_in_covered_sources_is_h1(make_settings: Any) -> None:
    [r], _ = check(make_settings(), [FABRICATED])
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1")


def test_failed_source_makes_p1_never_hallucinated(web: FakeWeb, make_settings: Any) -> None:
    web.faults["openalex"] = Fault(mode="status", status=503)
    web.faults["semanticscholar"] = Fault(mode="hang")
    web.faults["crossref"] = Fault(mode="malformed")
    [r], _ = check(make_settings(timeout=0.5, deadline=3.0, retries=1), [FABRICATED])
    assert r.verdict.class_ == "Potential" and r.verdict.code == "P1"
    s = statuses(r)
    assert s["openalex"] == "failed" and s["semanticscholar"] == "failed" and s["crossref"] == "failed"
    assert "openalex" in r.verdict.rationale


def test_broad_fallback_replaces_a_failed_service(web: FakeWeb, make_settings: Any) -> None:
    web.faults["openalex"] = Fault(mode="status", status=500)
    [r], _ = check(make_settings(retries=0), [SEQ2SEQ])
    assert r.verdict.class_ == "Real"
    outcome = next(o for o in r.cost.sources if o.source == "semanticscholar")
    assert outcome.status == "answered" and "in place of openalex" in (outcome.detail or "")


def test_doi_unknown_to_the_agency_goes_to_the_resolver(make_settings: Any) -> None:
    ref = Reference(title="Made up", doi="10.1109/made.up.2020", year=2020)
    [r], _ = check(make_settings(), [ref])
    doi_outcomes = [(o.source, o.status) for o in r.cost.sources if "DOI" in (o.detail or "")]
    assert doi_outcomes == [("crossref", "answered"), ("doi", "answered")]
    assert r.cost.connector_calls >= 2


def test_arxiv_url_and_landing_page_via_web_search(web: FakeWeb, make_settings: Any) -> None:
    settings = make_settings(searxng=True, allow_private=["127.0.0.1"], connectors=["crossref"])
    ref = Reference(
        title="citetracer test fixtures: a software package",
        authors=[Person(given="Ada", family="Lovelace")],
        year=2024,
    )
    [r], _ = check(settings, [ref])
    assert r.verdict.class_ == "Real" and r.verdict.stage == "web"
    assert r.verdict.evidence[0]["source"] == "web"


def test_web_search_pages_are_refused_on_loopback_by_default(web: FakeWeb, make_settings: Any) -> None:
    settings = make_settings(searxng=True, connectors=["crossref"], fetch_pages=True)
    ref = Reference(title="citetracer test fixtures: a software package", year=2024)
    [r], _ = check(settings, [ref])
    web_outcomes = [o for o in r.cost.sources if o.source == "web"]
    assert web_outcomes and all(o.status == "skipped" and "refused" in (o.detail or "") for o in web_outcomes)
    assert r.verdict.class_ != "Hallucinated"


def test_identifier_urls_become_service_lookups(make_settings: Any, web: FakeWeb) -> None:
    refs = [
        Reference(title="Attention is all you need", url="https://arxiv.org/pdf/1706.03762v5.pdf", year=2017),
        Reference(
            title="NAS-Bench-201: Extending the Scope of Reproducible Neural Architecture Search",
            url="https://openreview.net/forum?id=HJxyZkBKDr",
            year=2020,
        ),
        Reference(title="BERT", url="https://aclanthology.org/N19-1423.pdf"),
        Reference(title="Computing machinery and intelligence", url="https://dblp.org/rec/journals/x/Turing50.html"),
    ]
    before = dict(web.hits)
    results, _ = check(make_settings(connectors=["crossref"]), refs)
    sources = [{e["source"] for e in r.verdict.evidence} | {o.source for o in r.cost.sources} for r in results]
    assert "arxiv" in sources[0] and "openreview" in sources[1] and "acl" in sources[2] and "dblp" in sources[3]
    for name in ("arxiv", "openreview", "acl", "dblp"):
        assert web.hits[name] > before.get(name, 0)


def test_offline_has_no_online_stage(make_settings: Any) -> None:
    settings = make_settings().model_copy(update={"offline": True})
    assert [s.name for s in Checker(settings).stages] == ["memory"]
    assert [s.name for s in online_stages(make_settings())] == ["url", "connectors", "specialists"]
    assert [s.name for s in online_stages(make_settings(searxng=True))] == ["url", "connectors", "specialists", "web"]


def test_many_citations_share_one_client_which_is_closed(make_settings: Any) -> None:
    results, checker = check(make_settings(), [SEQ2SEQ, FABRICATED] * 5)
    assert [r.verdict.class_ for r in results] == ["Real", "Hallucinated"] * 5 or all(
        r.verdict.class_ != "Potential" for r in results
    )
    clients = {id(getattr(s, "http", None)) for s in checker.stages if hasattr(s, "http")}
    assert len(clients) == 1
    http = next(s.http for s in checker.stages if hasattr(s, "http"))  # type: ignore[attr-defined]
    assert http._client is None


def test_memory_remembers_online_evidence(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings()
    check(settings, [SEQ2SEQ])
    before = dict(web.hits)
    [r], _ = check(settings, [SEQ2SEQ])
    assert r.verdict.class_ == "Real" and r.verdict.stage == "memory" and r.cost.connector_calls == 0
    assert dict(web.hits) == before


def test_landing_pages_can_be_switched_off(make_settings: Any) -> None:
    ref = Reference(title="Some paper", url="https://jmlr.org/papers/v24/22-0582.html", year=2023)
    [r], _ = check(make_settings(connectors=["crossref"], fetch_pages=False), [ref])
    assert all(o.source != "web" for o in r.cost.sources)


def test_wrong_base_url_or_empty_reply_is_a_failure_not_an_absence(web: FakeWeb, make_settings: Any) -> None:
    """A search endpoint that answers 404 or an empty object has not said 'nothing found'."""
    settings = make_settings(connectors=["openalex"], retries=0)
    settings.sources["openalex"] = web.root + "/no-such-service"
    [r], _ = check(settings, [FABRICATED])
    assert r.verdict.code == "P1" and statuses(r)["openalex"] == "failed"
    web.faults["openalex"] = Fault(mode="empty")
    [r], _ = check(make_settings(connectors=["openalex"], retries=0), [FABRICATED])
    assert r.verdict.code == "P1"
    assert "reply without 'results'" in next(o.detail for o in r.cost.sources if o.source == "openalex")


def test_a_substitute_does_not_restore_coverage(web: FakeWeb, make_settings: Any) -> None:
    """OpenAlex failed and Semantic Scholar stood in: the citation is not 'covered'."""
    from citetracer.collect.scholar import ScholarStage
    from citetracer.evidence import EvidenceBundle

    web.faults["openalex"] = Fault(mode="status", status=500)
    stage = online_stages(make_settings(retries=0))[1]
    assert isinstance(stage, ScholarStage)
    bundle = EvidenceBundle()

    async def go(ref: Any, close: bool = False) -> None:
        try:
            await stage.collect(ref, bundle)
        finally:
            if close:
                await stage.aclose()

    asyncio.run(go(FABRICATED))
    assert {o.source: o.status for o in bundle.outcomes}["semanticscholar"] == "answered"
    assert not bundle.covered  # two broad indexes answered, but one failed: it may hold the work
    web.faults.clear()
    bundle = EvidenceBundle()
    asyncio.run(go(FABRICATED, close=True))
    assert bundle.covered and bundle.coverage_notes == ["openalex, semanticscholar answered a title search"]


def test_a_refused_url_does_not_hide_a_fabrication(make_settings: Any) -> None:
    """LLM-made references carry invented URLs: one the guard refuses is not a failed source (H1, not P1)."""
    for url in ("file:///etc/passwd", "http://10.0.0.1/paper.html", "http://[::7f00:1]/x"):
        ref = FABRICATED.model_copy(update={"url": url})
        [r], _ = check(make_settings(fetch_pages=True), [ref])
        web = next(o for o in r.cost.sources if o.source == "web")
        assert web.status == "skipped" and "URL not read" in (web.detail or "")
        assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1"), r.verdict.rationale


def test_an_unresolvable_host_is_refused_not_failed() -> None:
    import socket
    import time

    from citetracer.collect.http import HttpClient, Refused
    from citetracer.config import OnlineSettings

    async def nxdomain(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}))
    http.resolver = nxdomain

    async def go() -> None:
        try:
            await http.call("web", "untrusted:", time.monotonic() + 5).get("https://invented.example/p", trusted=False)
        finally:
            await http.aclose()

    try:
        asyncio.run(go())
    except Refused as exc:
        assert "does not resolve" in exc.detail
    else:
        raise AssertionError("an unresolvable host was fetched")
