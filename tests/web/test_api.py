"""The JSON API: submit, status, result; the same verdicts and files as `citetracer check`."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import jsonschema
from fastapi.testclient import TestClient

from citetracer.cli import main
from tests.web.conftest import EXAMPLE_BIB, seed_store, wait_done

SARIF_SCHEMA = Path(__file__).resolve().parents[1] / "report" / "sarif-schema-2.1.0.json"


def _submit_example(client: TestClient) -> str:
    with EXAMPLE_BIB.open("rb") as fh:
        response = client.post("/api/jobs", files={"file": ("references.bib", fh, "text/x-bibtex")})
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


def _verdicts(doc: dict) -> dict[str, tuple]:
    return {
        c["id"]: (
            c["verdict"]["class"],
            c["verdict"]["code"],
            tuple(c["verdict"]["codes"]),
            tuple(c["verdict"]["fields"]),
            tuple((e["source"], e["id"]) for e in c["verdict"]["evidence"]),
            c["verdict"]["rationale"],
        )
        for c in doc["citations"]
    }


def test_a_bib_is_checked_like_the_cli_checks_it(client: TestClient, tmp_path: Path) -> None:
    job_id = _submit_example(client)
    state = wait_done(client, job_id)
    assert state["status"] == "done", state
    assert state["progress"] == {"done": 16, "total": 16}
    report = state["report"]
    assert report["input"] == "references.bib"
    assert report["summary"] == {"total": 16, "real": 5, "potential": 5, "hallucinated": 6}

    cli_store = seed_store(tmp_path / "cli" / "store.sqlite")  # a store of its own: the web's remembered links
    out, fixed = tmp_path / "cli.json", tmp_path / "cli-fixed.bib"
    args = ["check", str(EXAMPLE_BIB), "--offline", "--store", str(cli_store), "--format", "json", "-o", str(out)]
    assert main([*args, "--fix", str(fixed)]) == 1
    assert _verdicts(report) == _verdicts(json.loads(out.read_text(encoding="utf-8")))
    assert client.get(f"/api/jobs/{job_id}/report.json").json() == report

    # the corrected BibTeX is check --fix's, byte for byte
    bib = client.get(f"/api/jobs/{job_id}/report.bib")
    assert bib.status_code == 200 and "attachment" in bib.headers["content-disposition"]
    assert bib.text == fixed.read_text(encoding="utf-8")


def test_every_download(client: TestClient) -> None:
    job_id = _submit_example(client)
    assert wait_done(client, job_id)["status"] == "done"
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/jobs/{job_id}/report.csv").text)))
    assert len(rows) == 16 and {r["file"] for r in rows} == {"references.bib"}
    assert sum(r["class"] == "Hallucinated" for r in rows) == 6
    md = client.get(f"/api/jobs/{job_id}/report.md").text
    assert md.startswith("# citetracer report: references.bib") and "6 Hallucinated" in md
    sarif_text = client.get(f"/api/jobs/{job_id}/report.sarif").text
    sarif = json.loads(sarif_text)
    jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    results = sarif["runs"][0]["results"]
    assert len(results) == 11  # the 5 Potential and 6 Hallucinated, each at its entry's line
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"references.bib"}
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] > 1 for r in results)
    assert "file:" not in sarif_text and "web-jobs" not in sarif_text  # no server path
    page = client.get(f"/jobs/{job_id}")
    assert page.status_code == 200 and "Content-Security-Policy" in page.headers
    assert f'href="/jobs/{job_id}/report.bib"' in page.text and 'data-class="Hallucinated"' in page.text
    assert client.get(f"/api/jobs/{job_id}/report.exe").status_code == 404


def test_pasted_text_and_progress_events(client: TestClient) -> None:
    text = EXAMPLE_BIB.read_text(encoding="utf-8")
    response = client.post("/api/jobs", data={"text": text})
    assert response.status_code == 202
    job_id = response.json()["id"]
    assert wait_done(client, job_id)["report"]["summary"]["hallucinated"] == 6
    stream = client.get(f"/api/jobs/{job_id}/events").text
    assert "event: progress" in stream and stream.rstrip().endswith('data: {"status": "done"}')
    # a finished job read back after the fact still ends its stream; a live one streams each citation
    plain = "[1] A. Nobody. A Study That Nobody Has Ever Written Down. In Nowhere, 2020.\n"
    live = client.post("/api/jobs", data={"text": plain}).json()["id"]
    events = client.get(f"/api/jobs/{live}/events").text
    progress = [json.loads(line[6:]) for line in events.splitlines() if line.startswith('data: {"done"')]
    assert progress[-1] == {"done": 1, "total": 1, "status": "done", "text": "1 of 1 citation"}
    assert "event: end" in events


def test_several_files_and_a_zip(client: TestClient, tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "papers.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("sub/refs.bib", EXAMPLE_BIB.read_text(encoding="utf-8"))
        zf.writestr("notes.docx", "ignored")
    plain = b"[1] A. Nobody. A Study That Nobody Has Ever Written Down. In Nowhere, 2020.\n"
    with archive.open("rb") as fh:
        files = [("file", ("papers.zip", fh, "application/zip")), ("file", ("list.txt", plain, "text/plain"))]
        job_id = client.post("/api/jobs", files=files).json()["id"]
    state = wait_done(client, job_id)
    assert state["status"] == "done" and state["inputs"] == ["papers.zip", "list.txt"]
    reports = state["report"]
    assert isinstance(reports, list) and [r["input"] for r in reports] == ["papers.zip:sub/refs.bib", "list.txt"]
    assert state["progress"] == {"done": 17, "total": 17}


def test_tex_with_its_bib(client: TestClient) -> None:
    tex = b"\\documentclass{article}\\begin{document}\\cite{x}\\bibliography{refs}\\end{document}"
    files = [("file", ("paper.tex", tex, "text/x-tex")), ("file", ("refs.bib", EXAMPLE_BIB.read_bytes(), "x"))]
    job_id = client.post("/api/jobs", files=files).json()["id"]
    state = wait_done(client, job_id)
    assert state["report"]["input"] == "paper.tex"  # refs.bib is checked through the .tex, once
    assert state["report"]["summary"]["total"] == 16
    assert client.get(f"/api/jobs/{job_id}/report.bib").status_code == 200


def test_openapi_and_health(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for route in ("/api/jobs", "/api/jobs/{job_id}", "/api/jobs/{job_id}/report.{ext}", "/healthz"):
        assert route in paths, sorted(paths)
    body = paths["/api/jobs"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert body  # file and text fields are described
    assert "/jobs/{job_id}" not in paths  # the pages are not API
    assert client.get("/healthz").json()["status"] == "ok"
    assert client.get("/docs").status_code == 404  # it would load script from a CDN


def test_a_job_that_cannot_be_read_fails_with_a_clear_message(client: TestClient, tmp_path: Path) -> None:
    job_id = client.post("/api/jobs", files={"file": ("empty.bib", b"   \n% nothing\n", "x")}).json()["id"]
    state = wait_done(client, job_id)
    assert state["status"] == "failed" and state["error"].startswith("empty.bib")
    assert str(tmp_path) not in json.dumps(state)
    assert client.get(f"/api/jobs/{job_id}/report.json").status_code == 409
    page = client.get(f"/jobs/{job_id}")
    assert page.status_code == 200 and "Could not check" in page.text and str(tmp_path) not in page.text


def test_a_pdf_is_read_in_its_child_process_and_served_at_its_pages(client: TestClient, tmp_path: Path) -> None:
    from tests.scan.conftest import make_pdf

    pdf = make_pdf(tmp_path / "paper.pdf", 1)
    job_id = client.post("/api/jobs", files={"file": ("paper.pdf", pdf.read_bytes(), "application/pdf")}).json()["id"]
    state = wait_done(client, job_id)
    assert state["status"] == "done" and state["report"]["input"] == "paper.pdf"
    assert state["progress"]["total"] == state["report"]["summary"]["total"] >= 1
    page = client.get(f"/jobs/{job_id}").text
    assert f'href="/jobs/{job_id}/pdf/1"' in page and f'href="/jobs/{job_id}/pdf/1#page=' in page
    assert state["report"]["reading"]["pages"] == [2] and '<p class="reading">read: ' in page  # as `check`'s
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/jobs/{job_id}/report.csv").text)))
    assert {(r["pages_read"], r["low_confidence"]) for r in rows} == {("2", "0")}  # the CSV and SARIF say it too
    sarif = json.loads(client.get(f"/api/jobs/{job_id}/report.sarif").text)["runs"][0]
    assert sarif["properties"]["readings"][0]["pages"] == [2]
    served = client.get(f"/jobs/{job_id}/pdf/1")
    assert served.status_code == 200 and served.headers["content-type"] == "application/pdf"
    assert served.content == pdf.read_bytes()
    assert client.get(f"/jobs/{job_id}/pdf/2").status_code == 404
    assert client.get(f"/api/jobs/{job_id}/report.bib").status_code == 404  # no BibTeX input


def test_a_pdf_without_a_reference_list_ends_done_with_a_warning_that_says_so(
    client: TestClient, tmp_path: Path
) -> None:
    """The job read the PDF (done, its reports say no list was found), but nothing of it was checked: the job's own
    JSON says so too, where a script polling the status looks, not only the report."""
    from tests.scan.conftest import make_pdf_without_list

    pdf = make_pdf_without_list(tmp_path / "slides.pdf")
    job_id = client.post("/api/jobs", files={"file": ("slides.pdf", pdf.read_bytes(), "application/pdf")}).json()["id"]
    state = wait_done(client, job_id)
    said = "slides.pdf: no reference list found in the PDF (pages 1-2 searched): nothing was checked"
    assert state["status"] == "done" and said in state["warnings"]
    assert state["report"]["reading"]["references"] == 0


def test_the_bibliography_pages_field_reaches_the_pdf_reader(client: TestClient, tmp_path: Path) -> None:
    """The form's and the API's `ref_pages` is `--ref-pages`: pages past the PDF's end are the reader's error,
    a malformed range is refused at once."""
    from tests.scan.conftest import make_pdf

    pdf = make_pdf(tmp_path / "paper.pdf", 1).read_bytes()
    bad = client.post("/api/jobs", files={"file": ("paper.pdf", pdf, "application/pdf")}, data={"ref_pages": "x-2"})
    assert bad.status_code == 400 and "bibliography pages" in bad.text
    sent = client.post("/api/jobs", files={"file": ("paper.pdf", pdf, "application/pdf")}, data={"ref_pages": "7-9"})
    state = wait_done(client, sent.json()["id"])
    assert any("--ref-pages 7-9 is past the PDF's" in w for w in state.get("warnings", [])), state
    plain = client.post("/api/jobs", files={"file": ("paper.pdf", pdf, "application/pdf")}, data={"ref_pages": " "})
    assert wait_done(client, plain.json()["id"])["status"] == "done"
    # a PDF in an archive is unpacked by the job's worker, after the request: the range travels with the job
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as zf:
        zf.writestr("paper.pdf", pdf)
    zipped = client.post(
        "/api/jobs", files={"file": ("papers.zip", packed.getvalue(), "application/zip")}, data={"ref_pages": "7-9"}
    )
    state = wait_done(client, zipped.json()["id"])
    assert any("--ref-pages 7-9 is past the PDF's" in w for w in state.get("warnings", [])), state
    assert 'name="ref_pages"' in client.get("/").text


def test_no_page_or_report_names_the_servers_store_path(client: TestClient, example_store: Path) -> None:
    """The store note ('the store (PATH, 12 records) holds no complete source ...') named the server's path."""
    job = _submit_example(client)
    state = wait_done(client, job)
    assert state["status"] == "done", state
    shown = client.get(f"/jobs/{job}").text + json.dumps(client.get(f"/api/jobs/{job}").json())
    for name in ("report.json", "report.md", "report.html"):
        shown += client.get(f"/jobs/{job}/{name}").text
    assert "the server's store" in shown
    for form in {str(example_store), str(example_store.resolve()), str(example_store.parent)}:
        assert form not in shown
