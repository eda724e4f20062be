"""A large finished job read by many clients at once, from a real `citetracer serve` on 127.0.0.1.

GET /api/jobs/{id} once parsed report.json and serialised it again on the event loop: 16
parallel GETs of a 20,000-citation job took the server to 1.9 GB and held /healthz for 60 s.
The report is now the file's bytes, read in chunks off the loop.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest

from citetracer.web.jobs import new_id
from tests.web.conftest import EXAMPLE_BIB
from tests.web.live import LiveServer, served


def big_job(live: LiveServer, template: dict, citations: int) -> str:
    """A finished job of `citations` citations written into the server's jobs folder (read back from disk)."""
    job_id = new_id()
    folder = live.jobs_dir / job_id
    (folder / "input").mkdir(parents=True)
    cites = template["citations"]
    report = {**template, "citations": [{**cites[i % len(cites)], "id": f"k{i}"} for i in range(citations)]}
    report["summary"] = {"total": citations, "real": 0, "potential": 0, "hallucinated": 0}
    (folder / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    state = {"id": job_id, "status": "done", "progress": {"done": citations, "total": citations}, "inputs": ["big.bib"]}
    state |= {"created": "2026-01-01T00:00:00Z", "created_ts": 1.0e9 * 2, "finished_ts": 1.0e9 * 2}
    (folder / "job.json").write_text(json.dumps(state), encoding="utf-8")
    return job_id


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with served(tmp_path_factory.mktemp("live"), "--workers", "1") as server:
        yield server


def test_sixteen_clients_read_a_large_report_while_the_server_answers(live: LiveServer) -> None:
    status, body = live.post(files=[("references.bib", EXAMPLE_BIB.read_bytes())])
    template = live.wait_job(body["id"])["report"]
    job_id = big_job(live, template, 12_000)
    file_bytes = (live.jobs_dir / job_id / "report.json").read_bytes()
    assert len(file_bytes) > 30_000_000

    status, whole = live.get(f"/api/jobs/{job_id}", timeout=120)
    assert status == 200 and file_bytes.rstrip(b"\n") in whole  # the file's bytes, not a re-serialisation
    doc = json.loads(whole)
    assert doc["status"] == "done" and len(doc["report"]["citations"]) == 12_000
    del whole, doc

    before = live.rss()
    clients = []
    for _ in range(16):  # slow readers: each sends its GET and reads only the first bytes of the answer
        s = socket.create_connection(("127.0.0.1", live.port), timeout=30)
        s.sendall(f"GET /api/jobs/{job_id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        clients.append(s)
    try:
        for s in clients:
            assert s.recv(1024).startswith(b"HTTP/1.1 200")
        assert live.get("/healthz", timeout=15)[0] == 200
        assert live.rss() - before < 400 * 1024 * 1024
    finally:
        for s in clients:
            s.close()
    assert "Traceback" not in live.log()


def test_a_job_writes_its_reports_as_citations_are_judged(live: LiveServer) -> None:
    entries = "".join(
        f"@inproceedings{{g{i}, title={{A Synthetic Study of Imaginary Topic {i} in Graph Learning}}, "
        f"author={{Person{i}, Alpha}}, booktitle={{NeurIPS}}, year={{2019}}}}\n"
        for i in range(3000)
    )
    status, body = live.post(files=[("many.bib", entries.encode())])
    assert status == 202, body
    folder = live.jobs_dir / body["id"]
    seen = 0
    while (state := live.get_json(f"/api/jobs/{body['id']}"))["status"] in ("queued", "running"):
        if 300 <= state["progress"]["done"] < state["progress"]["total"]:  # still checking
            partial = folder / ".report.json.tmp"
            if partial.exists():
                seen = max(seen, partial.read_text(encoding="utf-8", errors="replace").count('"id": "g'))
        time.sleep(0.2)  # within the read rate limit
    assert state["status"] == "done", state
    assert seen >= 100  # written while the job ran, not held until its end
    done = live.get_json(f"/api/jobs/{body['id']}")["report"]
    assert len(done["citations"]) == 3000 and done["summary"]["total"] == 3000
    md = live.get(f"/api/jobs/{body['id']}/report.md")[1].decode()
    bib = live.get(f"/api/jobs/{body['id']}/report.bib")[1].decode()
    assert md.startswith("# citetracer report: many.bib") and "3000 citations" in md
    assert bib.count("@inproceedings{") == 3000
