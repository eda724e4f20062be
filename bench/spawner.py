"""Run CLI processes from a small process of their own, so that each one's peak memory is its own.

Why: Linux counts, in a child's peak resident memory (ru_maxrss), the pages of the process it was
forked from, up to its exec. Forked from the bench itself (100-300 MB of test helpers, and of stores it
seeds in-process), every case read as the bench's size. The spawner is a fresh interpreter of ~10 MB that
forks the runs: their peaks are theirs (and their waited-for children's, such as the PDF reader's).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import IO

#: The spawner's loop: one JSON request a line (argv, env, cwd, timeout, limits), one JSON answer a line.
CODE = r"""
import json, os, resource, subprocess, sys, time

def limits(cap, fsize):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        if fsize >= 0:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return apply

for line in sys.stdin:
    req = json.loads(line)
    start = time.monotonic()
    proc = subprocess.Popen(req["argv"], cwd=req["cwd"], env=req["env"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, preexec_fn=limits(req["cap"], req["fsize"]))
    os.set_blocking(proc.stderr.fileno(), False)
    err, deadline = b"", start + req["timeout"]
    while True:
        chunk = proc.stderr.read()
        if chunk:
            err += chunk[: 1 << 20]
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            err += b"\n(killed at the bench's time limit)"
            break
        time.sleep(0.02)
    err += proc.stderr.read() or b""
    answer = {"code": os.waitstatus_to_exitcode(status), "seconds": time.monotonic() - start,
              "peak": usage.ru_maxrss * 1024, "stderr": err.decode("utf-8", errors="replace")}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""


class Spawner:
    """A small process that runs commands and answers with their exit code, seconds, peak RSS and stderr."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CODE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def run(
        self, argv: list[str], env: dict[str, str], cwd: str, timeout: float, cap: int, fsize: int | None
    ) -> tuple[int, float, int, str]:
        limit = -1 if fsize is None else fsize
        request = {"argv": argv, "env": env, "cwd": cwd, "timeout": timeout, "cap": cap, "fsize": limit}
        stdin: IO[str] = self.proc.stdin  # type: ignore[assignment]
        stdout: IO[str] = self.proc.stdout  # type: ignore[assignment]
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        answer = json.loads(stdout.readline())
        return answer["code"], answer["seconds"], answer["peak"], answer["stderr"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(10)


_SPAWNER: Spawner | None = None


def spawner() -> Spawner:
    """The bench's one spawner, started on first use."""
    global _SPAWNER
    if _SPAWNER is None:
        _SPAWNER = Spawner()
    return _SPAWNER
