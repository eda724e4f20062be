"""The web app on a PostgreSQL store whose server restarts: a real `citetracer serve` on 127.0.0.1.

Once, after a restart of PostgreSQL every later job failed while /healthz said ok. Now /healthz
says the store does not answer (503) while it is down, and the workers' connections come back.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests import pgserver
from tests.conftest import pg_location
from tests.web.conftest import EXAMPLE_BIB, EXAMPLE_RECORDS
from tests.web.live import LiveServer


def _health(live: LiveServer, want: int, within: float = 30.0) -> dict:
    deadline = time.monotonic() + within
    while True:
        status, body = live.get("/healthz", timeout=10)
        if status == want or time.monotonic() > deadline:
            assert status == want, body
            return dict(json.loads(body))
        time.sleep(0.5)


def test_jobs_work_again_after_the_store_restarts_and_healthz_says_when_it_is_down(
    own_pg_server: pgserver.Server, tmp_path: Path
) -> None:
    from citetracer.cli import main

    store = pg_location(own_pg_server.url)
    assert main(["mirror", "add", str(EXAMPLE_RECORDS), "--source", "example", "--store", store]) == 0
    with LiveServer(tmp_path, store, "--workers", "2", "--submits-per-minute", "600") as live:
        _, body = live.post(files=[("references.bib", EXAMPLE_BIB.read_bytes())])
        assert live.wait_job(body["id"])["status"] == "done"
        own_pg_server.pause()
        down = _health(live, 503)
        assert down["status"] == "down" and "does not answer" in down["store"]
        own_pg_server.resume()
        assert _health(live, 200)["store"] == "ok"
        for _ in range(3):  # each worker thread's connection was closed by the restart
            _, body = live.post(files=[("references.bib", EXAMPLE_BIB.read_bytes())])
            state = live.wait_job(body["id"])
            assert state["status"] == "done" and state["report"]["summary"]["total"] == 16, state
