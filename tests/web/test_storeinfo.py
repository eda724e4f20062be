"""The home page and each job's result say what the store holds and what it cannot confirm offline (issue 47:
the app said "offline (local store only)" and nothing of the store's sources, snapshot or gaps)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from citetracer.config import Settings
from citetracer.store.db import Store
from citetracer.web.app import WebOptions, create_app
from tests.mirror.conftest import DTD, RECORDS, write_dump
from tests.web.conftest import EXAMPLE_BIB, MakeClient, wait_done


def _card(html: str) -> str:
    found = re.search(r'<section class="card" id="store">(.*?)</section>', html, re.S)
    assert found is not None, html[:2000]
    return found.group(1)


def test_the_home_page_says_what_the_store_holds_and_cannot_confirm(client: TestClient, example_store: Path) -> None:
    card = _card(client.get("/").text)
    holds = re.search(r'<ul id="store-holds">(.*?)</ul>', card, re.S)
    gaps = re.search(r'<ul id="store-gaps">(.*?)</ul>', card, re.S)
    assert holds is not None and gaps is not None
    with Store(example_store) as s:
        records = s.stats()["records"]
    assert f"example: {records:,} records" in holds.group(1)
    assert "no arXiv mirror" in gaps.group(1) and str(example_store) not in card


def test_a_dblp_store_shows_its_snapshot_and_an_empty_one_says_so(tmp_path: Path) -> None:
    from citetracer.mirror.dblp import ingest_dblp

    (tmp_path / "dblp.dtd").write_text(DTD)
    dump = write_dump(tmp_path / "dblp.xml.gz", RECORDS)
    store = tmp_path / "dblp.sqlite"
    ingest_dblp(store, dump, tmp_path / "dblp.dtd")
    for location, expected in ((store, "dblp: 5 records, snapshot of "), (tmp_path / "none.sqlite", "empty")):
        options = WebOptions(jobs_dir=tmp_path / f"jobs-{location.stem}")
        with TestClient(create_app(Settings(store=location, offline=True), options)) as client:
            assert expected in _card(client.get("/").text)


def test_a_jobs_result_says_it_too(make_client: MakeClient) -> None:
    client = make_client()
    job = client.post("/api/jobs", files={"file": ("references.bib", EXAMPLE_BIB.read_bytes())}).json()["id"]
    assert wait_done(client, job)["status"] == "done"
    page = client.get(f"/jobs/{job}").text
    assert "The store holds example: 12 records" in page and "Offline it cannot confirm" in page
