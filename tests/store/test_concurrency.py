"""Several citetracer processes on one store at once, and processes killed at random points.

Real processes through the CLI, as users run them: a `mirror add` while `mirror dblp`
rebuilds (the add used to be thrown away by the rebuild's swap), two writers at once
(the second crashed on tantivy's writer lock after committing), checks while a writer
runs (a check crashed 1 time in 11), and kill -9 at random moments of an ingest.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mirror.conftest import DTD, many_records, write_dump

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str | Path, store: Path, **kw: object) -> subprocess.Popen[str]:
    env = {**os.environ, "CITETRACER_STORE": str(store), "CITETRACER_OFFLINE": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "citetracer.cli", *map(str, args)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,  # type: ignore[call-overload]
    )


def run(*args: str | Path, store: Path, timeout: float = 120) -> tuple[int, str, str]:
    proc = cli(*args, store=store)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def jsonl(path: Path, n: int, prefix: str, start: int = 0) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(start, start + n):
            rec = {"id": f"{prefix}{i}", "title": f"{prefix} paper {i} on topic {i % 17}", "year": 2000 + i % 20}
            rec["authors"] = [f"Ann {prefix}{i % 31} Writer"]
            fh.write(json.dumps(rec) + "\n")
    return path


def stats(store: Path) -> dict[str, object]:
    code, out, err = run("mirror", "stats", store=store)
    assert code == 0 and "Traceback" not in err, err
    data: dict[str, object] = json.loads(out)
    return data


def no_traceback(err: str) -> None:
    assert "Traceback" not in err, err


def test_an_add_during_a_dblp_rebuild_is_not_lost(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    (tmp_path / "dblp.dtd").write_text(DTD, encoding="utf-8")
    dump = write_dump(tmp_path / "dblp.xml.gz", many_records(60_000))
    assert run("mirror", "add", jsonl(tmp_path / "a.jsonl", 500, "before"), "--source", "mine", store=store)[0] == 0
    build = cli("mirror", "dblp", dump, store=store)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("s.sqlite.building-*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    code, _, err = run("mirror", "add", jsonl(tmp_path / "b.jsonl", 3000, "during"), "--source", "mine", store=store)
    assert code == 0, err
    _, err_build = build.communicate(timeout=300)
    assert build.returncode == 0, err_build
    got = stats(store)["by_source"]
    assert got == {"dblp": 60_000, "mine": 3500}


def test_two_writers_at_once_both_finish_and_nothing_is_lost(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    files = [jsonl(tmp_path / f"{name}.jsonl", 20_000, name) for name in ("x", "y")]
    procs = [cli("mirror", "add", f, "--source", f.stem, store=store) for f in files]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        no_traceback(err)
        assert proc.returncode == 0, err
    data = stats(store)
    assert data["by_source"] == {"x": 20_000, "y": 20_000}
    assert data["indexed_documents"] == 40_000


def test_checks_while_a_writer_runs_never_crash(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    assert run("mirror", "add", jsonl(tmp_path / "a.jsonl", 200, "seed"), store=store)[0] == 0
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={seed paper 3 on topic 3}, author={Writer, Ann seed3}, year={2003}}\n")
    writer = cli("mirror", "add", jsonl(tmp_path / "big.jsonl", 60_000, "big"), store=store)
    codes = []
    while writer.poll() is None and len(codes) < 6:
        code, _, err = run("check", bib, "--format", "json", store=store)
        no_traceback(err)
        codes.append(code)
    _, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    assert codes and set(codes) <= {0, 1}, codes


def test_a_writer_waits_for_another_with_one_clear_line(tmp_path: Path) -> None:
    from citetracer.store.lock import writer_lock

    store = tmp_path / "s.sqlite"
    data = jsonl(tmp_path / "a.jsonl", 10, "w")
    with writer_lock(store):
        proc = cli("mirror", "add", data, store=store)
        assert proc.stderr is not None
        first = proc.stderr.readline()  # the process says whom it waits for, then waits
        assert first.startswith("waiting for pid") and str(store) in first, first
        assert proc.poll() is None  # still waiting, not failed
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "waiting for" not in err


def _kill_at_random(proc: subprocess.Popen[str], rng: random.Random, most: float) -> None:
    time.sleep(rng.uniform(0.05, most))
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)


@pytest.mark.slow
def test_kill_9_at_random_points_never_damages_the_store(tmp_path: Path) -> None:
    """Kill `mirror add` and `mirror dblp` at random moments; after each, the store opens, answers,
    and the same ingest run again completes with every record."""
    rng = random.Random(20)
    store = tmp_path / "s.sqlite"
    (tmp_path / "dblp.dtd").write_text(DTD, encoding="utf-8")
    dump = write_dump(tmp_path / "dblp.xml.gz", many_records(20_000))
    data = jsonl(tmp_path / "a.jsonl", 20_000, "k")
    for round_ in range(4):
        if round_ % 2:
            _kill_at_random(cli("mirror", "dblp", dump, store=store), rng, 3.0)
        else:
            _kill_at_random(cli("mirror", "add", data, "--source", "mine", store=store), rng, 2.0)
        got = stats(store)  # opens, heals, answers
        assert isinstance(got["records"], int)
    code, _, err = run("mirror", "add", data, "--source", "mine", store=store)
    assert code == 0, err
    code, _, err = run("mirror", "dblp", dump, store=store)
    assert code == 0, err
    got = stats(store)
    assert got["by_source"] == {"dblp": 20_000, "mine": 20_000}
    assert got["indexed_documents"] == 40_000
    assert not list(tmp_path.glob("s.sqlite.building-*"))


def test_a_killed_add_shows_in_stats_and_the_same_add_resumes_it(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    data = jsonl(tmp_path / "a.jsonl", 60_000, "r")
    proc = cli("mirror", "add", data, "--source", "mine", store=store)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # kill it once some batches are committed, before the end
        time.sleep(0.2)
        got = stats(store)
        if got["unfinished_ingests"] and got["unfinished_ingests"]["mine"]["records_committed"] >= 10_000:
            break
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    unfinished = stats(store)["unfinished_ingests"]["mine"]
    assert unfinished["state"].startswith("interrupted") and 0 < unfinished["records_committed"] < 60_000
    code, out, err = run("mirror", "add", data, "--source", "mine", store=store)
    assert code == 0, err
    assert f"resumed after {unfinished['records_committed']} records" in out and "added 60000 records" in out
    got = stats(store)
    assert got["by_source"] == {"mine": 60_000} and got["indexed_documents"] == 60_000
    assert got["unfinished_ingests"] == {}


def _open_at(path: str, start: float, results: Any) -> None:
    from citetracer.store.db import Store, StoreError

    while time.time() < start:
        pass
    try:
        Store(Path(path)).close()
        results.put("ok")
    except StoreError as exc:
        results.put(str(exc))


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path: Path) -> None:
    """Six processes create one new store at the same moment, eight times over: in WAL mode the one
    whose schema statement read before another's write got "database is locked" at once (a run in
    four failed, as two `mirror add`s on a new store did in CI); every open must succeed."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    for attempt in range(8):
        path = str(tmp_path / f"s{attempt}.sqlite")
        results = ctx.Queue()
        start = time.time() + 0.3
        procs = [ctx.Process(target=_open_at, args=(path, start, results)) for _ in range(6)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(timeout=60)
        got = [results.get(timeout=5) for _ in procs]
        assert got == ["ok"] * 6, got


def test_the_writer_lock_excludes_threads_of_one_process(tmp_path: Path) -> None:
    """The lock is re-entrant within a thread, not across threads: another thread of the same process waits
    (or is told the store is busy) like another process would."""
    import threading

    from citetracer.store.lock import StoreBusy, writer_lock

    path = tmp_path / "s.sqlite"
    taken, release, seen = threading.Event(), threading.Event(), []

    def hold() -> None:
        with writer_lock(path), writer_lock(path):  # re-entrant in its own thread
            taken.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(10)
    try:
        with writer_lock(path, wait=0):
            seen.append("entered")
    except StoreBusy:
        seen.append("busy")
    release.set()
    holder.join(10)
    assert seen == ["busy"]
    with writer_lock(path, wait=0):  # free again once the holder is done
        pass


def test_threads_opening_a_new_store_at_once_all_succeed(tmp_path: Path) -> None:
    """The web app's worker threads each open the store: on a new store, two of them healing its index at once
    raced on the BUILD marker (FileNotFoundError, "cannot open the checker": 2 runs in 20 with 4 threads)."""
    import threading

    from citetracer.store.db import Store

    for attempt in range(10):
        path = tmp_path / f"t{attempt}.sqlite"
        errors: list[str] = []
        barrier = threading.Barrier(4)

        def open_it(path: Path = path, errors: list[str] = errors, barrier: threading.Barrier = barrier) -> None:
            barrier.wait(10)
            try:
                Store(path).close()
            except Exception as exc:  # any failure to open is what is tested
                errors.append(repr(exc))

        threads = [threading.Thread(target=open_it) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == [], errors
