"""A venue no list knows, for a work found only as a preprint, is asked of the publisher's deposits first.

DBLP's list of computer-science venues and OpenAlex's list of sources do not hold every real proceedings
(a regional IEEE conference's second meeting is often in neither), so their silence alone is no proof that
a cited conference is invented. The published version's record is in Crossref, which holds deposited
publishers' records whole: it is asked for the title before the judge reads the venue (collect/venuecheck.py).
A venue that Crossref's answer does not show either is still read as invented (H4).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from citetracer.collect.venuecheck import PUBLISHED_WHY
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Person, Reference
from tests.fakeweb.server import FakeWeb

TITLE = "Enhancing financial fraud detection using llms and advanced data analytics"
AUTHORS = ["Sukanth Korkanti"]
PUBLISHED_AT = "2024 2nd International Conference on Self Sustainable Artificial Intelligence Systems (ICSSAS)"
PREPRINT = {
    "id": "fraud-arxiv",
    "title": TITLE,
    "authors": AUTHORS,
    "year": 2024,
    "venue": "arXiv",
    "doi": "10.48550/arxiv.2410.01234",
    "arxiv_id": "2410.01234",
    "type": "preprint",
    "services": ["openalex", "semanticscholar", "arxiv", "datacite", "doi"],
}
PUBLISHED = {
    "id": "fraud-ieee",
    "title": TITLE,
    "authors": AUTHORS,
    "year": 2024,
    "venue": PUBLISHED_AT,
    "venue_full": PUBLISHED_AT,
    "doi": "10.1109/icssas64001.2024.10760912",
    "type": "inproceedings",
    "pages": "1328-1334",
    "publisher": "IEEE",
    "services": ["crossref", "doi"],
}
JOURNAL_TITLE = "Computer assisted active learning system development for critical thinking in history of civilization"
JOURNAL_PREPRINT = {
    "id": "history-arxiv",
    "title": JOURNAL_TITLE,
    "authors": ["Adem Karahoca", "Dilek Karahoca", "Ilker Yengin"],
    "year": 2010,
    "venue": "arXiv",
    "doi": "10.48550/arxiv.1004.01234",
    "arxiv_id": "1004.01234",
    "type": "preprint",
    "services": ["openalex", "semanticscholar", "arxiv", "datacite", "doi"],
}
JOURNAL_ARTICLE = {
    "id": "history-journal",
    "title": JOURNAL_TITLE,
    "authors": ["Adem Karahoca", "Dilek Karahoca", "Ilker Yengin"],
    "year": 2010,
    "venue": "Cypriot Journal of Educational Sciences",
    "doi": "10.18844/cjes.v5i1.001",
    "type": "article",
    "volume": "5",
    "pages": "4-25",
    "services": ["crossref", "doi"],
}
# A second work, a preprint only: nothing was published under its title.
ONLY_PREPRINT = {
    "id": "quantum-arxiv",
    "title": "Quantum annealing schedules for portfolio rebalancing under transaction costs",
    "authors": ["Mira Okonkwo", "Tobias Lindqvist"],
    "year": 2024,
    "venue": "arXiv",
    "doi": "10.48550/arxiv.2409.04321",
    "arxiv_id": "2409.04321",
    "type": "preprint",
    "services": ["openalex", "semanticscholar", "arxiv", "datacite", "doi"],
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    records = tmp_path_factory.mktemp("deposits") / "records.jsonl"
    records.write_text(
        "".join(json.dumps(r) + "\n" for r in (PREPRINT, PUBLISHED, ONLY_PREPRINT, JOURNAL_PREPRINT, JOURNAL_ARTICLE))
    )
    with FakeWeb(records) as server:
        yield server


def check(make_settings: Any, ref: Reference) -> CitationResult:
    checker = Checker(make_settings())
    try:
        [r] = asyncio.run(checker.check_references([ref]))
        return r
    finally:
        checker.close()


def deposit_asks(r: CitationResult) -> list[Any]:
    return [o for o in r.cost.sources if o.detail == PUBLISHED_WHY]


def test_a_real_conference_no_list_knows_is_found_in_the_publishers_deposits(make_settings: Any) -> None:
    ref = Reference(
        title=TITLE,
        authors=[Person(given="Sukanth", family="Korkanti")],
        year=2024,
        venue=PUBLISHED_AT,
        pages="1328-1334",
        publisher="IEEE",
    )
    r = check(make_settings, ref)
    assert r.verdict.class_ == "Real", r.verdict.rationale
    assert "crossref:" in r.verdict.rationale
    [ask] = deposit_asks(r)
    assert ask.source == "crossref" and ask.status == "answered"


def test_a_real_journal_no_list_knows_is_found_in_the_publishers_deposits(make_settings: Any) -> None:
    ref = Reference(
        title=JOURNAL_TITLE,
        authors=[Person(given=g, family=f) for g, f in (("A.", "Karahoca"), ("D.", "Karahoca"), ("I.", "Yengin"))],
        year=2010,
        venue="Cypriot Journal of Educational Sciences",
        volume="5",
        pages="4-25",
    )
    r = check(make_settings, ref)
    assert r.verdict.class_ == "Real", r.verdict.rationale
    [ask] = deposit_asks(r)
    assert ask.source == "crossref" and ask.status == "answered"


def test_an_invented_journal_is_still_no_venue_after_the_deposits_answered(make_settings: Any) -> None:
    ref = Reference(
        title=ONLY_PREPRINT["title"],
        authors=[Person(given="Mira", family="Okonkwo"), Person(given="Tobias", family="Lindqvist")],
        year=2024,
        venue="Baltic Journal of Quantum Portfolio Sciences",
        volume="3",
    )
    r = check(make_settings, ref)
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert len(deposit_asks(r)) == 1


def test_an_invented_conference_is_still_no_venue_after_the_deposits_answered(make_settings: Any) -> None:
    ref = Reference(
        title=ONLY_PREPRINT["title"],
        authors=[Person(given="Mira", family="Okonkwo"), Person(given="Tobias", family="Lindqvist")],
        year=2024,
        venue="2024 3rd International Conference on Quantum Portfolio Computing Systems (ICQPCS)",
        publisher="IEEE",
    )
    r = check(make_settings, ref)
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    [ask] = deposit_asks(r)
    assert ask.source == "crossref" and ask.status == "answered"


def test_a_venue_a_list_knows_asks_no_deposits(make_settings: Any) -> None:
    """A cited venue the lists answer with a name alike is a gap already: no request more."""
    ref = Reference(
        title=ONLY_PREPRINT["title"],
        authors=[Person(given="Mira", family="Okonkwo"), Person(given="Tobias", family="Lindqvist")],
        year=2024,
        venue="ICML",
    )
    r = check(make_settings, ref)
    assert not deposit_asks(r), r.cost.sources
