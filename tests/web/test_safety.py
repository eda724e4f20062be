"""Safe to run for a department: limits, rate limits, unguessable ids, CSRF, headers, no server paths."""

from __future__ import annotations

import io
import re
import time
import zipfile
from pathlib import Path

from fastapi.testclient import TestClient

from citetracer.web.jobs import JobStore, new_id, valid_id
from citetracer.web.security import RateLimiter
from citetracer.web.uploads import Limits, safe_name
from tests.web.conftest import EXAMPLE_BIB, MakeClient, wait_done

ONE_REF = b"[1] A. Nobody. A Study That Nobody Has Ever Written Down. In Nowhere, 2020.\n"


def test_oversize_upload_is_413_announced_or_not(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(max_bytes=10_000))
    big = b"%" + b"x" * 400_000
    response = client.post("/api/jobs", files={"file": ("big.bib", big, "x")})
    assert response.status_code == 413 and "larger" in response.json()["error"]

    def chunks():  # no Content-Length: counted as it arrives
        yield b'--b\r\nContent-Disposition: form-data; name="text"\r\n\r\n'
        for _ in range(100):
            yield b"y" * 10_000
        yield b"\r\n--b--\r\n"

    response = client.post("/api/jobs", content=chunks(), headers={"content-type": "multipart/form-data; boundary=b"})
    assert response.status_code == 413
    # within the body limit but over the files' budget (the framing allowance is not upload room)
    response = client.post("/api/jobs", files={"file": ("a.bib", b"%" * 20_000, "x")})
    assert response.status_code == 413
    assert not any((client.app.state.jobs.root).iterdir())  # refused uploads leave nothing behind


def test_too_many_files_and_unknown_kinds(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(max_files=2))
    files = [("file", (f"r{i}.txt", ONE_REF, "text/plain")) for i in range(3)]
    response = client.post("/api/jobs", files=files)
    assert response.status_code == 413 and "more than 2 files" in response.json()["error"]
    response = client.post("/api/jobs", files={"file": ("run.exe", b"MZ", "x")})
    assert response.status_code == 415
    assert client.post("/api/jobs", data={"text": "  "}).status_code == 400


def test_rate_limit_is_429_with_retry_after(make_client: MakeClient) -> None:
    client = make_client(submits_per_minute=1, submit_burst=2)
    codes = [client.post("/api/jobs", data={"text": ONE_REF.decode()}).status_code for _ in range(3)]
    assert codes == [202, 202, 429]
    refused = client.post("/api/jobs", data={"text": ONE_REF.decode()})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert client.get("/healthz").status_code == 200  # reads have their own bucket
    limiter = RateLimiter(per_minute=60, burst=1)
    assert limiter.take("a", now=0.0) == 0 and limiter.take("a", now=0.1) > 0 and limiter.take("b", now=0.1) == 0
    assert limiter.take("a", now=1.1) == 0  # refilled at one a second


def test_queue_full_is_503(make_client: MakeClient) -> None:
    client = make_client(start=False, queue_size=1)  # workers not started: nothing leaves the queue
    assert client.post("/api/jobs", data={"text": ONE_REF.decode()}).status_code == 202
    refused = client.post("/api/jobs", data={"text": ONE_REF.decode()})
    assert refused.status_code == 503 and refused.headers["retry-after"]
    assert client.get("/healthz").status_code == 503  # not ready: no worker runs


def test_unknown_or_guessed_job_ids_are_404(client: TestClient) -> None:
    job_id = client.post("/api/jobs", data={"text": ONE_REF.decode()}).json()["id"]
    assert valid_id(job_id) and len(job_id) == 24
    assert len({new_id() for _ in range(1000)}) == 1000
    for guess in (new_id(), job_id[:-1] + ("A" if job_id[-1] != "A" else "B"), "%2e%2e%2fetc", "a" * 24, "..%2F.."):
        for url in (f"/api/jobs/{guess}", f"/jobs/{guess}", f"/api/jobs/{guess}/report.json", f"/jobs/{guess}/pdf/1"):
            response = client.get(url)
            assert response.status_code == 404, (url, response.status_code)
    assert client.get(f"/jobs/{job_id}/pdf/1").status_code == 404  # no PDF in that job


def test_csrf_token_is_required_on_the_form(client: TestClient) -> None:
    index = client.get("/")
    token = re.search(r'name="csrf_token" value="([^"]+)"', index.text)
    assert token and client.cookies.get("citetracer_csrf") == token.group(1)
    assert "samesite=strict" in index.headers["set-cookie"].lower()
    assert "httponly" in index.headers["set-cookie"].lower()
    data = {"text": ONE_REF.decode()}
    assert client.post("/jobs", data=data, follow_redirects=False).status_code == 403  # no token
    forged = client.post("/jobs", data={**data, "csrf_token": "x" * 43}, follow_redirects=False)
    assert forged.status_code == 403 and "<html" in forged.text
    ok = client.post("/jobs", data={**data, "csrf_token": token.group(1)}, follow_redirects=False)
    assert ok.status_code == 303 and re.fullmatch(r"/jobs/[A-Za-z0-9_-]{24}", ok.headers["location"])
    client.cookies.clear()  # a cross-site page has the field it wrote but not our cookie
    stolen = client.post("/jobs", data={**data, "csrf_token": token.group(1)}, follow_redirects=False)
    assert stolen.status_code == 403


def test_security_headers(client: TestClient) -> None:
    for url in ("/", "/healthz", "/static/job.js", "/api/jobs/nope"):
        h = client.get(url).headers
        assert h["x-content-type-options"] == "nosniff" and h["referrer-policy"] == "no-referrer", url
        assert "frame-ancestors 'none'" in h["content-security-policy"] and h["x-frame-options"] == "DENY", url
    csp = client.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    with EXAMPLE_BIB.open("rb") as fh:
        job_id = client.post("/api/jobs", files={"file": ("references.bib", fh, "x")}).json()["id"]
    wait_done(client, job_id)
    page = client.get(f"/jobs/{job_id}")
    header = page.headers["content-security-policy"]
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page.text)
    assert meta and header.startswith(meta.group(1).replace("&#x27;", "'")) and "unsafe-inline" not in header


def test_no_path_or_traceback_in_any_error(client: TestClient, tmp_path: Path) -> None:
    bodies = [
        client.post("/api/jobs", files={"file": ("x.pdf", b"%PDF-1.4 garbage", "application/pdf")}),
        client.post("/api/jobs", files={"file": ("x.zip", b"PK not a zip", "application/zip")}),
        client.get("/api/jobs/" + "x" * 300),
        client.post("/api/jobs", content=b"\xff" * 50, headers={"content-type": "multipart/form-data; boundary=z"}),
        client.get("/jobs/nope/report.bib"),
        client.put("/api/jobs"),
    ]
    pdf_job = bodies[0].json()["id"]
    bodies.append(client.get(f"/api/jobs/{pdf_job}"))
    state = wait_done(client, pdf_job)
    assert state["status"] == "failed" and state["error"].startswith("x.pdf")
    bodies.append(client.get(f"/api/jobs/{pdf_job}"))
    bodies.append(client.get(f"/jobs/{pdf_job}"))
    for response in bodies:
        text = response.text
        assert str(tmp_path) not in text and "Traceback" not in text and "/tmp/" not in text, text
        assert "web-jobs" not in text and "site-packages" not in text, text


def test_zip_slip_names_stay_inside_the_job(client: TestClient, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("../../../escaped.bib", EXAMPLE_BIB.read_text(encoding="utf-8"))
        zf.writestr("/abs/rooted.bib", EXAMPLE_BIB.read_text(encoding="utf-8"))
        zf.writestr("ok/inside.bib", EXAMPLE_BIB.read_text(encoding="utf-8"))
    job_id = client.post("/api/jobs", files={"file": ("../../evil name.zip", buf.getvalue(), "x")}).json()["id"]
    state = wait_done(client, job_id)
    root = client.app.state.jobs.root
    names = {r["input"] for r in state["report"]} if isinstance(state["report"], list) else {state["report"]["input"]}
    assert names == {"evil_name.zip:ok/inside.bib", "evil_name.zip:abs/rooted.bib"}
    assert not list(tmp_path.rglob("escaped.bib")) and not Path("/abs").exists()
    assert all(p.resolve().is_relative_to(root / job_id) for p in (root / job_id).rglob("*"))
    assert safe_name("../../etc/passwd.bib", 1) == "passwd.bib" and safe_name("..\\..\\x.pdf", 1) == "x.pdf"
    assert safe_name("", 3) == "upload-3" and safe_name("...", 2) == "upload-2"


def test_a_tex_cannot_read_another_job_s_upload(client: TestClient, tmp_path: Path) -> None:
    with EXAMPLE_BIB.open("rb") as fh:
        victim = client.post("/api/jobs", files={"file": ("secret.bib", fh, "x")}).json()["id"]
    wait_done(client, victim)
    for target in (f"../../{victim}/input/secret", "/etc/passwd", f"{tmp_path}/store/web-jobs/{victim}/input/secret"):
        tex = f"\\documentclass{{article}}\\bibliography{{{target}}}".encode()
        response = client.post("/api/jobs", files={"file": ("attack.tex", tex, "x")})
        assert response.status_code == 400, response.text
        assert "outside this upload" in response.json()["error"] and victim not in response.text


def test_expired_jobs_are_swept_and_interrupted_ones_fail(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "jobs", keep_hours=1)
    old, fresh, running = store.create(["a"]), store.create(["b"]), store.create(["c"])
    for job in (old, fresh):
        job.update(status="done", finished=time.time())
        job.save()
        store.finished(job)
    old.update(finished=time.time() - 2 * 3600)
    old.save()
    running.update(status="running")
    running.save()
    (tmp_path / "jobs" / "stray-half-made").mkdir()
    assert store.sweep(now=time.time() + 60) == 1  # the old one; the live and the fresh stay (stray is recent)
    assert store.get(old.id) is None and store.get(fresh.id) is not None
    restarted = JobStore(tmp_path / "jobs", keep_hours=1)  # the server stopped while `running` ran
    again = restarted.get(running.id)
    assert again is not None and again.status == "failed" and "server stopped" in (again.error or "")
    assert restarted.sweep(now=time.time() + 3 * 3600) == 3
