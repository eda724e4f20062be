"""`citetracer scan`: many papers through the one pipeline, resumable, one report per paper.

The order of work: collect the inputs, identify each paper (its content hash and name),
skip those the journal has finished, check the rest in the worker pool (each result is
journaled as it arrives), then build the summary reports from the journal. Nothing here
judges a citation; the workers call the same `Checker` as `citetracer check`.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

from citetracer.config import Settings
from citetracer.report.views import PaperCounts, decisions_line
from citetracer.scan.cluster import ClusterPool
from citetracer.scan.inputs import Paper, collect, content_key
from citetracer.scan.jobs import Job
from citetracer.scan.journal import Entry, Journal
from citetracer.scan.outputs import write_outputs
from citetracer.scan.pool import RECYCLE_AFTER, Pool, report_path
from citetracer.store.api import open_store


class ScanError(Exception):
    """The scan cannot start: nothing to scan, an output folder in use, a journal from other settings."""


class Progress(Protocol):
    def start(self, total: int, done: int) -> None: ...

    def advance(self, entry: Entry) -> None: ...


@dataclass
class ScanOptions:
    out_dir: Path
    workers: int = 1
    #: Which citations the HTML and citations.csv list (report/views.py SHOW_CHOICES).
    show: str = "all"
    #: Copy each PDF into the report folder (inputs/) and link the copy: the folder moves or is shared whole.
    copy_inputs: bool = False
    restart: bool = False
    #: Seconds one paper may take before its worker is stopped (None: no limit).
    paper_timeout: float | None = 1800.0
    #: Papers a worker checks before a fresh process takes its place (bounds its memory).
    recycle_after: int = RECYCLE_AFTER
    #: A Dask scheduler (`tcp://HOST:PORT`) to check the papers on, or "local" to start a cluster of
    #: `workers` processes here (scan/cluster.py); None: this machine's own worker pool.
    cluster: str | None = None


@dataclass
class ScanOutcome:
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    checked_now: int = 0
    resumed: int = 0
    #: Stopped by Ctrl-C: the reports cover the papers finished so far; the next run continues.
    interrupted: bool = False
    outputs: list[Path] = field(default_factory=list)
    #: The counts of the papers a chair's decisions are about, with the decisions applied (scan/outputs.py).
    decided: dict[str, PaperCounts] = field(default_factory=dict)

    @property
    def hallucinated_papers(self) -> int:
        """Checked papers with at least one Hallucinated citation the chair has not dismissed."""
        return sum(
            1
            for e in self.entries
            if e.status == "done"
            and (self.decided[e.key].open_hallucinated if e.key in self.decided else e.hallucinated)
        )

    @property
    def decisions(self) -> str:
        """The chair's calls the reports applied, in words ('' when none)."""
        counts = self.decided.values()
        return decisions_line(sum(c.dismissed for c in counts), sum(c.confirmed for c in counts))

    @property
    def no_list(self) -> list[Entry]:
        """Checked PDFs in which no reference list was found: read, but with nothing to check."""
        return [e for e in self.entries if e.status == "done" and e.no_list]

    @property
    def unchecked(self) -> list[Entry]:
        """Papers that could not be checked (unreadable, failed, timed out)."""
        return [e for e in self.entries if e.status != "done"]


def _lock(folder: Path) -> IO[str]:
    """Hold DIR/.lock for the whole run: two scans writing one folder would corrupt each other's journal."""
    fh = (folder / ".lock").open("w")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        fh.close()
        raise ScanError(f"another scan is writing {folder} (its .lock is held)") from exc
    return fh


def _safe_name(display: str) -> str:
    stem = Path(display.split(":")[-1]).name
    for suffix in (".pdf", ".bib", ".bbl", ".tex", ".txt"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._")[:80] or "paper"


def assign_names(keys: list[str], papers: list[Paper], journal: Journal) -> dict[str, str]:
    """A unique file name per paper; papers the journal knows keep theirs across runs."""
    names = {k: journal.entries[k].name for k in keys if k in journal.entries}
    taken = set(names.values())
    for key, paper in zip(keys, papers, strict=True):
        if key in names:
            continue
        name = base = _safe_name(paper.display)
        if name in taken:
            name = f"{base}-{key[:8]}"
        n = 2
        while name in taken:
            name, n = f"{base}-{key[:8]}-{n}", n + 1
        names[key] = name
        taken.add(name)
    return names


def run_scan(
    paths: Sequence[Path],
    settings: Settings,
    options: ScanOptions,
    progress: Progress | None = None,
    context: str = "",
) -> ScanOutcome:
    """Scan every paper under `paths` into `options.out_dir`, resuming its journal, one scan per folder at a time (a
    lock).
    """
    folder = options.out_dir
    folder.mkdir(parents=True, exist_ok=True)
    lock = _lock(folder)
    try:
        return _run(paths, settings, options, progress, context)
    finally:
        lock.close()


def _run(
    paths: Sequence[Path], settings: Settings, options: ScanOptions, progress: Progress | None, context: str
) -> ScanOutcome:
    folder = options.out_dir
    papers, problems = collect(paths, folder)
    outcome = ScanOutcome(problems=problems)
    if not papers:
        raise ScanError("no papers to scan" + (f" ({'; '.join(problems[:3])})" if problems else ""))
    journal = Journal(folder, settings, restart=options.restart)
    problems += journal.skipped
    try:
        keys: list[str] = []
        readable: list[Paper] = []
        for paper in papers:
            try:
                keys.append(content_key(paper))
                readable.append(paper)
            except OSError as exc:
                problems.append(f"{paper.display}: cannot be read ({exc.strerror or exc})")
        names = assign_names(keys, readable, journal)
        todo = [(k, p) for k, p in zip(keys, readable, strict=True) if not journal.finished(k)]
        outcome.resumed = len(readable) - len(todo)
        if todo:
            with open_store(settings.store):  # brings the index up to date once, before the workers open it
                pass
        if progress:
            progress.start(len(readable), outcome.resumed)
        by_index = dict(enumerate(todo))
        run_id = f"{int(time.time())}-{os.getpid()}"

        def jobs() -> Iterator[Job]:
            for i, (key, paper) in by_index.items():
                yield Job(i, str(paper.path), paper.display, str(report_path(folder, names[key])))

        def on_result(job: Job, result: dict[str, Any]) -> None:
            key, paper = by_index[job.index]
            entry = Entry.from_json(
                {
                    **result,
                    "key": key,
                    "file": paper.display,
                    "path": str(paper.path),
                    "name": names[key],
                    "run": run_id,
                }
            )
            journal.append(entry)
            outcome.checked_now += 1
            if progress:
                progress.advance(entry)

        if todo:
            workers = max(1, min(options.workers, len(todo)))
            try:
                if options.cluster:
                    ClusterPool(options.cluster, options.workers, settings).run(jobs(), on_result)
                else:
                    Pool(workers, settings, options.paper_timeout, options.recycle_after).run(jobs(), on_result)
            except KeyboardInterrupt:
                outcome.interrupted = True
        outcome.entries = [journal.entries[k] for k in keys if k in journal.entries]
    finally:
        journal.close()
    outcome.outputs = write_outputs(
        folder,
        outcome.entries,
        show=options.show,
        context=context,
        copy_inputs=options.copy_inputs,
        counts_out=outcome.decided,
    )
    return outcome
