"""Fixtures: one fake scholarly web on 127.0.0.1 serving tests/fakeweb/records.jsonl."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citetracer.config import OnlineSettings, Settings
from tests.fakeweb.server import FakeWeb

RECORDS = Path(__file__).resolve().parents[1] / "fakeweb" / "records.jsonl"


@pytest.fixture(scope="session")
def web() -> Iterator[FakeWeb]:
    with FakeWeb(RECORDS) as server:
        yield server


@pytest.fixture(autouse=True)
def _no_faults(web: FakeWeb) -> Iterator[None]:
    web.faults.clear()
    yield
    web.faults.clear()


@pytest.fixture
def cli_on_fake_web(web: FakeWeb, monkeypatch: pytest.MonkeyPatch) -> FakeWeb:
    """The CLI's sources pointed at the fake web through the environment (web search off)."""
    for name, url in web.sources().items():
        monkeypatch.setenv(f"CITETRACER_{name.upper()}_URL", url)
    monkeypatch.setenv("CITETRACER_SEARXNG_URL", "")
    return web


@pytest.fixture
def make_settings(web: FakeWeb, tmp_path: Path) -> Any:
    def make(searxng: bool = False, **online: Any) -> Settings:
        sources = {**Settings().sources, **web.sources()}
        if not searxng:
            sources["searxng"] = ""
        online.setdefault("http_cache", "")
        online.setdefault("rate_limits", {"*": 0})
        online.setdefault("retries", 2)
        online.setdefault("fetch_pages", bool(online.get("allow_private")))
        return Settings(
            store=tmp_path / "store.sqlite",
            sources=sources,
            mailto="tests@example.org",
            online=OnlineSettings(**online),
        )

    return make
