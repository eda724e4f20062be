"""A pool of worker processes, each with its own Checker, one paper at a time.

Why not `concurrent.futures.ProcessPoolExecutor`: when one of its workers dies (a PDF
that crashes the reader's parent, the kernel's OOM killer) the whole executor breaks and
every pending paper fails. Here each worker has its own pipe; the parent knows which
paper each worker holds, so a death or a paper past its time limit costs that paper
only (recorded as failed, retried by the next run) and a new worker takes the next one.

Workers are started with 'spawn' (the parent runs a progress-bar thread, and fork after
threads is unsafe), build one Checker each (store, index and online clients opened once
per worker), and on Linux ask to be killed when the parent dies, so a killed scan leaves
no orphans behind. A worker is replaced by a fresh one after RECYCLE_AFTER papers: a
long-lived worker's peak memory kept growing (~1.5 MB per paper on ../shared/pdfs, which
over a chair's 5,000 submissions would be gigabytes), and a new worker costs about a second.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from citetracer import collector
from citetracer.config import Settings
from citetracer.scan.jobs import Job, PoolError, children_peak_mb, own_peak_mb

RECYCLE_AFTER = 100


def _die_with_parent() -> None:
    """Linux: SIGTERM this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1


def worker_main(conn: Connection, settings_json: str) -> None:
    """A worker's life: open a Checker, answer jobs until the parent says stop or goes away."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    from citetracer.pipeline import Checker
    from citetracer.scan.work import check_paper
    from citetracer.store.db import StoreBusy, StoreError

    try:
        checker = Checker(Settings.model_validate_json(settings_json))
    except (StoreError, StoreBusy, OSError) as exc:
        conn.send({"fatal": str(exc)})
        return
    collector.for_batch()  # a worker is its own process and checks papers until the scan ends (collector.py)
    conn.send({"ready": os.getpid()})
    try:
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                break
            if job is None:
                break
            result = check_paper(checker, job)
            result["worker"] = os.getpid()
            result["worker_rss_mb"] = own_peak_mb()
            result["reader_rss_mb"] = children_peak_mb()
            try:
                conn.send(result)
            except (BrokenPipeError, OSError):
                break
    finally:
        checker.close()


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    job: Job | None = None
    started: float = 0.0
    done: int = 0


class Pool:
    """Run jobs on `size` workers; `on_result(job, result)` is called in the parent for each."""

    def __init__(
        self, size: int, settings: Settings, paper_timeout: float | None = None, recycle_after: int = RECYCLE_AFTER
    ) -> None:
        self.size = max(1, size)
        self.settings_json = settings.model_dump_json()
        self.paper_timeout = paper_timeout
        self.recycle_after = max(1, recycle_after)
        self.ctx = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []
        self.retired: list[_Worker] = []

    def _spawn(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        # not a daemon: a worker starts the PDF reader's own child process; close() and the
        # parent-death signal end the workers
        process = self.ctx.Process(target=worker_main, args=(child, self.settings_json))
        process.start()
        child.close()
        try:
            hello = parent.recv() if parent.poll(300) else {"fatal": "worker did not start within 300 s"}
        except EOFError:
            hello = {"fatal": f"worker exited at start (exit code {process.exitcode})"}
        if "fatal" in hello:
            process.join(5)
            raise PoolError(str(hello["fatal"]))
        return _Worker(process, parent)

    def run(self, jobs: Iterator[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        """Run every job on the workers, replacing a worker that dies, hangs or has checked enough papers; `on_result`
        gets each job's result.
        """
        pending = iter(jobs)
        exhausted = False
        try:
            while True:
                for w in list(self.workers):
                    if w.job is None and not exhausted:
                        job = next(pending, None)
                        if job is None:
                            exhausted = True
                        else:
                            w.job, w.started = job, time.monotonic()
                            w.conn.send(job)
                if not exhausted and len(self.workers) < self.size:
                    self.workers.append(self._spawn())
                    continue
                busy = [w for w in self.workers if w.job is not None]
                if not busy:
                    if exhausted:
                        return
                    continue
                self._wait(busy, on_result)
        finally:
            self.close()

    def _wait(self, busy: list[_Worker], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        handles: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
        ready = set(multiprocessing.connection.wait(handles, timeout=1.0))
        now = time.monotonic()
        for w in busy:
            job = w.job
            assert job is not None
            if w.conn in ready:
                try:
                    result = w.conn.recv()
                except (EOFError, OSError):
                    result = None
                if result is not None:
                    w.job = None
                    w.done += 1
                    on_result(job, result)
                    if w.done >= self.recycle_after:
                        self._retire(w)
                    continue
            if w.conn in ready or w.process.sentinel in ready:
                w.process.join(5)
                self._replace(w)
                on_result(job, {"status": "failed", "error": f"the worker process died ({_exit_text(w.process)})"})
            elif self.paper_timeout and now - w.started > self.paper_timeout:
                w.process.kill()
                w.process.join(5)
                self._replace(w)
                on_result(job, {"status": "failed", "error": f"took more than {self.paper_timeout:g} s; stopped"})

    def _replace(self, dead: _Worker) -> None:
        self.workers.remove(dead)
        dead.conn.close()

    def _retire(self, w: _Worker) -> None:
        """Let an idle worker end; the run loop starts a fresh one for the next paper."""
        self.workers.remove(w)
        with contextlib.suppress(OSError, BrokenPipeError):
            w.conn.send(None)
        self.retired.append(w)

    def close(self) -> None:
        """Wait for retired workers to end (killing those that do not) and close their pipes."""
        for w in self.retired:
            w.process.join(10)
            if w.process.is_alive():
                w.process.kill()
                w.process.join(5)
            w.conn.close()
        self.retired = []
        for w in self.workers:
            with contextlib.suppress(OSError, BrokenPipeError):
                w.conn.send(None)
        deadline = time.monotonic() + 10
        for w in self.workers:
            w.process.join(max(0.1, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(5)
            w.conn.close()
        self.workers = []


def _exit_text(process: BaseProcess) -> str:
    code = process.exitcode
    if code is None:
        return "still running"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def report_path(folder: Path, name: str) -> Path:
    """Where a paper's JSON report is kept in the scan folder."""
    return folder / "papers" / f"{name}.json"
