"""The review buttons' server side (issue 44): a web job's decisions, and a scan folder served by `serve --reports`."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citetracer.config import Settings
from citetracer.report.decisions import EXPORT_COLUMNS, DecisionBook
from citetracer.web.app import WebOptions, create_app
from tests.chair.csvread import read_both
from tests.cliproc import run_cli
from tests.web.conftest import EXAMPLE_BIB, MakeClient, wait_done

ROOT = Path(__file__).resolve().parents[2]


def finished_job(client: TestClient) -> str:
    sent = client.post("/api/jobs", files={"file": ("refs.bib", EXAMPLE_BIB.read_bytes())})
    job = str(sent.json()["id"])
    assert wait_done(client, job)["status"] == "done"
    return job


def test_a_jobs_result_page_takes_decisions(make_client: MakeClient) -> None:
    client = make_client()
    job = finished_job(client)
    page = client.get(f"/jobs/{job}")
    assert f'data-review="/jobs/{job}/decisions"' in page.text and 'data-paper="refs.bib"' in page.text
    assert "connect-src 'self'" in page.headers["content-security-policy"]
    url = f"/jobs/{job}/decisions"
    assert client.get(url).json() == {"decisions": []}

    said = client.post(url, json={"paper": "refs.bib", "id": "pytorch", "action": "dismissed", "reason": "software"})
    assert said.status_code == 200, said.text
    assert said.json()["decision"]["action"] == "dismissed" and said.json()["decision"]["reason"] == "software"
    no_code = client.post(url, json={"paper": "refs.bib", "id": "hochreiter1998lstm", "action": "confirmed"})
    assert no_code.status_code == 400 and "say which fabrication" in no_code.json()["error"]
    ok = client.post(url, json={"paper": "refs.bib", "id": "hochreiter1998lstm", "action": "confirmed", "code": "H4"})
    assert ok.status_code == 200
    missing = client.post(url, json={"paper": "refs.bib", "id": "nope", "action": "dismissed"})
    assert missing.status_code == 404 and "no citation 'nope'" in missing.json()["error"]
    for bad in (b"not json", b"[1]", json.dumps({"paper": 1, "id": "x", "action": "dismissed"}).encode(), b"x" * 20000):
        assert client.post(url, content=bad, headers={"Content-Type": "application/json"}).status_code == 400
    cross = client.post(url, json={"paper": "refs.bib", "id": "pytorch", "action": "cleared"},
                        headers={"Sec-Fetch-Site": "cross-site"})  # fmt: skip
    assert cross.status_code == 403  # another site's page cannot decide for the chair

    listed = client.get(url).json()["decisions"]
    assert {(d["id"], d["action"], d["code"]) for d in listed} == {
        ("pytorch", "dismissed", ""),
        ("hochreiter1998lstm", "confirmed", "H4"),
    }
    rows = read_both(client.get(url, params={"format": "csv"}).text, EXPORT_COLUMNS)
    now = {(r["id"], r["class_now"]) for r in rows}
    assert now == {("pytorch", "Potential"), ("hochreiter1998lstm", "Hallucinated")}
    cleared = client.post(url, json={"paper": "refs.bib", "id": "pytorch", "action": "cleared"})
    assert cleared.json() == {"decision": None}
    assert [d["id"] for d in client.get(url).json()["decisions"]] == ["hochreiter1998lstm"]


def test_two_chairs_deciding_at_once_lose_nothing(make_client: MakeClient) -> None:
    client = make_client(reads_per_minute=100_000, read_burst=10_000)
    job = finished_job(client)
    ids = [c["id"] for c in client.get(f"/api/jobs/{job}").json()["report"]["citations"]]
    errors: list[int] = []

    def chair(name: str) -> None:
        for cid in ids:
            r = client.post(f"/jobs/{job}/decisions", json={"paper": "refs.bib", "id": cid, "action": "dismissed",
                                                            "reason": name, "by": name})  # fmt: skip
            if r.status_code != 200:
                errors.append(r.status_code)

    threads = [threading.Thread(target=chair, args=(f"chair{i}",)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    job_folder = next(p for p in (Path(client.app.state.jobs.root)).iterdir() if p.name == job)  # type: ignore[attr-defined]
    calls = DecisionBook(job_folder).calls()
    assert len(calls) == 3 * len(ids) and {c.by for c in calls} == {"chair0", "chair1", "chair2"}


@pytest.fixture
def scan_folder(tmp_path: Path) -> Path:
    home = tmp_path / "cli"
    home.mkdir()
    assert run_cli(home, "mirror", "add", str(ROOT / "examples" / "records.jsonl")).returncode == 0
    papers = home / "in"
    papers.mkdir()
    (papers / "a.bib").write_bytes(EXAMPLE_BIB.read_bytes())
    assert run_cli(home, "scan", str(papers), "-o", str(home / "out"), "--offline").returncode == 1
    return home / "out"


def test_serve_reports_serves_a_scan_folder_and_takes_its_decisions(
    scan_folder: Path, settings: Settings, tmp_path: Path
) -> None:
    options = WebOptions(jobs_dir=tmp_path / "jobs", reports_dir=scan_folder)
    with TestClient(create_app(settings, options), raise_server_exceptions=False) as client:
        index = client.get("/reports/index.html")
        assert index.status_code == 200 and 'data-review="decisions"' in index.text and 'data-paper="a"' in index.text
        assert "connect-src 'self'" in index.headers["content-security-policy"]
        assert client.get("/reports", follow_redirects=False).headers["location"] == "/reports/index.html"
        assert client.get("/reports/summary.csv").headers["content-type"].startswith("text/csv")
        for hidden in ("/reports/.lock", "/reports/.outputs.json", "/reports/../store.sqlite", "/reports/nope.html"):
            assert client.get(hidden).status_code == 404, hidden
        said = client.post(
            "/reports/decisions", json={"paper": "a", "id": "goodfellow2014gan", "action": "dismissed", "reason": "ok"}
        )
        assert said.status_code == 200 and said.json()["decision"]["paper"] == "a"
        assert client.get("/reports/decisions").json()["decisions"][0]["id"] == "goodfellow2014gan"
        reviews = client.app.state.folder_reviews  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while not (reviews.idle() and "1 dismissed by the chair<" in (scan_folder / "index.html").read_text()):
            assert time.monotonic() < deadline, "the reports were not built again"
            time.sleep(0.1)
    assert DecisionBook(scan_folder).calls()[0].by == ""


def test_serve_reports_refuses_a_folder_that_is_not_a_scan(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "serve", "--offline", "--reports", str(tmp_path), "--port", "1")
    assert proc.returncode == 2 and "--reports: " in proc.stderr and "not a scan's report folder" in proc.stderr
