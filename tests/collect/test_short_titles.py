"""A short title cannot be shown absent by a search whose first page its words crowd.

Checked online against the real-records replay of citeaudit: 'Yann LeCun, Yoshua Bengio, and Geoffrey Hinton.
Deep learning. Nature, 2015.' was H1 because the services answered a search for 'Deep learning' with 10 of the
134 works holding both words and the one titled just so was not among them. Real services rank by their own
relevance; a title of one or two content words is shared by thousands of works, so its absence from a first
page proves nothing. Real pipeline, real HTTP, a fake web on 127.0.0.1 that lacks the cited work.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer.config import OnlineSettings, Settings
from citetracer.records import Person, Reference
from tests.collect.test_stages import FABRICATED, check
from tests.fakeweb.server import FakeWeb


@pytest.fixture(scope="module")
def crowded_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    """Sixty journal articles whose titles hold 'deep' and 'learning', none titled just 'Deep learning'."""
    path = tmp_path_factory.mktemp("crowded") / "records.jsonl"
    topics = ["protein folding", "weather forecasting", "crop yield", "seismic imaging", "credit scoring", "galaxies"]
    with path.open("w") as fh:
        for i in range(60):
            fh.write(json.dumps({
                "id": f"c{i}", "title": f"Deep learning for {topics[i % 6]}: study {i}", "year": 2015 + i % 8,
                "authors": [f"Author{i} Person{i}"], "venue": "Journal of Applied Studies", "type": "article",
                "doi": f"10.5555/crowd.{i}",
            }) + "\n")  # fmt: skip
    with FakeWeb(path) as web:
        yield web


def settings_for(web: FakeWeb, tmp_path: Path) -> Settings:
    sources = {**Settings().sources, **web.sources(), "searxng": ""}
    online = OnlineSettings(http_cache="", rate_limits={"*": 0}, retries=1, fetch_pages=False)
    return Settings(store=tmp_path / "store.sqlite", sources=sources, mailto="tests@example.org", online=online)


def test_a_short_title_past_the_first_page_is_not_proven_absent(crowded_web: FakeWeb, tmp_path: Path) -> None:
    ref = Reference(
        title="Deep learning",
        authors=[Person(given="Yann", family="LeCun"), Person(given="Yoshua", family="Bengio")],
        venue="Nature",
        year=2015,
    )
    [r], _ = check(settings_for(crowded_web, tmp_path), [ref])
    assert r.verdict.class_ == "Potential", r.verdict.rationale
    assert "is short and the search found more works holding its words than it returned" in r.verdict.rationale


def test_a_long_fabricated_title_is_still_absent_there(crowded_web: FakeWeb, tmp_path: Path) -> None:
    [r], _ = check(settings_for(crowded_web, tmp_path), [FABRICATED])
    assert r.verdict.code == "H1", r.verdict.rationale


def test_a_short_title_the_search_counts_whole_can_be_absent(crowded_web: FakeWeb, tmp_path: Path) -> None:
    """'Quantum gardening' is held by no work at all: the search's count (0) is all it returned."""
    ref = Reference(title="Quantum gardening", authors=[Person(given="Ann", family="Smith")], venue="Nature", year=2015)
    [r], _ = check(settings_for(crowded_web, tmp_path), [ref])
    assert r.verdict.code == "H1", r.verdict.rationale
