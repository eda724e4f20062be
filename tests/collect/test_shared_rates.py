"""The polite rates hold for the whole fleet: processes that share a store share each source's turns
(store/turns.py), checked against a fake service that counts requests per second."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer.store.api import open_store
from citetracer.store.turns import FileTurns
from tests.conftest import pg_location
from tests.counting import CountingService

CLIENT = """
import asyncio, sys, time
from pathlib import Path
from citetracer.collect.http import HttpClient
from citetracer.config import OnlineSettings
from citetracer.store.turns import FileTurns, PgTurns

kind, where, base, n, rate = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
turns = None if kind == "none" else PgTurns(where) if kind == "pg" else FileTurns(Path(where))
http = HttpClient(OnlineSettings(rate_limits={"crossref": rate}, http_cache=""), None, turns)

async def main() -> None:
    call = http.call("crossref", base + "/crossref", deadline=time.monotonic() + 300)
    for i in range(n):
        await call.get(f"/works?i={i}")
    await http.aclose()

asyncio.run(main())
"""
RATE, PROCESSES, EACH = 5.0, 3, 10


@pytest.fixture
def service() -> Iterator[CountingService]:
    s = CountingService()
    yield s
    s.close()


def _run(kind: str, where: str, service: CountingService) -> float:
    start = time.monotonic()
    procs = [
        subprocess.Popen([sys.executable, "-c", CLIENT, kind, where, service.url, str(EACH), str(RATE)])
        for _ in range(PROCESSES)
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    return time.monotonic() - start


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_processes_sharing_a_store_share_the_polite_rate(
    backend: str, service: CountingService, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "postgresql":
        where = pg_location(request.getfixturevalue("pg_server"))
        open_store(where).close()  # its schema (with the turns table)
        kind = "pg"
    else:
        with open_store(tmp_path / "s.sqlite") as store:
            where, kind = str(store.rate_turns().path), "file"  # type: ignore[union-attr]
    _run(kind, where, service)
    times = sorted(service.times["crossref"])
    assert len(times) == PROCESSES * EACH
    # One bucket of RATE turns refilled at RATE a second, whatever the number of processes: the 30 requests
    # take (30 - 5) / 5 = 5 s, and no 2 s hold more than 5 + 2 * 5 = 15. Three buckets (one per process)
    # would send all 30 within about a second. The margins absorb the jitter of arrivals on a busy machine
    # (a turn is taken before its request travels; a process's first connection is slow to open).
    assert times[-1] - times[0] >= 3.5
    assert service.busiest_window("crossref", 2.0) <= 3 * RATE + 3


def test_without_sharing_each_process_keeps_only_its_own_rate(service: CountingService) -> None:
    """The contrast that makes the test above mean something: three processes, three buckets."""
    _run("none", "", service)
    times = sorted(service.times["crossref"])
    assert times[-1] - times[0] < 3.5 or service.busiest_window("crossref", 2.0) > 3 * RATE + 3


def test_a_turn_beyond_the_wait_allowed_is_not_taken(tmp_path: Path) -> None:
    turns = FileTurns(tmp_path / "t.turns")
    assert [turns.take_turn("arxiv", 1 / 3, 1, 0.5) for _ in range(2)] == [0.0, None]  # one every 3 s, no burst
    assert 2.5 < turns.turn_wait("arxiv", 1 / 3, 1) <= 3.0
    delay = turns.take_turn("arxiv", 1 / 3, 1, None)
    assert delay is not None and 2.5 < delay <= 3.0  # without a limit the turn is taken, 3 s on
