"""Web jobs: their unguessable ids, their folders in the store's directory, their live state.

A job is one submission (files or pasted text). It lives in `<root>/<id>/`: the uploads
in `input/` (archives unpacked by `citetracer scan`'s reader into `inputs/`, deleted when the
job ends but for the PDFs its report shows, kept in `pdf/`), `job.json`
(status, counts, what went wrong) and, once done, the reports (`report.json` and the
downloads). While it runs, its progress and the citations judged so far are held in
memory (`Job`) for the live page; `job.json` is rewritten at each change of status, so a
finished job is served from disk after a restart, and one that was running when the server
stopped reads as failed rather than running forever.

Ids come from `secrets.token_urlsafe` (144 bits): knowing one job's URL tells nothing about
another's, and an id that is not of that form never reaches the filesystem.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["queued", "running", "done", "failed"]
ID_BYTES = 18
_ID = re.compile(r"^[A-Za-z0-9_-]{24}$")
#: Citations kept in memory per job for the live page (the report on disk has them all).
MAX_EVENTS = 5000


def new_id() -> str:
    """A fresh job id: 24 URL-safe characters from the system's CSPRNG."""
    return secrets.token_urlsafe(ID_BYTES)


def valid_id(job_id: str) -> bool:
    """Whether `job_id` has the form of an id this server makes (checked before any file is touched)."""
    return bool(_ID.match(job_id))


@dataclass
class Job:
    """One job's state; changed by its worker, read by the pages (hence the lock)."""

    id: str
    folder: Path
    names: list[str]
    created: float = field(default_factory=time.time)
    status: Status = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    finished: float | None = None
    #: Whether the job may ask online sources (the form's and the API's `online`, never more than the
    #: server allows); None for a job saved before jobs had a mode.
    online: bool | None = None
    #: What the job is doing before its citations are counted ("reading paper.pdf"), for the live page.
    stage: str = ""
    #: Problems that did not stop the job (an unreadable paper among several, a skipped archive member).
    warnings: list[str] = field(default_factory=list)
    #: What the live page shows of each judged citation, in order: {"paper", "id", "class", "code", "title"}.
    events: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    changed: threading.Condition = field(init=False, repr=False)
    #: The event streams waiting for news of this job: each is woken on its own loop (push, no polling).
    watchers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)

    def watch(self) -> asyncio.Event:
        """An event set (on the caller's loop) whenever the job changes; `unwatch` it when done."""
        event = asyncio.Event()
        with self.lock:
            self.watchers.add((asyncio.get_running_loop(), event))
        return event

    def unwatch(self, event: asyncio.Event) -> None:
        with self.lock:
            self.watchers = {w for w in self.watchers if w[1] is not event}

    def _wake(self) -> None:
        """Wake the streams that are not awake already (called with the lock held, from the worker's thread)."""
        for loop, event in self.watchers:
            if not event.is_set():
                with contextlib.suppress(RuntimeError):  # its loop has closed (the server is stopping)
                    loop.call_soon_threadsafe(event.set)

    def state(self) -> dict[str, Any]:
        """The job's status as the API gives it (without the report)."""
        with self.lock:
            out: dict[str, Any] = {
                "id": self.id,
                "status": self.status,
                "progress": {"done": self.done, "total": self.total},
                "inputs": list(self.names),
                "created": _iso(self.created),
            }
            if self.online is not None:
                out["online"] = self.online
            if self.stage and self.status in ("queued", "running"):
                out["stage"] = self.stage
            if self.finished is not None:
                out["finished"] = _iso(self.finished)
            if self.error:
                out["error"] = self.error
            if self.warnings:
                out["warnings"] = list(self.warnings)
            return out

    def update(self, **changes: Any) -> None:
        """Change fields and wake whoever waits for news (the live page's event stream)."""
        with self.changed:
            for key, value in changes.items():
                setattr(self, key, value)
            self.changed.notify_all()
            self._wake()

    def add_event(self, event: dict[str, Any]) -> None:
        """One more citation judged: counted, and shown on the live page (the first MAX_EVENTS)."""
        with self.changed:
            self.done += 1
            if len(self.events) < MAX_EVENTS:
                self.events.append(event)
            self.changed.notify_all()
            self._wake()

    def save(self) -> None:
        """Write `job.json` whole (temporary file, then rename)."""
        doc = self.state()
        doc["created_ts"], doc["finished_ts"] = self.created, self.finished
        tmp = self.folder / ".job.json.tmp"
        tmp.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.folder / "job.json")

    @property
    def input_dir(self) -> Path:
        return self.folder / "input"


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


class JobStore:
    """The jobs of one server: their folders under `root`, the live ones in memory."""

    def __init__(self, root: Path, keep_hours: float) -> None:
        self.root = root
        self.keep_seconds = keep_hours * 3600
        self.root.mkdir(parents=True, exist_ok=True)
        self._live: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._usage: tuple[float, int] | None = None
        self._interrupted()

    def usage(self, max_age: float = 5.0) -> int:
        """Bytes the jobs' folders hold (walked at most every `max_age` s, and after each job's end)."""
        now = time.monotonic()
        if self._usage is None or now - self._usage[0] > max_age:
            self._usage = (now, _folder_bytes(self.root))
        return self._usage[1]

    def create(self, names: list[str], online: bool | None = None) -> Job:
        """A new job with its empty folders (the caller fills `input/`); `online`: its mode."""
        job_id = new_id()
        folder = self.root / job_id
        (folder / "input").mkdir(parents=True)
        job = Job(job_id, folder, names, online=online)
        job.save()
        self._usage = None
        with self._lock:
            self._live[job_id] = job
        return job

    def get(self, job_id: str) -> Job | None:
        """The job of this id: live, else read back from its folder; None when there is none."""
        if not valid_id(job_id):
            return None
        with self._lock:
            job = self._live.get(job_id)
        if job is not None:
            return job
        return self._load(self.root / job_id)

    def discard(self, job: Job) -> None:
        """Forget a job that was never queued (its upload was refused) and delete its folder."""
        with self._lock:
            self._live.pop(job.id, None)
        shutil.rmtree(job.folder, ignore_errors=True)

    def finished(self, job: Job) -> None:
        """A job that ended: kept on disk, dropped from memory (pages read it back from its folder)."""
        with self._lock:
            self._live.pop(job.id, None)
        self._usage = None

    def _load(self, folder: Path) -> Job | None:
        try:
            doc = json.loads((folder / "job.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        job = Job(folder.name, folder, list(doc.get("inputs", [])), created=float(doc.get("created_ts") or 0))
        job.status = doc.get("status", "failed")
        job.done, job.total = doc["progress"]["done"], doc["progress"]["total"]
        job.error, job.finished = doc.get("error"), doc.get("finished_ts")
        job.warnings = list(doc.get("warnings", []))
        online = doc.get("online")
        job.online = online if isinstance(online, bool) else None
        return job

    def _interrupted(self) -> None:
        """Jobs that were queued or running when the server stopped: failed, and said so."""
        for folder in self.root.iterdir():
            job = self._load(folder) if valid_id(folder.name) else None
            if job is not None and job.status in ("queued", "running"):
                job.status, job.error, job.finished = "failed", "the server stopped before this job ended", time.time()
                job.save()

    def sweep(self, now: float | None = None) -> int:
        """Delete the folders of jobs older than the retention time (and stray half-made ones); how many went."""
        now = time.time() if now is None else now
        gone = 0
        with self._lock:
            live = set(self._live)
        for folder in self.root.iterdir():
            if folder.name in live or not folder.is_dir():
                continue
            job = self._load(folder)
            when = (job.finished or job.created) if job else _mtime(folder)
            if now - when > self.keep_seconds:
                shutil.rmtree(folder, ignore_errors=True)
                gone += 1
        return gone


def _folder_bytes(root: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            with contextlib.suppress(OSError):  # deleted meanwhile (a sweep, a job's end)
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


def _mtime(folder: Path) -> float:
    try:
        return folder.stat().st_mtime
    except OSError:
        return 0.0
