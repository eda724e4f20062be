"""Replies checked for what was asked (collect/replies.py): a service answering every request with the same
record is a failed source (P1), never evidence against real citations.

A probe of the hardened web app found that a fake Crossref, OpenAlex, Semantic Scholar, doi.org and DataCite
answering any request with one paper turned 4 of 10 real citations into H1, and a DOI lookup answered with
another DOI's record counted as an answer. Real pipeline, real HTTP, the fake web on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from citetracer.collect.replies import answers_arxiv, answers_doi, answers_search
from citetracer.pipeline import Checker
from citetracer.records import Candidate, CitationResult, Person, Reference
from tests.collect.test_reply_shapes import RESNET
from tests.collect.test_stages import SEQ2SEQ
from tests.fakeweb.server import FakeWeb, Fault

#: One unrelated paper, as each service would serve it.
ONE_PAPER = {
    "title": "A Study of Bird Migration over the North Sea",
    "authors": ["Jan Visser"],
    "doi": "10.5555/birds.2011.1",
}
SEARCH_BODIES = {
    "openalex": {
        "meta": {"count": 1, "page": 1, "per_page": 10},
        "results": [
            {
                "id": "https://openalex.org/W1",
                "doi": f"https://doi.org/{ONE_PAPER['doi']}",
                "title": ONE_PAPER["title"],
                "publication_year": 2011,
                "authorships": [{"author": {"display_name": "Jan Visser"}}],
            }
        ],
    },
    "semanticscholar": {
        "total": 1,
        "offset": 0,
        "data": [{"paperId": "p1", "title": ONE_PAPER["title"], "year": 2011, "authors": [{"name": "Jan Visser"}]}],
    },
    "crossref": {
        "status": "ok",
        "message": {
            "total-results": 1,
            "items": [{"DOI": ONE_PAPER["doi"], "title": [ONE_PAPER["title"]], "author": [{"family": "Visser"}]}],
        },
    },
}
#: The same paper answering a DOI lookup (Crossref's and doi.org's record shapes).
LOOKUP_BODIES = {
    "crossref": {
        "status": "ok",
        "message": {"DOI": ONE_PAPER["doi"], "title": [ONE_PAPER["title"]], "author": [{"family": "Visser"}]},
    },
    "doi": {"DOI": ONE_PAPER["doi"], "title": ONE_PAPER["title"], "author": [{"family": "Visser", "given": "Jan"}]},
}


def check(settings: Any, refs: list[Reference]) -> list[CitationResult]:
    checker = Checker(settings)
    try:
        return asyncio.run(checker.check_references(refs))
    finally:
        checker.close()


def test_search_engines_answering_every_search_with_one_paper_accuse_nobody(web: FakeWeb, make_settings: Any) -> None:
    for name, body in SEARCH_BODIES.items():
        web.faults[name] = Fault(mode="body", status=200, body=json.dumps(body))
    [real] = check(make_settings(), [SEQ2SEQ])
    assert real.verdict.class_ != "Hallucinated", real.verdict.rationale
    failed = {o.source: o.detail for o in real.cost.sources if o.status == "failed"}
    assert "openalex" in failed and "does not answer what was asked" in (failed["openalex"] or "")


def test_a_doi_lookup_answered_with_another_dois_record_is_a_failure(web: FakeWeb, make_settings: Any) -> None:
    web.faults["crossref"] = Fault(mode="body", status=200, body=json.dumps(LOOKUP_BODIES["crossref"]))
    web.faults["doi"] = Fault(
        mode="body",
        status=200,
        body=json.dumps(LOOKUP_BODIES["doi"]),
        content_type="application/vnd.citationstyles.csl+json",
    )
    [r] = check(make_settings(), [RESNET])
    assert "H5" not in r.verdict.codes, r.verdict.rationale
    crossref = next(o for o in r.cost.sources if o.source == "crossref")
    assert crossref.status == "failed" and "asked for DOI 10.1109/cvpr.2016.90" in (crossref.detail or "")


@pytest.mark.parametrize(
    ("check", "found", "wrong"),
    [
        (answers_doi("10.1109/CVPR.2016.90"), [Candidate(source="x", id="1", doi="10.1109/cvpr.2016.90")], False),
        (answers_doi("10.1109/cvpr.2016.90"), [Candidate(source="x", id="1", doi="10.5555/other")], True),
        (answers_doi("10.48550/arXiv.1706.03762"), [Candidate(source="x", id="1", arxiv_id="1706.03762v5")], False),
        (answers_arxiv("1706.03762"), [Candidate(source="x", id="1", arxiv_id="1706.03762v2")], False),
        (answers_arxiv("1706.03762"), [Candidate(source="x", id="1", arxiv_id="1512.03385")], True),
        (answers_search("Deep residual learning for image recognition"), [], False),
        (
            answers_search("Deep residual learning for image recognition"),
            [Candidate(source="x", id="1", title="Residual nets")],
            False,
        ),
        (
            answers_search("Deep residual learning for image recognition"),
            [Candidate(source="x", id="1", title="Bird migration")],
            True,
        ),
        (answers_search("Short title"), [Candidate(source="x", id="1", title="Bird migration")], False),
    ],
)
def test_each_check_says_why_a_reply_is_off_the_question(check: Any, found: list[Candidate], wrong: bool) -> None:
    assert (check(found) is not None) == wrong


def test_a_fabricated_title_is_still_h1_when_the_services_answer_the_question(make_settings: Any) -> None:
    from tests.collect.test_stages import FABRICATED

    [r] = check(make_settings(), [FABRICATED])
    assert r.verdict.code == "H1"
    assert Person
