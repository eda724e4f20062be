"""Replacing a store atomically, and healing a swap that was interrupted.

A store is two things on disk: the SQLite file and its index directory
(`<path>.index/`). A rebuilt store is made next to the target and moved into
place with renames; the two renames cannot be one atomic step, so each build
gets an id, written both into SQLite (`meta.build`) and into the index
directory (file `BUILD`). On open, an index whose id differs from the
database's is set aside and the matching one (kept as `<path>.index.old-*`
during a swap) is moved back; if none matches, the index is rebuilt from
SQLite, which is always the source of truth. A killed ingest therefore never
leaves a store that answers from a mismatched pair.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

MARKER = "BUILD"


def index_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".index")


def read_marker(index_dir: Path) -> str | None:
    try:
        return (index_dir / MARKER).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def write_marker(index_dir: Path, build: str) -> None:
    index_dir.mkdir(parents=True, exist_ok=True)
    tmp = index_dir / (MARKER + ".tmp")
    tmp.write_text(build, encoding="ascii")
    os.replace(tmp, index_dir / MARKER)


def _set_aside(db_path: Path) -> list[Path]:
    return sorted(db_path.parent.glob(db_path.name + ".index.old-*"))


def heal_index_pair(db_path: Path, build: str, reset: Callable[[], None]) -> None:
    """Make `<path>.index` the index of this database's build, restoring or resetting it."""
    current = index_path(db_path)
    marker = read_marker(current) if current.exists() else None
    if marker == build:
        for stale in _set_aside(db_path):
            shutil.rmtree(stale, ignore_errors=True)
        return
    match = next((d for d in _set_aside(db_path) if read_marker(d) == build), None)
    if current.exists() and marker is None and match is None and any(current.iterdir()):
        # An index made before build ids existed: adopt it (the change counter still heals lag).
        write_marker(current, build)
        return
    if current.exists():
        shutil.rmtree(current)
    if match is not None:
        os.replace(match, current)
    else:
        reset()
        write_marker(current, build)
    for stale in _set_aside(db_path):
        shutil.rmtree(stale, ignore_errors=True)


def replace_store(built: Path, target: Path) -> None:
    """Move a finished store (file + index) over the target; see the module docstring for crash safety."""
    new_index, old_index = index_path(built), index_path(target)
    aside = target.with_name(f"{target.name}.index.old-{os.getpid()}")
    if old_index.exists():
        os.replace(old_index, aside)
    os.replace(new_index, old_index)
    # A closed WAL database leaves no -wal/-shm; stale ones must not be replayed onto the new file.
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(target.with_name(target.name + suffix))
    os.replace(built, target)
    shutil.rmtree(aside, ignore_errors=True)


def remove_store_files(db_path: Path) -> None:
    """Delete a (partial) store: file, journals and index directory."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(db_path.with_name(db_path.name + suffix))
    shutil.rmtree(index_path(db_path), ignore_errors=True)
