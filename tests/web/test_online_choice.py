"""A job's own online/offline choice (the form's and the API's `online`), against the fake web on 127.0.0.1.

The server's mode is the default; a job may go offline on an online server, never online on an
offline one (started with `serve --offline` or `offline = true` in its config: both are
`Settings.offline`). Requests are counted at the fake web, so a job that went online anyway shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citetracer.config import OnlineSettings, Settings
from citetracer.web.app import OFFLINE_SERVER, WebOptions, create_app
from tests.fakeweb.server import FakeWeb
from tests.web.conftest import wait_done

RECORDS = Path(__file__).resolve().parents[1] / "fakeweb" / "records.jsonl"
#: Not in the example store: an online job asks the sources about it.
UNKNOWN = "[1] A. Nobody. A Study That Nobody Has Ever Written Down. In Nowhere, 2020.\n"


@pytest.fixture(scope="module")
def web() -> Iterator[FakeWeb]:
    with FakeWeb(RECORDS) as server:
        yield server


def _settings(web: FakeWeb, store: Path, offline: bool) -> Settings:
    sources = {**Settings().sources, **web.sources(), "searxng": ""}
    online = OnlineSettings(http_cache="", rate_limits={"*": 0}, retries=0, fetch_pages=False)
    return Settings(store=store, offline=offline, sources=sources, mailto="tests@example.org", online=online)


def _client(web: FakeWeb, example_store: Path, tmp_path: Path, offline: bool) -> TestClient:
    options = WebOptions(jobs_dir=tmp_path / f"jobs-{offline}")
    return TestClient(create_app(_settings(web, example_store, offline), options), raise_server_exceptions=False)


def _run(client: TestClient, **fields: str) -> tuple[dict, str]:
    response = client.post("/api/jobs", data={"text": UNKNOWN, **fields})
    assert response.status_code == 202, response.text
    job_id = response.json()["id"]
    state = wait_done(client, job_id)
    assert state["status"] == "done", state
    return state, client.get(f"/jobs/{job_id}").text


def test_an_online_server_runs_a_job_offline_when_asked(web: FakeWeb, example_store: Path, tmp_path: Path) -> None:
    with _client(web, example_store, tmp_path, offline=False) as client:
        assert 'value="true" id="online" checked>' in client.get("/").text  # the form starts at the server's mode
        before = sum(web.hits.values())
        state, page = _run(client, online="false")
        assert sum(web.hits.values()) == before, web.hits  # not one request left the server
        assert state["online"] is False and "offline (local store only)" in page
        # the control: by default the same server's job asks the sources
        state, page = _run(client)
        assert sum(web.hits.values()) > before and state["online"] is True
        assert "online sources allowed" in page


def test_an_offline_server_never_runs_a_job_online(web: FakeWeb, example_store: Path, tmp_path: Path) -> None:
    with _client(web, example_store, tmp_path, offline=True) as client:
        form = client.get("/").text
        assert 'value="true" id="online" disabled>' not in form and 'id="online"  disabled>' in form
        before = sum(web.hits.values())
        for asked in ("true", "on", "1"):
            state, page = _run(client, online=asked)
            assert state["online"] is False and state["warnings"][0] == OFFLINE_SERVER
            assert "offline (local store only)" in page and "started offline" in page
        # the form's own submission goes the same way, its online choice forced past the disabled radio
        token = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert token is not None
        sent = client.post("/jobs", data={"csrf_token": token[1], "text": UNKNOWN, "online": "true"})
        job_id = sent.url.path.rsplit("/", 1)[-1]
        assert wait_done(client, job_id)["online"] is False
        assert sum(web.hits.values()) == before, web.hits


def test_a_malformed_online_field_is_refused(web: FakeWeb, example_store: Path, tmp_path: Path) -> None:
    with _client(web, example_store, tmp_path, offline=True) as client:
        response = client.post("/api/jobs", data={"text": UNKNOWN, "online": "perhaps"})
        assert response.status_code == 422 and "online" in response.json()["error"]
