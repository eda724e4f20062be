"""A web app on a small store seeded from examples/records.jsonl, as scripts/demo.sh seeds it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from citetracer.config import Settings
from citetracer.mirror.jsonl import add_jsonl
from citetracer.store.db import Store
from citetracer.web.app import WebOptions, create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BIB = ROOT / "examples" / "references.bib"
EXAMPLE_RECORDS = ROOT / "examples" / "records.jsonl"


def seed_store(path: Path) -> Path:
    """A store holding the example records (what `citetracer mirror add examples/records.jsonl` makes)."""
    with Store(path) as store:
        add_jsonl(store, EXAMPLE_RECORDS, "example")
    return path


@pytest.fixture
def example_store(tmp_path: Path) -> Path:
    return seed_store(tmp_path / "store" / "store.sqlite")


@pytest.fixture
def settings(example_store: Path) -> Settings:
    return Settings(store=example_store, offline=True)


MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(settings: Settings, tmp_path: Path) -> Iterator[MakeClient]:
    """A started app (workers running) with these WebOptions overrides; closed after the test."""
    opened: list[TestClient] = []

    def make(start: bool = True, **overrides: Any) -> TestClient:
        options = WebOptions(jobs_dir=tmp_path / "store" / "web-jobs", **overrides)
        client = TestClient(create_app(settings, options), raise_server_exceptions=False)
        if start:
            client.__enter__()
            opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()


def wait_done(client: TestClient, job_id: str, timeout: float = 60.0) -> dict[str, Any]:
    """Poll the job until it ends; its final state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/jobs/{job_id}").json()
        if state["status"] in ("done", "failed"):
            return dict(state)
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not end within {timeout} s")
