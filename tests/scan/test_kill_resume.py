"""A scan killed with SIGKILL continues where it stopped: nothing checked twice, nothing lost, no orphans."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citetracer.scan.journal import JOURNAL
from tests.scan.conftest import make_pdf

N_PAPERS = 30


def done_lines(out: Path) -> list[dict]:
    path = out / JOURNAL
    if not path.exists():
        return []
    lines = path.read_text().splitlines()[1:]
    out_lines = []
    for line in lines:
        with contextlib.suppress(json.JSONDecodeError):
            out_lines.append(json.loads(line))
    return out_lines


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie child of an ended parent is gone for our purpose
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_killed_scan_resumes_without_rechecking(tmp_path: Path, seeded: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    for i in range(N_PAPERS):
        make_pdf(folder / f"p{i:02d}.pdf", i)
    out = tmp_path / "report"
    cmd = [
        sys.executable,
        "-m",
        "citetracer",
        "scan",
        str(folder),
        "-o",
        str(out),
        "--store",
        str(seeded),
        "--offline",
        "--workers",
        "1",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(done_lines(out)) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)  # the scan's own process only: its worker must follow by itself
    proc.wait()
    first = done_lines(out)
    assert 3 <= len(first) < N_PAPERS, "the scan ended before it could be killed; give it more papers"
    worker = first[0]["worker"]
    end = time.monotonic() + 20
    while alive(worker) and time.monotonic() < end:
        time.sleep(0.1)
    assert not alive(worker), "the worker outlived the killed scan"
    stamps = {x["name"]: (out / "papers" / f"{x['name']}.json").stat().st_mtime_ns for x in first}

    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert again.returncode in (0, 1), again.stderr
    err = " ".join(again.stderr.split())
    assert f"{N_PAPERS} papers ({N_PAPERS - len(first)} checked now, {len(first)} from the journal)" in err

    lines = done_lines(out)
    keys = [x["key"] for x in lines]
    assert len(keys) == len(set(keys)) == N_PAPERS  # every paper exactly once
    assert lines[: len(first)] == first  # the first run's lines untouched
    assert {x["run"] for x in lines[len(first) :]} != {first[0]["run"]}
    for name, stamp in stamps.items():  # their reports were not written again
        assert (out / "papers" / f"{name}.json").stat().st_mtime_ns == stamp
    assert all(x["status"] == "done" for x in lines)
    rows = (out / "summary.csv").read_text().splitlines()[1:]
    assert len(rows) == N_PAPERS
