"""What a scan hands a worker (a `Job`) and what a worker reports about itself beside its result.

Shared by the local pool (pool.py) and the Dask cluster (cluster.py), and read by the
per-paper work (work.py): a module of its own, so that none of them imports another's
internals and the scan package has no import cycle.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass


@dataclass(frozen=True)
class Job:
    index: int
    path: str
    display: str
    #: Where the worker writes this paper's JSON report.
    report: str


class PoolError(Exception):
    """The workers cannot start (for example the store cannot be opened)."""


def own_peak_mb() -> float:
    """This process's peak resident memory since its program started (Linux VmHWM).

    Not ru_maxrss: a spawned process inherits the high-water mark of the parent it was
    forked from, so a worker started by a big parent would report the parent's peak.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError):
        pass
    return children_peak_mb(resource.RUSAGE_SELF)


def children_peak_mb(who: int = resource.RUSAGE_CHILDREN) -> float:
    """Peak resident memory of the largest ended child (the PDF reader processes), in MB.

    A forked reader counts the pages it shares with the worker, so this is an upper bound.
    """
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)  # KB on Linux
