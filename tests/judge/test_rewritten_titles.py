"""A title made up word for word from the cited authors' work is no other title of it (online, fake web).

A work of the cited authors under a title alike the cited one withholds an absence that is otherwise proven: the
cited title may be another of its titles (papers are renamed between versions). A fabrication made from a real
title keeps its words in place and swaps several for others ("Unidirectional ... Features for Ground ..." for
"Hybrid ... Pattern for Satellite ..."); no version is renamed so, and the absence stands. Beside it, the honest
renamings (a phrase recast, words added, dropped or reordered) stay unaccused. Real pipeline, real HTTP, an
empty store, a fake web on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakeweb.checking import check, serve
from tests.fakeweb.server import FakeWeb

RECORDS: list[dict[str, Any]] = [
    {"id": "tyche",
     "title": "Tyche: A Hybrid Computation Framework of Illumination Pattern for Satellite Beam Hopping",
     "authors": ["Ziheng Yang", "Kun Qiu", "Zhe Chen"], "year": 2025, "venue": "arXiv (Cornell University)",
     "type": "preprint", "arxiv_id": "2506.04321", "services": ["openalex", "semanticscholar", "arxiv"]},
]  # fmt: skip
AUTHORS = "Ziheng Yang, Kun Qiu, and Zhe Chen."


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    yield from serve(RECORDS, tmp_path_factory.mktemp("rewritten"))


def test_a_title_rewritten_word_for_word_from_the_authors_work_is_no_renaming_of_it(
    web: FakeWeb, tmp_path: Path
) -> None:
    cited = "Tyche: A Unidirectional Computation Framework of Illumination Features for Ground Beam Hopping"
    r = check(web, tmp_path, f"{AUTHORS} {cited}. 2025.")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1"), r.verdict.rationale
    assert "'unidirectional' for 'hybrid'" in r.verdict.rationale, r.verdict.rationale


@pytest.mark.parametrize(
    "cited",
    [
        "Tyche: Computing Beam Hopping Illumination Patterns for Satellites with a Hybrid Framework",
        "Tyche: Illumination Patterns for Satellite Beam Hopping, Computed by a Hybrid Framework",
    ],
)
def test_the_authors_work_renamed_is_not_accused(web: FakeWeb, tmp_path: Path, cited: str) -> None:
    r = check(web, tmp_path, f"{AUTHORS} {cited}. 2025.")
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
