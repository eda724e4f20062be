"""One citation checked online against a fake web: an empty store, no cache, no rate limits, today 2026.

The judge's online tests (tests/judge/test_gaps_online.py, test_opposite_titles.py) serve a few records each and
check one citation at a time through the real pipeline and real HTTP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from citetracer.config import OnlineSettings, Settings
from citetracer.extract import read_text
from citetracer.pipeline import Checker
from citetracer.records import CitationResult
from tests.fakeweb.server import FakeWeb


def serve(records: list[dict[str, Any]], folder: Path) -> Iterator[FakeWeb]:
    """A fake web serving `records` (for a module-scoped fixture to yield from)."""
    path = folder / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with FakeWeb(path) as server:
        yield server


def check(web: FakeWeb, tmp_path: Path, text: str, title: str | None = None) -> CitationResult:
    """The verdict on the one reference `text` holds (its parsed title replaced by `title` when given)."""
    sources = {**Settings().sources, **web.sources(), "searxng": ""}
    online = OnlineSettings(http_cache="", rate_limits={"*": 0}, retries=1, fetch_pages=False, memo=False)
    settings = Settings(
        store=tmp_path / "store.sqlite", sources=sources, mailto="t@example.org", online=online, today_year=2026
    )
    read = read_text(text)
    assert len(read.references) == 1, read.warnings
    references = read.references
    if title is not None:
        references = [references[0].model_copy(update={"title": title})]
    checker = Checker(settings)
    try:
        [result] = asyncio.run(checker.check_references(references))
    finally:
        checker.close()
    return result
