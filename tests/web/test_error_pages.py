"""Errors said plainly: a page in the site's layout for a person at the form (what went wrong, what to do, the
way back), JSON for the API. Every status the app or its middleware gives is covered, each both ways."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient
from httpx import Response

from citetracer.web.jobs import new_id
from citetracer.web.uploads import Limits
from tests.web.conftest import MakeClient

ONE_REF = "[1] A. Nobody. A Study That Nobody Has Ever Written Down. In Nowhere, 2020.\n"


def _friendly(response: Response, status: int, *words: str) -> str:
    """The page's text, after checking it is one: the layout, a plain heading, advice, the link back."""
    assert response.status_code == status, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert '<link rel="stylesheet" href="/static/app.css">' in page and '<header class="top">' in page
    assert f'id="error" data-status="{status}"' in page
    assert '<a class="button" href="/">Back to the form</a>' in page
    heading = re.search(r'id="error"[^>]*><h2>([^<]+)</h2>', page)
    assert heading is not None and not heading[1].strip().isdigit()  # not a bare '404'
    for word in words:
        assert word in page, (word, page)
    assert "Traceback" not in page and "field 'file'" not in page and not page.lstrip().startswith("{")
    return page


def _api(response: Response, status: int) -> str:
    assert response.status_code == status, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json")
    return str(response.json()["error"])


def _csrf(client: TestClient) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found[1]


def test_not_found_and_no_such_job(client: TestClient) -> None:
    _friendly(client.get("/no/such/page"), 404, "Nothing here", "There is nothing at this address.")
    _friendly(client.get(f"/jobs/{new_id()}"), 404, "No such job (it may have expired).", "Start a new check")
    _friendly(client.get(f"/jobs/{new_id()}/report.csv"), 404)
    assert _api(client.get(f"/api/jobs/{new_id()}"), 404) == "no such job (it may have expired)"
    assert _api(client.get("/api/nothing"), 404) == "there is nothing at this address"
    _friendly(client.put("/jobs"), 405)


def test_form_refusals_are_pages_and_api_refusals_json(client: TestClient) -> None:
    token = _csrf(client)
    _friendly(client.post("/jobs", data={"text": ONE_REF}), 403, "Reload the form")  # no token
    _friendly(client.post("/jobs", data={"csrf_token": token, "text": " "}), 400, "choose a file or paste references")
    assert "field 'file'" in _api(client.post("/api/jobs", data={"text": " "}), 400)
    docx = {"file": ("paper.docx", b"PK\x03\x04", "application/octet-stream")}
    _friendly(client.post("/jobs", data={"csrf_token": token}, files=docx), 415, "Upload a PDF")
    assert "not a kind of file" in _api(client.post("/api/jobs", files=docx), 415)
    bad_pages = {"csrf_token": token, "text": ONE_REF, "ref_pages": "x"}
    _friendly(client.post("/jobs", data=bad_pages), 400, "Bibliography pages")
    _friendly(client.post("/jobs", data={"csrf_token": token, "text": ONE_REF, "online": "perhaps"}), 422)
    cross = {"sec-fetch-site": "cross-site"}
    _friendly(client.post("/jobs", data={"text": ONE_REF}, headers=cross), 403, "another site")
    assert _api(client.post("/api/jobs", data={"text": ONE_REF}, headers=cross), 403)


def test_too_large_and_too_many(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(max_bytes=10_000), submits_per_minute=1, submit_burst=3)
    big = {"file": ("big.bib", b"%" + b"x" * 400_000, "x")}
    _friendly(client.post("/jobs", files=big), 413, "Too much to upload", "larger than this server accepts")
    assert "larger" in _api(client.post("/api/jobs", files=big), 413)
    token = _csrf(client)
    client.post("/jobs", data={"csrf_token": token, "text": ONE_REF})  # the bucket's last (413s took two)
    refused = client.post("/jobs", data={"csrf_token": token, "text": ONE_REF})
    _friendly(refused, 429, "Too many requests", "Wait a minute")
    assert int(refused.headers["retry-after"]) >= 1
    assert _api(client.post("/api/jobs", data={"text": ONE_REF}), 429)


def test_an_unexpected_error_is_a_500_page_without_details(client: TestClient) -> None:
    """A job whose state file was damaged on disk (no progress in it): reading it fails, said plainly."""
    job_id = new_id()
    folder = client.app.state.jobs.root / job_id  # type: ignore[attr-defined]
    folder.mkdir()
    (folder / "job.json").write_text(json.dumps({"status": "done", "inputs": ["a.bib"]}), encoding="utf-8")
    page = _friendly(client.get(f"/jobs/{job_id}"), 500, "Something went wrong on the server", "logged")
    assert "KeyError" not in page and str(folder) not in page
    assert _api(client.get(f"/api/jobs/{job_id}"), 500) == "internal error (logged on the server)"


def test_the_favicon_is_served_not_a_404(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg") and len(icon.content) < 2000
    assert '<link rel="icon" href="/favicon.ico" type="image/svg+xml">' in client.get("/").text
