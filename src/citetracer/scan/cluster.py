"""`citetracer scan --cluster`: the same scan, its papers checked on a Dask cluster.

Why Dask (dask.distributed): a conference's 20,000 papers are a day on one 2-core
machine; a scheduler hands one task per paper to as many worker processes as there are
machines, streams each result back as it finishes, and when a worker dies its papers
are given to another worker (the scheduler's own bookkeeping; a paper whose workers
die three times is reported as not checked). The client here is the scan itself: it
sends each paper's bytes (workers need no shared disk), writes each report and
journal line as results arrive (so a killed scan resumes like a local one), and keeps
only a window of papers in flight (bounded memory, whatever the number of papers).

Each worker thread keeps one `Checker` (store, index and online clients opened once)
and checks the paper with the pipeline's own call (scan/work.py). Workers on several
machines must share the store: give a PostgreSQL URL (`--store postgresql://...`); a
SQLite file is one machine's, so it is accepted only for a local cluster. The polite
rates are kept across the cluster through that store (store/turns.py).

Dask workers must be allowed children (the PDF reader runs in a child process):
`citetracer scan --cluster local` sets that; for `dask worker` set
`DASK_DISTRIBUTED__WORKER__DAEMON=False` (docs/deployment.md, "Beyond one machine").
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from citetracer.config import Settings, is_store_url
from citetracer.scan.jobs import Job, PoolError, children_peak_mb, own_peak_mb
from citetracer.scan.work import write_atomic

#: Papers in flight per worker thread: enough to keep every worker busy while results travel back.
WINDOW_PER_THREAD = 2
#: Seconds to reach the scheduler before giving up with one clear line.
CONNECT_TIMEOUT = 15
#: Seconds between warnings while a scheduler has no worker (the scan waits for one).
NO_WORKER_SECONDS = 30.0

_LOCAL = threading.local()


def check_on_worker(settings_json: str, display: str, name: str, data: bytes) -> dict[str, Any]:
    """A Dask task: check one paper (its bytes, written to a temporary file named `name`) on this worker."""
    from citetracer.pipeline import Checker
    from citetracer.scan.work import check_file

    checker = getattr(_LOCAL, "checker", None)
    if checker is None or getattr(_LOCAL, "settings", None) != settings_json:
        if checker is not None:
            checker.close()
        checker = _LOCAL.checker = Checker(Settings.model_validate_json(settings_json))
        _LOCAL.settings = settings_json
    with tempfile.TemporaryDirectory(prefix="citetracer-paper-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        result = check_file(checker, path, display)
    result["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    result["worker_rss_mb"] = own_peak_mb()
    result["reader_rss_mb"] = children_peak_mb()
    return result


def _daemonic() -> bool:
    """Run on each worker: whether it is a daemonic process (one that may not start children)."""
    import multiprocessing

    return bool(multiprocessing.current_process().daemon)


def _say(line: str) -> None:
    print(f"warning: {line}", file=sys.stderr, flush=True)


def _loopback(address: str) -> bool:
    host = urlsplit(address if "://" in address else f"tcp://{address}").hostname or ""
    if host == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    return False


class ClusterPool:
    """Runs a scan's jobs on a Dask cluster: `address` is a scheduler (`tcp://HOST:PORT`) or "local"
    (a cluster of `workers` processes on this machine, started here and stopped at the end)."""

    def __init__(
        self,
        address: str,
        workers: int,
        settings: Settings,
        notify: Callable[[str], None] = _say,
        no_worker_seconds: float = NO_WORKER_SECONDS,
    ) -> None:
        if address != "local" and not _loopback(address) and not is_store_url(settings.store):
            raise PoolError(
                f"the workers of {address} need the shared store: give --store postgresql://USER@HOST:PORT/DB "
                "(a SQLite file is one machine's; --cluster local uses it)"
            )
        self.address = address
        self.notify = notify
        self.no_worker_seconds = no_worker_seconds
        self.workers = max(1, workers)
        self.settings_json = settings.model_dump_json()

    def _connect(self) -> tuple[Any, Any]:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise PoolError("--cluster needs the cluster extra (pip install 'citetracer[cluster]')") from exc
        cluster = None
        try:
            if self.address == "local":
                with dask.config.set({"distributed.worker.daemon": False}):
                    cluster = LocalCluster(
                        n_workers=self.workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=40,  # logging.ERROR: the scan's own progress is what the user reads
                    )
                return Client(cluster, timeout=CONNECT_TIMEOUT), cluster
            return Client(self.address, timeout=CONNECT_TIMEOUT), None
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            raise PoolError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from exc

    def _ready_workers(self, client: Any) -> None:
        """Wait for a worker (saying so every NO_WORKER_SECONDS: a scheduler without workers once waited
        forever in silence), then refuse daemonic ones: they cannot start the PDF reader's child
        process, and failed every paper with one warning each."""
        waited = 0.0
        while not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=self.no_worker_seconds)
            except TimeoutError:
                waited += self.no_worker_seconds
                self.notify(
                    f"no Dask worker has joined the scheduler at {self.address} after {waited:g} s; still waiting "
                    f"(start workers with `dask worker {self.address}`)"
                )
        daemonic = [worker for worker, flag in client.run(_daemonic).items() if flag]
        if daemonic:
            raise PoolError(
                f"{len(daemonic)} of the Dask workers at {self.address} run as daemonic processes, which cannot "
                "start the PDF reader's child process: start them with DASK_DISTRIBUTED__WORKER__DAEMON=False "
                "(or --no-nanny)"
            )

    def run(self, jobs: Iterator[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        """Check every job on the cluster; `on_result(job, result)` is called here as each finishes."""
        from distributed import as_completed
        from distributed.client import FutureCancelledError

        client, cluster = self._connect()
        try:
            self._ready_workers(client)
            threads = sum(client.nthreads().values()) or self.workers
            window = max(2, WINDOW_PER_THREAD * threads)
            flight: dict[Any, Job] = {}
            completed = as_completed()
            pending = iter(jobs)

            def submit() -> bool:
                for job in pending:
                    try:
                        data = Path(job.path).read_bytes()
                    except OSError as exc:
                        on_result(job, {"status": "unreadable", "error": f"cannot be read ({exc.strerror or exc})"})
                        continue
                    name = "paper" + "".join(Path(job.path).suffixes[-2:])
                    future = client.submit(check_on_worker, self.settings_json, job.display, name, data, pure=False)
                    flight[future] = job
                    completed.add(future)
                    return True
                return False

            while len(flight) < window and submit():
                pass
            for future in completed:
                job = flight.pop(future)
                try:
                    result = future.result()
                except FutureCancelledError as exc:
                    raise PoolError(
                        f"lost the Dask scheduler at {self.address} ({exc}); run the same command again to continue"
                    ) from exc
                except Exception as exc:  # the task's own failure, or its workers died (KilledWorker)
                    result = {"status": "failed", "error": f"{type(exc).__name__}: {exc}"}
                text = result.pop("report_json", None)
                if text is not None:
                    write_atomic(Path(job.report), text)
                on_result(job, result)
                while len(flight) < window and submit():
                    pass
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
