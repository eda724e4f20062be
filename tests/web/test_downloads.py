"""The job's downloads beside the JSON, CSV, Markdown and SARIF: the HTML report as `check --format html` writes
it, and the corrected BibTeX as `check --fix` writes it, one file per uploaded .bib (a zip when there are several)."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

from fastapi.testclient import TestClient

from citetracer.cli import main
from citetracer.web.results import member_names
from tests.web.conftest import EXAMPLE_BIB, seed_store, wait_done

CARD = re.compile(r'<(article|details) class="cite .*?</\1>', re.S)


def _done(client: TestClient, files: list[tuple[str, tuple[str, bytes, str]]]) -> str:
    response = client.post("/api/jobs", files=files)
    assert response.status_code == 202, response.text
    job_id = str(response.json()["id"])
    assert wait_done(client, job_id)["status"] == "done"
    return job_id


def _cli(tmp_path: Path, bib: Path, *args: str) -> None:
    store = seed_store(tmp_path / f"cli-{bib.stem}" / "store.sqlite")  # its own store, as the web job had
    assert main(["check", str(bib), "--offline", "--store", str(store), *args]) in (0, 1)


def test_the_html_report_download_is_the_clis_file(client: TestClient, tmp_path: Path) -> None:
    job_id = _done(client, [("file", ("references.bib", EXAMPLE_BIB.read_bytes(), "text/x-bibtex"))])
    page = client.get(f"/jobs/{job_id}").text
    assert f'<a href="/jobs/{job_id}/report.html">download HTML</a>' in page
    download = client.get(f"/jobs/{job_id}/report.html")
    assert download.status_code == 200 and download.headers["content-type"].startswith("text/html")
    assert download.headers["content-disposition"] == 'attachment; filename="citetracer-report.html"'
    html = download.text
    assert "/jobs/" not in html and "new check" not in html  # stands alone: no links back to this server
    assert '<meta http-equiv="Content-Security-Policy"' in html
    cli = tmp_path / "cli.html"
    _cli(tmp_path, EXAMPLE_BIB, "--format", "html", "-o", str(cli))
    cards = [m.group(0) for m in CARD.finditer(html)]
    assert len(cards) == 16 and cards == [m.group(0) for m in CARD.finditer(cli.read_text(encoding="utf-8"))]
    assert client.get(f"/api/jobs/{job_id}/report.html").text == html


def test_one_corrected_bib_per_uploaded_bib(client: TestClient, tmp_path: Path) -> None:
    entries = EXAMPLE_BIB.read_text(encoding="utf-8").split("\n@")
    small = tmp_path / "small.bib"
    small.write_text("\n@".join(entries[:4]) + "\n", encoding="utf-8")
    files = [
        ("file", ("references.bib", EXAMPLE_BIB.read_bytes(), "text/x-bibtex")),
        ("file", ("small.bib", small.read_bytes(), "text/x-bibtex")),
    ]
    job_id = _done(client, files)
    page = client.get(f"/jobs/{job_id}").text
    assert f'href="/jobs/{job_id}/report.bib.zip">download BIBs (zip)</a>' in page
    assert f'href="/jobs/{job_id}/report.bib"' not in page
    merged = client.get(f"/api/jobs/{job_id}/report.bib")
    assert merged.status_code == 404 and "report.bib.zip" in merged.json()["error"]
    response = client.get(f"/api/jobs/{job_id}/report.bib.zip")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as zf:
        assert zf.namelist() == ["references.bib", "small.bib"]
        got = {name: zf.read(name).decode("utf-8") for name in zf.namelist()}
    for name, source in (("references.bib", EXAMPLE_BIB), ("small.bib", small)):
        fixed = tmp_path / f"fixed-{name}"
        _cli(tmp_path, source, "--fix", str(fixed), "-o", os.devnull)
        assert got[name] == fixed.read_text(encoding="utf-8"), name  # each file is check --fix of that file alone


def test_bibs_in_an_archive_are_named_by_their_place_in_it(client: TestClient) -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as zf:
        zf.writestr("a/refs.bib", EXAMPLE_BIB.read_text(encoding="utf-8"))
        zf.writestr("b/refs.bib", EXAMPLE_BIB.read_text(encoding="utf-8"))
    job_id = _done(client, [("file", ("papers.zip", packed.getvalue(), "application/zip"))])
    with zipfile.ZipFile(io.BytesIO(client.get(f"/jobs/{job_id}/report.bib.zip").content)) as zf:
        assert zf.namelist() == ["papers.zip/a/refs.bib", "papers.zip/b/refs.bib"]
    assert member_names(["refs.bib", "refs.bib", "../../etc/passwd", "..", "x:y\\z.bib"]) == [
        "refs.bib",
        "refs-2.bib",
        "etc/passwd",
        "references-4.bib",
        "x/y/z.bib",
    ]
    one = _done(client, [("file", ("refs.bib", EXAMPLE_BIB.read_bytes(), "x"))])
    missing = client.get(f"/api/jobs/{one}/report.bib.zip")
    assert missing.status_code == 404 and "report.bib" in missing.json()["error"]
