"""A paper's arXiv ids are looked up in one `id_list` request, with the same candidates as one by one."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from citetracer.collect.connectors.arxiv import Arxiv
from citetracer.collect.http import HttpClient
from citetracer.config import OnlineSettings
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Person, Reference
from tests.fakeweb.server import FakeWeb, Fault

IDS = ["1706.03762", "hep-th/9711200", "2101.99999"]  # the last one is not on arXiv


def test_one_id_list_request_returns_what_single_lookups_return(web: FakeWeb) -> None:
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}))
    base = web.sources()["arxiv"]

    async def go() -> tuple[dict[str, Any], dict[str, Any], int]:
        try:
            single = {i: await Arxiv().by_id(i, http.call("arxiv", base, time.monotonic() + 10)) for i in IDS}
            before = web.hits["arxiv"]
            batch = await Arxiv().by_ids(IDS, http.call("arxiv", base, time.monotonic() + 10))
            return single, batch, web.hits["arxiv"] - before
        finally:
            await http.aclose()

    single, batch, requests = asyncio.run(go())
    assert requests == 1
    assert batch == single
    assert [len(batch[i]) for i in IDS] == [1, 1, 0]


PAPER = [
    Reference(
        title="Attention Is All You Need",
        authors=[
            Person(given=g, family=f)
            for g, f in (
                ("Ashish", "Vaswani"),
                ("Noam", "Shazeer"),
                ("Niki", "Parmar"),
                ("Jakob", "Uszkoreit"),
                ("Llion", "Jones"),
                ("Aidan N.", "Gomez"),
                ("Lukasz", "Kaiser"),
                ("Illia", "Polosukhin"),
            )
        ],
        year=2017,
        arxiv_id="1706.03762",
    ),
    Reference(
        title="The Large N Limit of Superconformal Field Theories and Supergravity",
        authors=[Person(given="Juan", family="Maldacena")],
        year=1997,
        arxiv_id="hep-th/9711200",
    ),
]


def check(settings: Any) -> list[CitationResult]:
    checker = Checker(settings)
    try:
        return asyncio.run(checker.check_references(PAPER))
    finally:
        checker.close()


def verdicts(results: list[CitationResult]) -> list[tuple[str, str]]:
    return [(r.verdict.class_, r.verdict.code) for r in results]


def test_a_papers_arxiv_ids_cost_one_request(web: FakeWeb, make_settings: Any) -> None:
    before = web.hits["arxiv"]
    results = check(make_settings())
    assert web.hits["arxiv"] - before == 1
    assert verdicts(results) == [("Real", "R1"), ("Real", "R1")]
    for r in results:
        arxiv = next(o for o in r.cost.sources if o.source == "arxiv")
        assert arxiv.status == "answered" and "batched" in (arxiv.detail or "")


def test_a_failed_batch_leaves_each_citation_to_ask_alone(web: FakeWeb, make_settings: Any) -> None:
    web.faults["arxiv"] = Fault(mode="status", status=500, times=1)
    before = web.hits["arxiv"]
    results = check(make_settings(retries=0))
    assert web.hits["arxiv"] - before == 3  # the failed batch, then one lookup per citation
    assert verdicts(results) == [("Real", "R1"), ("Real", "R1")]
