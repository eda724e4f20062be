"""Bounds a forked child sets on itself before it reads untrusted input (the PDF reader, the archive
unpacker): one place, so neither reader imports the other's private helpers."""

from __future__ import annotations

import os
import resource


def limit_memory(extra: int) -> None:
    """Cap this (child) process's address space at what it has now plus `extra` bytes (never above the
    hard limit already set); a system without /proc leaves it uncapped."""
    try:
        with open("/proc/self/statm") as fh:
            current = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = current + extra if hard == resource.RLIM_INFINITY else min(current + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
