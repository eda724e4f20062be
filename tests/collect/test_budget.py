"""The rate budget: a request our own polite queue cannot start in time is never sent,
its source is reported "skipped (rate budget)", and that never makes a verdict Hallucinated."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from citetracer.collect.http import HttpClient, OverBudget, RateLimiter
from citetracer.config import OnlineSettings
from citetracer.evidence import RATE_BUDGET, EvidenceBundle
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Reference, SourceOutcome
from tests.collect.test_stages import FABRICATED, SEQ2SEQ
from tests.fakeweb.server import FakeWeb


def test_reserve_refuses_a_turn_beyond_the_wait_and_reserves_nothing() -> None:
    limiter = RateLimiter(1.0)
    assert limiter.reserve(max_wait=0.5) == 0.0  # the burst token
    assert limiter.reserve(max_wait=0.5) is None  # the next turn is ~1 s away
    delay = limiter.reserve(max_wait=2.0)  # the refusal above reserved nothing: still ~1 s
    assert delay is not None and 0.5 < delay <= 1.0


def test_an_over_budget_request_is_never_sent(web: FakeWeb) -> None:
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"dblp": 0.01}), mailto="tests@example.org")
    base = web.sources()["dblp"]

    async def go() -> None:
        try:
            first = http.call("dblp", base, time.monotonic() + 10, start_by=time.monotonic() + 0.5)
            await first.json("search/publ/api", {"q": "attention", "format": "json"})
            sent = web.hits["dblp"]
            second = http.call("dblp", base, time.monotonic() + 10, start_by=time.monotonic() + 0.5)
            with pytest.raises(OverBudget):
                await second.json("search/publ/api", {"q": "transformers", "format": "json"})
            assert web.hits["dblp"] == sent and second.network_calls == 0
            assert http.stats["dblp"].failures == 0  # our queue is not the service failing
        finally:
            await http.aclose()

    asyncio.run(go())


def check_with_dblp_queue_full(settings: Any, refs: list[Reference]) -> list[CitationResult]:
    """Check `refs` while DBLP's polite queue already holds a turn for the next 100 s."""
    checker = Checker(settings)
    try:
        http = next(s.http for s in checker.stages if hasattr(s, "http"))
        assert isinstance(http, HttpClient)
        assert http.limiter("dblp").reserve() == 0.0
        return asyncio.run(checker.check_references(refs))
    finally:
        checker.close()


def outcome(result: CitationResult, source: str) -> SourceOutcome:
    return next(o for o in reversed(result.cost.sources) if o.source == source)


def test_budget_skip_is_recorded_as_skipped_and_yields_potential_not_hallucinated(
    web: FakeWeb, make_settings: Any
) -> None:
    settings = make_settings(rate_limits={"*": 0, "dblp": 0.01}, rate_budget=0.5)
    settings.sources.update(semanticscholar="", crossref="")  # no second broad index to ask
    before = web.hits["dblp"]
    [r] = check_with_dblp_queue_full(settings, [FABRICATED])
    dblp = outcome(r, "dblp")
    assert dblp.status == "skipped" and (dblp.detail or "").startswith(RATE_BUDGET)
    assert web.hits["dblp"] == before  # never asked, so never "not found"
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P1")
    assert "only openalex answered a title search" in r.verdict.rationale
    assert "dblp skipped for the rate budget" in r.verdict.rationale


def test_a_second_broad_index_lets_absence_count_despite_the_skip(web: FakeWeb, make_settings: Any) -> None:
    settings = make_settings(rate_limits={"*": 0, "dblp": 0.01}, rate_budget=0.5)
    [r] = check_with_dblp_queue_full(settings, [FABRICATED])
    assert outcome(r, "dblp").status == "skipped"
    second = outcome(r, "semanticscholar")
    assert second.status == "answered" and "second broad index" in (second.detail or "")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1")


def test_a_budget_skip_is_never_a_failure_and_a_failed_specialist_matters_until_two_broad_answered() -> None:
    bundle = EvidenceBundle()
    bundle.outcomes.append(SourceOutcome(source="dblp", status="skipped", detail=f"{RATE_BUDGET}: busy"))
    bundle.outcomes.append(SourceOutcome(source="pubmed", status="skipped", detail="not chosen for this citation"))
    bundle.broad_answered.add("openalex")
    assert bundle.failed_sources == []  # never asked: neither a failure nor an answer
    bundle.outcomes.append(SourceOutcome(source="arxiv", status="failed", detail="timeout"))
    assert bundle.failed_sources == ["arxiv"]
    bundle.broad_answered.add("crossref")
    assert bundle.failed_sources == []  # two broad indexes searched the title
    bundle.outcomes.append(SourceOutcome(source="semanticscholar", status="failed", detail="500"))
    assert bundle.failed_sources == ["semanticscholar"]  # a failed broad index always blocks absence


def test_a_real_citation_is_found_although_the_specialists_are_over_budget(make_settings: Any) -> None:
    settings = make_settings(rate_limits={"*": 0, "dblp": 0.01}, rate_budget=0.5)
    [r] = check_with_dblp_queue_full(settings, [SEQ2SEQ])
    assert r.verdict.class_ == "Real"


def test_the_second_broad_index_is_never_one_whose_circuit_is_open(web: FakeWeb, make_settings: Any) -> None:
    checker = Checker(make_settings(rate_limits={"*": 0, "dblp": 0.01}, rate_budget=0.5))
    try:
        http = next(s.http for s in checker.stages if hasattr(s, "http"))
        assert http.limiter("dblp").reserve() == 0.0  # DBLP's queue is full: a second broad index is needed
        breaker = http.breaker("semanticscholar")
        for _ in range(breaker.limit):
            breaker.failure()
        before = web.hits["semanticscholar"]
        [r] = asyncio.run(checker.check_references([FABRICATED]))
    finally:
        checker.close()
    assert web.hits["semanticscholar"] == before
    second = outcome(r, "crossref")
    assert second.status == "answered" and "second broad index" in (second.detail or "")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1")


def test_absence_is_asked_of_two_broad_indexes_whatever_the_specialists_do(web: FakeWeb, make_settings: Any) -> None:
    """Nothing close to the title in the first broad index: a second one is asked in the same tier, so that
    an H1 never rests on one index alone (nor waits on DBLP)."""
    checker = Checker(make_settings(rate_limits={"*": 0}, rate_budget=0.5))
    try:
        [r, real] = asyncio.run(checker.check_references([FABRICATED, SEQ2SEQ]))
    finally:
        checker.close()
    second = outcome(r, "semanticscholar")
    assert second.status == "answered" and "second broad index" in (second.detail or "")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1")
    assert "openalex, semanticscholar (complete for proceedings papers) answered a title search" in (
        r.verdict.basis or ""
    )
    # A real citation the first broad index finds costs no second one.
    assert real.verdict.class_ == "Real"
    assert not {o.source for o in real.cost.sources if o.status == "answered"} & {"semanticscholar", "crossref"}
