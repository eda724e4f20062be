"""Parsing a dump in worker processes while the parent reads it and writes the store, results in dump order.

Why: a mirror ingest is one reader, much parsing (XML or JSON, building and compressing
rows) and one writer; the parsing is most of the CPU time, and it is what spreads over
the cores. The parent cuts the dump into chunks (raw bytes or lines), the workers turn
chunks into rows, and the parent takes the results back in the order it sent them (an
ingest's progress record, which a resume starts from, must name a point of the dump
before which everything is written).

At most `IN_FLIGHT_PER_WORKER` chunks per worker are out at a time, so memory stays
bounded whatever the dump's size. The workers are forked (no pickling of the parse
function, no re-import) and only parse; they die with the parent (Linux parent-death
signal, else they notice within a second). A chunk a worker cannot parse comes back as
an error the caller raises; a worker that dies is reported, never waited for forever.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
from collections.abc import Callable, Iterator
from queue import Empty, Full
from typing import Any, TypeVar

K = TypeVar("K")
P = TypeVar("P")
R = TypeVar("R")

#: Chunks out per worker: enough that a worker never waits for the parent, few enough to bound memory.
IN_FLIGHT_PER_WORKER = 3
_PR_SET_PDEATHSIG = 1


class WorkerError(Exception):
    """A chunk could not be parsed in a worker (the message says why), or a worker stopped."""


def die_with(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (a task half-written by a killed parent
    would otherwise leave it waiting on the pipe forever)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _serve(parse: Callable[[Any], Any], tasks: Any, results: Any, parent: int) -> None:
    """A worker: parse each chunk it is given and send back (seq, "ok", result) or (seq, "error", why)."""
    die_with(parent)

    def send(msg: tuple[Any, ...]) -> None:
        while True:
            try:
                results.put(msg, timeout=1)
                return
            except Full:
                if os.getppid() != parent:
                    os._exit(1)

    while True:
        try:
            task = tasks.get(timeout=1)
        except Empty:
            if os.getppid() != parent:
                os._exit(1)
            continue
        if task is None:
            return
        seq, payload = task
        try:
            send((seq, "ok", parse(payload)))
        except Exception as exc:  # the parent raises it (as it is when it can be sent, else described)
            try:
                pickle.dumps(exc)
                send((seq, "error", exc))
            except Exception:
                send((seq, "error", f"{type(exc).__name__}: {exc}"))


def ordered_map(
    parse: Callable[[P], R],
    chunks: Iterator[tuple[K, P]],
    workers: int,
    passthrough: tuple[type[Exception], ...] = (),
) -> Iterator[tuple[K, R]]:
    """(key, parse(payload)) for each (key, payload) of `chunks`, in order; the keys stay in this process.

    With `workers` <= 1 the chunks are parsed here (small dumps, tests). An exception raised
    while reading `chunks` is raised after the chunks read before it are yielded (what was
    read before damage is kept). A chunk a worker failed on raises the worker's exception
    when it is one of `passthrough` (the caller's own error types), else `WorkerError`.
    """
    if workers <= 1:
        for key, payload in chunks:
            yield key, parse(payload)
        return
    ctx = multiprocessing.get_context("fork")
    limit = IN_FLIGHT_PER_WORKER * workers
    tasks, results = ctx.Queue(maxsize=limit), ctx.Queue(maxsize=limit)
    procs = [ctx.Process(target=_serve, args=(parse, tasks, results, os.getpid()), daemon=True) for _ in range(workers)]
    for proc in procs:
        proc.start()
    keys: dict[int, K] = {}
    waiting: dict[int, tuple[Any, ...]] = {}
    sent = done = 0
    more = True
    failure: BaseException | None = None
    try:
        while more or done < sent:
            while more and sent - done < limit:
                try:
                    item = next(chunks, None)
                except Exception as exc:  # raised once the chunks read before it are through
                    failure, item = exc, None
                if item is None:
                    more = False
                    break
                keys[sent] = item[0]
                tasks.put((sent, item[1]))
                sent += 1
            if done == sent:
                break
            while done not in waiting:
                try:
                    msg = results.get(timeout=2)
                except Empty:
                    if not all(proc.is_alive() for proc in procs):
                        raise WorkerError("a parser process stopped unexpectedly") from None
                    continue
                waiting[msg[0]] = msg
            msg = waiting.pop(done)
            key = keys.pop(done)
            done += 1
            if msg[1] == "error":
                if isinstance(msg[2], passthrough):
                    raise msg[2]
                raise WorkerError(msg[2] if isinstance(msg[2], str) else f"{type(msg[2]).__name__}: {msg[2]}")
            yield key, msg[2]
        if failure is not None:
            raise failure
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join(10)
        for queue in (tasks, results):  # nobody reads them any more: do not wait to flush them at exit
            queue.cancel_join_thread()
            queue.close()
