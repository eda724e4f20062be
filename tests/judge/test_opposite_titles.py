"""A title that says the opposite of the cited authors' work is no other title of it (online, fake web).

Papers are renamed between versions, so a work of the cited authors under a title alike the cited one withholds
an absence that is otherwise proven (the cited title may be another of its titles). A fabrication made from a real
title swaps words for their opposites ("Inefficient ... Defenses on Unimodal ..." for "Efficient ... Attacks on
Multimodal ..."): no version is renamed so, and the absence stands. Beside it, the honest renaming stays unaccused.
Real pipeline, real HTTP, an empty store, a fake web on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakeweb.checking import check, serve
from tests.fakeweb.server import FakeWeb

RECORDS: list[dict[str, Any]] = [
    {"id": "flip",
     "title": "FlipGuard: Efficient bit-flip attacks on multimodal language models using reinforcement learning",
     "authors": ["Khalida Noor", "Ravi Mendez"], "year": 2025, "venue": "arXiv (Cornell University)",
     "type": "preprint", "arxiv_id": "2505.01234", "services": ["openalex", "semanticscholar", "arxiv"]},
]  # fmt: skip


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    yield from serve(RECORDS, tmp_path_factory.mktemp("opposites"))


def test_a_title_saying_the_opposite_of_the_authors_work_is_no_renaming_of_it(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Khalida Noor and Ravi Mendez. FlipGuard: Inefficient bit-flip defenses on unimodal language models using "
        "supervised learning. 2025.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1"), r.verdict.rationale
    assert "'inefficient' where it says 'efficient'" in r.verdict.rationale


def test_the_authors_work_under_another_of_its_titles_is_not_accused(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Khalida Noor and Ravi Mendez. FlipGuard: Learning bit-flip attacks on language models with reinforcement "
        "policies. 2025.",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    assert "another of its titles" in r.verdict.rationale, r.verdict.rationale
