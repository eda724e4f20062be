"""Scans on a real Dask cluster on 127.0.0.1: a scheduler and two worker processes sharing a PostgreSQL store.

The same journal and reports as the one-machine scan; nothing lost when a worker dies (its papers are checked
by the other one); a dead scheduler is one clear line and exit 2.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer.cli import main
from tests.conftest import pg_location
from tests.pgserver import free_port
from tests.scan.conftest import EXAMPLES, make_pdf

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

N_PAPERS = 24


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """`dask scheduler` and two `dask worker` processes (one thread each, no nanny: a killed worker stays dead)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}  # workers start the PDF reader's children

    def start(*args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )

    scheduler = start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
    worker = ("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard")
    workers = [start(*worker, "--host", "127.0.0.1") for _ in range(2)]
    from distributed import Client

    try:
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address, workers
    finally:
        for proc in [*workers, scheduler]:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in [*workers, scheduler]:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.fixture(scope="module")
def shared_store(pg_server: str) -> str:
    url = pg_location(pg_server)
    assert main(["mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example", "--store", url]) == 0
    return url


def _papers(folder: Path) -> Path:
    folder.mkdir()
    text = (EXAMPLES / "references.bib").read_text()
    for i in range(N_PAPERS):
        (folder / f"paper{i:02d}.bib").write_text(f"% paper {i}\n{text}")
    make_pdf(folder / "paper.pdf", 1)
    return folder


def _journal(out: Path) -> list[dict]:
    lines = (out / "journal.jsonl").read_text().splitlines()[1:] if (out / "journal.jsonl").exists() else []
    return [json.loads(x) for x in lines]


def _scan(*args: str) -> list[str]:
    return [sys.executable, "-m", "citetracer", "scan", *args, "--offline"]


def test_a_cluster_scan_writes_what_a_local_scan_writes(
    dask_cluster: tuple[str, list[subprocess.Popen[bytes]]], shared_store: str, tmp_path: Path
) -> None:
    address, _ = dask_cluster
    papers = _papers(tmp_path / "papers")
    there, here = tmp_path / "cluster", tmp_path / "local"
    common = ["--store", shared_store, "--offline"]
    assert main(["scan", str(papers), "-o", str(there), *common, "--cluster", address]) == 1
    assert main(["scan", str(papers), "-o", str(here), *common, "--workers", "1"]) == 1
    on_cluster, locally = _journal(there), _journal(here)
    assert len(on_cluster) == N_PAPERS + 1 and all(e["status"] == "done" for e in on_cluster)
    assert len({e["worker"] for e in on_cluster}) == 2  # both workers took papers

    def counts(entries: list[dict]) -> dict[str, tuple[int, int, int]]:
        return {e["name"]: (e["real"], e["potential"], e["hallucinated"]) for e in entries}

    assert counts(on_cluster) == counts(locally)

    def verdicts(folder: Path, name: str) -> list[tuple[str, str, list[str], list[str]]]:
        doc = json.loads((folder / "papers" / f"{name}.json").read_text())
        return [(c["id"], v["class"], v["codes"], v["fields"]) for c in doc["citations"] for v in [c["verdict"]]]

    for e in on_cluster:
        assert verdicts(there, e["name"]) == verdicts(here, e["name"])
    assert (there / "index.html").exists() and (there / "summary.csv").read_text().count("\n") == N_PAPERS + 2


def test_papers_of_a_worker_that_dies_are_checked_by_another(
    dask_cluster: tuple[str, list[subprocess.Popen[bytes]]], shared_store: str, tmp_path: Path
) -> None:
    address, workers = dask_cluster
    papers = _papers(tmp_path / "papers")
    out = tmp_path / "report"
    from distributed import Client

    scan = subprocess.Popen(_scan(str(papers), "-o", str(out), "--store", shared_store, "--cluster", address))
    victim = workers[0]
    with Client(address, timeout=30) as client:
        pids = client.run(os.getpid)
        victim_address = next(a for a, pid in pids.items() if pid == victim.pid)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and scan.poll() is None and not client.processing().get(victim_address):
            time.sleep(0.01)
        held = list(client.processing().get(victim_address) or [])
    assert held, "the worker held no paper before the scan ended; give the scan more papers"
    victim.kill()  # with the papers it holds
    assert scan.wait(300) == 1  # the example bibliography has Hallucinated citations
    entries = _journal(out)
    assert len(entries) == N_PAPERS + 1 == len({e["name"] for e in entries})  # each paper once
    assert all(e["status"] == "done" for e in entries)  # nothing lost
    survivors = {e["worker"] for e in entries if e["worker"].endswith(f":{victim.pid}") is False}
    assert survivors  # the other worker checked what the dead one held


def test_an_unreachable_scheduler_is_one_line_and_exit_2(
    shared_store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    papers = _papers(tmp_path / "papers")
    address = f"tcp://127.0.0.1:{free_port()}"
    code = main(["scan", str(papers), "-o", str(tmp_path / "out"), "--store", shared_store, "--offline",
                 "--cluster", address])  # fmt: skip
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code == 2
    assert err[-1].startswith(f"error: cannot reach the Dask scheduler at {address}")


def _dask(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env or dict(os.environ)
    )


def _stop(*procs: subprocess.Popen[bytes]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_daemonic_workers_are_one_clear_error_and_no_worker_is_said(tmp_path: Path) -> None:
    from citetracer.config import Settings
    from citetracer.scan.cluster import ClusterPool

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "DASK_DISTRIBUTED__WORKER__DAEMON"}
    scheduler = _dask(
        "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard", env=env
    )
    worker: subprocess.Popen[bytes] | None = None
    try:
        said: list[str] = []
        pool = ClusterPool(
            address, 1, Settings(store=tmp_path / "s.sqlite", offline=True), notify=said.append, no_worker_seconds=1.0
        )
        errors: list[Exception] = []

        def run() -> None:
            try:
                pool.run(iter([]), lambda job, result: None)
            except Exception as exc:
                errors.append(exc)

        import threading

        thread = threading.Thread(target=run)
        thread.start()
        deadline = time.monotonic() + 60
        while not said and time.monotonic() < deadline:
            time.sleep(0.2)
        assert said and "no Dask worker has joined" in said[0], said  # it waited in silence
        # a worker started as usual (with its nanny, daemonic): refused with the setting named
        worker = _dask(
            "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1", env=env
        )
        thread.join(120)
        assert not thread.is_alive()
        assert errors and "DASK_DISTRIBUTED__WORKER__DAEMON=False" in str(errors[0]), errors
    finally:
        _stop(*([worker] if worker else []), scheduler)
