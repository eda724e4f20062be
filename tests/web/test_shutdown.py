"""SIGTERM to a real `citetracer serve`: queued jobs are not started, they fail saying why.

Once, a worker that finished its job during the shutdown took the next queued one, which the
exit then killed half-way.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from tests.web.conftest import EXAMPLE_BIB, seed_store
from tests.web.live import LiveServer


def test_sigterm_stops_taking_queued_jobs(tmp_path: Path) -> None:
    store = seed_store(tmp_path / "store" / "store.sqlite")
    long_bib = "".join(
        f"@inproceedings{{g{i}, title={{A Synthetic Study of Imaginary Topic {i} in Graph Learning}}, "
        f"author={{Person{i}, Alpha}}, booktitle={{NeurIPS}}, year={{2019}}}}\n"
        for i in range(400)
    )
    live = LiveServer(tmp_path, store, "--workers", "1", "--submits-per-minute", "600").start()
    try:
        _, running = live.post(files=[("long.bib", long_bib.encode())])
        queued = [live.post(files=[("references.bib", EXAMPLE_BIB.read_bytes())])[1] for _ in range(2)]
        deadline = time.monotonic() + 60
        while live.get_json(f"/api/jobs/{running['id']}")["progress"]["done"] < 50:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert live.stop(signal.SIGTERM, wait=60) in (0, -signal.SIGTERM)  # uvicorn re-raises it once shut down
    finally:
        live.stop()
    for job in queued:
        state = json.loads((live.jobs_dir / job["id"] / "job.json").read_text())
        assert state["status"] == "failed" and "stopped before this job started" in state["error"], state
        assert not (live.jobs_dir / job["id"] / "report.json").exists()
    assert "Traceback" not in live.log()
