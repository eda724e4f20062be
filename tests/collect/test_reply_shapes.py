"""Replies that are HTTP 200 (or 404) but not the service's answer: a failure, never "no such DOI".

A real DOI was judged H5 when Crossref or doi.org answered 200 with a body that
holds no record (`{}`, `null`, `[1]`, `"x"`, `{"message": null}`) or when a wrong
base URL answered 404 to everything; the evidence memo then replayed that
"not found" for a week. Each case here runs the real pipeline against the fake
web on 127.0.0.1 with the service's reply replaced.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Person, Reference
from tests.fakeweb.server import FakeWeb, Fault

RESNET = Reference(
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
MADE_UP_DOI = Reference(title="Made up", doi="10.1109/made.up.2020", year=2020)
#: OpenAlex answering a search with no hit: the DOI lookups are then all the evidence there is.
NO_HITS = Fault(mode="body", status=200, body='{"meta": {"count": 0, "page": 1, "per_page": 10}, "results": []}')
NO_RECORD_BODIES = ["{}", "null", "[1]", '"x"', '{"message": null}', '{"status": "ok", "message": {}}', ""]


def check(settings: Any, ref: Reference) -> CitationResult:
    checker = Checker(settings)
    try:
        [result] = asyncio.run(checker.check_references([ref]))
        return result
    finally:
        checker.close()


def doi_outcomes(r: CitationResult) -> dict[str, str]:
    """Status of each source asked about the cited DOI (URL Fetch stage: the first outcome of each)."""
    out: dict[str, str] = {}
    for o in r.cost.sources:
        if o.source in ("crossref", "doi"):
            out.setdefault(o.source, o.status)
    return out


@pytest.mark.parametrize("body", NO_RECORD_BODIES)
def test_a_200_reply_without_a_record_is_a_failure_not_an_absence(web: FakeWeb, make_settings: Any, body: str) -> None:
    web.faults.update(
        {
            "crossref": Fault(mode="body", status=200, body=body),
            "doi": Fault(mode="body", status=200, body=body),
            "openalex": NO_HITS,
        }
    )
    r = check(make_settings(retries=0, connectors=["openalex"]), RESNET)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    assert doi_outcomes(r) == {"crossref": "failed", "doi": "failed"}


def test_a_wrong_base_url_answering_404_to_everything_is_a_failure(web: FakeWeb, make_settings: Any) -> None:
    settings = make_settings(retries=0, connectors=["openalex"])
    settings.sources["crossref"] = web.root + "/misconfigured/crossref"
    settings.sources["doi"] = web.root + "/misconfigured/doi"
    web.faults["openalex"] = NO_HITS
    r = check(settings, RESNET)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    assert doi_outcomes(r) == {"crossref": "failed", "doi": "failed"}
    detail = next(o.detail or "" for o in r.cost.sources if o.source == "doi")
    assert "404" in detail and "not-found reply" in detail


def test_the_memo_never_replays_a_reply_without_a_record(web: FakeWeb, make_settings: Any) -> None:
    web.faults.update({"crossref": Fault(mode="empty"), "doi": Fault(mode="empty")})
    settings = make_settings(retries=0, connectors=["openalex"])
    web.faults["openalex"] = Fault(mode="status", status=503)
    check(settings, RESNET)
    web.faults.clear()
    settings.offline = True
    r = check(settings, RESNET)
    assert r.verdict.class_ != "Hallucinated"
    assert all(o.status != "answered" for o in r.cost.sources if o.source in ("crossref", "doi"))


def test_one_sources_not_found_is_not_proof_that_a_doi_does_not_exist(web: FakeWeb, make_settings: Any) -> None:
    """The agency failed and only the resolver said "not found": doubt, not an accusation."""
    web.faults["crossref"] = Fault(mode="status", status=500)
    r = check(make_settings(retries=0, connectors=["openalex"]), MADE_UP_DOI)
    assert doi_outcomes(r) == {"crossref": "failed", "doi": "answered"}
    assert "H5" not in r.verdict.codes, r.verdict.rationale


def test_both_registries_saying_not_found_is_still_h5(make_settings: Any) -> None:
    r = check(make_settings(retries=0, connectors=["openalex"]), MADE_UP_DOI)
    assert doi_outcomes(r) == {"crossref": "answered", "doi": "answered"}
    assert "H5" in r.verdict.codes


def test_a_real_not_found_reply_of_each_registry_is_an_answer(web: FakeWeb) -> None:
    """The bodies the real services send with their 404 (recorded replies) still read as "not found"."""
    from citetracer.collect.connectors.crossref import Crossref
    from citetracer.collect.connectors.datacite import DataCite
    from citetracer.collect.connectors.doi import DoiResolver
    from citetracer.collect.http import HttpClient
    from citetracer.config import OnlineSettings

    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}, retries=0))

    async def ask() -> list[int]:
        try:
            out = []
            for connector, doi in (
                (Crossref(), "10.1109/nope"),
                (DoiResolver(), "10.1109/nope"),
                (DataCite(), "10.48550/nope"),
            ):
                call = http.call(connector.name, web.sources()[connector.name])
                out.append(len(await connector.lookup(Reference(doi=doi), call)))
            return out
        finally:
            await http.aclose()

    assert asyncio.run(ask()) == [0, 0, 0]
