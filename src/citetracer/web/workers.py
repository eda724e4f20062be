"""The web app's bounded worker pool: a few threads, each with its own Checker, one job at a time.

Why threads and not `citetracer scan`'s worker processes: a job reports every citation as it
is judged (the live page), which a thread hands over by a shared object and a process only
through a pipe protocol of its own; and the part of a check that can crash or run away, the
PDF reader, already runs in a bounded child process (extract/readers/pdf.py). Each thread opens its
own Checker (store, index and online clients opened once, used by that thread only: SQLite
connections stay in their thread). The queue is bounded: a full queue refuses a submission
(the app answers 503 with Retry-After) instead of growing without end.

The inputs are read and checked by the pipeline's `Checker.read` and `Checker.check`, the calls
`citetracer check` makes; this module only counts the progress and writes the reports.
"""

from __future__ import annotations

import logging
import queue
import shutil
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from citetracer.config import Settings
from citetracer.extract import InputError
from citetracer.pipeline import Checker, Paper
from citetracer.records import CitationResult
from citetracer.scan.inputs import STAGING
from citetracer.store.api import display_location
from citetracer.web.jobs import Job, JobStore
from citetracer.web.results import JobReports
from citetracer.web.storeinfo import StoreFacts
from citetracer.web.uploads import ARCHIVES, Input, Limits, UploadError, scrub
from citetracer.web.uploads import papers as unpacked_papers

log = logging.getLogger("citetracer.web")


class PoolError(Exception):
    """The workers cannot start (the store cannot be opened); the message names the problem."""


@dataclass(frozen=True)
class Task:
    job: Job
    #: The job's screened uploads (archives not yet unpacked).
    uploads: list[Path]
    #: The bibliography pages set by hand for the job's PDFs (the form's page field), as `--ref-pages`.
    ref_pages: tuple[int, int] | None = None


def context_line(settings: Settings, offline: bool | None = None) -> str:
    """How the checks were made (`offline`: a job's own mode, else the server's), for the report's header
    (no server path in it)."""
    return mode_line(settings.offline if offline is None else offline) + (
        " · closed world" if settings.closed_world else ""
    )


def mode_line(offline: bool) -> str:
    """A job's mode in words, as its pages and its report say it."""
    return "offline (local store only)" if offline else "online sources allowed"


def job_offline(settings: Settings, job: Job) -> bool:
    """Whether a job runs offline: when the server does, or when the job asked so (never online on an
    offline server, whatever the job asked)."""
    return settings.offline or job.online is False


class Workers:
    """`size` threads taking jobs from a queue of at most `queue_size` waiting jobs."""

    def __init__(
        self, settings: Settings, jobs: JobStore, size: int = 2, queue_size: int = 16, limits: Limits | None = None
    ) -> None:
        self.settings = settings
        self.limits = limits or Limits()
        self.jobs = jobs
        self.size = max(1, size)
        self.queue: queue.Queue[Task | None] = queue.Queue(maxsize=max(1, queue_size))
        self.threads: list[threading.Thread] = []
        self._started: list[str | None] = []
        self._ready = threading.Condition()
        self._stopping = False

    def start(self) -> None:
        """Start the threads and wait until each has its Checker (raises PoolError if one cannot)."""
        for i in range(self.size):
            thread = threading.Thread(target=self._run, name=f"citetracer-web-{i}", daemon=True)
            thread.start()
            self.threads.append(thread)
        with self._ready:
            self._ready.wait_for(lambda: len(self._started) == self.size, timeout=300)
        problems = [p for p in self._started if p]
        if problems or len(self._started) < self.size:
            self.close()
            raise PoolError(problems[0] if problems else "the workers did not start within 300 s")

    def submit(self, job: Job, uploads: list[Path], ref_pages: tuple[int, int] | None = None) -> bool:
        """Queue a job; False when the queue is full or the server is stopping (nothing is queued then)."""
        if self._stopping:
            return False
        try:
            self.queue.put_nowait(Task(job, uploads, ref_pages))
        except queue.Full:
            return False
        return True

    def waiting(self) -> int:
        """Jobs in the queue, not yet taken by a worker."""
        return self.queue.qsize()

    def stop_taking(self) -> None:
        """The server is stopping: no queued job starts any more (each fails, saying so); running ones go on."""
        self._stopping = True
        while True:
            try:
                task = self.queue.get_nowait()
            except queue.Empty:
                return
            if task is not None:
                self._not_started(task.job)

    def _not_started(self, job: Job) -> None:
        job.update(
            status="failed", error="the server stopped before this job started; submit it again", finished=time.time()
        )
        job.save()
        self.jobs.finished(job)

    def close(self) -> None:
        """Let each thread finish its job and stop (daemon threads: a stuck one does not hold the exit)."""
        self.stop_taking()
        for _ in self.threads:
            try:
                self.queue.put(None, timeout=1)
            except queue.Full:
                break
        for thread in self.threads:
            thread.join(timeout=10)
        self.threads = []

    def _run(self) -> None:
        try:
            checkers = {self.settings.offline: Checker(self.settings)}
        except Exception as exc:  # the thread's start: its reason goes to start(), which raises
            with self._ready:
                self._started.append(f"cannot open the checker: {exc}")
                self._ready.notify_all()
            return
        with self._ready:
            self._started.append(None)
            self._ready.notify_all()
        try:
            while (task := self.queue.get()) is not None:
                if self._stopping:
                    self._not_started(task.job)
                    continue
                try:
                    offline = job_offline(self.settings, task.job)
                    if offline not in checkers:  # an offline job on an online server: its own checker, opened once
                        checkers[offline] = Checker(self.settings.model_copy(update={"offline": True}))
                    context = context_line(self.settings, offline)
                    run_job(checkers[offline], task.job, task.uploads, context, self.limits, task.ref_pages)
                except Exception:  # one job's failure must not end the worker (logged, never shown)
                    log.exception("job %s failed", task.job.id)
                    _ended(task.job, status="failed", error="internal error while checking")
                finally:
                    self.jobs.finished(task.job)
        finally:
            for checker in checkers.values():
                checker.close()


def run_job(
    checker: Checker,
    job: Job,
    uploads: list[Path],
    context: str,
    limits: Limits,
    ref_pages: tuple[int, int] | None = None,
) -> None:
    """Unpack the uploads, read every paper (`ref_pages` for each PDF, archived or not), check its references
    (each citation counted and shown as judged), write the reports."""
    archived = any(p.name.lower().endswith(ARCHIVES) for p in uploads)
    job.update(status="running", stage="unpacking the upload" if archived else "")
    job.save()
    folder = job.folder
    try:
        inputs, problems = unpacked_papers(folder, uploads, limits)
    except UploadError as exc:
        _ended(job, status="failed", error=str(exc))
        return
    job.update(warnings=job.warnings + problems)
    if ref_pages is not None:
        inputs = [replace(p, ref_pages=ref_pages) if p.path.suffix.lower() == ".pdf" else p for p in inputs]
    read: list[tuple[Input, Paper]] = []
    unread: list[tuple[str, str]] = []
    for paper in inputs:
        job.update(
            stage=f"reading {'the PDF' if paper.path.suffix.lower() == '.pdf' else 'the references'} of {paper.display}"
        )
        try:
            read.append((paper, checker.read(paper.path, paper.ref_pages, name=paper.display)))
        except InputError as exc:  # named as the user named it ('fill.zip:p0000.bib'), not by its staged path
            unread.append((paper.display, scrub(str(exc).replace(str(paper.path), paper.display), folder)))
    notes = list(job.warnings)  # the job's own (its mode, its uploads'), shown on the result page
    notes.append(StoreFacts.of(checker.store).line())  # what the store holds and cannot confirm (web/storeinfo.py)
    total = sum(len(r.references) for _, r in read)
    # a PDF in which no list was found is read, and its report says so, but the job "done" must say it too
    readings = [(paper.display, result.read.reading()) for paper, result in read]
    no_list = [f"{name}: {r.summary}: nothing was checked" for name, r in readings if r is not None and r.no_list]
    job.update(stage="checking", total=total, warnings=job.warnings + [why for _, why in unread] + no_list)
    if not read:
        error = "; ".join(why for _, why in unread) or "nothing to check"
        _ended(job, status="failed", error=error)
        return
    papers = [paper for paper, _ in read]
    reports = JobReports(folder, f"/jobs/{job.id}", context, papers, notes)
    store = display_location(checker.store.path)

    def public(warning: str) -> str:
        """A warning as the page may show it: no job folder, and the store named without its server path
        ('the store (/srv/.../store.sqlite, 12 records) holds no complete source' came out whole)."""
        return scrub(warning, folder).replace(store, "the server's store")

    try:
        for paper, result in read:
            reports.begin(paper, [public(w) for w in result.warnings], result.read.reading())

            def judged(c: CitationResult, paper: Input = paper) -> None:
                reports.citation(c)
                title = c.reference.title or (c.reference.raw or "")[:160]
                job.add_event(
                    {
                        "paper": paper.display,
                        "id": c.id,
                        "class": c.verdict.class_,
                        "code": c.verdict.code,
                        "title": title,
                    }
                )

            report = checker.check(result, on_result=judged)
            result.references.clear()  # checked: its memory goes to the next paper and the corrected BibTeX
            reports.end(
                [public(w) for w in report.warnings],
                [public(w) for w in report.store_warnings],
                reading=report.reading,
            )
        for name, why in unread:
            reports.unreadable(name, why)
        reports.close()
    except BaseException:
        reports.abort()
        raise
    _ended(job, status="done")


def _ended(job: Job, **state: str) -> None:
    """A job's end: its unpacked archives deleted (the PDFs its report shows were moved out), then its
    status saved, so that whoever sees it ended sees its folder as it stays."""
    shutil.rmtree(job.folder / STAGING, ignore_errors=True)
    job.update(**state, finished=time.time())
    job.save()
