"""What a job leaves on disk, and the jobs folder's quota: a real `citetracer serve` on 127.0.0.1.

Once, a 410 KB zip of 1,990 members of 100 KB kept 195 MB per job for 24 hours.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from tests.extract.conftest import build_pdf, column
from tests.web.conftest import seed_store
from tests.web.live import LiveServer

ENTRY = "@article{k, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming}, year={2016}}\n"


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_unpacked_inputs_go_when_the_job_ends_and_the_quota_holds(tmp_path: Path) -> None:
    store = seed_store(tmp_path / "store" / "store.sqlite")
    pdf = build_pdf(
        tmp_path / "p.pdf", [column(["References", "[1] K. He. Deep residual learning. In CVPR, 2016."], 72, 90)]
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(300):
            zf.writestr(f"p{i:04d}.bib", ENTRY + "%" + "x" * 100_000 + "\n")
        zf.write(pdf, "a-paper.pdf")  # first in the walk: among the 50 papers checked
    assert len(buf.getvalue()) < 1_000_000
    with LiveServer(tmp_path / "live", store, "--max-jobs-mb", "8", "--submits-per-minute", "600") as live:
        status, body = live.post(files=[("fill.zip", buf.getvalue())])
        assert status == 202, body
        state = live.wait_job(body["id"])
        assert state["status"] == "done", state
        folder = live.jobs_dir / body["id"]
        assert not (folder / "inputs").exists()  # the 30 MB unpacked: gone
        assert _size(folder) < 8_000_000, _size(folder)  # the upload, and reports (the zip of 50 corrected .bib)
        assert "fill.zip:a-paper.pdf" in {r["input"] for r in state["report"]}
        page = live.get(f"/jobs/{body['id']}")[1].decode()
        assert f"/jobs/{body['id']}/pdf/1" in page
        status, pdf_bytes = live.get(f"/jobs/{body['id']}/pdf/1")
        assert status == 200 and pdf_bytes == pdf.read_bytes()  # the PDF shown stays, outside the staging

        # 4.5 MB uploaded and 4.5 MB corrected: past the quota (the first job's corrected files are zipped)
        status, body = live.post(files=[("big.bib", (ENTRY + "%" + "y" * 4_500_000).encode())])
        assert status == 202, body  # the folder held less than its quota
        live.wait_job(body["id"])
        status, body = live.post(fields={"text": ENTRY})
        assert status == 507 and "no room" in body["error"], body
