"""One writer at a time per store, across processes and threads: an advisory lock on `<store>.lock`.

Why: SQLite serialises its own transactions, but a store is more than one
transaction. tantivy allows one index writer at a time (a second one failed
with LockBusy after its rows were committed), and a bulk rebuild (`mirror
dblp`) carries the other sources' records over into a new file and swaps it
in: a `mirror add` that committed into the old file meanwhile was silently
thrown away by the swap. Every write of the store (records, index, memo,
links, metadata) therefore happens while holding this lock, and a bulk build
holds it from the moment it starts copying the old store until its swap is
done, so writes are serialised and none is lost.

Readers never take it: a `check` reads a consistent SQLite snapshot and the
last committed index, whatever a writer does meanwhile, and gives up only its
own optional writes (the evidence memo, verified links) when the lock stays
busy beyond a short wait.

The lock is `flock(2)` on a file that is never deleted: the kernel releases
it when its holder dies (kill -9 included), so a killed writer never leaves a
stale lock. It is re-entrant within a thread (a build that opens the old
store while holding the lock does not wait for itself), and the threads of one
process exclude each other like processes do (each takes it on a descriptor of
its own, and flock treats those apart): the web app's worker threads each open
the store, and two of them healing a new store's index at once raced on its
BUILD marker ("cannot open the checker"). The file holds a line
naming the holder, for the message other writers print while they wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

#: How often a waiting writer tries the lock again (seconds).
POLL = 0.1


class StoreBusy(Exception):
    """Another process is writing the store and did not finish within the wait allowed."""


@dataclass
class _Held:
    fd: int
    depth: int


#: The locks held, by store and thread.
_HELD: dict[tuple[str, int], _Held] = {}


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".lock")


def _key(db_path: Path) -> str:
    return str(lock_path(Path(os.path.abspath(db_path))))


def _mine(db_path: Path) -> tuple[str, int]:
    return _key(db_path), threading.get_ident()


def held(db_path: Path) -> bool:
    """Whether this thread holds the store's writer lock."""
    return _mine(db_path) in _HELD


def _try(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def holder(db_path: Path) -> str:
    """Who holds (or last held) the lock, as its line says: 'pid 123 (citetracer mirror dblp, since 10:02:03)'."""
    try:
        text = lock_path(db_path).read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text[:200] or "another process"


def _describe() -> str:
    command = " ".join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv[:3]))
    return f"pid {os.getpid()} ({command or 'python'}, since {datetime.now().strftime('%H:%M:%S')})"


@contextlib.contextmanager
def writer_lock(
    db_path: Path, wait: float | None = None, notify: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the store's writer lock for the block; wait for it up to `wait` seconds (None: as long as needed).

    `notify` is told once, in one line, whom we wait for. Raises StoreBusy when the
    wait runs out (at once for `wait=0`).
    """
    key = _mine(db_path)
    mine = _HELD.get(key)
    if mine is not None:
        mine.depth += 1
        try:
            yield
        finally:
            mine.depth -= 1
        return
    path = Path(key[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try(fd):
            who = holder(db_path)
            if wait is not None and wait <= 0:
                raise StoreBusy(f"{db_path} is being written by {who}; try again when it has finished")
            if notify is not None:
                limit = "" if wait is None else f" (at most {wait:.0f}s)"
                notify(f"waiting for {who} to finish writing {db_path}{limit}")
            end = None if wait is None else time.monotonic() + wait
            while not _try(fd):
                if end is not None and time.monotonic() >= end:
                    raise StoreBusy(f"{db_path} is still being written by {who} after {wait:.0f}s; try again later")
                time.sleep(POLL)
        line = _describe().encode("utf-8", errors="replace")
        os.ftruncate(fd, 0)
        os.pwrite(fd, line + b"\n", 0)
        _HELD[key] = _Held(fd, 1)
        try:
            yield
        finally:
            del _HELD[key]
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
