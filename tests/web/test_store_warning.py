"""The web app's job report says the store's coverage warning once, as the store's, never as a paper's (issue 47)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.conftest import EXAMPLE_BIB, wait_done

NO_COMPLETE = "holds no complete source"


def _submit(client: TestClient, *names: str) -> str:
    data = EXAMPLE_BIB.read_bytes()
    files = [("file", (name, data, "text/x-bibtex")) for name in names]
    response = client.post("/api/jobs", files=files)
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


def test_the_job_report_says_the_store_warning_once_in_its_own_section(client: TestClient) -> None:
    """Two papers against the example store (no complete source, offline): one store section on the page and in
    the downloaded HTML, one Markdown store line, one SARIF notification, the JSON's store_warnings per paper."""
    job = _submit(client, "a.bib", "b.bib")
    state = wait_done(client, job)
    assert state["status"] == "done", state
    for name in (f"/jobs/{job}", f"/jobs/{job}/report.html"):
        page = client.get(name).text
        sections = re.findall(r'<section id="store".*?</section>', page, re.S)
        assert len(sections) == 1 and NO_COMPLETE in sections[0], name
        assert page.count(NO_COMPLETE) == 1, name  # not in the papers' warnings, nor the summary's cells
        assert re.search(r"<b>0</b>papers with extraction warnings", page), name
    markdown = client.get(f"/jobs/{job}/report.md").text
    assert markdown.count(NO_COMPLETE) == 1 and "> **store:**" in markdown
    docs = client.get(f"/jobs/{job}/report.json").json()
    assert len(docs) == 2
    for doc in docs:
        assert any(NO_COMPLETE in w for w in doc["store_warnings"])
        assert not any(NO_COMPLETE in w for w in doc["warnings"])
    sarif = client.get(f"/jobs/{job}/report.sarif").json()
    notes = sarif["runs"][0]["invocations"][0].get("toolExecutionNotifications", [])
    assert sum(NO_COMPLETE in n["message"]["text"] for n in notes) == 1
