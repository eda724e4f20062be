"""Archive bombs sent to a real `citetracer serve` on 127.0.0.1: bounded, unpacked by the job's worker.

A tar of directory entries once went uncounted (only regular files counted toward the member
bound) while TarFile kept every header: 2M entries in 9.4 MB took 978 MB and 89 s inside the
request. Now every member counts, headers are not kept, the unpacking runs in a bounded child
of the job's worker (not while the request waits), and the server answers other requests
meanwhile.
"""

from __future__ import annotations

import io
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import EXAMPLE_BIB
from tests.web.live import LiveServer, served

BIB = EXAMPLE_BIB.read_bytes()


def tar_bomb(folders: int, compression: str = "gz", late: bytes | None = BIB) -> bytes:
    """A tar of `folders` directory entries, then (when `late`) a bibliography after all of them."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=f"w:{compression}") as tf:
        for i in range(folders):
            info = tarfile.TarInfo(f"d{i}")
            info.type = tarfile.DIRTYPE
            tf.addfile(info)
        if late is not None:
            info = tarfile.TarInfo("late/references.bib")
            info.size = len(late)
            tf.addfile(info, io.BytesIO(late))
    return buf.getvalue()


def zip_bomb(entries: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i in range(entries):
            zf.writestr(f"d{i}/", b"")
        zf.writestr("late/references.bib", BIB)
    return buf.getvalue()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with served(tmp_path_factory.mktemp("live"), "--workers", "2") as server:
        yield server


def test_every_member_of_a_tar_counts_and_the_rest_is_skipped(live: LiveServer) -> None:
    status, body = live.post(files=[("bomb.tar.gz", tar_bomb(2500))])
    assert status == 202 and body["status"] in ("queued", "running"), body
    state = live.wait_job(body["id"])
    assert state["status"] == "failed", state  # the bibliography lies past the 2,000-member bound
    assert "bomb.tar.gz: more than 2000 members; the rest were skipped" in state["error"]


def test_a_zip_declaring_too_many_members_is_refused_before_its_directory_is_read(live: LiveServer) -> None:
    status, body = live.post(files=[("bomb.zip", zip_bomb(2500))])
    assert status == 202, body
    state = live.wait_job(body["id"])
    assert state["status"] == "failed" and "bomb.zip: 2501 members, more than the 2000" in state["error"], state


def test_the_server_answers_while_bombs_unpack(live: LiveServer) -> None:
    bomb = tar_bomb(100_000, "gz", late=None)  # ~300 KB of 100,000 folder entries: the first 2,000 are read
    before = live.rss()
    ids: list[str] = []

    def send() -> None:
        status, body = live.post(files=[("bomb.tar.gz", bomb)])
        assert status == 202, body
        ids.append(body["id"])

    senders = [threading.Thread(target=send) for _ in range(6)]
    for t in senders:
        t.start()
    assert live.get("/healthz", timeout=20)[0] == 200
    for t in senders:
        t.join(60)
    assert len(ids) == 6
    for job_id in ids:
        state = live.wait_job(job_id)
        assert state["status"] == "failed" and "more than 2000 members" in state["error"], state
    assert live.rss() - before < 300 * 1024 * 1024  # the headers are neither kept nor read here
    assert "Traceback" not in live.log()


def test_odd_members_are_skipped_and_the_rest_kept(live: LiveServer, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("é" * 150 + "/x.bib", BIB)  # a folder name of 300 bytes
        zf.writestr("same", b"a file")
        zf.writestr("same/y.bib", BIB)  # a folder where a file of that name is (skipped: not a paper)
        zf.writestr("clash.bib", BIB)
        zf.writestr("clash.bib/z.bib", BIB)  # a folder where a paper of that name is
        zf.writestr("ok/references.bib", BIB)
    status, body = live.post(files=[("fill.zip", buf.getvalue())])
    assert status == 202, body
    state = live.wait_job(body["id"])
    assert state["status"] == "done", state
    inputs = {r["input"] for r in state["report"]}
    assert {"fill.zip:ok/references.bib", "fill.zip:clash.bib"} <= inputs
    assert any(name.startswith("fill.zip:" + "é" * 50) for name in inputs), inputs
    assert any(w.startswith("fill.zip:clash.bib/z.bib: cannot be unpacked") for w in state["warnings"]), state
    assert not list(live.jobs_dir.rglob("*.partial"))


def test_a_member_s_problem_is_named_archive_colon_member(live: LiveServer) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("p0000.bib", b"")  # nothing to read in it
        zf.writestr("sub/p0001.bib", BIB)
    status, body = live.post(files=[("fill.zip", buf.getvalue())])
    assert status == 202, body
    state = live.wait_job(body["id"])
    assert state["status"] == "done", state
    assert any(w.startswith("fill.zip:p0000.bib: ") for w in state["warnings"]), state["warnings"]
    assert not any("fill.zip-" in w or "inputs" in w for w in state["warnings"]), state["warnings"]
